//===- ShapeRulesTest.cpp - The dist ops' shape rules over int64_t --------===//

#include "distir/ShapeInference/ShapeRules.h"

#include "gtest/gtest.h"

#include <limits>

using namespace distir;
using namespace distir::shapes;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

#define EXPECT_SHAPE(expr, ...)                                                \
  do {                                                                         \
    auto result_ = (expr);                                                     \
    ASSERT_TRUE(result_.ok()) << result_.message();                            \
    EXPECT_EQ(*result_, (Shape{__VA_ARGS__}));                                 \
  } while (false)

#define EXPECT_ERROR(expr, text)                                               \
  do {                                                                         \
    auto result_ = (expr);                                                     \
    ASSERT_FALSE(result_.ok());                                                \
    EXPECT_EQ(result_.message(), text);                                        \
  } while (false)

TEST(Axes, NegativeAxesCountFromTheEnd) {
  EXPECT_EQ(*normalizeAxis(-1, 3), 2);
  EXPECT_EQ(*normalizeAxis(0, 3), 0);
  EXPECT_ERROR(normalizeAxis(3, 3), "axis 3 is out of range for rank 3");
  EXPECT_ERROR(normalizeAxis(-4, 3, "class_axis"),
               "class_axis -4 is out of range for rank 3");
  EXPECT_ERROR(normalizeAxis(std::numeric_limits<int64_t>::min(), 2),
               "axis -9223372036854775808 is out of range for rank 2");
}

TEST(Axes, PositionsIncludeTheEnd) {
  EXPECT_EQ(*normalizePosition(3, 3), 3);
  EXPECT_EQ(*normalizePosition(-3, 3), 0);
  EXPECT_ERROR(normalizePosition(4, 3), "axis 4 is out of range for rank 3");
}

TEST(Axes, AnAxisGivenTwiceIsRefused) {
  EXPECT_SHAPE(normalizeAxes({0, -1}, 3), 0, 2);
  EXPECT_ERROR(normalizeAxes({2, -1}, 3), "axis -1 is given twice");
}

TEST(Broadcast, AlignsOnTheRight) {
  EXPECT_SHAPE(broadcastShapes({4, 1, 3}, {2, 1}), 4, 2, 3);
  EXPECT_SHAPE(broadcastShapes({}, {5}), 5);
  EXPECT_ERROR(broadcastShapes({4, 3}, {2}),
               "cannot broadcast shapes [4, 3] and [2]: dimension 1 is 3 vs 2");
}

TEST(Broadcast, DynamicDimsTakeTheStaticSize) {
  EXPECT_SHAPE(broadcastShapes({kDynamic, 3}, {4, 1}), 4, 3);
  EXPECT_SHAPE(broadcastShapes({1}, {kDynamic}), kDynamic);
}

TEST(ElementCount, OverflowIsAnError) {
  EXPECT_EQ(*getElementCount({2, 3}), 6);
  EXPECT_EQ(*getElementCount({}), 1);
  EXPECT_EQ(*getElementCount({kDynamic, 3}), kDynamic);
  EXPECT_ERROR(getElementCount({4294967296, 4294967296}),
               "element count of shape [4294967296, 4294967296] overflows "
               "int64");
}

