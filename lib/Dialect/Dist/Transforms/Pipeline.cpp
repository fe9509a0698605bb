//===- Pipeline.cpp - dist-pipeline: the flow and the pass ----------------===//
//
// Three steps on an unplaced training step:
//
// 1. Stages (assignPipelineStages): contiguous ranges of layers balanced by
//    FLOPs; ops without a hint follow their data (see assignStages).
// 2. Placement: the partitioner places each op on its stage's slice of the
//    mesh (PartitionOptions::meshOf), splits it over dp x tp when annotated,
//    and sends what crosses stages. Partitioning the unsplit step keeps this
//    step as cheap as the program is small.
// 3. Microbatches (splitPipelineStages), on the placed program. Splitting the
//    batch into microbatches is sharding the batch loop of every op over time
//    instead of devices, so it rests on the partitioner's per-op facts
//    (ShardingRule, localizeShapeAttributes; collectives get their rule
//    here): a value either holds the microbatch's block of the batch (split)
//    or sums over the microbatches to the unsplit value (partial: weight
//    gradients, the loss). Ops that average over the batch (normalized
//    loops) are scaled by 1/microbatches, so every microbatch value is
//    exactly the block or the partial sum of the unsplit one and combining
//    is a plain sum, whatever mix of means and sums the loss holds. Ops that
//    are linear in partial sums and only feed the optimizer (the data-parallel
//    all_reduce of a gradient, a send) sink below the accumulation: they run
//    once per step.
////
// The steps live in StageAssignment.cpp, MicrobatchSplit.cpp and
// PipelineSchedule.cpp (the block order).
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Dialect/Dist/Transforms/FunctionSharding.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dist-pipeline"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTPIPELINE
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::pipeline;

//===----------------------------------------------------------------------===//
// The flow
//===----------------------------------------------------------------------===//

FailureOr<PipelineOptions>
mlir::dist::getPipelineOptions(Location loc, int64_t numStages,
                               int64_t numMicrobatches,
                               PipelineSchedule schedule) {
  if (numStages < 1)
    return mlir::emitError(loc) << "pp must be at least 1, got " << numStages;
  if (numMicrobatches < 1)
    return mlir::emitError(loc)
           << "microbatches must be at least 1, got " << numMicrobatches;
  return PipelineOptions{numStages, numMicrobatches, schedule};
}

SmallVector<func::FuncOp> mlir::dist::getFunctionsToPipeline(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);
  return funcs;
}

LogicalResult mlir::dist::checkBatchSplit(func::FuncOp func,
                                          int64_t dataParallel,
                                          int64_t numMicrobatches) {
  int64_t parts = dataParallel * numMicrobatches;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    if (getArgRole(func, i) != Role::Data || parts == 1)
      continue;
    std::string name = describeArgument(func, i);
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (!type || type.getRank() == 0 || type.isDynamicDim(0))
      return mlir::emitError(func.getLoc())
             << "data " << name << " has no static batch dimension to split";
    int64_t batch = type.getDimSize(0);
    if (batch % parts == 0)
      continue;
    auto diag = mlir::emitError(func.getLoc())
                << "batch size " << batch << " of data " << name
                << " is not divisible by ";
    if (dataParallel > 1)
      diag << "dp x microbatches = " << dataParallel << " x "
           << numMicrobatches;
    else
      diag << numMicrobatches << " microbatches";
    return diag;
  }
  return success();
}

LogicalResult mlir::dist::pipelineFunction(
    func::FuncOp func, MeshOp meshOp, const PipelineOptions &options,
    function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate) {
  if (options.numMicrobatches < 1)
    return mlir::emitError(func.getLoc())
           << "microbatches must be at least 1, got "
           << options.numMicrobatches;
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> ppAxis = mesh.getAxisIndex("pp");
  if (!ppAxis || mesh.getAxisSize(*ppAxis) != options.numStages)
    return mlir::emitError(meshOp.getLoc())
           << "mesh @" << meshOp.getSymName()
           << " needs an axis \"pp\" of size " << options.numStages;
  LLVM_DEBUG(llvm::dbgs() << "pipelining @" << func.getSymName() << ": "
                          << options.numStages << " stages, "
                          << options.numMicrobatches << " microbatches, "
                          << stringifyPipelineSchedule(options.schedule)
                          << "\n");
  if (failed(
          checkBatchSplit(func, /*dataParallel=*/1, options.numMicrobatches)) ||
      failed(assignPipelineStages(func, options.numStages)))
    return failure();
  func->setAttr(DistDialect::kMeshAttrName, FlatSymbolRefAttr::get(meshOp));
  if (annotate && failed(annotate(func, meshOp)))
    return failure();
  if (failed(propagateShardings(func)))
    return failure();

  SmallVector<Mesh> stageMeshes;
  for (int64_t s = 0; s < options.numStages; ++s)
    stageMeshes.push_back(mesh.getSlice({*ppAxis}, {s}));
  PartitionOptions partitionOptions;
  partitionOptions.meshOf = [&](Operation *op) -> const Mesh * {
    std::optional<int64_t> stage = getPipelineStage(op);
    return stage ? &stageMeshes[*stage] : nullptr;
  };
  if (failed(partitionFunction(func, partitionOptions)))
    return failure();
  return splitPipelineStages(func, options);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

struct PipelinePass : public mlir::dist::impl::DistPipelineBase<PipelinePass> {
  using DistPipelineBase::DistPipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<PipelineOptions> options =
        getPipelineOptions(module.getLoc(), pp, microbatches, schedule);
    if (failed(options))
      return signalPassFailure();
    SmallVector<func::FuncOp> funcs = getFunctionsToPipeline(module);
    if (funcs.empty())
      return;
    FailureOr<MeshOp> meshOp = getOrCreateMesh(module, mesh, {{"pp", pp}});
    if (failed(meshOp))
      return signalPassFailure();
    for (func::FuncOp func : funcs)
      if (failed(pipelineFunction(func, *meshOp, *options)))
        return signalPassFailure();
  }
};

} // namespace
