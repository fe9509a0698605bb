//===- Conv.cpp - Convolution and pooling (ONNX semantics) ----------------===//
//
// Every window op shares one geometry: a table mapping (kernel position,
// output position) to the input's flat spatial offset, or to a marker for
// padding. Convolution is im2col through that table followed by a CBLAS gemm
// per (image, group); its gradients are the transposed gemms and col2im.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace distir {
namespace kernels {

using namespace detail;

namespace {

/// Table entries that are not input offsets.
constexpr int64_t kInPadding = -1;     // Inside the declared padding.
constexpr int64_t kBeyondPadding = -2; // Past the end padding (ceil mode).

struct WindowGeometry {
  Shape inputSpatial;
  Shape outputSpatial;
  int64_t kernelSize = 1;     // Positions per window (K).
  int64_t inputSize = 1;      // Input spatial elements.
  int64_t outputSize = 1;     // Output spatial elements (P).
  std::vector<int64_t> table; // [K][P]
};

Status fillDefault(const char *kernel, const char *what, const Shape &given,
                   size_t rank, int64_t defaultValue, int64_t minimum,
                   Shape &values) {
  if (given.empty()) {
    values.assign(rank, defaultValue);
    return Status::success();
  }
  if (given.size() != rank)
    return kernelError(kernel, std::string(what) + " has " +
                                   std::to_string(given.size()) +
                                   " entries, expected one per spatial dim (" +
                                   std::to_string(rank) + ")");
  for (int64_t value : given)
    if (value < minimum)
      return kernelError(kernel, std::string(what) +
                                     " must be >= " + std::to_string(minimum) +
                                     ", got " + formatShape(given));
  values = given;
  return Status::success();
}

Status buildGeometry(const char *kernel, const Shape &inputShape,
                     const Shape &kernelShape, const Shape &givenStrides,
                     const Shape &givenDilations, const Shape &givenPadsBegin,
                     const Shape &givenPadsEnd, bool ceilMode,
                     WindowGeometry &geometry) {
  if (inputShape.size() < 3)
    return kernelError(kernel, "input must be [N, C, D1, ...], got " +
                                   formatShape(inputShape));
  const size_t rank = inputShape.size() - 2;
  if (kernelShape.size() != rank)
    return kernelError(kernel, "kernel shape " + formatShape(kernelShape) +
                                   " does not match " + std::to_string(rank) +
                                   " spatial dims");
  for (int64_t size : kernelShape)
    if (size < 1)
      return kernelError(kernel, "kernel dims must be >= 1, got " +
                                     formatShape(kernelShape));
  Shape strides, dilations, padsBegin, padsEnd;
  DISTIR_RETURN_IF_ERROR(
      fillDefault(kernel, "strides", givenStrides, rank, 1, 1, strides));
  DISTIR_RETURN_IF_ERROR(
      fillDefault(kernel, "dilations", givenDilations, rank, 1, 1, dilations));
  DISTIR_RETURN_IF_ERROR(
      fillDefault(kernel, "pads", givenPadsBegin, rank, 0, 0, padsBegin));
  DISTIR_RETURN_IF_ERROR(
      fillDefault(kernel, "pads", givenPadsEnd, rank, 0, 0, padsEnd));

  geometry = WindowGeometry();
  geometry.inputSpatial.assign(inputShape.begin() + 2, inputShape.end());
  for (size_t d = 0; d < rank; ++d) {
    const int64_t extent = geometry.inputSpatial[d] + padsBegin[d] + padsEnd[d];
    const int64_t window = dilations[d] * (kernelShape[d] - 1) + 1;
    if (window > extent)
      return kernelError(kernel, "window of " + std::to_string(window) +
                                     " exceeds the padded input (" +
                                     std::to_string(extent) +
                                     ") in spatial dim " + std::to_string(d));
    int64_t span = extent - window;
    int64_t size =
        (ceilMode ? (span + strides[d] - 1) / strides[d] : span / strides[d]) +
        1;
    // PyTorch's rule: the last window must start inside the input or the
    // begin padding.
    if (ceilMode &&
        (size - 1) * strides[d] >= geometry.inputSpatial[d] + padsBegin[d])
      --size;
    geometry.outputSpatial.push_back(size);
    geometry.kernelSize *= kernelShape[d];
    geometry.inputSize *= geometry.inputSpatial[d];
    geometry.outputSize *= size;
  }

  const int64_t numPositions = geometry.kernelSize,
                numOutputs = geometry.outputSize;
  geometry.table.assign(static_cast<size_t>(numPositions * numOutputs), 0);
  Shape inputStrides = getStrides(geometry.inputSpatial);
  Shape kernelIndex(rank, 0);
  for (int64_t kp = 0; kp < numPositions; ++kp) {
    Shape outputIndex(rank, 0);
    for (int64_t p = 0; p < numOutputs; ++p) {
      int64_t offset = 0;
      bool inside = true, beyond = false;
      for (size_t d = 0; d < rank; ++d) {
        int64_t coord = outputIndex[d] * strides[d] - padsBegin[d] +
                        kernelIndex[d] * dilations[d];
        if (coord >= 0 && coord < geometry.inputSpatial[d]) {
          offset += coord * inputStrides[d];
          continue;
        }
        inside = false;
        beyond |= coord >= geometry.inputSpatial[d] + padsEnd[d];
      }
      if (!inside)
        offset = beyond ? kBeyondPadding : kInPadding;
      geometry.table[kp * numOutputs + p] = offset;
      for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
        if (++outputIndex[d] < geometry.outputSpatial[d])
          break;
        outputIndex[d] = 0;
      }
    }
    for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
      if (++kernelIndex[d] < kernelShape[d])
        break;
      kernelIndex[d] = 0;
    }
  }
  return Status::success();
}

