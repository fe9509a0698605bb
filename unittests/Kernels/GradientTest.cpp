//===- GradientTest.cpp - Backward helpers against finite differences -----===//
//
// Every backward helper is checked against central differences of its
// forward kernel in f64: for a random upstream gradient dy, the helper must
// return d/dx sum(dy * forward(x)).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <functional>

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

using Forward = std::function<HostTensor(const HostTensor &)>;

double weightedSum(const HostTensor &values, const HostTensor &weights) {
  EXPECT_EQ(values.getShape(), weights.getShape());
  double sum = 0;
  for (int64_t i = 0; i < values.getNumElements(); ++i)
    sum += values.getAsDouble(i) * weights.getAsDouble(i);
  return sum;
}

void expectGradient(const Forward &forward, const HostTensor &x,
                    const HostTensor &dy, const HostTensor &analytic,
                    double tolerance = 1e-7) {
  ASSERT_EQ(analytic.getShape(), x.getShape());
  const double h = 1e-6;
  for (int64_t i = 0; i < x.getNumElements(); ++i) {
    HostTensor plus = x, minus = x;
    plus.setFromDouble(i, x.getAsDouble(i) + h);
    minus.setFromDouble(i, x.getAsDouble(i) - h);
    double numeric =
        (weightedSum(forward(plus), dy) - weightedSum(forward(minus), dy)) /
        (2 * h);
    EXPECT_NEAR(analytic.getAsDouble(i), numeric,
                tolerance * std::max(1.0, std::fabs(numeric)))
        << "element " << i;
  }
}

HostTensor random(const char *name, std::vector<int64_t> shape) {
  return HostTensor::random(name, std::move(shape), ElementType::F64, 11);
}

/// Random values kept away from 0 and from each other's ties, for kinks.
HostTensor awayFromZero(const char *name, std::vector<int64_t> shape) {
  HostTensor t = random(name, std::move(shape));
  for (int64_t i = 0; i < t.getNumElements(); ++i)
    if (std::fabs(t.getAsDouble(i)) < 0.01)
      t.setFromDouble(i, 0.5);
  return t;
}

template <typename Kernel> Forward unary(Kernel kernel) {
  return [kernel](const HostTensor &x) {
    HostTensor y;
    EXPECT_TRUE(kernel(x, y).ok());
    return y;
  };
}

TEST(Gradients, ElementwiseActivations) {
  HostTensor x = awayFromZero("x", {3, 4});
  HostTensor dy = random("dy", {3, 4});
  HostTensor dx, y;
  ASSERT_OK(k::reluGrad(dy, x, dx));
  expectGradient(unary(k::relu), x, dy, dx);
  for (auto approx : {k::GeluApproximation::None, k::GeluApproximation::Tanh}) {
    ASSERT_OK(k::geluGrad(dy, x, approx, dx));
    expectGradient(
        [approx](const HostTensor &v) {
          HostTensor out;
          EXPECT_TRUE(k::gelu(v, approx, out).ok());
          return out;
        },
        x, dy, dx);
  }
  ASSERT_OK(k::tanh(x, y));
  ASSERT_OK(k::tanhGrad(dy, y, dx));
  expectGradient(unary(k::tanh), x, dy, dx);
  ASSERT_OK(k::sigmoid(x, y));
  ASSERT_OK(k::sigmoidGrad(dy, y, dx));
  expectGradient(unary(k::sigmoid), x, dy, dx);
  EXPECT_ERROR(k::reluGrad(dy, random("x", {4, 3}), dx),
               "relu_grad: dy and x have different shapes");
}

TEST(Gradients, SoftmaxFamily) {
  HostTensor x = random("x", {2, 3, 3});
  HostTensor dy = random("dy", {2, 3, 3});
  for (int64_t axis : {0, 1, 2})
    for (bool causal : {false, true}) {
      if (causal && axis != 2)
        continue;
      const double scale = causal ? 0.5 : 1.0;
      HostTensor y, dx;
      ASSERT_OK(k::softmax(x, axis, causal, scale, y));
      ASSERT_OK(k::softmaxGrad(dy, y, axis, scale, dx));
      expectGradient(
          [&](const HostTensor &v) {
            HostTensor out;
            EXPECT_TRUE(k::softmax(v, axis, causal, scale, out).ok());
            return out;
          },
          x, dy, dx);
    }
  HostTensor y, dx;
  ASSERT_OK(k::logSoftmax(x, 1, y));
  ASSERT_OK(k::logSoftmaxGrad(dy, y, 1, dx));
  expectGradient(
      [](const HostTensor &v) {
        HostTensor out;
        EXPECT_TRUE(k::logSoftmax(v, 1, out).ok());
        return out;
      },
      x, dy, dx);
}

