//===- ShapeOpsTest.cpp - Data movement kernels ---------------------------===//

#include "KernelTestUtils.h"

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

HostTensor iota(std::vector<int64_t> shape,
                ElementType type = ElementType::F32) {
  std::vector<double> values(getNumElements(shape));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>(i);
  return makeTensor(std::move(shape), values, type);
}

TEST(Transpose, PermutesDims) {
  HostTensor out;
  ASSERT_OK(k::transpose(iota({2, 3}), {1, 0}, out));
  expectTensor(out, {3, 2}, {0, 3, 1, 4, 2, 5});
  // [2,3,4] -> perm [2,0,1] -> [4,2,3]: out[i,j,l] = x[j,l,i].
  HostTensor x = iota({2, 3, 4}, ElementType::I64);
  ASSERT_OK(k::transpose(x, {2, 0, 1}, out));
  ASSERT_EQ(out.getShape(), (std::vector<int64_t>{4, 2, 3}));
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t l = 0; l < 3; ++l)
        EXPECT_EQ(out.getAsDouble((i * 2 + j) * 3 + l), (j * 3 + l) * 4 + i);
  ASSERT_OK(k::transpose(iota({2, 2}, ElementType::F16), {0, 1}, out));
  expectTensor(out, {2, 2}, {0, 1, 2, 3});
  EXPECT_ERROR(k::transpose(iota({2, 2}), {0, 0}, out),
               "invalid permutation [0, 0]");
  EXPECT_ERROR(k::transpose(iota({2, 2}), {0}, out),
               "permutation has 1 entries");
}

TEST(Reshape, KeepsOrder) {
  HostTensor out;
  ASSERT_OK(k::reshape(iota({2, 3}), {3, 1, 2}, out));
  expectTensor(out, {3, 1, 2}, {0, 1, 2, 3, 4, 5});
  EXPECT_ERROR(k::reshape(iota({2, 3}), {4}, out),
               "cannot reshape [2, 3] into [4]");
  EXPECT_ERROR(k::reshape(iota({2, 3}), {-6}, out), "negative dimension");
}

TEST(Concat, JoinsAlongAxis) {
  HostTensor a = iota({2, 2}), b = makeTensor({2, 1}, {10, 11});
  HostTensor out;
  ASSERT_OK(k::concat({&a, &b}, 1, out));
  expectTensor(out, {2, 3}, {0, 1, 10, 2, 3, 11});
  ASSERT_OK(k::concat({&a, &a}, -2, out));
  expectTensor(out, {4, 2}, {0, 1, 2, 3, 0, 1, 2, 3});
  EXPECT_ERROR(k::concat({&a, &b}, 0, out),
               "differ outside the concatenation axis");
  EXPECT_ERROR(k::concat({&a, &b}, 2, out),
               "axis 2 is out of range for rank 2");
  EXPECT_ERROR(k::concat({}, 0, out), "no inputs");
}

TEST(Slice, NumpySemanticsWithNegativeStrides) {
  HostTensor x = iota({3, 5});
  HostTensor out;
  ASSERT_OK(k::slice(x, {1, 0}, {3, 5}, {1, 2}, out)); // x[1:3, 0:5:2]
  expectTensor(out, {2, 3}, {5, 7, 9, 10, 12, 14});
  ASSERT_OK(k::slice(x, {2, 4}, {-1, 0}, {-1, -2}, out)); // x[2::-1, 4:0:-2]
  expectTensor(out, {3, 2}, {14, 12, 9, 7, 4, 2});
  ASSERT_OK(k::slice(x, {0, 3}, {3, 3}, {1, 1}, out)); // Empty.
  EXPECT_EQ(out.getShape(), (std::vector<int64_t>{3, 0}));
  ASSERT_OK(k::slice(x, {0, 1}, {3, 5}, {2, 3}, out)); // x[0:3:2, 1:5:3]
  expectTensor(out, {2, 2}, {1, 4, 11, 14});
  EXPECT_ERROR(k::slice(x, {0, 0}, {3, 5}, {1, 0}, out), "stride 0 in dim 1");
  EXPECT_ERROR(k::slice(x, {0, 0}, {4, 5}, {1, 1}, out), "limit 4 in dim 0");
  EXPECT_ERROR(k::slice(x, {0, 5}, {3, 0}, {1, -1}, out), "negative stride");
  EXPECT_ERROR(k::slice(x, {0}, {3}, {1}, out), "starts has 1 entries");
}

