//===- DropoutTest.cpp - Training dropout and its counter-based masks -----===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace distir;
using namespace distir::testing;
namespace k = distir::kernels;

namespace {

/// The uniform draw the kernel makes from a Philox output word.
double uniformOf(uint32_t word) { return (word >> 8) * 0x1p-24; }

TEST(Dropout, DrawsRandom123sPhiloxKnownAnswers) {
  // Random123's known-answer vector for philox4x32-10 with a zero key and
  // counter (kat_vectors): 6627e8d5 e169c58d bc57ac4c 9b00dbd8. Elements 0-3
  // of (seed 0, id 0) are those four words.
  const uint32_t words[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu,
                             0x9b00dbd8u};
  for (uint64_t index = 0; index < 4; ++index) {
    double u = uniformOf(words[index]);
    EXPECT_TRUE(k::isDropoutKept(0, 0, index, u)) << index;
    EXPECT_FALSE(k::isDropoutKept(0, 0, index, std::nextafter(u, 1.0)))
        << index;
  }
}

TEST(Dropout, KeepsOneMinusRatioOfTheElements) {
  const int64_t n = 1 << 18;
  HostTensor x = makeTensor({n}, std::vector<double>(n, 1.0));
  HostTensor y, keep;
  k::DropoutPosition position{{n}, {0}};
  ASSERT_OK(
      k::dropoutTrain(x, 0.1, /*seed=*/1234, /*id=*/5, position, y, keep));
  ASSERT_EQ(keep.getElementType(), ElementType::I1);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool isKept = keep.getData<uint8_t>()[i];
    kept += isKept;
    ASSERT_NEAR(y.getAsDouble(i), isKept ? 1.0 / 0.9 : 0.0, 1e-6) << i;
  }
  // Binomial(n, 0.9): the standard deviation is 0.0006 of n.
  EXPECT_NEAR(double(kept) / n, 0.9, 0.004);
  // Another id draws other masks.
  HostTensor other;
  ASSERT_OK(k::dropoutTrain(x, 0.1, 1234, 6, position, y, other));
  EXPECT_NE(valuesOf(keep), valuesOf(other));
}

TEST(Dropout, ABlockDrawsTheMaskOfItsPlaceInTheReference) {
  HostTensor full = HostTensor::random("x", {8, 6}, ElementType::F32, 1);
  HostTensor fullY, fullKeep;
  ASSERT_OK(
      k::dropoutTrain(full, 0.5, 7, 3, {{8, 6}, {0, 0}}, fullY, fullKeep));
  // The block [4:8, 3:6] as a device of a 2 x 2 split holds it.
  std::vector<double> blockValues;
  for (int64_t i = 4; i < 8; ++i)
    for (int64_t j = 3; j < 6; ++j)
      blockValues.push_back(full.getAsDouble(i * 6 + j));
  HostTensor block = makeTensor({4, 3}, blockValues, ElementType::F32);
  HostTensor y, keep;
  ASSERT_OK(k::dropoutTrain(block, 0.5, 7, 3, {{8, 6}, {4, 3}}, y, keep));
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      int64_t global = (i + 4) * 6 + (j + 3);
      EXPECT_EQ(keep.getData<uint8_t>()[i * 3 + j],
                fullKeep.getData<uint8_t>()[global]);
      EXPECT_EQ(y.getAsDouble(i * 3 + j), fullY.getAsDouble(global));
    }
}

TEST(Dropout, GradientAppliesTheSameMaskAndScale) {
  HostTensor grad = makeTensor({4}, {1, 2, 3, 4});
  HostTensor keep = makeTensor({4}, {1, 0, 0, 1}, ElementType::I1);
  HostTensor out;
  ASSERT_OK(k::dropoutGrad(grad, keep, 0.75, out));
  expectTensor(out, {4}, {4, 0, 0, 16});
}

TEST(Dropout, ReportsBadArguments) {
  HostTensor x = makeTensor({4}, {1, 2, 3, 4});
  HostTensor y, keep;
  EXPECT_ERROR(k::dropoutTrain(x, 1.0, 0, 0, {{4}, {0}}, y, keep),
               "dropout_train: ratio must be in [0, 1)");
  EXPECT_ERROR(k::dropoutTrain(x, 0.1, 0, 0, {{6}, {3}}, y, keep),
               "the local block lies outside the reference tensor in "
               "dimension 0");
  EXPECT_ERROR(
      k::dropoutGrad(x, makeTensor({2}, {1, 1}, ElementType::I1), 0.1, y),
      "the mask must be an i1 tensor of the gradient's shape");
}

} // namespace
