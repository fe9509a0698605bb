//===- Pipeline.cpp - dist-pipeline: the flow and the pass ----------------===//
//
// Three steps on an unplaced training step:
//
// 1. Stages (cutPipelineStages): contiguous ranges of layers balanced by
//    their time per microbatch on the placed program, measured on a placed
//    copy (StageAssignmentCosts.cpp), or by FLOPs without a timer; ops
//    without a hint follow their data (StageAssignment.cpp).
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

LogicalResult mlir::dist::checkInterleave(Location loc, int64_t numStages,
                                          int64_t numMicrobatches,
                                          PipelineSchedule schedule,
                                          int64_t interleave) {
  if (interleave < 1)
    return mlir::emitError(loc)
           << "interleave must be at least 1, got " << interleave;
  if (interleave == 1)
    return success();
  if (schedule != PipelineSchedule::OneFOneB)
    return mlir::emitError(loc)
           << "interleave = " << interleave << " needs schedule=1f1b";
  if (numMicrobatches % numStages != 0)
    return mlir::emitError(loc)
           << "interleave = " << interleave
           << " needs microbatches to be a multiple of pp: " << numMicrobatches
           << " microbatches, pp = " << numStages;
  return success();
}

FailureOr<PipelineOptions> mlir::dist::getPipelineOptions(
    Location loc, int64_t numStages, int64_t numMicrobatches,
    PipelineSchedule schedule, StringRef cluster, int64_t interleave) {
  if (numStages < 1)
    return mlir::emitError(loc) << "pp must be at least 1, got " << numStages;
  if (numMicrobatches < 1)
    return mlir::emitError(loc)
           << "microbatches must be at least 1, got " << numMicrobatches;
  if (failed(checkInterleave(loc, numStages, numMicrobatches, schedule,
                             interleave)))
    return failure();
  PipelineOptions options{numStages, numMicrobatches, schedule, interleave, {}};
  if (cluster.empty())
    return options;
  FailureOr<OpTimer> timer = getRegisteredOpTimer(
      loc.getContext(), cluster, [&] { return mlir::emitError(loc); });
  if (failed(timer))
    return failure();
  options.opTimer = std::move(*timer);
  LLVM_DEBUG(if (!options.opTimer) llvm::dbgs()
             << "no op timer registered: the stage cut balances FLOPs\n");
  return options;
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

LogicalResult mlir::dist::cutPipelineStages(
    func::FuncOp func, MeshOp meshOp, const PipelineOptions &options,
    function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate) {
  // Interleaving cuts numStages x interleave chunks (virtual stages).
  int64_t numStages = options.numStages, interleave = options.interleave;
  if (!options.opTimer || numStages * interleave == 1)
    return assignPipelineStages(func, numStages, nullptr, interleave,
                                options.ends);
  if (!options.measuredTimes.empty()) {
    Block &body = func.getBody().front();
    if (options.measuredTimes.size() + 1 != body.getOperations().size())
      return mlir::emitError(func.getLoc())
             << "the stage cut was given times of "
             << options.measuredTimes.size() << " ops for a body of "
             << body.getOperations().size() - 1;
    DenseMap<Operation *, double> times;
    for (auto [op, seconds] :
         llvm::zip_equal(body.without_terminator(), options.measuredTimes))
      times[&op] = seconds;
    return assignPipelineStages(
        func, numStages, [&](Operation *op) { return times.lookup(op); },
        interleave, options.ends);
  }
  // Checked before anything is copied: the errors name the real function.
  if (failed(checkUnplacedStep(func, numStages)))
    return failure();
  FailureOr<DenseMap<Operation *, double>> times =
      measureMicrobatchTimes(func, meshOp, options, annotate);
  if (failed(times))
    return failure();
  return assignPipelineStages(
      func, numStages, [&](Operation *op) { return times->lookup(op); },
      interleave, options.ends);
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
                          << options.numStages << " stages x "
                          << options.interleave << " chunks, "
                          << options.numMicrobatches << " microbatches, "
                          << stringifyPipelineSchedule(options.schedule)
                          << "\n");
  if (failed(checkInterleave(func.getLoc(), options.numStages,
                             options.numMicrobatches, options.schedule,
                             options.interleave)) ||
      failed(
          checkBatchSplit(func, /*dataParallel=*/1, options.numMicrobatches)) ||
      failed(cutPipelineStages(func, meshOp, options, annotate)))
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
  // Chunk (virtual stage) c runs on stage c mod pp: interleaving wraps the
  // chunks around the stages.
  partitionOptions.meshOf = [&](Operation *op) -> const Mesh * {
    std::optional<int64_t> stage = getPipelineStage(op);
    return stage ? &stageMeshes[*stage % options.numStages] : nullptr;
  };
  if (options.scatterGather)
    partitionOptions.scatterGatherAxis = "tp";
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
    FailureOr<PipelineOptions> options = getPipelineOptions(
        module.getLoc(), pp, microbatches, schedule, cluster, interleave);
    if (failed(options))
      return signalPassFailure();
    options->scatterGather = scatterGather;
    options->ends = {firstLayers, lastLayers};
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
