//===- NormalizationTest.cpp - Softmax, norms, reductions, losses ---------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

std::vector<double> softmaxOf(std::vector<double> row) {
  double sum = 0;
  for (double v : row)
    sum += std::exp(v);
  for (double &v : row)
    v = std::exp(v) / sum;
  return row;
}

TEST(Softmax, RowsSumToOneAndAreStable) {
  HostTensor x =
      makeTensor({2, 3}, {1, 2, 3, 1000, 1000, 1000}, ElementType::F64);
  HostTensor out;
  ASSERT_OK(k::softmax(x, -1, false, 1.0, out));
  std::vector<double> first = softmaxOf({1, 2, 3});
  expectTensor(out, {2, 3},
               {first[0], first[1], first[2], 1. / 3, 1. / 3, 1. / 3}, 1e-15);
  // Along axis 0 of a [2,2]: columns.
  ASSERT_OK(k::softmax(makeTensor({2, 2}, {0, 1, 0, 3}), 0, false, 1.0, out));
  std::vector<double> column = softmaxOf({1, 3});
  expectTensor(out, {2, 2}, {0.5, column[0], 0.5, column[1]}, 1e-7);
  // scale multiplies the inputs first.
  ASSERT_OK(k::softmax(makeTensor({2}, {1, 2}), 0, false, 0.5, out));
  std::vector<double> scaled = softmaxOf({0.5, 1});
  expectTensor(out, {2}, scaled, 1e-7);
}

TEST(Softmax, CausalMasksTheFuture) {
  // [1, q=3, k=3]: row q sees keys 0..q.
  HostTensor x =
      makeTensor({1, 3, 3}, {1, 5, 9, 2, 3, 9, 0, 1, 2}, ElementType::F64);
  HostTensor out;
  ASSERT_OK(k::softmax(x, 2, true, 1.0, out));
  std::vector<double> r1 = softmaxOf({2, 3}), r2 = softmaxOf({0, 1, 2});
  expectTensor(out, {1, 3, 3}, {1, 0, 0, r1[0], r1[1], 0, r2[0], r2[1], r2[2]},
               1e-15);
  EXPECT_ERROR(k::softmax(x, 1, true, 1.0, out), "causal masking needs");
  EXPECT_ERROR(k::softmax(makeTensor({2}, {1, 2}), 0, true, 1.0, out),
               "causal masking needs");
}

TEST(LogSoftmax, MatchesLogOfSoftmax) {
  HostTensor x = HostTensor::random("x", {3, 4}, ElementType::F64, 1);
  HostTensor sm, lsm;
  ASSERT_OK(k::softmax(x, 1, false, 1.0, sm));
  ASSERT_OK(k::logSoftmax(x, 1, lsm));
  for (int64_t i = 0; i < 12; ++i)
    EXPECT_NEAR(lsm.getAsDouble(i), std::log(sm.getAsDouble(i)), 1e-14);
  EXPECT_ERROR(k::logSoftmax(x, 2, lsm), "axis 2 is out of range");
}

TEST(LayerNorm, NormalizesTrailingDims) {
  HostTensor x = makeTensor({2, 2}, {1, 3, -1, 1}, ElementType::F64);
  HostTensor scale = makeTensor({2}, {2, 1}, ElementType::F64);
  HostTensor bias = makeTensor({2}, {0, 10}, ElementType::F64);
  HostTensor out;
  // Each row has mean m, biased variance 1: (x - m) / sqrt(1 + eps).
  const double s = 1 / std::sqrt(1 + 1e-5);
  ASSERT_OK(k::layerNorm(x, scale, &bias, -1, 1e-5, out));
  expectTensor(out, {2, 2}, {-2 * s, 10 + s, -2 * s, 10 + s}, 1e-12);
  ASSERT_OK(k::layerNorm(x, scale, nullptr, 1, 1e-5, out));
  expectTensor(out, {2, 2}, {-2 * s, s, -2 * s, s}, 1e-12);
  // axis 0 normalizes over everything: mean 1, variance 2.
  HostTensor all = makeTensor({2, 2}, {1, 1, 1, 1}, ElementType::F64);
  ASSERT_OK(k::layerNorm(x, all, nullptr, 0, 0.0, out));
  const double t = 1 / std::sqrt(2.0);
  expectTensor(out, {2, 2}, {0, 2 * t, -2 * t, 0}, 1e-12);
  EXPECT_ERROR(k::layerNorm(x, all, nullptr, 1, 1e-5, out),
               "scale has shape [2, 2], expected [2]");
  EXPECT_ERROR(k::layerNorm(x, makeTensor({2}, {1, 1}), nullptr, 1, 1e-5, out),
               "scale has element type f32, expected f64");
}

TEST(BatchNorm, InferenceFormula) {
  HostTensor x = makeTensor({1, 2, 2}, {1, 2, 3, 4});
  HostTensor scale = makeTensor({2}, {1, 2}), bias = makeTensor({2}, {0, 1}),
             mean = makeTensor({2}, {1, 3}), var = makeTensor({2}, {4, 1});
  HostTensor out;
  ASSERT_OK(k::batchNorm(x, scale, bias, mean, var, 0.0, out));
  expectTensor(out, {1, 2, 2}, {0, 0.5, 1, 3});
  EXPECT_ERROR(
      k::batchNorm(makeTensor({2}, {1, 2}), scale, bias, mean, var, 0, out),
      "x must be [N, C, ...]");
  EXPECT_ERROR(
      k::batchNorm(x, makeTensor({3}, {1, 1, 1}), bias, mean, var, 0, out),
      "scale has shape [3], expected [2]");
}