Status buildConvGeometry(const char *kernel, const Shape &inputShape,
                         const Shape &filterShape, const ConvOptions &options,
                         WindowGeometry &geometry) {
  if (filterShape.size() != inputShape.size())
    return kernelError(kernel, "filter " + formatShape(filterShape) +
                                   " and input " + formatShape(inputShape) +
                                   " have different ranks");
  const int64_t group = options.group;
  if (group < 1 || inputShape.size() < 3 || inputShape[1] % group != 0 ||
      filterShape[0] % group != 0)
    return kernelError(kernel,
                       "group " + std::to_string(group) +
                           " must divide the input channels and filters");
  if (filterShape[1] * group != inputShape[1])
    return kernelError(kernel, "filter " + formatShape(filterShape) +
                                   " expects " +
                                   std::to_string(filterShape[1] * group) +
                                   " input channels, input has " +
                                   std::to_string(inputShape[1]));
  Shape kernelShape(filterShape.begin() + 2, filterShape.end());
  return buildGeometry(kernel, inputShape, kernelShape, options.strides,
                       options.dilations, options.padsBegin, options.padsEnd,
                       /*ceilMode=*/false, geometry);
}

/// col[c * K + kp][p] = image[c][table[kp][p]] (0 in the padding).
template <typename T>
void im2col(const T *image, int64_t channels, const WindowGeometry &geometry,
            T *col) {
  const int64_t K = geometry.kernelSize, P = geometry.outputSize;
  for (int64_t c = 0; c < channels; ++c) {
    const T *plane = image + c * geometry.inputSize;
    for (int64_t kp = 0; kp < K; ++kp) {
      const int64_t *offsets = geometry.table.data() + kp * P;
      T *row = col + (c * K + kp) * P;
      for (int64_t p = 0; p < P; ++p)
        row[p] = offsets[p] >= 0 ? plane[offsets[p]] : T(0);
    }
  }
}

/// Inverse of im2col, adding into image.
template <typename T>
void col2im(const T *col, int64_t channels, const WindowGeometry &geometry,
            T *image) {
  const int64_t K = geometry.kernelSize, P = geometry.outputSize;
  for (int64_t c = 0; c < channels; ++c) {
    T *plane = image + c * geometry.inputSize;
    for (int64_t kp = 0; kp < K; ++kp) {
      const int64_t *offsets = geometry.table.data() + kp * P;
      const T *row = col + (c * K + kp) * P;
      for (int64_t p = 0; p < P; ++p)
        if (offsets[p] >= 0)
          plane[offsets[p]] += row[p];
    }
  }
}

Shape getWindowOutputShape(const Shape &inputShape, int64_t channels,
                           const WindowGeometry &geometry) {
  Shape shape{inputShape[0], channels};
  shape.insert(shape.end(), geometry.outputSpatial.begin(),
               geometry.outputSpatial.end());
  return shape;
}

Status checkGemmSizes(const char *kernel, int64_t rows, int64_t columns) {
  if (rows > std::numeric_limits<int>::max() ||
      columns > std::numeric_limits<int>::max())
    return kernelError(kernel, "im2col matrix exceeds the BLAS int range");
  return Status::success();
}

