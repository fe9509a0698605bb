//===- Reduction.cpp - Reductions, softmax and losses ---------------------===//

#include "KernelSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace distir {
namespace kernels {

using namespace detail;

namespace {

enum class Reduction { Sum, Mean, Max };

Status reduce(const char *name, const HostTensor &x, const Shape &axes,
              bool keepDims, Reduction kind, HostTensor &result) {
  const int64_t rank = x.getRank();
  StatusOr<Shape> dims = shapes::normalizeAxes(axes, rank);
  if (!dims.ok())
    return kernelError(name, dims.message());
  std::vector<bool> reduced(rank, false);
  for (int64_t dim : *dims)
    reduced[dim] = true;
  Shape keptShape(rank), outShape;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    keptShape[d] = reduced[d] ? 1 : x.getDimSize(d);
    if (reduced[d])
      count *= x.getDimSize(d);
    if (!reduced[d] || keepDims)
      outShape.push_back(keptShape[d]);
  }
  const bool max = kind == Reduction::Max;
  auto combine = [max](double acc, double value) {
    return max ? std::max(acc, value) : acc + value;
  };
  HostTensor out(x.getElementType(), outShape);
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        const double identity =
            max ? -std::numeric_limits<double>::infinity() : 0.0;
        std::vector<double> sums(static_cast<size_t>(out.getNumElements()),
                                 identity);
        // Walk the input with the kept shape "broadcast" onto it: each run
        // combines either into one value (reduced inner dim) or into a row.
        forEachBroadcastRun(x.getShape(), {keptShape},
                            [&](const BroadcastRun &run) {
                              const T *values = in.data() + run.resultOffset;
                              double *target = sums.data() + run.offsets[0];
                              if (run.strides[0] == 0) {
                                double acc = identity;
                                for (int64_t i = 0; i < run.length; ++i)
                                  acc = combine(acc, values[i]);
                                *target = combine(*target, acc);
                              } else {
                                for (int64_t i = 0; i < run.length; ++i)
                                  target[i] = combine(target[i], values[i]);
                              }
                            });
        if (kind == Reduction::Mean)
          for (double &sum : sums)
            sum /= static_cast<double>(count);
        storeAs(sums.data(), out.getNumElements(), out, 0);
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

/// Gathers one softmax row (elements base + j * stride) into `row`.
/// The stable softmax normaliser of one class row of cross entropy: its
/// maximum and the sum of exp(x - maximum), in double. One definition for the
/// loss and its gradient, so both normalise identically.
template <typename View>
void sumShiftedExp(const View &x, int64_t base, const AxisSplit &split,
                   double &maxValue, double &sum) {
  maxValue = -std::numeric_limits<double>::infinity();
  for (int64_t c = 0; c < split.axis; ++c)
    maxValue =
        std::max(maxValue, static_cast<double>(x[base + c * split.inner]));
  sum = 0.0;
  for (int64_t c = 0; c < split.axis; ++c)
    sum += std::exp(static_cast<double>(x[base + c * split.inner]) - maxValue);
}

template <typename T>
void loadRow(const T *values, int64_t base, int64_t stride, int64_t length,
             T *row) {
  for (int64_t j = 0; j < length; ++j)
    row[j] = values[base + j * stride];
}

template <typename T>
void storeRow(const T *row, int64_t base, int64_t stride, int64_t length,
              T *values) {
  for (int64_t j = 0; j < length; ++j)
    values[base + j * stride] = row[j];
}

/// Row-wise softmax over [outer, axis, inner]; `valid` entries of a row are
/// its first `validLength(o)` ones (the causal mask), the rest become 0.
/// logOutput writes log-probabilities instead.
template <typename T, typename ValidLength>
void softmaxRows(const T *in, T *out, const AxisSplit &split, T scale,
                 bool logOutput, ValidLength validLength) {
  std::vector<T> row(static_cast<size_t>(split.axis));
  for (int64_t o = 0; o < split.outer; ++o) {
    const int64_t valid = validLength(o);
    for (int64_t i = 0; i < split.inner; ++i) {
      const int64_t base = o * split.axis * split.inner + i;
      loadRow(in, base, split.inner, split.axis, row.data());
      T maxValue = -std::numeric_limits<T>::infinity();
      for (int64_t j = 0; j < valid; ++j)
        maxValue = std::max(maxValue, scale * row[j]);
      double sum = 0.0;
      for (int64_t j = 0; j < valid; ++j) {
        T shifted = scale * row[j] - maxValue;
        row[j] = logOutput ? shifted : std::exp(shifted);
        sum += logOutput ? std::exp(static_cast<double>(shifted)) : row[j];
      }
      if (logOutput) {
        const T logSum = static_cast<T>(std::log(sum));
        for (int64_t j = 0; j < valid; ++j)
          row[j] -= logSum;
      } else {
        const T inverse = static_cast<T>(1.0 / sum);
        for (int64_t j = 0; j < valid; ++j)
          row[j] *= inverse;
      }
      for (int64_t j = valid; j < split.axis; ++j)
        row[j] = logOutput ? -std::numeric_limits<T>::infinity() : T(0);
      storeRow(row.data(), base, split.inner, split.axis, out);
    }
  }
}

Status softmaxLike(const char *name, const HostTensor &x, int64_t axis,
                   bool causal, double scale, bool logOutput,
                   HostTensor &result) {
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, x.getRank(), dim));
  if (causal && (x.getRank() < 2 || dim != x.getRank() - 1))
    return kernelError(name,
                       "causal masking needs rank >= 2 and the last axis");
  HostTensor out(x.getElementType(), x.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        OutputView<T> o(out);
        AxisSplit split = splitAtAxis(x.getShape(), dim);
        const int64_t queries = causal ? x.getDimSize(dim - 1) : 1;
        const int64_t keys = split.axis;
        softmaxRows<T>(in.data(), o.data(), split, static_cast<T>(scale),
                       logOutput, [&](int64_t row) {
                         // Row `row` is query row % queries: keys 0..q are
                         // visible.
                         return causal ? std::min(keys, row % queries + 1)
                                       : keys;
                       });
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

/// Shared validation of cross entropy operands; fills the per-sample labels
/// (with ignored samples set to -1) and the [outer, C, inner] split.
Status prepareCrossEntropy(const char *name, const HostTensor &logits,
                           const HostTensor &labels, const HostTensor *weights,
                           const CrossEntropyOptions &options, AxisSplit &split,
                           std::vector<int64_t> &sampleLabels) {
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(
      resolveAxis(name, options.classAxis, logits.getRank(), dim));
  Shape expected = logits.getShape();
  expected.erase(expected.begin() + dim);
  if (labels.getShape() != expected)
    return kernelError(name, "labels have shape " +
                                 formatShape(labels.getShape()) +
                                 ", expected " + formatShape(expected) +
                                 " (logits without the class axis)");
  const ElementType labelType = labels.getElementType();
  if (labelType != ElementType::I64 && labelType != ElementType::I32)
    return kernelError(name, std::string("labels must be i64 or i32, got ") +
                                 getElementTypeName(labelType));
  split = splitAtAxis(logits.getShape(), dim);
  if (weights) {
    if (weights->getElementType() != logits.getElementType() ||
        weights->getShape() != Shape{split.axis})
      return kernelError(name, "weights must be [" +
                                   std::to_string(split.axis) +
                                   "] of the logits' element type");
  }
  sampleLabels.resize(static_cast<size_t>(labels.getNumElements()));
  for (int64_t s = 0, e = labels.getNumElements(); s < e; ++s) {
    int64_t label = labelType == ElementType::I64
                        ? labels.getData<int64_t>()[s]
                        : labels.getData<int32_t>()[s];
    if (options.ignoreIndex && label == *options.ignoreIndex) {
      sampleLabels[s] = -1;
      continue;
    }
    if (label < 0 || label >= split.axis)
      return kernelError(name, "label " + std::to_string(label) +
                                   " is out of range for " +
                                   std::to_string(split.axis) + " classes");
    sampleLabels[s] = label;
  }
  return Status::success();
}

/// Sum of the weights of the non-ignored samples: the divisor of mean.
double getMeanDivisor(const std::vector<int64_t> &sampleLabels,
                      const HostTensor *weights) {
  double total = 0.0;
  for (int64_t label : sampleLabels)
    if (label >= 0)
      total += weights ? weights->getAsDouble(label) : 1.0;
  return total;
}

} // namespace

Status reduceSum(const HostTensor &x, const Shape &axes, bool keepDims,
                 HostTensor &result) {
  return reduce("reduce_sum", x, axes, keepDims, Reduction::Sum, result);
}

Status reduceMean(const HostTensor &x, const Shape &axes, bool keepDims,
                  HostTensor &result) {
  return reduce("reduce_mean", x, axes, keepDims, Reduction::Mean, result);
}

Status reduceMax(const HostTensor &x, const Shape &axes, bool keepDims,
                 HostTensor &result) {
  return reduce("reduce_max", x, axes, keepDims, Reduction::Max, result);
}

Status softmax(const HostTensor &x, int64_t axis, bool causal, double scale,
               HostTensor &result) {
  return softmaxLike("softmax", x, axis, causal, scale, /*logOutput=*/false,
                     result);
}

Status logSoftmax(const HostTensor &x, int64_t axis, HostTensor &result) {
  return softmaxLike("log_softmax", x, axis, /*causal=*/false, 1.0,
                     /*logOutput=*/true, result);
}

/// The gradients of the softmax family share one shape: per row along
/// `axis`, a sum of `term(g, y)` over the row, then `combine(g, y, sum)`
/// elementwise (g the incoming gradient, y the forward op's output).
template <typename Term, typename Combine>
static Status rowSumGradient(const char *name, const HostTensor &dy,
                             const HostTensor &y, int64_t axis, HostTensor &dx,
                             Term term, Combine combine) {
  DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(name, "dy", dy, "y", y));
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, y.getRank(), dim));
  HostTensor out(y.getElementType(), y.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, y.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> g(dy), p(y);
        OutputView<T> o(out);
        AxisSplit split = splitAtAxis(y.getShape(), dim);
        for (int64_t r = 0; r < split.outer; ++r)
          for (int64_t i = 0; i < split.inner; ++i) {
            const int64_t base = r * split.axis * split.inner + i;
            double sum = 0.0;
            for (int64_t j = 0; j < split.axis; ++j) {
              int64_t at = base + j * split.inner;
              sum +=
                  term(static_cast<double>(g[at]), static_cast<double>(p[at]));
            }
            const T sumT = static_cast<T>(sum);
            for (int64_t j = 0; j < split.axis; ++j) {
              int64_t at = base + j * split.inner;
              o[at] = combine(g[at], p[at], sumT);
            }
          }
        o.commit();
        return Status::success();
      }));
  dx = std::move(out);
  return Status::success();
}