TEST(Reduce, SumAndMeanOverAxes) {
  HostTensor x = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor out;
  ASSERT_OK(k::reduceSum(x, {0}, false, out));
  expectTensor(out, {3}, {5, 7, 9});
  ASSERT_OK(k::reduceSum(x, {1}, true, out));
  expectTensor(out, {2, 1}, {6, 15});
  ASSERT_OK(k::reduceMean(x, {0, 1}, false, out));
  expectTensor(out, {}, {3.5});
  ASSERT_OK(k::reduceSum(x, {}, false, out)); // No axes: nothing reduced.
  expectTensor(out, {2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_OK(k::reduceMean(x, {-1, 0}, true, out));
  expectTensor(out, {1, 1}, {3.5});
  HostTensor cube = HostTensor::random("c", {2, 3, 4}, ElementType::F64, 1);
  ASSERT_OK(k::reduceSum(cube, {0, 2}, false, out));
  for (int64_t j = 0; j < 3; ++j) {
    double sum = 0;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t l = 0; l < 4; ++l)
        sum += cube.getAsDouble((i * 3 + j) * 4 + l);
    EXPECT_NEAR(out.getAsDouble(j), sum, 1e-14);
  }
  EXPECT_ERROR(k::reduceSum(x, {1, -1}, false, out), "axis -1 is given twice");
  EXPECT_ERROR(k::reduceSum(x, {2}, false, out), "out of range");
}

TEST(Reduce, MaxOverAxes) {
  HostTensor x = makeTensor({2, 3}, {1, -2, 3, -4, 5, -6});
  HostTensor out;
  ASSERT_OK(k::reduceMax(x, {0}, false, out));
  expectTensor(out, {3}, {1, 5, 3});
  ASSERT_OK(k::reduceMax(x, {1}, true, out));
  expectTensor(out, {2, 1}, {3, 5});
  HostTensor negative = makeTensor({2}, {-3, -1});
  ASSERT_OK(k::reduceMax(negative, {0}, false, out));
  expectTensor(out, {}, {-1});
}

TEST(CrossEntropy, OnnxSemantics) {
  // Two samples, three classes.
  HostTensor logits = makeTensor({2, 3}, {1, 2, 3, 0, 0, 0}, ElementType::F64);
  HostTensor labels = makeTensor({2}, {2, 0}, ElementType::I64);
  const double loss0 = -std::log(softmaxOf({1, 2, 3})[2]),
               loss1 = std::log(3.0);
  HostTensor out;
  k::CrossEntropyOptions options;
  ASSERT_OK(k::crossEntropy(logits, labels, nullptr, options, out));
  expectTensor(out, {}, {(loss0 + loss1) / 2}, 1e-14);
  options.reduction = k::LossReduction::Sum;
  ASSERT_OK(k::crossEntropy(logits, labels, nullptr, options, out));
  expectTensor(out, {}, {loss0 + loss1}, 1e-14);
  options.reduction = k::LossReduction::None;
  ASSERT_OK(k::crossEntropy(logits, labels, nullptr, options, out));
  expectTensor(out, {2}, {loss0, loss1}, 1e-14);
  // Weights: mean divides by the sum of the samples' weights.
  HostTensor weights = makeTensor({3}, {0.5, 1, 2}, ElementType::F64);
  options.reduction = k::LossReduction::Mean;
  ASSERT_OK(k::crossEntropy(logits, labels, &weights, options, out));
  expectTensor(out, {}, {(2 * loss0 + 0.5 * loss1) / 2.5}, 1e-14);
  // ignore_index drops a sample from the sum and the divisor.
  options.ignoreIndex = 0;
  ASSERT_OK(k::crossEntropy(logits, labels, &weights, options, out));
  expectTensor(out, {}, {loss0}, 1e-14);
  // Class axis last, with a sequence dim: [1, 2 (seq), 3 (classes)].
  k::CrossEntropyOptions last;
  last.classAxis = -1;
  HostTensor seq;
  ASSERT_OK(k::reshape(logits, {1, 2, 3}, seq));
  ASSERT_OK(k::crossEntropy(seq, makeTensor({1, 2}, {2, 0}, ElementType::I32),
                            nullptr, last, out));
  expectTensor(out, {}, {(loss0 + loss1) / 2}, 1e-14);
  EXPECT_ERROR(k::crossEntropy(logits,
                               makeTensor({2}, {3, 0}, ElementType::I64),
                               nullptr, last, out),
               "label 3 is out of range for 3 classes");
  EXPECT_ERROR(k::crossEntropy(logits,
                               makeTensor({3}, {0, 0, 0}, ElementType::I64),
                               nullptr, last, out),
               "labels have shape [3], expected [2]");
  EXPECT_ERROR(
      k::crossEntropy(logits, makeTensor({2}, {0, 0}), nullptr, last, out),
      "labels must be i64 or i32");
}

TEST(MseLoss, MeanOfSquares) {
  HostTensor out;
  ASSERT_OK(k::mseLoss(makeTensor({2, 2}, {1, 2, 3, 4}),
                       makeTensor({2, 2}, {1, 0, 0, 4}), out));
  expectTensor(out, {}, {(4.0 + 9.0) / 4});
  EXPECT_ERROR(
      k::mseLoss(makeTensor({2}, {1, 2}), makeTensor({3}, {1, 2, 3}), out),
      "mse_loss: pred and target have different shapes");
}

} // namespace
