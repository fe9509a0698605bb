//===- ElementwiseTest.cpp - Elementwise, cast, optimizer, collectives ----===//

#include "KernelTestUtils.h"

#include <cmath>
#include <limits>

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

TEST(Binary, BroadcastsLikeNumpy) {
  HostTensor a = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor row = makeTensor({3}, {10, 20, 30});
  HostTensor out;
  ASSERT_OK(k::add(a, row, out));
  expectTensor(out, {2, 3}, {11, 22, 33, 14, 25, 36});
  HostTensor column = makeTensor({2, 1}, {1, 2});
  ASSERT_OK(k::mul(column, row, out)); // [2,1] x [3] -> [2,3]
  expectTensor(out, {2, 3}, {10, 20, 30, 20, 40, 60});
  HostTensor scalar = makeTensor({}, {2});
  ASSERT_OK(k::sub(scalar, a, out));
  expectTensor(out, {2, 3}, {1, 0, -1, -2, -3, -4});
  ASSERT_OK(k::div(a, scalar, out));
  expectTensor(out, {2, 3}, {0.5, 1, 1.5, 2, 2.5, 3});
  ASSERT_OK(k::pow(a, scalar, out));
  expectTensor(out, {2, 3}, {1, 4, 9, 16, 25, 36});
  // Both sides broadcast in different dims: [4,1,2] op [3,1] -> [4,3,2].
  HostTensor left = HostTensor::random("l", {4, 1, 2}, ElementType::F64, 1);
  HostTensor right = HostTensor::random("r", {3, 1}, ElementType::F64, 1);
  ASSERT_OK(k::sub(left, right, out));
  ASSERT_EQ(out.getShape(), (std::vector<int64_t>{4, 3, 2}));
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t l = 0; l < 2; ++l)
        EXPECT_EQ(out.getAsDouble((i * 3 + j) * 2 + l),
                  left.getAsDouble(i * 2 + l) - right.getAsDouble(j));
  ASSERT_OK(k::maximum(a, makeTensor({3}, {2, 2, 7}), out));
  expectTensor(out, {2, 3}, {2, 2, 7, 4, 5, 7});
  ASSERT_OK(k::minimum(a, makeTensor({3}, {2, 2, 7}), out));
  expectTensor(out, {2, 3}, {1, 2, 3, 2, 2, 6});
}

TEST(Binary, ReportsBadOperands) {
  HostTensor out;
  EXPECT_ERROR(
      k::add(makeTensor({2}, {1, 2}), makeTensor({3}, {1, 2, 3}), out),
      "add: cannot broadcast shapes [2] and [3]: dimension 0 is 2 vs 3");
  EXPECT_ERROR(k::mul(makeTensor({2}, {1, 2}),
                      makeTensor({2}, {1, 2}, ElementType::F16), out),
               "different element types");
  EXPECT_ERROR(k::div(makeTensor({1}, {1}, ElementType::I64),
                      makeTensor({1}, {0}, ElementType::I64), out),
               "integer division by zero");
  EXPECT_ERROR(k::add(makeTensor({1}, {1}, ElementType::I1),
                      makeTensor({1}, {1}, ElementType::I1), out),
               "expected a float element type, got i1");
}

TEST(Binary, IntegersAreExactAndWrap) {
  HostTensor out;
  HostTensor a = makeTensor({4}, {7, -7, 7, -7}, ElementType::I64);
  HostTensor b = makeTensor({4}, {2, 2, -2, -2}, ElementType::I64);
  ASSERT_OK(k::div(a, b, out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{3, -3, -3, 3})); // Truncation.
  ASSERT_OK(k::pow(makeTensor({3}, {3, -2, 5}, ElementType::I32),
                   makeTensor({3}, {4, 3, 0}, ElementType::I32), out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{81, -8, 1}));
  HostTensor big(ElementType::I64, {1});
  big.getData<int64_t>()[0] = std::numeric_limits<int64_t>::max();
  ASSERT_OK(k::add(big, makeTensor({1}, {1}, ElementType::I64), out));
  EXPECT_EQ(out.getData<int64_t>()[0], std::numeric_limits<int64_t>::min());
  HostTensor huge(ElementType::I64, {1});
  huge.getData<int64_t>()[0] = (int64_t(1) << 60) + 1; // Not exact in f64.
  ASSERT_OK(k::sub(huge, makeTensor({1}, {1}, ElementType::I64), out));
  EXPECT_EQ(out.getData<int64_t>()[0], int64_t(1) << 60);
}

