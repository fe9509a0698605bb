//===- Pipeline.h - pipeline parallelism: stages, microbatches, schedules -*-
// C++ -*-===//
//
// The C++ entry points behind dist-pipeline and dist-parallelize. The flow
// on an unplaced training step (dist-autodiff's output), pipelineFunction:
//
//   cutPipelineStages
//       cuts the ops into stages balanced by time (or FLOPs):
//       `dist.stage` on every op.
//   (annotation, e.g. data / tensor parallelism, Sharding.h), then
//   propagateShardings and partitionFunction
//       place every op on its stage's slice of the mesh along "pp" (split
//       over the slice's dp x tp devices as annotated) and send the values
//       that cross stages.
//   splitPipelineStages
//       splits the batch into microbatches, runs each stage's forward and
//       backward once per microbatch, sums over the microbatches what sums
//       over the batch (weight gradients, the loss), runs the optimizer once
//       and orders the block by the schedule; ops get `dist.microbatch`.
//
// See docs/parallelize.md.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_PIPELINE_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_PIPELINE_H

#include "distir/Dialect/Dist/IR/CostEstimator.h"
#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::dist {

/// Op attribute: the pipeline stage (an index) an op runs on.
inline constexpr llvm::StringLiteral kStageAttrName =
    DistDialect::kStageAttrName;
/// Op attribute: the microbatch an op works on (absent on ops that run once
/// per step: optimizer updates, accumulation results, parameter-only ops).
inline constexpr llvm::StringLiteral kMicrobatchAttrName =
    DistDialect::kMicrobatchAttrName;

// PipelineSchedule, symbolizePipelineSchedule and stringifyPipelineSchedule
// come from DistEnums.td (one definition with the search).

/// One unit of a stage's schedule: the forward or the backward of a
/// microbatch on one of the stage's model chunks.
struct PipelineStep {
  bool backward;
  int64_t microbatch;
  /// Which of the stage's `interleave` model chunks runs: the virtual stage
  /// chunk * numStages + stage (0 without interleaving).
  int64_t chunk = 0;
};

/// The order in which stage `stage` of `numStages` runs the forward and
/// backward of `numMicrobatches` microbatches on its `interleave` model
/// chunks. 1F1B: min(numStages - stage - 1, numMicrobatches) warm-up
/// forwards, then one forward and one backward, then the remaining
/// backwards. Interleaved 1F1B (interleave > 1, Megatron-LM's
/// forward_backward_pipelining_with_interleaving, Narayanan et al. SC'21
/// 2.2.2): the same over numMicrobatches x interleave chunk-microbatches,
/// taken in groups of numStages microbatches per chunk (forwards chunk 0 to
/// interleave - 1, backwards the other way), with (numStages - stage - 1) x
/// 2 + (interleave - 1) x numStages warm-up forwards (all of them when
/// numMicrobatches = numStages, as Megatron-LM runs it); needs
/// numMicrobatches a multiple of numStages (checkInterleave). The one
/// definition of the schedules (the pass orders the block by it; the search
/// replays it).
llvm::SmallVector<PipelineStep>
getStageSchedule(PipelineSchedule schedule, int64_t numStages, int64_t stage,
                 int64_t numMicrobatches, int64_t interleave = 1);

enum class PipelineUnitKind : uint8_t { Forward, Backward, Epilogue };

/// A piece of a stage's program: the forward or backward of one microbatch,
/// or the epilogue (what combines the microbatches, the optimizer).
struct PipelineUnit {
  /// The virtual stage (model chunk): chunk * numStages + the stage whose
  /// devices run it; the stage itself without interleaving. kAllStages for
  /// the epilogues of every stage together.
  int64_t stage;
  PipelineUnitKind kind;
  /// -1 for the epilogue.
  int64_t microbatch;
};

/// Stage `stage`'s units in schedule order: getStageSchedule's steps of the
/// kinds the stage has (without a backward, 1F1B has nothing to alternate:
/// the forwards in order), then its epilogue if it has one.
llvm::SmallVector<PipelineUnit> getStageUnits(PipelineSchedule schedule,
                                              int64_t numStages, int64_t stage,
                                              int64_t numMicrobatches,
                                              bool hasForward, bool hasBackward,
                                              bool hasEpilogue);

