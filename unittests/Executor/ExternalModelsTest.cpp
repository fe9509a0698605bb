//===- ExternalModelsTest.cpp - who registers which op interfaces ---------===//
//
// The dist dialect promises its gradient and execution models; their owners
// (autodiff, the executor) register them. These tests pin down that the two
// registrations keep every promise, and that the compiler's registration
// alone leaves the kernels out.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/InitAll.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

/// Whether `name` still waits for the `InterfaceT` model its dialect promised.
template <typename InterfaceT>
bool isPromiseOpen(RegisteredOperationName name) {
  return dialect_extension_detail::hasPromisedInterface(
      name.getDialect(), name.getTypeID(), InterfaceT::getInterfaceID());
}

TEST(ExternalModels, BothRegistrationsKeepEveryPromise) {
  DialectRegistry registry;
  distir::registerAllDialects(registry);
  dist::registerExecutionInterfaceExternalModels(registry);
  MLIRContext context(registry);
  auto *dialect = context.getOrLoadDialect<dist::DistDialect>();
  int compute = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (&name.getDialect() != dialect)
      continue;
    EXPECT_FALSE(isPromiseOpen<dist::ExecutableOpInterface>(name))
        << name.getStringRef().str();
    EXPECT_FALSE(isPromiseOpen<dist::GradientOpInterface>(name))
        << name.getStringRef().str();
    if (name.hasInterface<dist::ExecutableOpInterface>())
      ++compute;
  }
  EXPECT_GT(compute, 50);
}

TEST(ExternalModels, CompilerRegistrationLeavesTheKernelsOut) {
  DialectRegistry registry;
  distir::registerAllDialects(registry);
  MLIRContext context(registry);
  context.getOrLoadDialect<dist::DistDialect>();
  std::optional<RegisteredOperationName> take = RegisteredOperationName::lookup(
      dist::TakeOp::getOperationName(), &context);
  ASSERT_TRUE(take);
  EXPECT_TRUE(take->hasInterface<dist::GradientOpInterface>());
  EXPECT_FALSE(take->hasInterface<dist::ExecutableOpInterface>());
  EXPECT_TRUE(isPromiseOpen<dist::ExecutableOpInterface>(*take));
}

} // namespace