Status softmaxGrad(const HostTensor &dy, const HostTensor &y, int64_t axis,
                   double scale, HostTensor &dx) {
  // scale * y * (dy - sum(dy * y)).
  return rowSumGradient(
      "softmax_grad", dy, y, axis, dx, [](double g, double p) { return g * p; },
      [scale](auto g, auto p, auto dot) {
        using T = decltype(g);
        return static_cast<T>(scale) * p * (g - dot);
      });
}

Status logSoftmaxGrad(const HostTensor &dy, const HostTensor &y, int64_t axis,
                      HostTensor &dx) {
  // dy - exp(y) * sum(dy), y = log_softmax(x).
  return rowSumGradient(
      "log_softmax_grad", dy, y, axis, dx, [](double g, double) { return g; },
      [](auto g, auto logp, auto total) {
        using T = decltype(g);
        return static_cast<T>(g - std::exp(logp) * total);
      });
}

Status crossEntropy(const HostTensor &logits, const HostTensor &labels,
                    const HostTensor *weights,
                    const CrossEntropyOptions &options, HostTensor &result) {
  const char *name = "cross_entropy";
  AxisSplit split;
  std::vector<int64_t> sampleLabels;
  DISTIR_RETURN_IF_ERROR(prepareCrossEntropy(name, logits, labels, weights,
                                             options, split, sampleLabels));
  const bool perSample = options.reduction == LossReduction::None;
  HostTensor out(logits.getElementType(),
                 perSample ? labels.getShape() : Shape{});
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, logits.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> x(logits);
        std::vector<double> losses(sampleLabels.size(), 0.0);
        for (int64_t o = 0; o < split.outer; ++o)
          for (int64_t i = 0; i < split.inner; ++i) {
            const int64_t sample = o * split.inner + i;
            const int64_t label = sampleLabels[sample];
            if (label < 0)
              continue;
            const int64_t base = o * split.axis * split.inner + i;
            double maxValue, sum;
            sumShiftedExp(x, base, split, maxValue, sum);
            double logProb =
                x[base + label * split.inner] - maxValue - std::log(sum);
            double weight = weights ? weights->getAsDouble(label) : 1.0;
            losses[sample] = -weight * logProb;
          }
        if (perSample) {
          storeAs(losses.data(), static_cast<int64_t>(losses.size()), out, 0);
          return Status::success();
        }
        double total = 0.0;
        for (double loss : losses)
          total += loss;
        if (options.reduction == LossReduction::Mean)
          total /= getMeanDivisor(sampleLabels, weights);
        out.setFromDouble(0, total);
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status crossEntropyGrad(const HostTensor &dloss, const HostTensor &logits,
                        const HostTensor &labels, const HostTensor *weights,
                        const CrossEntropyOptions &options,
                        HostTensor &dlogits) {
  const char *name = "cross_entropy_grad";
  AxisSplit split;
  std::vector<int64_t> sampleLabels;
  DISTIR_RETURN_IF_ERROR(prepareCrossEntropy(name, logits, labels, weights,
                                             options, split, sampleLabels));
  const bool perSample = options.reduction == LossReduction::None;
  if (dloss.getElementType() != logits.getElementType())
    return kernelError(name, "dloss and logits have different element types");
  if (perSample ? dloss.getShape() != labels.getShape()
                : dloss.getNumElements() != 1)
    return kernelError(name, "dloss has shape " +
                                 formatShape(dloss.getShape()) + ", expected " +
                                 (perSample ? formatShape(labels.getShape())
                                            : std::string("a scalar")));
  HostTensor out(logits.getElementType(), logits.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, logits.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> x(logits);
        OutputView<T> o(out);
        double upstream = perSample ? 0.0 : dloss.getAsDouble(0);
        if (options.reduction == LossReduction::Mean)
          upstream /= getMeanDivisor(sampleLabels, weights);
        for (int64_t r = 0; r < split.outer; ++r)
          for (int64_t i = 0; i < split.inner; ++i) {
            const int64_t sample = r * split.inner + i;
            const int64_t label = sampleLabels[sample];
            const int64_t base = r * split.axis * split.inner + i;
            if (label < 0)
              continue; // Ignored: gradient stays 0.
            double coefficient =
                (perSample ? dloss.getAsDouble(sample) : upstream) *
                (weights ? weights->getAsDouble(label) : 1.0);
            double maxValue, sum;
            sumShiftedExp(x, base, split, maxValue, sum);
            for (int64_t c = 0; c < split.axis; ++c) {
              const int64_t at = base + c * split.inner;
              double probability =
                  std::exp(static_cast<double>(x[at]) - maxValue) / sum;
              o[at] = static_cast<T>(coefficient *
                                     (probability - (c == label ? 1.0 : 0.0)));
            }
          }
        o.commit();
        return Status::success();
      }));
  dlogits = std::move(out);
  return Status::success();
}