TEST(Binary, HalfPrecisionRoundsTheResult) {
  // 2048 + 1 is not representable in f16: the f32 sum rounds to even, 2048.
  HostTensor out;
  ASSERT_OK(k::add(makeTensor({1}, {2048}, ElementType::F16),
                   makeTensor({1}, {1}, ElementType::F16), out));
  EXPECT_EQ(out.getElementType(), ElementType::F16);
  EXPECT_EQ(out.getAsDouble(0), 2048);
  ASSERT_OK(k::add(makeTensor({1}, {2048}, ElementType::F16),
                   makeTensor({1}, {3}, ElementType::F16), out));
  EXPECT_EQ(out.getAsDouble(0), 2052); // 2051 ties to the even 2052.
  ASSERT_OK(k::mul(makeTensor({1}, {257}, ElementType::BF16),
                   makeTensor({1}, {1}, ElementType::BF16), out));
  EXPECT_EQ(out.getAsDouble(0), 256);
}

TEST(Where, SelectsWithBroadcast) {
  HostTensor cond = makeTensor({2, 1}, {1, 0}, ElementType::I1);
  HostTensor x = makeTensor({3}, {1, 2, 3});
  HostTensor y = makeTensor({}, {-1});
  HostTensor out;
  ASSERT_OK(k::where(cond, x, y, out));
  expectTensor(out, {2, 3}, {1, 2, 3, -1, -1, -1});
  ASSERT_OK(k::where(makeTensor({3}, {0, 5, -1}, ElementType::I64), x, y, out));
  expectTensor(out, {3}, {-1, 2, 3});
  EXPECT_ERROR(k::where(x, x, y, out), "condition must be i1 or an integer");
  EXPECT_ERROR(k::where(cond, x, makeTensor({1}, {1}, ElementType::F64), out),
               "x and y have different element types");
  EXPECT_ERROR(k::where(makeTensor({2}, {1, 0}, ElementType::I1), x, y, out),
               "cannot broadcast shapes");
}

TEST(Unary, MatchesTheFormulas) {
  std::vector<double> inputs = {-2.0, -0.5, 0.0, 0.25, 1.5};
  HostTensor x = makeTensor({5}, inputs, ElementType::F64);
  struct Case {
    Status (*kernel)(const HostTensor &, HostTensor &);
    double (*reference)(double);
  };
  std::vector<Case> cases = {
      {k::neg, [](double v) { return -v; }},
      {k::exp, [](double v) { return std::exp(v); }},
      {k::erf, [](double v) { return std::erf(v); }},
      {k::relu, [](double v) { return v > 0 ? v : 0.0; }},
      {k::tanh, [](double v) { return std::tanh(v); }},
      {k::sigmoid, [](double v) { return 1 / (1 + std::exp(-v)); }},
  };
  for (const Case &c : cases) {
    HostTensor out;
    ASSERT_OK(c.kernel(x, out));
    for (size_t i = 0; i < inputs.size(); ++i)
      EXPECT_NEAR(out.getAsDouble(i), c.reference(inputs[i]), 1e-15);
  }
  HostTensor positive = makeTensor({3}, {0.25, 1, 4});
  HostTensor out;
  ASSERT_OK(k::sqrt(positive, out));
  expectTensor(out, {3}, {0.5, 1, 2});
  ASSERT_OK(k::rsqrt(positive, out));
  expectTensor(out, {3}, {2, 1, 0.5});
  ASSERT_OK(k::log(positive, out));
  expectTensor(out, {3}, {std::log(0.25), 0, std::log(4.0)});
  ASSERT_OK(k::neg(makeTensor({2}, {3, -4}, ElementType::I32), out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{-3, 4}));
  ASSERT_OK(k::relu(makeTensor({2}, {3, -4}, ElementType::I64), out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{3, 0}));
  EXPECT_ERROR(k::exp(makeTensor({1}, {1}, ElementType::I64), out),
               "exp: expected a float");
}

TEST(Unary, GeluBothApproximations) {
  HostTensor x = makeTensor({4}, {-3, -1, 0.5, 2}, ElementType::F64);
  HostTensor exact, approx;
  ASSERT_OK(k::gelu(x, k::GeluApproximation::None, exact));
  ASSERT_OK(k::gelu(x, k::GeluApproximation::Tanh, approx));
  // The formulas evaluated independently with Python's math.erf/math.tanh.
  expectTensor(exact, {4},
               {-0.0040496941, -0.1586552539, 0.3457312306, 1.9544997361},
               1e-9);
  expectTensor(approx, {4},
               {-0.0036373921, -0.1588080094, 0.3457140098, 1.9545976941},
               1e-9);
}

