//===- MatmulTest.cpp - numpy.matmul semantics over CBLAS -----------------===//

#include "KernelTestUtils.h"

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

/// Naive batched matmul on explicit per-batch index functions: the
/// independent formula the CBLAS path is checked against.
double naiveEntry(const HostTensor &a, const HostTensor &b, int64_t aBase,
                  int64_t bBase, int64_t i, int64_t j, int64_t kDim, int64_t n,
                  bool transA, bool transB, int64_t m) {
  double sum = 0;
  for (int64_t l = 0; l < kDim; ++l) {
    double av = a.getAsDouble(aBase + (transA ? l * m + i : i * kDim + l));
    double bv = b.getAsDouble(bBase + (transB ? j * kDim + l : l * n + j));
    sum += av * bv;
  }
  return sum;
}

TEST(Matmul, HandComputed) {
  HostTensor a = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor b = makeTensor({3, 2}, {7, 8, 9, 10, 11, 12});
  HostTensor out;
  ASSERT_OK(k::matmul(a, b, false, false, out));
  expectTensor(out, {2, 2}, {58, 64, 139, 154});
  // a^T is [3,2]; a^T x a is [3,3].
  ASSERT_OK(k::matmul(a, a, true, false, out));
  expectTensor(out, {3, 3}, {17, 22, 27, 22, 29, 36, 27, 36, 45});
  ASSERT_OK(k::matmul(a, a, false, true, out));
  expectTensor(out, {2, 2}, {14, 32, 32, 77});
  ASSERT_OK(k::matmul(b, a, true, true, out)); // [2,3] x [3,2]
  expectTensor(out, {2, 2},
               {7 + 18 + 33, 28 + 45 + 66, 8 + 20 + 36, 32 + 50 + 72});
}

TEST(Matmul, VectorsArePromotedAndDropped) {
  HostTensor v = makeTensor({3}, {1, 2, 3});
  HostTensor m = makeTensor({3, 2}, {1, 0, 0, 1, 1, 1});
  HostTensor out;
  ASSERT_OK(k::matmul(v, v, false, false, out));
  expectTensor(out, {}, {14});
  ASSERT_OK(k::matmul(v, m, false, false, out));
  expectTensor(out, {2}, {4, 5});
  ASSERT_OK(k::matmul(m, makeTensor({2}, {1, -1}), false, false, out));
  expectTensor(out, {3}, {1, -1, 0});
  ASSERT_OK(k::matmul(v, m, true, false, out)); // Transposing a vector: no-op.
  expectTensor(out, {2}, {4, 5});
  // A vector against a batch: [3] x [2,3,2] -> [2,2].
  HostTensor batch = HostTensor::random("b", {2, 3, 2}, ElementType::F32, 1);
  ASSERT_OK(k::matmul(v, batch, false, false, out));
  ASSERT_EQ(out.getShape(), (std::vector<int64_t>{2, 2}));
  for (int64_t bi = 0; bi < 2; ++bi)
    for (int64_t j = 0; j < 2; ++j)
      EXPECT_NEAR(out.getAsDouble(bi * 2 + j),
                  naiveEntry(v, batch, 0, bi * 6, 0, j, 3, 2, false, false, 1),
                  1e-5);
}

