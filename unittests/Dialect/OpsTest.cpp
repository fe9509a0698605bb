//===- OpsTest.cpp - shape rules and cost counts of dist ops --------------===//

#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

class OpsTest : public ::testing::Test {
protected:
  OpsTest() {
    context.loadDialect<DistDialect, func::FuncDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
    builder.setInsertionPointToEnd(module->getBody());
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element = {},
                          DevicesAttr devices = {}) {
    return RankedTensorType::get(
        shape, element ? element : builder.getF32Type(), devices);
  }

  /// A function with arguments of `types` to build ops on.
  SmallVector<Value> args(ArrayRef<Type> types) {
    auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                     builder.getFunctionType(types, {}));
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    return SmallVector<Value>(entry->getArguments());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  OpBuilder builder{&context};
};

TEST_F(OpsTest, MatmulShapeAndFlops) {
  auto v = args({tensor({4, 2, 8, 16}), tensor({16, 32})});
  auto mm = MatmulOp::create(builder, builder.getUnknownLoc(), v[0], v[1]);
  EXPECT_EQ(mm.getType(), tensor({4, 2, 8, 32}));
  EXPECT_DOUBLE_EQ(mm.getFlops(), 2.0 * 4 * 2 * 8 * 32 * 16);
  auto op = cast<CostOpInterface>(mm.getOperation());
  EXPECT_EQ(op.getBytesRead(), (4 * 2 * 8 * 16 + 16 * 32) * 4);
  EXPECT_EQ(op.getBytesWritten(), 4 * 2 * 8 * 32 * 4);
  EXPECT_EQ(op.getCostKind(), "matmul");
}

TEST_F(OpsTest, MatmulTransposeAndVectors) {
  auto v = args({tensor({16, 8}), tensor({32, 16}), tensor({16})});
  auto mm = MatmulOp::create(builder, builder.getUnknownLoc(), v[0], v[1],
                             /*transpose_a=*/true, /*transpose_b=*/true);
  EXPECT_EQ(mm.getType(), tensor({8, 32}));
  // A rank-1 operand is promoted then its dimension dropped (NumPy).
  auto mv = MatmulOp::create(builder, builder.getUnknownLoc(), v[1], v[2]);
  EXPECT_EQ(mv.getType(), tensor({32}));
}

TEST_F(OpsTest, BroadcastingElementwise) {
  auto v = args({tensor({8, 1, 6, 1}), tensor({7, 1, 5})});
  auto add = AddOp::create(builder, builder.getUnknownLoc(), v[0], v[1]);
  EXPECT_EQ(add.getType(), tensor({8, 7, 6, 5}));
  EXPECT_DOUBLE_EQ(add.getFlops(), 8.0 * 7 * 6 * 5);
}

TEST_F(OpsTest, InferenceFailsOnMismatch) {
  auto v = args({tensor({4, 3}), tensor({2})});
  SmallVector<Type> inferred;
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(AddOp::inferReturnTypes(
      &context, builder.getUnknownLoc(), ValueRange{v[0], v[1]},
      builder.getDictionaryAttr({}), nullptr, {}, inferred)));
  EXPECT_NE(message.find("cannot broadcast shapes [4, 3] and [2]"),
            std::string::npos);
}

TEST_F(OpsTest, PlacementFollowsOperands) {
  auto devices = DevicesAttr::get(&context, {0, 1, 2, 3});
  auto v = args({tensor({8, 16}, {}, devices), tensor({16, 4}, {}, devices)});
  auto mm = MatmulOp::create(builder, builder.getUnknownLoc(), v[0], v[1]);
  EXPECT_EQ(getPlacement(mm.getType()), devices);
  auto groups = DeviceGroupsAttr::get(&context, {{0, 1}, {2, 3}});
  auto gathered = AllGatherOp::create(builder, builder.getUnknownLoc(), mm,
                                      groups, /*dim=*/1);
  EXPECT_EQ(gathered.getType(), tensor({8, 8}, {}, devices));
  auto scattered = ReduceScatterOp::create(builder, builder.getUnknownLoc(), mm,
                                           groups, 0, ReductionKind::sum);
  EXPECT_EQ(scattered.getType(), tensor({4, 4}, {}, devices));
  auto roots = GatherOp::create(builder, builder.getUnknownLoc(), mm, groups,
                                /*root=*/1, /*dim=*/0);
  EXPECT_EQ(getPlacement(roots.getType()), DevicesAttr::get(&context, {1, 3}));
  EXPECT_EQ(cast<CollectiveOpInterface>(roots.getOperation()).getPayloadBytes(),
            16 * 4 * 4);
}