TEST(Cast, ConvertsBetweenAllTypes) {
  HostTensor x = makeTensor({5}, {-2.7, -0.5, 0.0, 1.9, 3e9}, ElementType::F64);
  HostTensor out;
  ASSERT_OK(k::cast(x, ElementType::I32, out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{-2, 0, 0, 1, 2147483647}));
  ASSERT_OK(k::cast(x, ElementType::I64, out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{-2, 0, 0, 1, 3e9}));
  ASSERT_OK(k::cast(x, ElementType::I1, out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{1, 1, 0, 1, 1}));
  ASSERT_OK(
      k::cast(makeTensor({1}, {0.1}, ElementType::F32), ElementType::F16, out));
  EXPECT_EQ(out.getData<uint16_t>()[0], floatToHalf(0.1f));
  ASSERT_OK(k::cast(makeTensor({2}, {1, 0}, ElementType::I1), ElementType::BF16,
                    out));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{1, 0}));
  HostTensor wide(ElementType::I64, {1});
  wide.getData<int64_t>()[0] = (int64_t(1) << 32) + 5;
  ASSERT_OK(k::cast(wide, ElementType::I32, out));
  EXPECT_EQ(out.getData<int32_t>()[0], 5); // Wraps like C.
  ASSERT_OK(k::cast(makeTensor({1}, {std::nan("")}, ElementType::F32),
                    ElementType::I64, out));
  EXPECT_EQ(out.getAsDouble(0), 0);
  ASSERT_OK(k::dropout(x, out));
  EXPECT_TRUE(out.isBitwiseEqual(x));
}

TEST(Optimizer, SgdAndAdamStep) {
  HostTensor w = makeTensor({2}, {1.0, -1.0}, ElementType::F64);
  HostTensor g = makeTensor({2}, {0.5, 2.0}, ElementType::F64);
  HostTensor out;
  ASSERT_OK(k::sgdUpdate(w, g, 0.1, out));
  expectTensor(out, {2}, {0.95, -1.2}, 1e-15);
  EXPECT_ERROR(
      k::sgdUpdate(w, makeTensor({3}, {1, 2, 3}, ElementType::F64), 0.1, out),
      "sgd_update: w and g have different shapes");

  // Step 1 from zero moments: the update is lr * g / (|g| + eps') = lr sign(g).
  HostTensor zeros(ElementType::F64, {2});
  HostTensor w1, m1, v1;
  k::AdamOptions options;
  options.learningRate = 0.01;
  ASSERT_OK(k::adamUpdate(w, g, zeros, zeros,
                          makeTensor({}, {1}, ElementType::I64), options, w1,
                          m1, v1));
  expectTensor(m1, {2}, {0.05, 0.2}, 1e-15);
  expectTensor(v1, {2}, {0.00025, 0.004}, 1e-15);
  expectTensor(
      w1, {2},
      {1.0 - 0.01 * 0.5 / (0.5 + 1e-8), -1.0 - 0.01 * 2.0 / (2.0 + 1e-8)},
      1e-12);
  // Step 2 with the moments of step 1, checked against the formula.
  HostTensor w2, m2, v2;
  ASSERT_OK(k::adamUpdate(w1, g, m1, v1, makeTensor({}, {2}, ElementType::F32),
                          options, w2, m2, v2));
  for (int i = 0; i < 2; ++i) {
    double grad = g.getAsDouble(i);
    double m = 0.9 * m1.getAsDouble(i) + 0.1 * grad;
    double v = 0.999 * v1.getAsDouble(i) + 0.001 * grad * grad;
    double expected =
        w1.getAsDouble(i) -
        0.01 * (m / (1 - 0.81)) / (std::sqrt(v / (1 - 0.999 * 0.999)) + 1e-8);
    EXPECT_NEAR(w2.getAsDouble(i), expected, 1e-14);
  }
  EXPECT_ERROR(k::adamUpdate(w, g, zeros, zeros, makeTensor({}, {0}), options,
                             w1, m1, v1),
               "step must be >= 1");
}

TEST(Collectives, ReduceTensors) {
  HostTensor a = makeTensor({2}, {1, -4}), b = makeTensor({2}, {3, 2}),
             c = makeTensor({2}, {-1, 5});
  HostTensor out;
  ASSERT_OK(k::reduceTensors({&a, &b, &c}, k::ReductionKind::Sum, out));
  expectTensor(out, {2}, {3, 3});
  ASSERT_OK(k::reduceTensors({&a, &b, &c}, k::ReductionKind::Prod, out));
  expectTensor(out, {2}, {-3, -40});
  ASSERT_OK(k::reduceTensors({&a, &b, &c}, k::ReductionKind::Min, out));
  expectTensor(out, {2}, {-1, -4});
  ASSERT_OK(k::reduceTensors({&a, &b, &c}, k::ReductionKind::Max, out));
  expectTensor(out, {2}, {3, 5});
  ASSERT_OK(k::reduceTensors({&a, &b, &c}, k::ReductionKind::Avg, out));
  expectTensor(out, {2}, {1, 1});
  HostTensor ints = makeTensor({1}, {7}, ElementType::I64);
  ASSERT_OK(k::reduceTensors({&ints, &ints}, k::ReductionKind::Sum, out));
  EXPECT_EQ(out.getData<int64_t>()[0], 14);
  HostTensor other = makeTensor({3}, {1, 2, 3});
  EXPECT_ERROR(k::reduceTensors({&a, &other}, k::ReductionKind::Sum, out),
               "different shapes");
  EXPECT_ERROR(k::reduceTensors({}, k::ReductionKind::Sum, out), "no tensors");
}

} // namespace
