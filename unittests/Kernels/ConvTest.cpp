//===- ConvTest.cpp - Convolution and pooling -----------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

/// Direct 2-D convolution by its ONNX definition (no im2col, no BLAS).
HostTensor directConv2d(const HostTensor &x, const HostTensor &w,
                        const HostTensor *bias, const k::ConvOptions &o) {
  const int64_t n = x.getDimSize(0), c = x.getDimSize(1), h = x.getDimSize(2),
                wd = x.getDimSize(3);
  const int64_t m = w.getDimSize(0), cg = w.getDimSize(1), kh = w.getDimSize(2),
                kw = w.getDimSize(3);
  const int64_t oh =
      (h + o.padsBegin[0] + o.padsEnd[0] - o.dilations[0] * (kh - 1) - 1) /
          o.strides[0] +
      1;
  const int64_t ow =
      (wd + o.padsBegin[1] + o.padsEnd[1] - o.dilations[1] * (kw - 1) - 1) /
          o.strides[1] +
      1;
  HostTensor out(x.getElementType(), {n, m, oh, ow});
  const int64_t mg = m / o.group;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t f = 0; f < m; ++f)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double sum = bias ? bias->getAsDouble(f) : 0;
          int64_t g = f / mg;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t e = 0; e < kw; ++e) {
                int64_t y =
                    i * o.strides[0] - o.padsBegin[0] + a * o.dilations[0];
                int64_t z =
                    j * o.strides[1] - o.padsBegin[1] + e * o.dilations[1];
                if (y < 0 || y >= h || z < 0 || z >= wd)
                  continue;
                sum += x.getAsDouble(((b * c + g * cg + ci) * h + y) * wd + z) *
                       w.getAsDouble(((f * cg + ci) * kh + a) * kw + e);
              }
          out.setFromDouble(((b * m + f) * oh + i) * ow + j, sum);
        }
  return out;
}

TEST(Conv, MatchesTheDirectFormula) {
  struct Case {
    std::vector<int64_t> xShape, wShape;
    k::ConvOptions options;
  };
  std::vector<Case> cases = {
      {{1, 1, 4, 4}, {1, 1, 3, 3}, {{1, 1}, {1, 1}, {0, 0}, {0, 0}, 1}},
      {{2, 3, 7, 6}, {4, 3, 3, 2}, {{2, 1}, {1, 2}, {1, 0}, {2, 1}, 1}},
      {{1, 4, 5, 5}, {6, 2, 3, 3}, {{1, 2}, {2, 1}, {2, 1}, {2, 1}, 2}},
      {{2, 4, 5, 5},
       {4, 1, 3, 3},
       {{1, 1}, {1, 1}, {1, 1}, {1, 1}, 4}}, // Depthwise.
  };
  for (const Case &c : cases) {
    HostTensor x = HostTensor::random("x", c.xShape, ElementType::F64, 1);
    HostTensor w = HostTensor::random("w", c.wShape, ElementType::F64, 1);
    HostTensor bias =
        HostTensor::random("b", {c.wShape[0]}, ElementType::F64, 1);
    HostTensor out;
    ASSERT_OK(k::conv(x, w, &bias, c.options, out));
    HostTensor expected = directConv2d(x, w, &bias, c.options);
    ASSERT_EQ(out.getShape(), expected.getShape());
    TensorDifference diff;
    ASSERT_OK(compareTensors(out, expected, 0, 1e-12, diff));
    EXPECT_EQ(diff.numMismatches, 0) << formatShape(c.xShape);
  }
}

