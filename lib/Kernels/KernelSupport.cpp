//===- KernelSupport.cpp - Shared machinery of the kernels ----------------===//

#include "KernelSupport.h"

#include <cmath>
#include <limits>

namespace distir {
namespace kernels {
namespace detail {

template <typename T>
void loadAs(const HostTensor &tensor, int64_t offset, int64_t n, T *out) {
  switch (tensor.getElementType()) {
  case ElementType::F64: {
    const double *in = tensor.getData<double>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(in[i]);
    return;
  }
  case ElementType::F32: {
    const float *in = tensor.getData<float>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(in[i]);
    return;
  }
  case ElementType::F16: {
    const uint16_t *in = tensor.getData<uint16_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(halfToFloat(in[i]));
    return;
  }
  case ElementType::BF16: {
    const uint16_t *in = tensor.getData<uint16_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(bfloat16ToFloat(in[i]));
    return;
  }
  case ElementType::I64: {
    const int64_t *in = tensor.getData<int64_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(in[i]);
    return;
  }
  case ElementType::I32: {
    const int32_t *in = tensor.getData<int32_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(in[i]);
    return;
  }
  case ElementType::I1: {
    const uint8_t *in = tensor.getData<uint8_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(in[i]);
    return;
  }
  }
}

template <typename T>
void storeAs(const T *values, int64_t n, HostTensor &tensor, int64_t offset) {
  switch (tensor.getElementType()) {
  case ElementType::F64: {
    double *out = tensor.getData<double>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<double>(values[i]);
    return;
  }
  case ElementType::F32: {
    float *out = tensor.getData<float>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<float>(values[i]);
    return;
  }
  case ElementType::F16: {
    uint16_t *out = tensor.getData<uint16_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = floatToHalf(static_cast<float>(values[i]));
    return;
  }
  case ElementType::BF16: {
    uint16_t *out = tensor.getData<uint16_t>() + offset;
    for (int64_t i = 0; i < n; ++i)
      out[i] = floatToBfloat16(static_cast<float>(values[i]));
    return;
  }
  default:
    // Integer results go through the saturating, truncating conversion.
    for (int64_t i = 0; i < n; ++i)
      tensor.setFromDouble(offset + i, static_cast<double>(values[i]));
    return;
  }
}

template void loadAs<float>(const HostTensor &, int64_t, int64_t, float *);
template void loadAs<double>(const HostTensor &, int64_t, int64_t, double *);
template void storeAs<float>(const float *, int64_t, HostTensor &, int64_t);
template void storeAs<double>(const double *, int64_t, HostTensor &, int64_t);

Shape getStrides(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

Shape getBroadcastStrides(const Shape &shape, const Shape &target) {
  Shape dense = getStrides(shape);
  Shape strides(target.size(), 0);
  const size_t lead = target.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    strides[lead + d] = shape[d] == 1 && target[lead + d] != 1 ? 0 : dense[d];
  return strides;
}

Status checkSameTypeAndShape(const char *kernel, const char *lhsName,
                             const HostTensor &lhs, const char *rhsName,
                             const HostTensor &rhs) {
  if (lhs.getElementType() != rhs.getElementType())
    return kernelError(kernel,
                       std::string(lhsName) + " and " + rhsName +
                           " have different element types (" +
                           getElementTypeName(lhs.getElementType()) + " vs " +
                           getElementTypeName(rhs.getElementType()) + ")");
  if (lhs.getShape() != rhs.getShape())
    return kernelError(kernel, std::string(lhsName) + " and " + rhsName +
                                   " have different shapes (" +
                                   formatShape(lhs.getShape()) + " vs " +
                                   formatShape(rhs.getShape()) + ")");
  return Status::success();
}

Status resolveAxis(const char *kernel, int64_t axis, int64_t rank,
                   int64_t &dim) {
  StatusOr<int64_t> normalized = shapes::normalizeAxis(axis, rank);
  if (!normalized.ok())
    return kernelError(kernel, normalized.message());
  dim = *normalized;
  return Status::success();
}

Status broadcastShapes(const char *kernel, const Shape &lhs, const Shape &rhs,
                       Shape &result) {
  StatusOr<Shape> shape = shapes::broadcastShapes(lhs, rhs);
  if (!shape.ok())
    return kernelError(kernel, shape.message());
  result = std::move(*shape);
  return Status::success();
}

Status checkGradientShape(const char *kernel, const HostTensor &grad,
                          const Shape &expected, const char *forward) {
  if (grad.getShape() != expected)
    return kernelError(kernel, "dy has shape " + formatShape(grad.getShape()) +
                                   ", the " + forward + " produces " +
                                   formatShape(expected));
  return Status::success();
}

AxisSplit splitAtAxis(const Shape &shape, int64_t axis) {
  AxisSplit split;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis)
      split.outer *= shape[d];
    else if (d == axis)
      split.axis = shape[d];
    else
      split.inner *= shape[d];
  }
  return split;
}

} // namespace detail

} // namespace kernels
} // namespace distir