Status buildPoolGeometry(const char *kernel, const HostTensor &x,
                         const PoolOptions &options, WindowGeometry &geometry) {
  return buildGeometry(kernel, x.getShape(), options.kernelShape,
                       options.strides, options.dilations, options.padsBegin,
                       options.padsEnd, options.ceilMode, geometry);
}

/// Divisor of each average-pool window.
std::vector<double> getAverageDivisors(const WindowGeometry &geometry,
                                       bool countIncludePad) {
  std::vector<double> divisors(static_cast<size_t>(geometry.outputSize), 0.0);
  for (int64_t kp = 0; kp < geometry.kernelSize; ++kp)
    for (int64_t p = 0; p < geometry.outputSize; ++p) {
      int64_t offset = geometry.table[kp * geometry.outputSize + p];
      if (offset >= 0 || (countIncludePad && offset == kInPadding))
        divisors[p] += 1.0;
    }
  return divisors;
}

/// Index (in the window table) of the first maximum of each window, or -1
/// when the window holds only padding.
template <typename T>
void findWindowMaxima(const T *plane, const WindowGeometry &geometry,
                      std::vector<int64_t> &argmax) {
  const int64_t P = geometry.outputSize;
  argmax.assign(static_cast<size_t>(P), -1);
  for (int64_t kp = 0; kp < geometry.kernelSize; ++kp) {
    const int64_t *offsets = geometry.table.data() + kp * P;
    for (int64_t p = 0; p < P; ++p) {
      int64_t offset = offsets[p];
      if (offset < 0)
        continue;
      // NaN wins, like PyTorch's max_pool.
      if (argmax[p] < 0 || plane[offset] > plane[argmax[p]] ||
          (std::isnan(plane[offset]) && !std::isnan(plane[argmax[p]])))
        argmax[p] = offset;
    }
  }
}

} // namespace

Status conv(const HostTensor &x, const HostTensor &w, const HostTensor *bias,
            const ConvOptions &options, HostTensor &result) {
  const char *name = "conv";
  if (x.getElementType() != w.getElementType())
    return kernelError(name, "input and filter have different element types");
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(
      buildConvGeometry(name, x.getShape(), w.getShape(), options, geometry));
  const int64_t filters = w.getDimSize(0), group = options.group;
  if (bias && (bias->getElementType() != x.getElementType() ||
               bias->getShape() != Shape{filters}))
    return kernelError(name, "bias must be [" + std::to_string(filters) +
                                 "] of the input's element type");
  const int64_t groupChannels = w.getDimSize(1), groupFilters = filters / group;
  const int64_t rows = groupChannels * geometry.kernelSize,
                P = geometry.outputSize;
  DISTIR_RETURN_IF_ERROR(checkGemmSizes(name, rows, P));
  HostTensor out(x.getElementType(),
                 getWindowOutputShape(x.getShape(), filters, geometry));
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x), filter(w);
        OutputView<T> o(out);
        std::vector<T> col(static_cast<size_t>(rows * P));
        for (int64_t n = 0; n < x.getDimSize(0); ++n)
          for (int64_t g = 0; g < group; ++g) {
            im2col(in.data() + (n * x.getDimSize(1) + g * groupChannels) *
                                   geometry.inputSize,
                   groupChannels, geometry, col.data());
            gemm(false, false, groupFilters, P, rows,
                 filter.data() + g * groupFilters * rows, col.data(), T(0),
                 o.data() + (n * filters + g * groupFilters) * P);
          }
        if (bias) {
          InputView<T> b(*bias);
          for (int64_t n = 0; n < x.getDimSize(0); ++n)
            for (int64_t m = 0; m < filters; ++m) {
              T *plane = o.data() + (n * filters + m) * P;
              for (int64_t p = 0; p < P; ++p)
                plane[p] += b[m];
            }
        }
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status convGradInput(const HostTensor &dy, const HostTensor &w,
                     const ConvOptions &options, const Shape &inputShape,
                     HostTensor &dx) {
  const char *name = "conv_grad_input";
  if (dy.getElementType() != w.getElementType())
    return kernelError(name, "dy and filter have different element types");
  DISTIR_RETURN_IF_ERROR(checkShape(inputShape, dy.getElementType()));
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(
      buildConvGeometry(name, inputShape, w.getShape(), options, geometry));
  const int64_t filters = w.getDimSize(0), group = options.group;
  const Shape expected = getWindowOutputShape(inputShape, filters, geometry);
  DISTIR_RETURN_IF_ERROR(checkGradientShape(name, dy, expected, "convolution"));
  const int64_t groupChannels = w.getDimSize(1), groupFilters = filters / group;
  const int64_t rows = groupChannels * geometry.kernelSize,
                P = geometry.outputSize;
  DISTIR_RETURN_IF_ERROR(checkGemmSizes(name, rows, P));
  HostTensor out(dy.getElementType(), inputShape);
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, dy.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> grad(dy), filter(w);
        OutputView<T> o(out);
        std::vector<T> col(static_cast<size_t>(rows * P));
        for (int64_t n = 0; n < inputShape[0]; ++n)
          for (int64_t g = 0; g < group; ++g) {
            // col = W_g^T dy_g, then scatter back onto the image.
            gemm(true, false, rows, P, groupFilters,
                 filter.data() + g * groupFilters * rows,
                 grad.data() + (n * filters + g * groupFilters) * P, T(0),
                 col.data());
            col2im(col.data(), groupChannels, geometry,
                   o.data() + (n * inputShape[1] + g * groupChannels) *
                                  geometry.inputSize);
          }
        o.commit();
        return Status::success();
      }));
  dx = std::move(out);
  return Status::success();
}