TEST(Gradients, LayerNorm) {
  HostTensor x = random("x", {3, 2, 4});
  HostTensor scale = random("scale", {2, 4});
  HostTensor bias = random("bias", {2, 4});
  HostTensor dy = random("dy", {3, 2, 4});
  const double eps = 1e-5;
  HostTensor dx, dscale, dbias;
  ASSERT_OK(k::layerNormGrad(dy, x, scale, 1, eps, dx, dscale, dbias));
  auto run = [&](const HostTensor &xv, const HostTensor &sv,
                 const HostTensor &bv) {
    HostTensor out;
    EXPECT_TRUE(k::layerNorm(xv, sv, &bv, 1, eps, out).ok());
    return out;
  };
  expectGradient([&](const HostTensor &v) { return run(v, scale, bias); }, x,
                 dy, dx, 1e-6);
  expectGradient([&](const HostTensor &v) { return run(x, v, bias); }, scale,
                 dy, dscale);
  expectGradient([&](const HostTensor &v) { return run(x, scale, v); }, bias,
                 dy, dbias);
}

TEST(Gradients, BatchNorm) {
  HostTensor x = random("x", {2, 3, 2});
  HostTensor scale = random("scale", {3}), bias = random("bias", {3}),
             mean = random("mean", {3});
  HostTensor var =
      HostTensor::fromValues(ElementType::F64, {3}, {0.5, 1.5, 2.0});
  HostTensor dy = random("dy", {2, 3, 2});
  HostTensor dx, dscale, dbias;
  ASSERT_OK(k::batchNormGrad(dy, x, scale, mean, var, 1e-5, dx, dscale, dbias));
  auto run = [&](const HostTensor &xv, const HostTensor &sv,
                 const HostTensor &bv) {
    HostTensor out;
    EXPECT_TRUE(k::batchNorm(xv, sv, bv, mean, var, 1e-5, out).ok());
    return out;
  };
  expectGradient([&](const HostTensor &v) { return run(v, scale, bias); }, x,
                 dy, dx);
  expectGradient([&](const HostTensor &v) { return run(x, v, bias); }, scale,
                 dy, dscale);
  expectGradient([&](const HostTensor &v) { return run(x, scale, v); }, bias,
                 dy, dbias);
}

TEST(Gradients, CrossEntropy) {
  HostTensor logits = random("logits", {2, 3, 4}); // Classes on axis 1.
  HostTensor labels = HostTensor::fromValues(ElementType::I64, {2, 4},
                                             {0, 1, 2, 1, 2, 2, 0, 1});
  HostTensor weights =
      HostTensor::fromValues(ElementType::F64, {3}, {0.5, 1.0, 2.0});
  for (auto reduction :
       {k::LossReduction::Mean, k::LossReduction::Sum, k::LossReduction::None})
    for (bool weighted : {false, true}) {
      k::CrossEntropyOptions options;
      options.reduction = reduction;
      options.ignoreIndex = 1;
      const HostTensor *w = weighted ? &weights : nullptr;
      HostTensor dloss =
          reduction == k::LossReduction::None
              ? random("dloss", {2, 4})
              : HostTensor::fromValues(ElementType::F64, {}, {0.7});
      HostTensor dlogits;
      ASSERT_OK(
          k::crossEntropyGrad(dloss, logits, labels, w, options, dlogits));
      expectGradient(
          [&](const HostTensor &v) {
            HostTensor out;
            EXPECT_TRUE(k::crossEntropy(v, labels, w, options, out).ok());
            return out;
          },
          logits, dloss, dlogits);
    }
  HostTensor dlogits;
  EXPECT_ERROR(k::crossEntropyGrad(random("d", {3}), logits, labels, nullptr,
                                   {}, dlogits),
               "expected a scalar");
}

TEST(Gradients, MseLoss) {
  HostTensor pred = random("pred", {3, 2}), target = random("target", {3, 2});
  HostTensor dloss = HostTensor::fromValues(ElementType::F64, {}, {1.3});
  HostTensor dpred;
  ASSERT_OK(k::mseLossGrad(dloss, pred, target, dpred));
  expectGradient(
      [&](const HostTensor &v) {
        HostTensor out;
        EXPECT_TRUE(k::mseLoss(v, target, out).ok());
        return out;
      },
      pred, dloss, dpred);
}

