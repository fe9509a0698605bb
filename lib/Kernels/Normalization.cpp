//===- Normalization.cpp - layer_norm and batch_norm ----------------------===//

#include "KernelSupport.h"

#include <cmath>

namespace distir {
namespace kernels {

using namespace detail;

namespace {

/// Checks a per-feature operand: same element type as x and the given shape.
Status checkParameter(const char *kernel, const char *what,
                      const HostTensor &parameter, const HostTensor &x,
                      const Shape &shape) {
  if (parameter.getElementType() != x.getElementType())
    return kernelError(
        kernel, std::string(what) + " has element type " +
                    getElementTypeName(parameter.getElementType()) +
                    ", expected " + getElementTypeName(x.getElementType()));
  if (parameter.getShape() != shape)
    return kernelError(kernel, std::string(what) + " has shape " +
                                   formatShape(parameter.getShape()) +
                                   ", expected " + formatShape(shape));
  return Status::success();
}

/// The normalized trailing shape x.shape[axis:] and the [rows, features] view.
Status getLayerNormView(const char *kernel, const HostTensor &x, int64_t axis,
                        Shape &normalizedShape, int64_t &rows,
                        int64_t &features) {
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(kernel, axis, x.getRank(), dim));
  normalizedShape.assign(x.getShape().begin() + dim, x.getShape().end());
  features = getNumElements(normalizedShape);
  rows = features == 0 ? 0 : x.getNumElements() / features;
  return Status::success();
}

/// Mean and 1/sqrt(biased variance + epsilon) of one row, in f64.
template <typename T>
void getRowStatistics(const T *row, int64_t features, double epsilon,
                      double &mean, double &inverseStd) {
  double sum = 0.0;
  for (int64_t j = 0; j < features; ++j)
    sum += row[j];
  mean = sum / static_cast<double>(features);
  double squares = 0.0;
  for (int64_t j = 0; j < features; ++j) {
    double centered = row[j] - mean;
    squares += centered * centered;
  }
  inverseStd =
      1.0 / std::sqrt(squares / static_cast<double>(features) + epsilon);
}

Status checkBatchNormOperands(
    const char *kernel, const HostTensor &x,
    const std::vector<std::pair<const char *, const HostTensor *>>
        &perChannel) {
  if (x.getRank() < 2)
    return kernelError(kernel, "x must be [N, C, ...], got shape " +
                                   formatShape(x.getShape()));
  for (const auto &[what, tensor] : perChannel)
    DISTIR_RETURN_IF_ERROR(
        checkParameter(kernel, what, *tensor, x, {x.getDimSize(1)}));
  return Status::success();
}

} // namespace

Status layerNorm(const HostTensor &x, const HostTensor &scale,
                 const HostTensor *bias, int64_t axis, double epsilon,
                 HostTensor &result) {
  const char *name = "layer_norm";
  Shape normalizedShape;
  int64_t rows, features;
  DISTIR_RETURN_IF_ERROR(
      getLayerNormView(name, x, axis, normalizedShape, rows, features));
  DISTIR_RETURN_IF_ERROR(
      checkParameter(name, "scale", scale, x, normalizedShape));
  if (bias)
    DISTIR_RETURN_IF_ERROR(
        checkParameter(name, "bias", *bias, x, normalizedShape));
  HostTensor out(x.getElementType(), x.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x), gamma(scale);
        std::vector<T> zeros;
        if (!bias)
          zeros.assign(static_cast<size_t>(features), T(0));
        std::optional<InputView<T>> beta;
        if (bias)
          beta.emplace(*bias);
        const T *shift = bias ? beta->data() : zeros.data();
        OutputView<T> o(out);
        for (int64_t r = 0; r < rows; ++r) {
          const T *row = in.data() + r * features;
          T *target = o.data() + r * features;
          double mean, inverseStd;
          getRowStatistics(row, features, epsilon, mean, inverseStd);
          const T meanT = static_cast<T>(mean),
                  inverseStdT = static_cast<T>(inverseStd);
          for (int64_t j = 0; j < features; ++j)
            target[j] = (row[j] - meanT) * inverseStdT * gamma[j] + shift[j];
        }
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status layerNormGrad(const HostTensor &dy, const HostTensor &x,
                     const HostTensor &scale, int64_t axis, double epsilon,
                     HostTensor &dx, HostTensor &dscale, HostTensor &dbias) {
  const char *name = "layer_norm_grad";
  DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(name, "dy", dy, "x", x));
  Shape normalizedShape;
  int64_t rows, features;
  DISTIR_RETURN_IF_ERROR(
      getLayerNormView(name, x, axis, normalizedShape, rows, features));
  DISTIR_RETURN_IF_ERROR(
      checkParameter(name, "scale", scale, x, normalizedShape));
  HostTensor dxOut(x.getElementType(), x.getShape());
  HostTensor dscaleOut(x.getElementType(), normalizedShape);
  HostTensor dbiasOut(x.getElementType(), normalizedShape);
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x), grad(dy), gamma(scale);
        OutputView<T> dxView(dxOut);
        std::vector<double> scaleSums(static_cast<size_t>(features), 0.0);
        std::vector<double> biasSums(static_cast<size_t>(features), 0.0);
        std::vector<double> normalized(static_cast<size_t>(features));
        for (int64_t r = 0; r < rows; ++r) {
          const T *row = in.data() + r * features;
          const T *g = grad.data() + r * features;
          double mean, inverseStd;
          getRowStatistics(row, features, epsilon, mean, inverseStd);
          // dx = istd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)), dxhat = dy
          // gamma.
          double meanGrad = 0.0, meanGradDotNormalized = 0.0;
          for (int64_t j = 0; j < features; ++j) {
            normalized[j] = (row[j] - mean) * inverseStd;
            double gradNormalized = static_cast<double>(g[j]) * gamma[j];
            meanGrad += gradNormalized;
            meanGradDotNormalized += gradNormalized * normalized[j];
            scaleSums[j] += static_cast<double>(g[j]) * normalized[j];
            biasSums[j] += g[j];
          }
          meanGrad /= static_cast<double>(features);
          meanGradDotNormalized /= static_cast<double>(features);
          T *target = dxView.data() + r * features;
          for (int64_t j = 0; j < features; ++j)
            target[j] = static_cast<T>(
                inverseStd * (static_cast<double>(g[j]) * gamma[j] - meanGrad -
                              normalized[j] * meanGradDotNormalized));
        }
        dxView.commit();
        storeAs(scaleSums.data(), features, dscaleOut, 0);
        storeAs(biasSums.data(), features, dbiasOut, 0);
        return Status::success();
      }));
  dx = std::move(dxOut);
  dscale = std::move(dscaleOut);
  dbias = std::move(dbiasOut);
  return Status::success();
}