/// The same with `interleave` model chunks per stage: `has(virtualStage,
/// kind)` says which units exist; the units of each chunk run in
/// getStageSchedule's order, then the chunks' epilogues in chunk order.
llvm::SmallVector<PipelineUnit> getStageUnits(
    PipelineSchedule schedule, int64_t numStages, int64_t stage,
    int64_t numMicrobatches, int64_t interleave,
    llvm::function_ref<bool(int64_t virtualStage, PipelineUnitKind kind)> has);

/// What the order of a pipelined block depends on.
struct PipelineUnitGraph {
  int64_t numStages = 0;
  int64_t numMicrobatches = 0;
  /// Model chunks per stage: numStages x interleave virtual stages.
  int64_t interleave = 1;
  /// Per stage, its units (of its virtual stages) in schedule order
  /// (getStageUnits).
  llvm::SmallVector<llvm::SmallVector<PipelineUnit>> sequences;
  /// Per virtual stage and kind: the (virtual stage, kind) units of other
  /// virtual stages it reads from, for the same microbatch (an epilogue reads
  /// epilogues).
  llvm::SmallVector<
      std::array<llvm::SmallVector<std::pair<int64_t, PipelineUnitKind>>, 3>>
      inputs;
  /// Per virtual stage and kind: how long one unit takes (only the order
  /// matters).
  llvm::SmallVector<std::array<double, 3>> durations;
};

/// The stage of the unit that holds every stage's epilogue.
inline constexpr int64_t kAllStages = -1;

/// Interleaves the stages' sequences into the one block order: among the
/// stages whose next unit has all its inputs emitted, the one that can start
/// earliest (ties: the lower stage) goes next. The result is a topological
/// order whose projection on every stage is that stage's sequence. When the
/// epilogues read each other both ways (a global gradient norm: each stage's
/// sum of squares goes to the others, the clip coefficient comes back), no
/// epilogue can go first: they become one unit {kAllStages, Epilogue, -1}
/// at the end, whose ops keep their program order. Fails when no stage can
/// go on (a unit waits for one its own stage runs later).
FailureOr<llvm::SmallVector<PipelineUnit>>
mergePipelineUnits(const PipelineUnitGraph &graph);

/// Layers (`dist.layer` indices, in order) the first and the last chunk
/// (stage without interleaving) take, as Megatron-LM users give the stages
/// that hold the embedding and the LM head fewer transformer layers; 0: the
/// time-based cut decides. The other layers are cut by time over the chunks
/// in between.
struct StageCutEnds {
  int64_t first = 0;
  int64_t last = 0;
};

struct PipelineOptions {
  int64_t numStages = 1;
  int64_t numMicrobatches = 1;
  PipelineSchedule schedule = PipelineSchedule::OneFOneB;
  /// Model chunks per stage (virtual pipeline stages): the layers are cut
  /// into numStages x interleave chunks, chunk c on stage c mod numStages,
  /// and every op's `dist.stage` is its chunk (its virtual stage).
  int64_t interleave = 1;
  /// Layers of the first and last chunk (first-layers, last-layers).
  StageCutEnds ends;
  /// Times the placed ops for the stage cut (getRegisteredOpTimer: the cost
  /// model of a cluster); null: the cut balances FLOPs.
  OpTimer opTimer;
  /// What measureMicrobatchTimes gives for each op of the function's body,
  /// in order, when the caller measured it already (dist-search times one
  /// shape for every pp); empty: cutPipelineStages measures.
  std::vector<double> measuredTimes;
  /// Values that cross stages replicated over the stage's "tp" axis go as
  /// 1/tp slices and are all-gathered over tp on arrival (Megatron-LM's
  /// --scatter-gather-tensors-in-pipeline; PartitionOptions).
  bool scatterGather = false;
};

/// The options of a pass: a one-line error at `loc` for a degree below 1 or
/// a cluster spec that does not parse. A non-empty `cluster` gives the cut
/// the op timer registered on the context (getRegisteredOpTimer), if any.
FailureOr<PipelineOptions> getPipelineOptions(Location loc, int64_t numStages,
                                              int64_t numMicrobatches,
                                              PipelineSchedule schedule,
                                              llvm::StringRef cluster = "",
                                              int64_t interleave = 1);