Status mseLoss(const HostTensor &pred, const HostTensor &target,
               HostTensor &result) {
  const char *name = "mse_loss";
  DISTIR_RETURN_IF_ERROR(
      checkSameTypeAndShape(name, "pred", pred, "target", target));
  HostTensor out(pred.getElementType(), {});
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, pred.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> p(pred), t(target);
        double total = 0.0;
        for (int64_t i = 0, e = pred.getNumElements(); i < e; ++i) {
          T diff = p[i] - t[i];
          total += static_cast<double>(diff) * diff;
        }
        out.setFromDouble(0,
                          total / static_cast<double>(pred.getNumElements()));
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status mseLossGrad(const HostTensor &dloss, const HostTensor &pred,
                   const HostTensor &target, HostTensor &dpred) {
  const char *name = "mse_loss_grad";
  DISTIR_RETURN_IF_ERROR(
      checkSameTypeAndShape(name, "pred", pred, "target", target));
  if (dloss.getNumElements() != 1)
    return kernelError(name, "dloss must be a scalar, got shape " +
                                 formatShape(dloss.getShape()));
  HostTensor out(pred.getElementType(), pred.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, pred.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> p(pred), t(target);
        OutputView<T> o(out);
        const T factor =
            static_cast<T>(2.0 * dloss.getAsDouble(0) /
                           static_cast<double>(pred.getNumElements()));
        for (int64_t i = 0, e = pred.getNumElements(); i < e; ++i)
          o[i] = factor * (p[i] - t[i]);
        o.commit();
        return Status::success();
      }));
  dpred = std::move(out);
  return Status::success();
}

} // namespace kernels
} // namespace distir