TEST(Matmul, PromotesVectorsAndBroadcastsBatches) {
  auto shape = inferMatmul({2, 1, 4, 8}, {3, 8, 5}, false, false);
  ASSERT_TRUE(shape.ok()) << shape.message();
  EXPECT_EQ(shape->result, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(shape->k, 8);
  auto vector = inferMatmul({8}, {8, 5}, false, false);
  ASSERT_TRUE(vector.ok()) << vector.message();
  EXPECT_EQ(vector->result, (Shape{5}));
  auto transposed = inferMatmul({8, 4}, {5, 8}, true, true);
  ASSERT_TRUE(transposed.ok()) << transposed.message();
  EXPECT_EQ(transposed->result, (Shape{4, 5}));
}

TEST(Matmul, ContractingDimensionsMustAgree) {
  EXPECT_ERROR(inferMatmul({4, 8}, {6, 2}, false, false),
               "contracting dimensions differ: [4, 8] has 8 and [6, 2] has 6");
  EXPECT_ERROR(inferMatmul({4, 8}, {6, 2}, false, false,
                           [](size_t i) { return i ? "rhs" : "lhs"; }),
               "contracting dimensions differ: lhs has 8 and rhs has 6");
  EXPECT_ERROR(inferMatmul({8}, {8}, true, false),
               "transposed operands must have rank >= 2");
}

TEST(Transpose, PermutesDims) {
  EXPECT_SHAPE(inferTranspose({2, 3, 4}, {2, 0, 1}), 4, 2, 3);
  EXPECT_ERROR(inferTranspose({2, 3}, {0, 0}),
               "permutation [0, 0] is not a permutation of 0..1");
}

TEST(Reshape, InfersTheMinusOneEntry) {
  EXPECT_SHAPE(inferReshape({4, 6}, {-1, 8}), 3, 8);
  EXPECT_SHAPE(inferReshape({kDynamic, 6}, {-1, 6}), kDynamic, 6);
  EXPECT_ERROR(inferReshape({3, 4}, {10}),
               "cannot reshape 12 elements into 10");
  EXPECT_ERROR(inferReshape({3, 4}, {-1, -1}), "shape may have only one -1");
  EXPECT_ERROR(inferReshape({3, 4}, {-1, 5}),
               "cannot reshape 12 elements into [-1, 5]");
}

TEST(Reshape, ATargetWhoseCountOverflowsIsRefused) {
  EXPECT_ERROR(inferReshape({4}, {4294967296, 4294967296}),
               "element count of shape [4294967296, 4294967296] overflows "
               "int64");
}

TEST(Concat, AddsTheAxisDim) {
  EXPECT_SHAPE(inferConcat({DimsRef({4, 3}), DimsRef({4, 2})}, -1), 4, 5);
  EXPECT_ERROR(inferConcat({DimsRef({4, 3}), DimsRef({3, 3})}, 1),
               "inputs differ in dimension 0 which is not the concatenation "
               "axis: [4, 3] and [3, 3]");
}

TEST(Concat, ASumPastInt64IsRefused) {
  EXPECT_ERROR(inferConcat({DimsRef({kMax}), DimsRef({1})}, 0),
               "concatenated dimension 0 overflows int64");
}

TEST(Slice, CountsStridedElements) {
  EXPECT_SHAPE(inferSlice({10}, {1}, {8}, {3}), 3);
  EXPECT_SHAPE(inferSlice({10}, {9}, {-1}, {-1}), 10);
  EXPECT_ERROR(inferSlice({4}, {0}, {5}, {1}),
               "slice [0:5:1] is out of bounds for dimension 0 of size 4");
  EXPECT_ERROR(inferSlice({4, 4}, {0, 0}, {4, 4}, {1, 0}),
               "stride of dimension 1 is zero");
}

TEST(Slice, HugeStridesDoNotWrap) {
  EXPECT_SHAPE(inferSlice({10}, {0}, {10}, {kMax}), 1);
  EXPECT_SHAPE(inferSlice({kDynamic}, {0}, {kMax}, {kMax}), 1);
  EXPECT_SHAPE(inferSlice({kDynamic}, {kMax}, {-1},
                          {std::numeric_limits<int64_t>::min()}),
               1);
  EXPECT_ERROR(inferSlice({kDynamic}, {kMax}, {-1}, {-1}),
               "slice of dimension 0 overflows int64");
}

TEST(Split, SizesMustAddUpToTheDim) {
  auto pieces = inferSplit({6, 2}, 0, {2, 4});
  ASSERT_TRUE(pieces.ok()) << pieces.message();
  EXPECT_EQ(*pieces, (std::vector<Shape>{{2, 2}, {4, 2}}));
  EXPECT_ERROR(inferSplit({4}, 0, {2, 3}),
               "split sizes add up to 5 but dimension 0 has 4");
}

TEST(Split, SizesSummingPastInt64AreRefused) {
  EXPECT_ERROR(inferSplit({kDynamic}, 0, {kMax, kMax, 2}),
               "sum of split sizes overflows int64");
  // Sizes whose wrapped sum would equal the dim.
  EXPECT_ERROR(inferSplit({2}, 0, {kMax, kMax, 4}),
               "sum of split sizes overflows int64");
}

TEST(Pad, AddsLowHighAndInterior) {
  EXPECT_SHAPE(inferPad({3, 1}, {1, 0}, {2, 0}, {1, 5}), 8, 1);
  EXPECT_ERROR(inferPad({3}, {-1}, {0}, {0}),
               "padding amounts must be non-negative");
}

TEST(Pad, AmountsNearInt64MaxAreRefused) {
  EXPECT_ERROR(inferPad({4}, {kMax}, {kMax}, {0}),
               "padded size of dimension 0 overflows int64");
  EXPECT_ERROR(inferPad({2, 4}, {0, 0}, {0, 0}, {0, kMax}),
               "padded size of dimension 1 overflows int64");
}

TEST(Take, ReplacesTheAxisByTheIndices) {
  EXPECT_SHAPE(inferTake({10, 4}, {2, 3}, 0), 2, 3, 4);
  EXPECT_SHAPE(inferTakeGrad({2, 3, 4}, {2, 3}, 0, 10), 10, 4);
  EXPECT_ERROR(inferTakeGrad({2, 3, 4}, {2, 5}, 0, 10),
               "gradient [2, 3, 4] does not hold indices of shape [2, 5]");
}

TEST(Expand, BroadcastsBothWays) {
  EXPECT_SHAPE(inferExpand({3, 1}, {2, 1, 4}), 2, 3, 4);
  EXPECT_ERROR(inferExpand({3}, {-2}),
               "shape entries must be non-negative, got -2");
}

TEST(Reduce, DropsOrKeepsAxes) {
  EXPECT_SHAPE(inferReduce({2, 3, 4}, {0, -1}, false), 3);
  EXPECT_SHAPE(inferReduce({2, 3, 4}, {1}, true), 2, 1, 4);
  EXPECT_ERROR(inferReduce({2, 3}, {1, -1}, false), "axis -1 is reduced twice");
  EXPECT_EQ(dropAxis({4, 10, 3}, -2), (Shape{4, 3}));
}

TEST(Window, ConvolutionOutput) {
  // 1x3x32x32 with 8 3x3 filters, stride 2, pad 1: 16x16.
  EXPECT_SHAPE(
      inferConv({1, 3, 32, 32}, {8, 3, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}), 1,
      8, 16, 16);
  EXPECT_ERROR(
      inferConv({1, 4, 8, 8}, {8, 3, 3, 3}, 1, {1, 1}, {0, 0, 0, 0}, {}),
      "input has 4 channels but the filter expects 3 x 1 groups");
  EXPECT_ERROR(inferConv({1, 2}, {8, 2}, 1, {}, {}, {}),
               "input must have rank >= 3 (batch, channels, spatial...), got "
               "[1, 2]");
}

TEST(Window, CeilModeDropsAWindowStartingInThePadding) {
  int64_t kernel[] = {2}, strides[] = {2}, pads[] = {0, 1};
  Window window{
      DimsRef(kernel, 1), DimsRef(strides, 1), DimsRef(pads, 2), {}, true};
  // 5 elements, kernel 2, stride 2, ceil: windows start at 0, 2, 4.
  EXPECT_SHAPE(inferPool({1, 1, 5}, window), 1, 1, 3);
  int64_t bigPads[] = {0, 3};
  window.pads = DimsRef(bigPads, 2);
  // Padded to 8: a fourth window would start at 6, past the input.
  EXPECT_SHAPE(inferPool({1, 1, 5}, window), 1, 1, 3);
}

TEST(Window, HugePadsAndDilationsAreRefused) {
  EXPECT_ERROR(inferConv({1, 1, 8}, {1, 1, 3}, 1, {1}, {kMax, kMax}, {}),
               "window of spatial dimension 0 overflows int64");
  EXPECT_ERROR(inferConv({1, 1, 8}, {1, 1, 3}, 1, {1}, {0, 0}, {kMax}),
               "window of spatial dimension 0 overflows int64");
  EXPECT_ERROR(inferConv({1, 1, 4}, {1, 1, 5}, 1, {1}, {0, 0}, {}),
               "window of spatial dimension 0 is larger than the padded input");
  // A huge stride leaves one window.
  EXPECT_SHAPE(inferConv({1, 1, 8}, {1, 1, 3}, 1, {kMax}, {0, 0}, {}), 1, 1, 1);
}

TEST(Window, SamePaddingPutsTheOddPadAtTheEndForUpper) {
  using Pads = std::pair<int64_t, int64_t>;
  EXPECT_EQ(*inferSamePads(5, 3, 2, 1, true), Pads(1, 1));
  EXPECT_EQ(*inferSamePads(4, 3, 2, 1, true), Pads(0, 1));
  EXPECT_EQ(*inferSamePads(4, 3, 2, 1, false), Pads(1, 0));
  EXPECT_EQ(*inferSamePads(4, 1, kMax, 1, true), Pads(0, 0));
  EXPECT_ERROR(inferSamePads(4, 3, 1, kMax, true),
               "padding of size 4 overflows int64");
}

TEST(Collectives, GatherMultipliesScatterDivides) {
  EXPECT_SHAPE(inferGathered({4, 3}, 1, 2), 4, 6);
  EXPECT_SHAPE(inferScattered({4, 3}, 0, 2), 2, 3);
  EXPECT_ERROR(inferScattered({3}, 0, 2),
               "dimension 0 of size 3 is not divisible by the group size 2");
  EXPECT_ERROR(inferGathered({3}, 1, 2), "dim 1 is out of range for rank 1");
  EXPECT_ERROR(inferGathered({kMax}, 0, 2),
               "gathered dimension 0 overflows int64");
}

TEST(Format, PrintsDimsLikeMlirDiagnostics) {
  EXPECT_EQ(formatDims({}), "[]");
  EXPECT_EQ(formatDims({2, 3}), "[2, 3]");
}

} // namespace
