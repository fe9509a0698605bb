//===- AttentionTest.cpp - Fused attention against the unfused chain ------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

struct Inputs {
  HostTensor q = HostTensor::random("q", {2, 3, 5, 4}, ElementType::F32, 1);
  HostTensor k = HostTensor::random("k", {2, 3, 5, 4}, ElementType::F32, 2);
  HostTensor v = HostTensor::random("v", {2, 3, 5, 6}, ElementType::F32, 3);
};

k::AttentionOptions droppedCausal() {
  k::AttentionOptions options;
  options.scale = 0.5;
  options.causal = true;
  options.dropoutRatio = 0.3;
  options.seed = 9;
  options.id = 4;
  options.position = {{2, 3, 5, 5}, {0, 0, 0, 0}};
  return options;
}

TEST(Attention, ComputesTheUnfusedChain) {
  Inputs in;
  k::AttentionOptions options = droppedCausal();
  HostTensor out, lse;
  ASSERT_OK(k::attention(in.q, in.k, in.v, options, out, lse));
  // matmul -> causal scaled softmax -> dropout -> matmul, as dist-gen emits.
  HostTensor scores, probs, dropped, keep, expected;
  ASSERT_OK(k::matmul(in.q, in.k, false, true, scores));
  ASSERT_OK(k::softmax(scores, -1, true, 0.5, probs));
  ASSERT_OK(k::dropoutTrain(probs, 0.3, 9, 4, options.position, dropped, keep));
  ASSERT_OK(k::matmul(dropped, in.v, false, false, expected));
  EXPECT_EQ(out.getShape(), (k::Shape{2, 3, 5, 6}));
  EXPECT_TRUE(out.isBitwiseEqual(expected));
  // exp(scale * s - lse) is the softmax over the visible keys.
  ASSERT_EQ(lse.getElementType(), ElementType::F32);
  ASSERT_EQ(lse.getShape(), (k::Shape{2, 3, 5}));
  for (int64_t row = 0; row < 30; ++row)
    for (int64_t key = 0; key <= row % 5; ++key)
      EXPECT_NEAR(std::exp(0.5 * scores.getAsDouble(row * 5 + key) -
                           lse.getAsDouble(row)),
                  probs.getAsDouble(row * 5 + key), 1e-5);
}

TEST(Attention, ABlockOfHeadsDrawsItsPlaceInTheReference) {
  Inputs in;
  k::AttentionOptions options = droppedCausal();
  HostTensor out, lse, dq, dk, dv;
  HostTensor grad = HostTensor::random("g", {2, 3, 5, 6}, ElementType::F32, 4);
  ASSERT_OK(k::attention(in.q, in.k, in.v, options, out, lse));
  ASSERT_OK(k::attentionGrad(in.q, in.k, in.v, grad, options, dq, dk, dv));
  // Head 2 of batch element 1 alone, as a device of a 2 x 3 split holds it.
  auto slice = [](const HostTensor &t) {
    HostTensor s;
    EXPECT_TRUE(k::slice(t, {1, 2, 0, 0},
                         {2, 3, t.getDimSize(2), t.getDimSize(3)}, {1, 1, 1, 1},
                         s)
                    .ok());
    return s;
  };
  options.position.offset = {1, 2, 0, 0};
  HostTensor blockOut, blockLse, bq, bk, bv;
  ASSERT_OK(k::attention(slice(in.q), slice(in.k), slice(in.v), options,
                         blockOut, blockLse));
  ASSERT_OK(k::attentionGrad(slice(in.q), slice(in.k), slice(in.v), slice(grad),
                             options, bq, bk, bv));
  EXPECT_EQ(valuesOf(blockOut), valuesOf(slice(out)));
  EXPECT_EQ(valuesOf(bq), valuesOf(slice(dq)));
  EXPECT_EQ(valuesOf(bk), valuesOf(slice(dk)));
  EXPECT_EQ(valuesOf(bv), valuesOf(slice(dv)));
}

TEST(Attention, RejectsMismatchedOperands) {
  Inputs in;
  HostTensor out, lse;
  HostTensor k3 = HostTensor::random("k", {2, 3, 5, 3}, ElementType::F32, 2);
  Status status = k::attention(in.q, k3, in.v, {}, out, lse);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("another head dimension"), std::string::npos)
      << status.message();
}

} // namespace
