//===- Matmul.cpp - Batched matmul over CBLAS -----------------------------===//

#include "KernelSupport.h"

#include <cblas.h>

#include <limits>

namespace distir {
namespace kernels {

using namespace detail;

namespace detail {

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const float *a, const float *b, float beta, float *c) {
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a,
              static_cast<int>(transA ? m : k), b,
              static_cast<int>(transB ? k : n), beta, c, static_cast<int>(n));
}

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const double *a, const double *b, double beta, double *c) {
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0, a,
              static_cast<int>(transA ? m : k), b,
              static_cast<int>(transB ? k : n), beta, c, static_cast<int>(n));
}

} // namespace detail

namespace {

bool fitsBlasInt(int64_t value) {
  return value <= std::numeric_limits<int>::max();
}

} // namespace

Status matmul(const HostTensor &a, const HostTensor &b, bool transposeA,
              bool transposeB, HostTensor &result) {
  const char *name = "matmul";
  if (a.getElementType() != b.getElementType())
    return kernelError(name,
                       std::string("operands have different element types (") +
                           getElementTypeName(a.getElementType()) + " vs " +
                           getElementTypeName(b.getElementType()) + ")");
  if (a.getRank() == 0 || b.getRank() == 0)
    return kernelError(name, "operands must have rank >= 1");

  // NumPy promotion of rank-1 operands; a transpose flag on them is a no-op.
  const bool vectorA = a.getRank() == 1, vectorB = b.getRank() == 1;
  const bool transA = transposeA && !vectorA, transB = transposeB && !vectorB;
  Shape aShape = vectorA ? Shape{1, a.getDimSize(0)} : a.getShape();
  Shape bShape = vectorB ? Shape{b.getDimSize(0), 1} : b.getShape();
  const size_t aRank = aShape.size(), bRank = bShape.size();
  const int64_t m = aShape[aRank - (transA ? 1 : 2)];
  const int64_t k = aShape[aRank - (transA ? 2 : 1)];
  const int64_t kB = bShape[bRank - (transB ? 1 : 2)];
  const int64_t n = bShape[bRank - (transB ? 2 : 1)];
  if (k != kB)
    return kernelError(
        name, "contracting dims differ: " + formatShape(a.getShape()) +
                  (transposeA ? "^T" : "") + " x " + formatShape(b.getShape()) +
                  (transposeB ? "^T" : ""));
  Shape aBatch(aShape.begin(), aShape.end() - 2);
  Shape bBatch(bShape.begin(), bShape.end() - 2);
  Shape batch;
  StatusOr<Shape> broadcast = shapes::broadcastShapes(aBatch, bBatch);
  if (!broadcast.ok())
    return kernelError(name, "batch dims: " + broadcast.message());
  batch = std::move(*broadcast);

  Shape resultShape = batch;
  if (!vectorA)
    resultShape.push_back(m);
  if (!vectorB)
    resultShape.push_back(n);
  const ElementType type = a.getElementType();
  DISTIR_RETURN_IF_ERROR(checkShape(resultShape, type));
  if (!fitsBlasInt(m) || !fitsBlasInt(n) || !fitsBlasInt(k))
    return kernelError(name, "a matrix dimension exceeds the BLAS int range");
  // gemm with beta = 0 writes every element, unless a dim is empty.
  HostTensor out = m > 0 && n > 0 && k > 0
                       ? HostTensor::uninitialized(type, resultShape)
                       : HostTensor(type, resultShape);

  DISTIR_RETURN_IF_ERROR(dispatchFloat(name, type, [&](auto zero) {
    using T = decltype(zero);
    if (m == 0 || n == 0 || k == 0 || out.getNumElements() == 0)
      return Status::success(); // Empty sums are the zeros already there.
    InputView<T> aView(a), bView(b);
    OutputView<T> outView(out);
    const int64_t aMatrix = m * k, bMatrix = k * n, outMatrix = m * n;
    const int64_t numBatches = getNumElements(batch);
    const bool sharedB = getNumElements(bBatch) == 1;
    if (sharedB && !transA && fitsBlasInt(m * numBatches)) {
      // [batch..., M, K] x [K, N]: one gemm with the batch folded into M.
      gemm(false, transB, m * numBatches, n, k, aView.data(), bView.data(),
           T(0), outView.data());
    } else {
      forEachBroadcastRun(
          batch, {aBatch, bBatch}, [&](const BroadcastRun &run) {
            for (int64_t i = 0; i < run.length; ++i)
              gemm(transA, transB, m, n, k,
                   aView.data() +
                       (run.offsets[0] + i * run.strides[0]) * aMatrix,
                   bView.data() +
                       (run.offsets[1] + i * run.strides[1]) * bMatrix,
                   T(0), outView.data() + (run.resultOffset + i) * outMatrix);
          });
    }
    outView.commit();
    return Status::success();
  }));
  result = std::move(out);
  return Status::success();
}

} // namespace kernels
} // namespace distir
