//===- TestReshard.cpp - print the resharding plan between two layouts ----===//
//
// -dist-test-reshard plans, for every op carrying `test.from` and `test.to`
// (two #dist.sharding on one mesh), the steps from one layout to the other
// and sets them on the op as `test.plan`, one string per step ("all_gather
// dim 0 over [x]"). With `test.shape` (the global shape; f32 elements) it
// also sets `test.bytes`, the estimated bytes each device sends.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Layout.h"
#include "distir/Dialect/Dist/Transforms/Reshard.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

StringRef getKindName(ReshardStep::Kind kind) {
  switch (kind) {
  case ReshardStep::Kind::AllReduce:
    return "all_reduce";
  case ReshardStep::Kind::ReduceScatter:
    return "reduce_scatter";
  case ReshardStep::Kind::AllGather:
    return "all_gather";
  case ReshardStep::Kind::AllToAll:
    return "all_to_all";
  case ReshardStep::Kind::Slice:
    return "slice";
  case ReshardStep::Kind::MakePartial:
    return "make_partial";
  }
  llvm_unreachable("unknown reshard step");
}

std::string printStep(const ReshardStep &step, const Mesh &mesh) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << getKindName(step.kind);
  if (step.dim >= 0)
    os << " dim " << step.dim;
  if (step.concatDim >= 0)
    os << " from " << step.concatDim;
  os << " over [";
  llvm::interleaveComma(step.axes, os,
                        [&](int64_t axis) { os << mesh.getAxes()[axis]; });
  os << "]";
  return text;
}

struct TestReshardPass
    : public PassWrapper<TestReshardPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestReshardPass)

  StringRef getArgument() const final { return "dist-test-reshard"; }
  StringRef getDescription() const final {
    return "Set test.plan to the reshard steps from test.from to test.to";
  }

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](Operation *op) {
      auto from = op->getAttrOfType<ShardingAttr>("test.from");
      auto to = op->getAttrOfType<ShardingAttr>("test.to");
      if (!from || !to)
        return WalkResult::advance();
      return failed(plan(op, from, to)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  static LogicalResult plan(Operation *op, ShardingAttr from, ShardingAttr to) {
    if (from.getMesh() != to.getMesh())
      return op->emitError("test.from and test.to name different meshes");
    auto meshOp = SymbolTable::lookupNearestSymbolFrom<MeshOp>(
        op->getParentOp(), from.getMesh());
    if (!meshOp)
      return op->emitError() << "unknown mesh " << from.getMesh();
    Mesh mesh = Mesh::fromOp(meshOp);
    FailureOr<Layout> source =
        getLayout(from, mesh, [&] { return op->emitError() << "test.from: "; });
    FailureOr<Layout> target =
        getLayout(to, mesh, [&] { return op->emitError() << "test.to: "; });
    if (failed(source) || failed(target))
      return failure();
    if (source->getRank() != target->getRank())
      return op->emitError("test.from and test.to differ in rank");

    Builder builder(op->getContext());
    SmallVector<Attribute> steps;
    for (const ReshardStep &step : planReshard(*source, *target))
      steps.push_back(builder.getStringAttr(printStep(step, mesh)));
    op->setAttr("test.plan", builder.getArrayAttr(steps));
    if (auto shape = op->getAttrOfType<DenseI64ArrayAttr>("test.shape")) {
      if ((int64_t)shape.size() != source->getRank())
        return op->emitError("test.shape differs in rank from test.from");
      double bytes =
          estimateReshardBytes(shape.asArrayRef(),
                               /*elementBytes=*/4, *source, *target, mesh);
      op->setAttr("test.bytes", builder.getF64FloatAttr(bytes));
    }
    return success();
  }
};

} // namespace

namespace mlir::dist::test {
void registerTestReshardPass() { PassRegistration<TestReshardPass>(); }
} // namespace mlir::dist::test