TEST(Split, SizesAndEvenly) {
  HostTensor x = iota({2, 5});
  HostTensor a, b;
  ASSERT_OK(k::split(x, 1, {2, 3}, {&a, &b}));
  expectTensor(a, {2, 2}, {0, 1, 5, 6});
  expectTensor(b, {2, 3}, {2, 3, 4, 7, 8, 9});
  HostTensor c, d;
  ASSERT_OK(k::splitEvenly(x, 0, 2, {&c, &d}));
  expectTensor(c, {1, 5}, {0, 1, 2, 3, 4});
  expectTensor(d, {1, 5}, {5, 6, 7, 8, 9});
  EXPECT_ERROR(k::split(x, 1, {2, 2}, {&a, &b}), "do not add up");
  EXPECT_ERROR(k::split(x, 1, {5}, {&a, &b}), "1 sizes for 2 results");
  EXPECT_ERROR(k::splitEvenly(x, 1, 2, {&a, &b}),
               "does not split into 2 equal parts");
}

TEST(InsertSlice, WritesABlock) {
  HostTensor target(ElementType::F32, {3, 4});
  ASSERT_OK(k::insertSlice(makeTensor({2, 2}, {1, 2, 3, 4}), {1, 2}, target));
  expectTensor(target, {3, 4}, {0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4});
  HostTensor scalar(ElementType::F32, {});
  ASSERT_OK(k::insertSlice(makeTensor({}, {5}), {}, scalar));
  expectTensor(scalar, {}, {5});
  EXPECT_ERROR(k::insertSlice(makeTensor({2, 2}, {1, 2, 3, 4}), {2, 0}, target),
               "does not fit");
}

TEST(Pad, EdgeAndInterior) {
  HostTensor out;
  ASSERT_OK(k::pad(makeTensor({2}, {1, 2}), {1}, {2}, {1}, out));
  expectTensor(out, {6}, {0, 1, 0, 2, 0, 0});
  ASSERT_OK(
      k::pad(iota({2, 2}, ElementType::I32), {0, 1}, {1, 0}, {0, 0}, out));
  expectTensor(out, {3, 3}, {0, 0, 1, 0, 2, 3, 0, 0, 0});
  EXPECT_ERROR(k::pad(iota({2}), {-1}, {0}, {0}, out), "non-negative");
}

TEST(Take, GathersRowsAndWrapsNegatives) {
  HostTensor table = iota({4, 2});
  HostTensor ids = makeTensor({2, 2}, {3, 0, -1, 1}, ElementType::I64);
  HostTensor out;
  ASSERT_OK(k::take(table, ids, 0, out));
  expectTensor(out, {2, 2, 2}, {6, 7, 0, 1, 6, 7, 2, 3});
  ASSERT_OK(k::take(table, makeTensor({1}, {1}, ElementType::I32), 1, out));
  expectTensor(out, {4, 1}, {1, 3, 5, 7});
  EXPECT_ERROR(k::take(table, makeTensor({1}, {4}, ElementType::I64), 0, out),
               "index 4 is out of range for a dim of size 4");
  EXPECT_ERROR(k::take(table, makeTensor({1}, {-5}, ElementType::I64), 0, out),
               "index -5");
  EXPECT_ERROR(k::take(table, makeTensor({1}, {0}), 0, out),
               "indices must be i64 or i32");
}

TEST(Take, BlockLooksUpItsRowsAndZerosTheOthers) {
  // Block 1 of a [6, 2] table cut into three blocks of two rows: rows 2, 3.
  HostTensor block = iota({2, 2});
  HostTensor ids = makeTensor({4}, {3, 0, 2, 5}, ElementType::I64);
  HostTensor out;
  ASSERT_OK(k::takeBlock(block, ids, 0, 1, out));
  expectTensor(out, {4, 2}, {2, 3, 0, 0, 0, 1, 0, 0});
  EXPECT_ERROR(k::takeBlock(block, ids, 0, -1, out), "negative block");
}

TEST(OneHot, MarksTheClassInItsBlock) {
  HostTensor ids = makeTensor({3}, {1, 4, 2}, ElementType::I64);
  HostTensor out;
  ASSERT_OK(k::oneHot(ids, 3, -1, 0, ElementType::F32, out));
  expectTensor(out, {3, 3}, {0, 1, 0, 0, 0, 0, 0, 0, 1});
  // Block 1 of three classes holds classes 3..5; the class axis first.
  ASSERT_OK(k::oneHot(ids, 3, 0, 1, ElementType::F32, out));
  expectTensor(out, {3, 3}, {0, 0, 0, 0, 1, 0, 0, 0, 0});
  EXPECT_ERROR(k::oneHot(ids, 3, 2, 0, ElementType::F32, out), "out of range");
}

TEST(Expand, BroadcastsBothWays) {
  HostTensor out;
  ASSERT_OK(k::expand(makeTensor({3, 1}, {1, 2, 3}), {2, 1, 2}, out));
  expectTensor(out, {2, 3, 2}, {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
  ASSERT_OK(k::expand(makeTensor({1, 2}, {1, 2}), {1},
                      out)); // ONNX keeps the larger dim.
  expectTensor(out, {1, 2}, {1, 2});
  EXPECT_ERROR(k::expand(makeTensor({2}, {1, 2}), {3}, out),
               "cannot broadcast shapes");
}

} // namespace