TEST_F(OpsTest, TrillionElementCountsDoNotOverflow) {
  // 10^12 elements: 4 * 10^12 bytes, beyond 32 bits by far.
  auto v = args({tensor({1000000, 1000000}), tensor({1000000, 1000000})});
  auto add = AddOp::create(builder, builder.getUnknownLoc(), v[0], v[1]);
  auto op = cast<CostOpInterface>(add.getOperation());
  EXPECT_DOUBLE_EQ(op.getFlops(), 1e12);
  EXPECT_EQ(op.getBytesRead(), int64_t{8} * 1000000000000);
  EXPECT_EQ(op.getBytesWritten(), int64_t{4} * 1000000000000);
  // A matmul of two 10^6 x 10^6 matrices: 2 * 10^18 FLOPs.
  auto mm = MatmulOp::create(builder, builder.getUnknownLoc(), v[0], v[1]);
  EXPECT_DOUBLE_EQ(mm.getFlops(), 2e18);
  // The LM head of an unsplit 1T-parameter step (batch 3072 x seq 2048,
  // hidden 25600, vocab 51200); the whole step (~6 x 10^12 x 6.3 x 10^6
  // tokens = 3.8 x 10^19) would exceed 2^63, so counts are doubles.
  auto w = args({tensor({3072, 2048, 25600}, builder.getBF16Type()),
                 tensor({25600, 51200}, builder.getBF16Type())});
  auto head = MatmulOp::create(builder, builder.getUnknownLoc(), w[0], w[1]);
  EXPECT_DOUBLE_EQ(head.getFlops(), 2.0 * 3072 * 2048 * 25600 * 51200);
  EXPECT_EQ(cast<CostOpInterface>(head.getOperation()).getBytesWritten(),
            int64_t{3072} * 2048 * 51200 * 2);
}

TEST_F(OpsTest, ViewsAndLookupsMoveOnlyWhatTheyTouch) {
  auto v =
      args({tensor({51200, 1024}), tensor({4, 128}, builder.getI64Type())});
  auto take = TakeOp::create(builder, builder.getUnknownLoc(), v[0], v[1], 0);
  EXPECT_EQ(take.getType(), tensor({4, 128, 1024}));
  auto op = cast<CostOpInterface>(take.getOperation());
  // Reads the indices and the gathered rows, not the 200 MB table.
  EXPECT_EQ(op.getBytesRead(), 4 * 128 * 8 + 4 * 128 * 1024 * 4);
  auto reshape = ReshapeOp::create(builder, builder.getUnknownLoc(), take,
                                   ArrayRef<int64_t>{512, -1});
  EXPECT_EQ(reshape.getType(), tensor({512, 1024}));
  EXPECT_EQ(cast<CostOpInterface>(reshape.getOperation()).getBytesRead(), 0);
}

TEST_F(OpsTest, ParsedModuleVerifies) {
  const char *source = R"mlir(
    func.func @f(%x: tensor<4x8xf32, #dist.devices<[0:2]>>) -> tensor<8x8xf32, #dist.devices<[0:2]>> {
      %0 = dist.all_gather %x dim 0 groups [[0, 1]] : tensor<4x8xf32, #dist.devices<[0:2]>> -> tensor<8x8xf32, #dist.devices<[0:2]>>
      return %0 : tensor<8x8xf32, #dist.devices<[0:2]>>
    })mlir";
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(succeeded(verify(*parsed)));
}

TEST_F(OpsTest, DeviceListPrintingIsCompact) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printDeviceRuns(os, canonicalDeviceRuns(ArrayRef<int64_t>{0, 1, 2, 3, 8, 10,
                                                            12, 14, 20, 25}));
  EXPECT_EQ(text, "0:4, 8:16:2, 20, 25");
}

} // namespace
