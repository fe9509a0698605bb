//===- GlobalViewTest.cpp - Layouts of placed signatures and the interpreter
//-===//

#include "distir/Executor/GlobalView.h"
#include "distir/Dialect/Dist/IR/DistDialect.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Executor/Executor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace distir;
using namespace mlir;

namespace {

class GlobalViewTest : public ::testing::Test {
protected:
  GlobalViewTest() {
    dist::registerExecutionInterfaceExternalModels(context);
    context.getOrLoadDialect<dist::DistDialect>();
    context.getOrLoadDialect<func::FuncDialect>();
  }

  func::FuncOp parse(const char *source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return module ? module->lookupSymbol<func::FuncOp>("main") : func::FuncOp();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

HostTensor iota(std::vector<int64_t> shape) {
  HostTensor tensor(ElementType::F32, std::move(shape));
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    tensor.setFromDouble(i, static_cast<double>(i));
  return tensor;
}

// Device d = 2 dp + tp: x splits rows over dp and columns over tp.
constexpr const char *kShardedProgram = R"mlir(
dist.mesh @mesh shape = [2, 2] axes = ["dp", "tp"]
func.func @main(%x: tensor<2x3xf32, #dist.devices<[0:4]>> {dist.name = "x", dist.sharding = #dist.sharding<@mesh, [["dp"], ["tp"]]>},
                %p: tensor<4xf32, #dist.devices<[0:4]>> {dist.sharding = #dist.sharding<@mesh, [["tp"]], partial = ["dp"]>})
    -> (tensor<2x3xf32, #dist.devices<[0:4]>> {dist.name = "y", dist.sharding = #dist.sharding<@mesh, [["dp"], ["tp"]]>}) {
  %0 = dist.relu %x : (tensor<2x3xf32, #dist.devices<[0:4]>>) -> tensor<2x3xf32, #dist.devices<[0:4]>>
  return %0 : tensor<2x3xf32, #dist.devices<[0:4]>>
}
)mlir";

TEST_F(GlobalViewTest, LayoutFollowsTheMeshCoordinates) {
  func::FuncOp func = parse(kShardedProgram);
  ASSERT_TRUE(func);
  std::vector<GlobalLayout> layouts;
  ASSERT_TRUE(succeeded(getArgumentLayouts(func, layouts)));
  ASSERT_EQ(layouts.size(), 2u);
  const GlobalLayout &x = layouts[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.globalShape, (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(x.numBlocks, 4);
  EXPECT_EQ(x.blockOffsets, (std::vector<std::vector<int64_t>>{
                                {0, 0}, {0, 3}, {2, 0}, {2, 3}}));
  const GlobalLayout &p = layouts[1];
  EXPECT_EQ(p.name, "arg1");
  EXPECT_EQ(p.globalShape, (std::vector<int64_t>{8}));
  EXPECT_EQ(p.partialRanks, (std::vector<int64_t>{0, 0, 1, 1}));
}

TEST_F(GlobalViewTest, DistributeThenAssembleIsTheIdentity) {
  func::FuncOp func = parse(kShardedProgram);
  ASSERT_TRUE(func);
  std::vector<GlobalLayout> layouts;
  ASSERT_TRUE(succeeded(getArgumentLayouts(func, layouts)));
  for (const GlobalLayout &layout : layouts) {
    HostTensor global = iota(layout.globalShape);
    PlacedValue placed;
    ASSERT_TRUE(distributeGlobal(global, layout, placed).ok());
    ASSERT_EQ(placed.size(), 4u);
    HostTensor back;
    Status status = assembleGlobal(placed, layout, 0, 0, back);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_TRUE(back.isBitwiseEqual(global)) << layout.name;
  }
  // Device 3 holds rows 2..3, columns 3..5 of x.
  PlacedValue x;
  ASSERT_TRUE(distributeGlobal(iota({4, 6}), layouts[0], x).ok());
  EXPECT_EQ(x.locals[3]->getAsDouble(0), 15);
  // The partial argument: dp rank 0 holds the value, dp rank 1 zeros.
  PlacedValue p;
  ASSERT_TRUE(distributeGlobal(iota({8}), layouts[1], p).ok());
  EXPECT_EQ(p.locals[1]->getAsDouble(0), 4);
  EXPECT_EQ(p.locals[3]->getAsDouble(0), 0);
}

TEST_F(GlobalViewTest, ReportsWrongGlobalsAndDisagreeingReplicas) {
  func::FuncOp func = parse(R"mlir(
func.func @main(%r: tensor<2xf32, #dist.devices<[0:2]>> {dist.name = "r"}) -> tensor<2xf32, #dist.devices<[0:2]>> {
  return %r : tensor<2xf32, #dist.devices<[0:2]>>
})mlir");
  ASSERT_TRUE(func);
  std::vector<GlobalLayout> layouts;
  ASSERT_TRUE(succeeded(getArgumentLayouts(func, layouts)));
  PlacedValue placed;
  Status wrong = distributeGlobal(iota({3}), layouts[0], placed);
  EXPECT_FALSE(wrong.ok());
  EXPECT_NE(
      wrong.message().find("'r' needs a global [2] f32 tensor, got [3] f32"),
      std::string::npos);
  ASSERT_TRUE(distributeGlobal(iota({2}), layouts[0], placed).ok());
  HostTensor other = iota({2});
  other.setFromDouble(1, 1.5);
  placed.locals[1] = std::make_shared<const HostTensor>(other);
  HostTensor global;
  Status status = assembleGlobal(placed, layouts[0], 0, 0.1, global);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("replicas on devices 0 and 1 differ"),
            std::string::npos);
  // Within tolerance the replicas agree.
  EXPECT_TRUE(assembleGlobal(placed, layouts[0], 0, 1.0, global).ok());
}

TEST_F(GlobalViewTest, InterpreterRunsAndRespectsTheMemoryLimit) {
  func::FuncOp func = parse(kShardedProgram);
  ASSERT_TRUE(func);
  std::vector<GlobalLayout> layouts, resultLayouts;
  ASSERT_TRUE(succeeded(getArgumentLayouts(func, layouts)));
  ASSERT_TRUE(succeeded(getResultLayouts(func, resultLayouts)));
  std::vector<PlacedValue> arguments(2);
  HostTensor x = iota({4, 6});
  x.setFromDouble(0, -1); // relu maps it to 0.
  ASSERT_TRUE(distributeGlobal(x, layouts[0], arguments[0]).ok());
  ASSERT_TRUE(distributeGlobal(iota({8}), layouts[1], arguments[1]).ok());

  std::vector<PlacedValue> results;
  Interpreter interpreter(*module);
  ASSERT_TRUE(succeeded(interpreter.run(func, arguments, results)));
  HostTensor y;
  ASSERT_TRUE(assembleGlobal(results[0], resultLayouts[0], 0, 0, y).ok());
  EXPECT_EQ(y.getAsDouble(0), 0);
  EXPECT_EQ(y.getAsDouble(23), 23);

  // Arguments alone need 4 x (24 + 16) bytes; the relu needs 96 more.
  std::string error;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diagnostic) {
    error = diagnostic.str();
    return success();
  });
  InterpreterOptions small;
  small.maxLiveBytes = 200;
  Interpreter limited(*module, small);
  EXPECT_TRUE(failed(limited.run(func, arguments, results)));
  EXPECT_NE(error.find("needs more than 200 bytes"), std::string::npos)
      << error;
}

} // namespace