TEST(Conv, OneAndThreeSpatialDims) {
  // 1-D: [1,1,5] * [1,1,2] with defaults.
  HostTensor out;
  ASSERT_OK(k::conv(makeTensor({1, 1, 5}, {1, 2, 3, 4, 5}),
                    makeTensor({1, 1, 2}, {1, -1}), nullptr, {}, out));
  expectTensor(out, {1, 1, 4}, {-1, -1, -1, -1});
  // 3-D: a 2x2x2 box filter of ones sums each 2x2x2 block.
  HostTensor x =
      makeTensor({1, 1, 2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  HostTensor ones = makeTensor({1, 1, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1});
  ASSERT_OK(k::conv(x, ones, nullptr, {}, out));
  expectTensor(
      out, {1, 1, 1, 1, 2},
      {1 + 2 + 4 + 5 + 7 + 8 + 10 + 11, 2 + 3 + 5 + 6 + 8 + 9 + 11 + 12});
}

TEST(Conv, ReportsBadOperands) {
  HostTensor out;
  HostTensor x(ElementType::F32, {1, 4, 5, 5});
  EXPECT_ERROR(
      k::conv(x, HostTensor(ElementType::F32, {2, 3, 3, 3}), nullptr, {}, out),
      "expects 3 input channels, input has 4");
  k::ConvOptions grouped;
  grouped.group = 3;
  EXPECT_ERROR(k::conv(x, HostTensor(ElementType::F32, {3, 1, 3, 3}), nullptr,
                       grouped, out),
               "group 3 must divide");
  EXPECT_ERROR(
      k::conv(x, HostTensor(ElementType::F32, {2, 4, 7, 7}), nullptr, {}, out),
      "window of 7 exceeds the padded input (5)");
  k::ConvOptions badStrides;
  badStrides.strides = {1};
  EXPECT_ERROR(k::conv(x, HostTensor(ElementType::F32, {2, 4, 3, 3}), nullptr,
                       badStrides, out),
               "strides has 1 entries");
  HostTensor bias(ElementType::F32, {3});
  EXPECT_ERROR(
      k::conv(x, HostTensor(ElementType::F32, {2, 4, 3, 3}), &bias, {}, out),
      "bias must be [2]");
}

TEST(Pool, MaxAndAverage) {
  HostTensor x = makeTensor({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  k::PoolOptions options;
  options.kernelShape = {2, 2};
  HostTensor out;
  ASSERT_OK(k::maxPool(x, options, out));
  expectTensor(out, {1, 1, 2, 2}, {5, 6, 8, 9});
  ASSERT_OK(k::avgPool(x, options, out));
  expectTensor(out, {1, 1, 2, 2}, {3, 4, 6, 7});
  // Padding 1 with stride 2: windows overlap the border.
  options.strides = {2, 2};
  options.padsBegin = {1, 1};
  options.padsEnd = {1, 1};
  ASSERT_OK(k::maxPool(x, options, out));
  expectTensor(out, {1, 1, 2, 2}, {1, 3, 7, 9});
  ASSERT_OK(k::avgPool(x, options, out)); // Padding not counted.
  expectTensor(out, {1, 1, 2, 2}, {1, 2.5, 5.5, 7});
  options.countIncludePad = true;
  ASSERT_OK(k::avgPool(x, options, out));
  expectTensor(out, {1, 1, 2, 2}, {0.25, 1.25, 2.75, 7});
  // Dilated max pool: 2x2 window with dilation 2 covers the corners.
  k::PoolOptions dilated;
  dilated.kernelShape = {2, 2};
  dilated.dilations = {2, 2};
  ASSERT_OK(k::maxPool(x, dilated, out));
  expectTensor(out, {1, 1, 1, 1}, {9});
}

TEST(Pool, CeilModeDropsWindowsStartingInPadding) {
  // Size 5, kernel 2, stride 2: floor gives 2 outputs, ceil gives 3.
  HostTensor x = makeTensor({1, 1, 5}, {1, 2, 3, 4, 5});
  k::PoolOptions options;
  options.kernelShape = {2};
  options.strides = {2};
  HostTensor out;
  ASSERT_OK(k::maxPool(x, options, out));
  expectTensor(out, {1, 1, 2}, {2, 4});
  options.ceilMode = true;
  ASSERT_OK(k::maxPool(x, options, out));
  expectTensor(out, {1, 1, 3}, {2, 4, 5});
  ASSERT_OK(k::avgPool(x, options, out));
  expectTensor(out, {1, 1, 3}, {1.5, 3.5, 5});
  // Size 5, kernel 3, stride 3, pad 1 each side: rounding up would add a
  // third window starting at 5, in the end padding; PyTorch's rule drops it.
  options.kernelShape = {3};
  options.strides = {3};
  options.padsBegin = {1};
  options.padsEnd = {1};
  ASSERT_OK(k::maxPool(x, options, out));
  expectTensor(out, {1, 1, 2}, {2, 5});
}

TEST(Pool, GlobalAverage) {
  HostTensor out;
  ASSERT_OK(k::globalAvgPool(makeTensor({1, 2, 2, 1}, {1, 3, 5, 9}), out));
  expectTensor(out, {1, 2, 1, 1}, {2, 7});
  EXPECT_ERROR(k::globalAvgPool(makeTensor({2}, {1, 2}), out),
               "input must be [N, C, D1, ...]");
  k::PoolOptions options;
  options.kernelShape = {2, 2};
  EXPECT_ERROR(k::maxPool(makeTensor({1, 1, 2}, {1, 2}), options, out),
               "kernel shape [2, 2]");
}

} // namespace