Status batchNorm(const HostTensor &x, const HostTensor &scale,
                 const HostTensor &bias, const HostTensor &mean,
                 const HostTensor &variance, double epsilon,
                 HostTensor &result) {
  const char *name = "batch_norm";
  DISTIR_RETURN_IF_ERROR(checkBatchNormOperands(name, x,
                                                {{"scale", &scale},
                                                 {"bias", &bias},
                                                 {"mean", &mean},
                                                 {"variance", &variance}}));
  HostTensor out(x.getElementType(), x.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        OutputView<T> o(out);
        AxisSplit split = splitAtAxis(x.getShape(), 1);
        for (int64_t c = 0; c < split.axis; ++c) {
          // y = x * factor + offset per channel.
          double factor = scale.getAsDouble(c) /
                          std::sqrt(variance.getAsDouble(c) + epsilon);
          const T factorT = static_cast<T>(factor);
          const T offsetT = static_cast<T>(bias.getAsDouble(c) -
                                           mean.getAsDouble(c) * factor);
          for (int64_t n = 0; n < split.outer; ++n) {
            const int64_t base = (n * split.axis + c) * split.inner;
            for (int64_t s = 0; s < split.inner; ++s)
              o[base + s] = in[base + s] * factorT + offsetT;
          }
        }
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status batchNormGrad(const HostTensor &dy, const HostTensor &x,
                     const HostTensor &scale, const HostTensor &mean,
                     const HostTensor &variance, double epsilon, HostTensor &dx,
                     HostTensor &dscale, HostTensor &dbias) {
  const char *name = "batch_norm_grad";
  DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(name, "dy", dy, "x", x));
  DISTIR_RETURN_IF_ERROR(checkBatchNormOperands(
      name, x, {{"scale", &scale}, {"mean", &mean}, {"variance", &variance}}));
  const int64_t channels = x.getDimSize(1);
  HostTensor dxOut(x.getElementType(), x.getShape());
  HostTensor dscaleOut(x.getElementType(), {channels});
  HostTensor dbiasOut(x.getElementType(), {channels});
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x), grad(dy);
        OutputView<T> dxView(dxOut);
        AxisSplit split = splitAtAxis(x.getShape(), 1);
        std::vector<double> scaleSums(static_cast<size_t>(channels), 0.0);
        std::vector<double> biasSums(static_cast<size_t>(channels), 0.0);
        for (int64_t c = 0; c < channels; ++c) {
          const double inverseStd =
              1.0 / std::sqrt(variance.getAsDouble(c) + epsilon);
          const double channelMean = mean.getAsDouble(c);
          const T factor = static_cast<T>(scale.getAsDouble(c) * inverseStd);
          for (int64_t n = 0; n < split.outer; ++n) {
            const int64_t base = (n * split.axis + c) * split.inner;
            for (int64_t s = 0; s < split.inner; ++s) {
              const double g = grad[base + s];
              dxView[base + s] = grad[base + s] * factor;
              scaleSums[c] += g * (in[base + s] - channelMean) * inverseStd;
              biasSums[c] += g;
            }
          }
        }
        dxView.commit();
        storeAs(scaleSums.data(), channels, dscaleOut, 0);
        storeAs(biasSums.data(), channels, dbiasOut, 0);
        return Status::success();
      }));
  dx = std::move(dxOut);
  dscale = std::move(dscaleOut);
  dbias = std::move(dbiasOut);
  return Status::success();
}

} // namespace kernels
} // namespace distir
