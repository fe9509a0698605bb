//===- KernelTestUtils.h - Helpers shared by the kernel tests ---*- C++ -*-===//

#ifndef DISTIR_UNITTESTS_KERNELS_KERNELTESTUTILS_H
#define DISTIR_UNITTESTS_KERNELS_KERNELTESTUTILS_H

#include "distir/Kernels/Kernels.h"

#include "gtest/gtest.h"

#include <vector>

namespace distir::testing {

inline HostTensor makeTensor(std::vector<int64_t> shape,
                             std::vector<double> values,
                             ElementType type = ElementType::F32) {
  EXPECT_EQ(getNumElements(shape), static_cast<int64_t>(values.size()));
  return HostTensor::fromValues(type, std::move(shape), values);
}

inline std::vector<double> valuesOf(const HostTensor &tensor) {
  std::vector<double> values;
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    values.push_back(tensor.getAsDouble(i));
  return values;
}

/// Checks shape and every value within `tolerance`.
inline void expectTensor(const HostTensor &actual, std::vector<int64_t> shape,
                         std::vector<double> values, double tolerance = 1e-6) {
  ASSERT_EQ(actual.getShape(), shape);
  ASSERT_EQ(actual.getNumElements(), static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_NEAR(actual.getAsDouble(static_cast<int64_t>(i)), values[i],
                tolerance)
        << "at flat index " << i;
}

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    ::distir::Status status_ = (expr);                                         \
    ASSERT_TRUE(status_.ok()) << status_.message();                            \
  } while (false)

/// Expects failure with a message containing `fragment`.
#define EXPECT_ERROR(expr, fragment)                                           \
  do {                                                                         \
    ::distir::Status status_ = (expr);                                         \
    EXPECT_FALSE(status_.ok());                                                \
    EXPECT_NE(status_.message().find(fragment), std::string::npos)             \
        << "message: " << status_.message();                                   \
  } while (false)

} // namespace distir::testing

#endif // DISTIR_UNITTESTS_KERNELS_KERNELTESTUTILS_H