Status convGradFilter(const HostTensor &dy, const HostTensor &x,
                      const ConvOptions &options, const Shape &filterShape,
                      HostTensor &dw) {
  const char *name = "conv_grad_filter";
  if (dy.getElementType() != x.getElementType())
    return kernelError(name, "dy and input have different element types");
  DISTIR_RETURN_IF_ERROR(checkShape(filterShape, x.getElementType()));
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(
      buildConvGeometry(name, x.getShape(), filterShape, options, geometry));
  const int64_t filters = filterShape[0], group = options.group;
  const Shape expected = getWindowOutputShape(x.getShape(), filters, geometry);
  DISTIR_RETURN_IF_ERROR(checkGradientShape(name, dy, expected, "convolution"));
  const int64_t groupChannels = filterShape[1], groupFilters = filters / group;
  const int64_t rows = groupChannels * geometry.kernelSize,
                P = geometry.outputSize;
  DISTIR_RETURN_IF_ERROR(checkGemmSizes(name, rows, P));
  HostTensor out(x.getElementType(), filterShape);
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> grad(dy), in(x);
        OutputView<T> o(out);
        std::vector<T> col(static_cast<size_t>(rows * P));
        for (int64_t n = 0; n < x.getDimSize(0); ++n)
          for (int64_t g = 0; g < group; ++g) {
            im2col(in.data() + (n * x.getDimSize(1) + g * groupChannels) *
                                   geometry.inputSize,
                   groupChannels, geometry, col.data());
            // dW_g += dy_g col^T, accumulated over the batch by beta = 1.
            gemm(false, true, groupFilters, rows, P,
                 grad.data() + (n * filters + g * groupFilters) * P, col.data(),
                 T(1), o.data() + g * groupFilters * rows);
          }
        o.commit();
        return Status::success();
      }));
  dw = std::move(out);
  return Status::success();
}

Status maxPool(const HostTensor &x, const PoolOptions &options,
               HostTensor &result) {
  const char *name = "max_pool";
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(buildPoolGeometry(name, x, options, geometry));
  HostTensor out(x.getElementType(),
                 getWindowOutputShape(x.getShape(), x.getDimSize(1), geometry));
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        OutputView<T> o(out);
        std::vector<int64_t> argmax;
        const int64_t planes = x.getDimSize(0) * x.getDimSize(1);
        for (int64_t plane = 0; plane < planes; ++plane) {
          const T *source = in.data() + plane * geometry.inputSize;
          findWindowMaxima(source, geometry, argmax);
          T *target = o.data() + plane * geometry.outputSize;
          for (int64_t p = 0; p < geometry.outputSize; ++p)
            target[p] = argmax[p] >= 0 ? source[argmax[p]]
                                       : -std::numeric_limits<T>::infinity();
        }
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status maxPoolGrad(const HostTensor &dy, const HostTensor &x,
                   const PoolOptions &options, HostTensor &dx) {
  const char *name = "max_pool_grad";
  if (dy.getElementType() != x.getElementType())
    return kernelError(name, "dy and x have different element types");
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(buildPoolGeometry(name, x, options, geometry));
  const Shape expected =
      getWindowOutputShape(x.getShape(), x.getDimSize(1), geometry);
  DISTIR_RETURN_IF_ERROR(checkGradientShape(name, dy, expected, "pooling"));
  HostTensor out(x.getElementType(), x.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x), grad(dy);
        OutputView<T> o(out);
        std::vector<int64_t> argmax;
        const int64_t planes = x.getDimSize(0) * x.getDimSize(1);
        for (int64_t plane = 0; plane < planes; ++plane) {
          findWindowMaxima(in.data() + plane * geometry.inputSize, geometry,
                           argmax);
          T *target = o.data() + plane * geometry.inputSize;
          const T *g = grad.data() + plane * geometry.outputSize;
          for (int64_t p = 0; p < geometry.outputSize; ++p)
            if (argmax[p] >= 0)
              target[argmax[p]] += g[p];
        }
        o.commit();
        return Status::success();
      }));
  dx = std::move(out);
  return Status::success();
}

