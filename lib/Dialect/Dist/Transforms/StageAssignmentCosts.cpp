//===- StageAssignmentCosts.cpp - what a stage's ops take, for the cut ----===//
//
// The cut balances the stages' time per microbatch on the program the
// devices run: tensor-sharded, with its collectives, at the microbatch's
// shapes, memory-bound work included. Those are known only after
// partitioning, which needs the cut. So a copy of the unplaced step (a
// trial) is placed on one stage's devices the way the real flow will place
// every stage (the same annotation, propagation and partitioner), with the
// batch also split over a "microbatch" axis of the microbatch count:
// microbatches are a sharding over time (docs/parallelize.md), so this gives
// every per-microbatch op its local shapes after the split. Each op of the
// trial is timed (OpTimer, the cost model through the dialect interface) and
// its time is charged to the unplaced op it came from. Work that runs once
// per step (the optimizer, the reduction of gradients over the batch) is not
// charged: the cut then depends on the microbatch's shape but not on how
// many there are, so a program of two microbatches (dist-search's template)
// is cut like one of many.
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#define DEBUG_TYPE "dist-pipeline-stages"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::pipeline;

namespace {

constexpr StringLiteral kMicrobatchAxis = "microbatch";

/// The trial's mesh: `mesh` with one stage and, before the other axes, the
/// microbatch axis (device ids in row-major order, so the tensor-parallel
/// groups stay consecutive, as on the real mesh).
MeshOp createTrialMesh(ModuleOp module, const Mesh &mesh, int64_t ppAxis,
                       int64_t numMicrobatches) {
  SmallVector<int64_t> shape;
  SmallVector<StringRef> axes;
  for (int64_t i = 0; i < mesh.getRank(); ++i) {
    if (i == ppAxis) {
      shape.push_back(1);
      axes.push_back(mesh.getAxes()[i]);
      shape.push_back(numMicrobatches);
      axes.push_back(kMicrobatchAxis);
      continue;
    }
    shape.push_back(mesh.getShape()[i]);
    axes.push_back(mesh.getAxes()[i]);
  }
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto trialMesh = MeshOp::create(
      builder, module.getLoc(), builder.getStringAttr("stage_cost_trial_mesh"),
      builder.getDenseI64ArrayAttr(shape), builder.getStrArrayAttr(axes),
      DenseI64ArrayAttr());
  SymbolTable(module).insert(trialMesh);
  return trialMesh;
}

/// The ops of the placed trial that run once per step: those that do not
/// depend on the data, the optimizer, and communication or sums that only
/// feed such ops (gradient reductions sink below the accumulation of the
/// microbatches; see splitPipelineStages).
DenseSet<Operation *> findOncePerStepOps(func::FuncOp trial) {
  Block &body = trial.getBody().front();
  DenseSet<Operation *> perData;
  for (Operation &op : body.without_terminator()) {
    bool reads = llvm::any_of(op.getOperands(), [&](Value operand) {
      if (auto arg = dyn_cast<BlockArgument>(operand))
        return getArgRole(trial, arg.getArgNumber()) == Role::Data;
      return perData.contains(operand.getDefiningOp());
    });
    if (reads)
      perData.insert(&op);
  }
  DenseSet<Operation *> once;
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    bool sinks =
        (isCommunication(&op) || isa<AddOp>(op)) &&
        llvm::all_of(op.getUsers(), [&](Operation *user) {
          return user->hasTrait<OpTrait::IsTerminator>() || once.contains(user);
        });
    if (!perData.contains(&op) || getPhase(&op) == Phase::Optimizer || sinks)
      once.insert(&op);
  }
  return once;
}

/// Places `trial` (a copy of the step, every op tagged with its index as
/// `dist.layer`) on one stage of `trialMesh`, and charges the time of each
/// per-microbatch op to the index it carries.
LogicalResult
timeTrial(func::FuncOp trial, MeshOp trialMesh, int64_t ppAxis,
          const PipelineOptions &options,
          function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate,
          SmallVectorImpl<double> &times) {
  trial->setAttr(DistDialect::kMeshAttrName, FlatSymbolRefAttr::get(trialMesh));
  if (annotate && failed(annotate(trial, trialMesh)))
    return failure();
  if (options.numMicrobatches > 1 &&
      failed(annotateDataParallel(trial, trialMesh, kMicrobatchAxis)))
    return failure();
  if (failed(propagateShardings(trial)))
    return failure();
  Mesh stage = Mesh::fromOp(trialMesh).getSlice({ppAxis}, {0});
  PartitionOptions partitionOptions;
  partitionOptions.meshOf = [&](Operation *) { return &stage; };
  if (failed(partitionFunction(trial, partitionOptions)))
    return failure();
  DenseSet<Operation *> once = findOncePerStepOps(trial);
  for (Operation &op : trial.getBody().front().without_terminator()) {
    std::optional<int64_t> index = getLayer(&op);
    if (once.contains(&op) || !index || *index < 0 ||
        *index >= (int64_t)times.size())
      continue;
    if (std::optional<double> seconds = options.opTimer(&op))
      times[*index] += *seconds;
  }
  return success();
}

} // namespace

FailureOr<DenseMap<Operation *, double>> mlir::dist::measureMicrobatchTimes(
    func::FuncOp func, MeshOp meshOp, const PipelineOptions &options,
    function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate) {
  assert(options.opTimer && "measuring needs a timer");
  auto module = func->getParentOfType<ModuleOp>();
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> ppAxis = mesh.getAxisIndex("pp");
  if (!module || !ppAxis)
    return mlir::emitError(func.getLoc())
           << "the stage cut needs the function in a module and a mesh with "
              "a \"pp\" axis";
  MeshOp trialMesh =
      createTrialMesh(module, mesh, *ppAxis, options.numMicrobatches);
  OpBuilder builder(func);
  builder.setInsertionPointAfter(func);
  auto trial = cast<func::FuncOp>(builder.clone(*func));
  SymbolTable(module).insert(trial);
  SmallVector<Operation *> originals;
  for (auto [original, copy] :
       llvm::zip(func.getBody().front().without_terminator(),
                 trial.getBody().front().without_terminator())) {
    copy.setAttr(DistDialect::kLayerAttrName,
                 builder.getI64IntegerAttr(originals.size()));
    originals.push_back(&original);
  }
  SmallVector<double> times(originals.size(), 0.0);
  LogicalResult timed =
      timeTrial(trial, trialMesh, *ppAxis, options, annotate, times);
  trial.erase();
  trialMesh.erase();
  if (failed(timed))
    return failure();
  DenseMap<Operation *, double> result;
  for (auto [op, seconds] : llvm::zip(originals, times))
    result[op] = seconds;
  return result;
}