TEST(Gradients, TakeScatterAdds) {
  HostTensor table = random("table", {2, 5, 3});
  HostTensor ids =
      HostTensor::fromValues(ElementType::I32, {2, 2}, {4, 1, 4, -1});
  HostTensor y;
  ASSERT_OK(k::take(table, ids, 1, y));
  HostTensor dy = random("dy", y.getShape());
  HostTensor dtable;
  ASSERT_OK(k::takeGrad(dy, ids, 1, 5, dtable));
  expectGradient(
      [&](const HostTensor &v) {
        HostTensor out;
        EXPECT_TRUE(k::take(v, ids, 1, out).ok());
        return out;
      },
      table, dy, dtable);
  EXPECT_ERROR(k::takeGrad(dy, ids, 1, 4, dtable), "index 4 is out of range");
  EXPECT_ERROR(k::takeGrad(random("d", {2, 3}), ids, 0, 4, dtable),
               "does not hold indices");
}

TEST(Gradients, TakeBlockScattersIntoItsBlock) {
  // The blocks' gradients of a table cut in two are the halves of the whole
  // table's gradient.
  HostTensor ids = HostTensor::fromValues(ElementType::I64, {3}, {3, 0, 3});
  HostTensor dy = random("dy", {3, 2});
  HostTensor whole, low, high;
  ASSERT_OK(k::takeGrad(dy, ids, 0, 4, whole));
  ASSERT_OK(k::takeGradBlock(dy, ids, 0, 2, 0, low));
  ASSERT_OK(k::takeGradBlock(dy, ids, 0, 2, 1, high));
  HostTensor joined;
  ASSERT_OK(k::concat({&low, &high}, 0, joined));
  for (int64_t i = 0; i < whole.getNumElements(); ++i)
    EXPECT_DOUBLE_EQ(joined.getAsDouble(i), whole.getAsDouble(i));
}

TEST(Gradients, Convolution) {
  k::ConvOptions options;
  options.strides = {2, 1};
  options.dilations = {1, 2};
  options.padsBegin = {1, 2};
  options.padsEnd = {0, 1};
  options.group = 2;
  HostTensor x = random("x", {2, 4, 5, 6});
  HostTensor w = random("w", {4, 2, 2, 3});
  HostTensor y;
  ASSERT_OK(k::conv(x, w, nullptr, options, y));
  HostTensor dy = random("dy", y.getShape());
  HostTensor dx, dw;
  ASSERT_OK(k::convGradInput(dy, w, options, x.getShape(), dx));
  ASSERT_OK(k::convGradFilter(dy, x, options, w.getShape(), dw));
  expectGradient(
      [&](const HostTensor &v) {
        HostTensor out;
        EXPECT_TRUE(k::conv(v, w, nullptr, options, out).ok());
        return out;
      },
      x, dy, dx);
  expectGradient(
      [&](const HostTensor &v) {
        HostTensor out;
        EXPECT_TRUE(k::conv(x, v, nullptr, options, out).ok());
        return out;
      },
      w, dy, dw);
  EXPECT_ERROR(
      k::convGradInput(random("d", {1, 1, 1, 1}), w, options, x.getShape(), dx),
      "the convolution produces [2, 4, 3, 5]");
}

TEST(Gradients, Pooling) {
  HostTensor x = random("x", {1, 2, 5, 4});
  k::PoolOptions options;
  options.kernelShape = {2, 3};
  options.strides = {2, 1};
  options.padsBegin = {1, 1};
  options.padsEnd = {0, 1};
  options.ceilMode = true;
  HostTensor y;
  ASSERT_OK(k::maxPool(x, options, y));
  HostTensor dy = random("dy", y.getShape());
  HostTensor dx;
  ASSERT_OK(k::maxPoolGrad(dy, x, options, dx));
  expectGradient(
      [&](const HostTensor &v) {
        HostTensor out;
        EXPECT_TRUE(k::maxPool(v, options, out).ok());
        return out;
      },
      x, dy, dx);
  for (bool includePad : {false, true}) {
    options.countIncludePad = includePad;
    ASSERT_OK(k::avgPoolGrad(dy, options, x.getShape(), dx));
    expectGradient(
        [&](const HostTensor &v) {
          HostTensor out;
          EXPECT_TRUE(k::avgPool(v, options, out).ok());
          return out;
        },
        x, dy, dx);
  }
  EXPECT_ERROR(k::maxPoolGrad(x, x, options, dx), "the pooling produces");
}

} // namespace