Status avgPool(const HostTensor &x, const PoolOptions &options,
               HostTensor &result) {
  const char *name = "avg_pool";
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(buildPoolGeometry(name, x, options, geometry));
  HostTensor out(x.getElementType(),
                 getWindowOutputShape(x.getShape(), x.getDimSize(1), geometry));
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        OutputView<T> o(out);
        std::vector<double> divisors =
            getAverageDivisors(geometry, options.countIncludePad);
        std::vector<double> sums(static_cast<size_t>(geometry.outputSize));
        const int64_t planes = x.getDimSize(0) * x.getDimSize(1);
        for (int64_t plane = 0; plane < planes; ++plane) {
          const T *source = in.data() + plane * geometry.inputSize;
          std::fill(sums.begin(), sums.end(), 0.0);
          for (int64_t kp = 0; kp < geometry.kernelSize; ++kp) {
            const int64_t *offsets =
                geometry.table.data() + kp * geometry.outputSize;
            for (int64_t p = 0; p < geometry.outputSize; ++p)
              if (offsets[p] >= 0)
                sums[p] += source[offsets[p]];
          }
          T *target = o.data() + plane * geometry.outputSize;
          for (int64_t p = 0; p < geometry.outputSize; ++p)
            target[p] = static_cast<T>(sums[p] / divisors[p]);
        }
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status avgPoolGrad(const HostTensor &dy, const PoolOptions &options,
                   const Shape &inputShape, HostTensor &dx) {
  const char *name = "avg_pool_grad";
  DISTIR_RETURN_IF_ERROR(checkShape(inputShape, dy.getElementType()));
  WindowGeometry geometry;
  DISTIR_RETURN_IF_ERROR(buildGeometry(
      name, inputShape, options.kernelShape, options.strides, options.dilations,
      options.padsBegin, options.padsEnd, options.ceilMode, geometry));
  const Shape expected =
      getWindowOutputShape(inputShape, inputShape[1], geometry);
  DISTIR_RETURN_IF_ERROR(checkGradientShape(name, dy, expected, "pooling"));
  HostTensor out(dy.getElementType(), inputShape);
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, dy.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> grad(dy);
        OutputView<T> o(out);
        std::vector<double> divisors =
            getAverageDivisors(geometry, options.countIncludePad);
        const int64_t planes = inputShape[0] * inputShape[1];
        for (int64_t plane = 0; plane < planes; ++plane) {
          const T *g = grad.data() + plane * geometry.outputSize;
          T *target = o.data() + plane * geometry.inputSize;
          for (int64_t kp = 0; kp < geometry.kernelSize; ++kp) {
            const int64_t *offsets =
                geometry.table.data() + kp * geometry.outputSize;
            for (int64_t p = 0; p < geometry.outputSize; ++p)
              if (offsets[p] >= 0)
                target[offsets[p]] += static_cast<T>(g[p] / divisors[p]);
          }
        }
        o.commit();
        return Status::success();
      }));
  dx = std::move(out);
  return Status::success();
}

Status globalAvgPool(const HostTensor &x, HostTensor &result) {
  if (x.getRank() < 3)
    return kernelError("global_avg_pool",
                       "input must be [N, C, D1, ...], got " +
                           formatShape(x.getShape()));
  Shape spatialAxes;
  for (int64_t d = 2; d < x.getRank(); ++d)
    spatialAxes.push_back(d);
  return reduceMean(x, spatialAxes, /*keepDims=*/true, result);
}

} // namespace kernels
} // namespace distir