TEST(Matmul, BroadcastsBatchDims) {
  // [2,1,4,3] x [3,3,5]^T... : lhs batch [2,1], rhs batch [3] -> [2,3].
  for (bool transA : {false, true})
    for (bool transB : {false, true}) {
      const int64_t m = 4, kDim = 3, n = 5;
      HostTensor a =
          HostTensor::random("a",
                             transA ? std::vector<int64_t>{2, 1, kDim, m}
                                    : std::vector<int64_t>{2, 1, m, kDim},
                             ElementType::F64, 1);
      HostTensor b =
          HostTensor::random("b",
                             transB ? std::vector<int64_t>{3, n, kDim}
                                    : std::vector<int64_t>{3, kDim, n},
                             ElementType::F64, 1);
      HostTensor out;
      ASSERT_OK(k::matmul(a, b, transA, transB, out));
      ASSERT_EQ(out.getShape(), (std::vector<int64_t>{2, 3, m, n}));
      for (int64_t i0 = 0; i0 < 2; ++i0)
        for (int64_t i1 = 0; i1 < 3; ++i1)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
              EXPECT_NEAR(out.getAsDouble(((i0 * 3 + i1) * m + i) * n + j),
                          naiveEntry(a, b, i0 * m * kDim, i1 * kDim * n, i, j,
                                     kDim, n, transA, transB, m),
                          1e-12);
    }
}

TEST(Matmul, FoldedBatchMatchesPerBatch) {
  // [3,4,5] x [5,6]: the batch folds into one gemm.
  HostTensor a = HostTensor::random("a", {3, 4, 5}, ElementType::F64, 2);
  HostTensor b = HostTensor::random("b", {5, 6}, ElementType::F64, 2);
  HostTensor out;
  ASSERT_OK(k::matmul(a, b, false, false, out));
  ASSERT_EQ(out.getShape(), (std::vector<int64_t>{3, 4, 6}));
  for (int64_t bi = 0; bi < 3; ++bi)
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 6; ++j)
        EXPECT_NEAR(out.getAsDouble((bi * 4 + i) * 6 + j),
                    naiveEntry(a, b, bi * 20, 0, i, j, 5, 6, false, false, 4),
                    1e-12);
}

TEST(Matmul, NarrowTypesComputeInF32) {
  HostTensor a = makeTensor({1, 2}, {256, 1}, ElementType::BF16);
  HostTensor b = makeTensor({2, 1}, {1, 1}, ElementType::BF16);
  HostTensor out;
  ASSERT_OK(k::matmul(a, b, false, false, out));
  EXPECT_EQ(out.getElementType(), ElementType::BF16);
  EXPECT_EQ(out.getAsDouble(0), 256); // 257 rounds to even in bf16.
  HostTensor h = makeTensor({1, 2}, {0.5, 0.25}, ElementType::F16);
  ASSERT_OK(k::matmul(h, makeTensor({2, 1}, {2, 4}, ElementType::F16), false,
                      false, out));
  EXPECT_EQ(out.getAsDouble(0), 2);
}

TEST(Matmul, EmptyContractionGivesZeros) {
  HostTensor out;
  ASSERT_OK(k::matmul(HostTensor(ElementType::F32, {2, 0}),
                      HostTensor(ElementType::F32, {0, 3}), false, false, out));
  expectTensor(out, {2, 3}, {0, 0, 0, 0, 0, 0});
}

TEST(Matmul, ReportsBadOperands) {
  HostTensor out;
  EXPECT_ERROR(k::matmul(makeTensor({2, 3}, {1, 2, 3, 4, 5, 6}),
                         makeTensor({2, 3}, {1, 2, 3, 4, 5, 6}), false, false,
                         out),
               "matmul: contracting dims differ: [2, 3] x [2, 3]");
  EXPECT_ERROR(k::matmul(HostTensor(ElementType::F32, {2, 1, 1}),
                         HostTensor(ElementType::F32, {3, 1, 1}), false, false,
                         out),
               "batch dims");
  EXPECT_ERROR(k::matmul(HostTensor(ElementType::I64, {1, 1}),
                         HostTensor(ElementType::I64, {1, 1}), false, false,
                         out),
               "expected a float element type");
  EXPECT_ERROR(k::matmul(HostTensor(ElementType::F32, {}),
                         HostTensor(ElementType::F32, {1}), false, false, out),
               "rank >= 1");
  EXPECT_ERROR(k::matmul(HostTensor(ElementType::F32, {1}),
                         HostTensor(ElementType::F64, {1}), false, false, out),
               "different element types");
}

} // namespace
