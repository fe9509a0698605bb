//===- KernelSupport.h - Shared machinery of the kernels --------*- C++ -*-===//
//
// Private to lib/Kernels. Kernels are written once over a compute type T
// (float or double) and see f16/bf16 operands through InputView, which
// widens them to f32 once, and write through OutputView, which rounds once.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_LIB_KERNELS_KERNELSUPPORT_H
#define DISTIR_LIB_KERNELS_KERNELSUPPORT_H

#include "distir/Kernels/Kernels.h"
#include "distir/ShapeInference/ShapeRules.h"

#include <string>
#include <type_traits>
#include <vector>

namespace distir {
namespace kernels {
namespace detail {

inline Status kernelError(const char *kernel, const std::string &what) {
  return Status::error(std::string(kernel) + ": " + what);
}

/// The storage type of a compute type's "native" element type.
template <typename T> constexpr ElementType nativeType() {
  return std::is_same_v<T, double> ? ElementType::F64 : ElementType::F32;
}

/// Calls fn(T{}) with T = double for F64 and float for F32/F16/BF16.
template <typename Fn>
Status dispatchFloat(const char *kernel, ElementType type, Fn &&fn) {
  switch (type) {
  case ElementType::F64:
    return fn(double());
  case ElementType::F32:
  case ElementType::F16:
  case ElementType::BF16:
    return fn(float());
  default:
    return kernelError(kernel,
                       std::string("expected a float element type, got ") +
                           getElementTypeName(type));
  }
}

/// Converts n elements of `tensor` starting at flat `offset` into T.
template <typename T>
void loadAs(const HostTensor &tensor, int64_t offset, int64_t n, T *out);
/// Rounds n values into `tensor` starting at flat `offset`.
template <typename T>
void storeAs(const T *values, int64_t n, HostTensor &tensor, int64_t offset);

/// Read-only view of a tensor's values in compute type T; no copy when the
/// storage already is T.
template <typename T> class InputView {
public:
  explicit InputView(const HostTensor &tensor) {
    if (tensor.getElementType() == nativeType<T>()) {
      ptr = tensor.getData<T>();
      return;
    }
    converted.resize(tensor.getNumElements());
    loadAs(tensor, 0, tensor.getNumElements(), converted.data());
    ptr = converted.data();
  }
  const T *data() const { return ptr; }
  T operator[](int64_t i) const { return ptr[i]; }

private:
  const T *ptr = nullptr;
  std::vector<T> converted;
};

/// Writable view of a result tensor in compute type T; commit() rounds the
/// values into the tensor when its storage is not T.
template <typename T> class OutputView {
public:
  explicit OutputView(HostTensor &tensor) : tensor(tensor) {
    if (tensor.getElementType() == nativeType<T>()) {
      ptr = tensor.getData<T>();
      return;
    }
    staging.assign(tensor.getNumElements(), T());
    ptr = staging.data();
  }
  T *data() { return ptr; }
  T &operator[](int64_t i) { return ptr[i]; }
  void commit() {
    if (!staging.empty())
      storeAs(staging.data(), static_cast<int64_t>(staging.size()), tensor, 0);
  }

private:
  HostTensor &tensor;
  T *ptr = nullptr;
  std::vector<T> staging;
};

/// Row-major C[M,N] = op(A) op(B) + beta C through CBLAS; A is stored [M,K]
/// or, when transposed, [K,M] (likewise B). Dims must fit in int.
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const float *a, const float *b, float beta, float *c);
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const double *a, const double *b, double beta, double *c);

/// Row-major strides (in elements).
Shape getStrides(const Shape &shape);

/// Strides of `shape` read as if broadcast to `target` (right-aligned);
/// broadcast dims get stride 0.
Shape getBroadcastStrides(const Shape &shape, const Shape &target);

/// A maximal stretch of result elements along which every operand of a
/// broadcast advances with a constant stride (0 or its own dense stride).
struct BroadcastRun {
  int64_t resultOffset;
  int64_t length;
  const int64_t *offsets; // Per operand: flat offset at the run's start.
  const int64_t *strides; // Per operand: step along the run.
};

/// Walks the result of a broadcast of `operandShapes` to `resultShape` in
/// row-major order, one run at a time; dims are collapsed first, so a
/// same-shape operation is one run and a bias add is one run per row.
template <typename Body>
void forEachBroadcastRun(const Shape &resultShape,
                         const std::vector<Shape> &operandShapes, Body &&body) {
  const size_t numOperands = operandShapes.size();
  std::vector<Shape> strides;
  for (const Shape &shape : operandShapes)
    strides.push_back(getBroadcastStrides(shape, resultShape));
  // Collapsed dims, innermost first.
  Shape sizes;
  std::vector<Shape> collapsedStrides(numOperands);
  for (int64_t d = static_cast<int64_t>(resultShape.size()) - 1; d >= 0; --d) {
    int64_t size = resultShape[d];
    if (size == 0)
      return;
    if (size == 1)
      continue;
    bool mergeable = !sizes.empty();
    for (size_t k = 0; k < numOperands && mergeable; ++k)
      mergeable = strides[k][d] == collapsedStrides[k].back() * sizes.back();
    if (mergeable) {
      sizes.back() *= size;
      continue;
    }
    sizes.push_back(size);
    for (size_t k = 0; k < numOperands; ++k)
      collapsedStrides[k].push_back(strides[k][d]);
  }
  if (sizes.empty()) {
    sizes.push_back(1);
    for (size_t k = 0; k < numOperands; ++k)
      collapsedStrides[k].push_back(0);
  }
  const size_t numDims = sizes.size();
  std::vector<int64_t> offsets(numOperands, 0), innerStrides(numOperands);
  for (size_t k = 0; k < numOperands; ++k)
    innerStrides[k] = collapsedStrides[k][0];
  Shape counter(numDims, 0);
  const int64_t length = sizes[0];
  int64_t resultOffset = 0;
  while (true) {
    body(BroadcastRun{resultOffset, length, offsets.data(),
                      innerStrides.data()});
    resultOffset += length;
    size_t d = 1;
    for (; d < numDims; ++d) {
      for (size_t k = 0; k < numOperands; ++k)
        offsets[k] += collapsedStrides[k][d];
      if (++counter[d] < sizes[d])
        break;
      for (size_t k = 0; k < numOperands; ++k)
        offsets[k] -= collapsedStrides[k][d] * sizes[d];
      counter[d] = 0;
    }
    if (d >= numDims)
      return;
  }
}

/// shapes::normalizeAxis with the kernel's name in the error.
Status resolveAxis(const char *kernel, int64_t axis, int64_t rank,
                   int64_t &dim);
/// shapes::broadcastShapes with the kernel's name in the error.
Status broadcastShapes(const char *kernel, const Shape &lhs, const Shape &rhs,
                       Shape &result);

/// Fails unless a gradient operand has the shape its forward op produces.
Status checkGradientShape(const char *kernel, const HostTensor &grad,
                          const Shape &expected, const char *forward);

/// Checks that `x` and `y` have the same type and shape.
Status checkSameTypeAndShape(const char *kernel, const char *lhsName,
                             const HostTensor &lhs, const char *rhsName,
                             const HostTensor &rhs);

/// A tensor viewed as [outer, axis, inner] around one of its dims.
struct AxisSplit {
  int64_t outer = 1;
  int64_t axis = 1;
  int64_t inner = 1;
};
AxisSplit splitAtAxis(const Shape &shape, int64_t axis);

} // namespace detail
} // namespace kernels
} // namespace distir

#endif // DISTIR_LIB_KERNELS_KERNELSUPPORT_H