/// One line at `loc` unless `interleave` model chunks per stage can run:
/// interleave >= 1; above 1, the 1F1B schedule and microbatches a multiple
/// of the stages (Megatron-LM's interleaved schedule takes them in groups of
/// numStages).
LogicalResult checkInterleave(Location loc, int64_t numStages,
                              int64_t numMicrobatches,
                              PipelineSchedule schedule, int64_t interleave);

/// The functions of `module` the passes transform: those with a body.
llvm::SmallVector<func::FuncOp> getFunctionsToPipeline(ModuleOp module);

/// The stage of an op (its `dist.stage`), if it has one.
std::optional<int64_t> getPipelineStage(Operation *op);

/// Sets `dist.stage` on every op of the unplaced `func`: contiguous ranges of
/// `dist.layer` hints whose largest summed `opCost` is minimal (without
/// hints, the forward ops in order); unhinted ops follow their data;
/// constants are copied to every stage that uses them. `opCost` null: the
/// ops' FLOPs. With `interleave` > 1, numStages x interleave chunks
/// (virtual stages), `dist.stage` the chunk. `ends` fixes the layers of the
/// first and last chunk. Errors: more stages than layers, ends that leave
/// too few layers, a placed function, an op that is not a dist compute op.
LogicalResult
assignPipelineStages(func::FuncOp func, int64_t numStages,
                     llvm::function_ref<double(Operation *)> opCost = nullptr,
                     int64_t interleave = 1, StageCutEnds ends = {});

/// The stage assignPipelineStages gives each `dist.layer` index (-1 for
/// indices no op has; empty for a function without hints), without
/// changing `func`: what dist-search needs of a cut.
FailureOr<std::vector<int64_t>>
cutPipelineLayers(func::FuncOp func, int64_t numStages,
                  llvm::function_ref<double(Operation *)> opCost = nullptr,
                  int64_t interleave = 1);

/// Seconds per microbatch that one device of a stage spends on each op of
/// the unplaced `func` (0 for the work done once per step: optimizer,
/// gradient reductions), measured with `options.opTimer` on a copy of `func`
/// placed as `pipelineFunction` places a stage: `annotate`d on a one-stage
/// copy of `mesh` whose batch is also split over the microbatches,
/// propagated and partitioned, collectives included. The copy is erased.
FailureOr<llvm::DenseMap<Operation *, double>> measureMicrobatchTimes(
    func::FuncOp func, MeshOp mesh, const PipelineOptions &options,
    llvm::function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate);

/// The cut of `pipelineFunction` alone: with a timer, balances
/// measureMicrobatchTimes (the busiest stage's time per microbatch), else
/// FLOPs; sets `dist.stage` on every op of the unplaced `func`.
LogicalResult cutPipelineStages(
    func::FuncOp func, MeshOp mesh, const PipelineOptions &options,
    llvm::function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate = nullptr);

/// Splits a staged function (every op has `dist.stage`; placed or not) into
/// `numMicrobatches` along dim 0 of its data arguments (`dist.role =
/// "data"`) and orders its block by the schedule. Errors at the function or
/// the op concerned: a batch not divisible by the microbatches, an op that
/// needs the whole batch, a schedule that cannot run the cut.
LogicalResult splitPipelineStages(func::FuncOp func,
                                  const PipelineOptions &options);

/// Fails (one line at the function, naming the argument) unless the batch
/// (dim 0) of every data argument divides into `dataParallel x
/// numMicrobatches` parts.
LogicalResult checkBatchSplit(func::FuncOp func, int64_t dataParallel,
                              int64_t numMicrobatches);

/// The whole flow on an unplaced `func`: stages, then `annotate` (may be
/// null: everything replicated on its stage's devices), propagation,
/// partitioning onto the slices of `mesh` along its "pp" axis (of size
/// numStages), microbatches.
LogicalResult pipelineFunction(
    func::FuncOp func, MeshOp mesh, const PipelineOptions &options,
    llvm::function_ref<LogicalResult(func::FuncOp, MeshOp)> annotate = nullptr);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_PIPELINE_H
