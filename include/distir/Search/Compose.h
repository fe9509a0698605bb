//===- Compose.h - Programs from a two-microbatch template ------*- C++ -*-===//
//
// Building a configuration with dist-parallelize and lowering it costs time
// proportional to layers x microbatches (GPT-3 175B with 768 microbatches is
// millions of ops). dist-parallelize builds the microbatches of a stage as
// copies of one split op list: microbatch 0, then microbatches that also add
// their partial sums to the running ones; only the order of the units
// (stage, forward | backward, microbatch) depends on the microbatch count.
// So the search builds the configuration with dist-parallelize at two
// microbatches (the *template*), lowers it, and composes the program of m
// microbatches at the level of the simulator's tasks:
//
//   - the template's tasks are classified as the pass emitted them:
//     prologue (before the first microbatch), unit tasks (`dist.stage`,
//     `dist.microbatch`, `dist.phase`), step values the pass builds lazily
//     before their first user, and each stage's epilogue;
//   - units are merged in the order dist-pipeline computes: its own
//     getStageSchedule and mergePipelineUnits (Pipeline.h), fed with the
//     pass's costs (FLOPs + 1 per op of the unsplit program, over the
//     microbatches) rebuilt from the template; microbatch k replays the
//     template's microbatch min(k, 1); with a template of three or more
//     microbatches (ZeRO stages 1 and 2, whose step work on the complete
//     gradient sits inside the last microbatch; interleaved pipelines, whose
//     template is a group of pp microbatches) the first replays the first,
//     the last the last (with ZeRO's work as part of its unit) and the others
//     the second, whose tasks stand for those of every middle one;
//   - a task's dependency on template microbatch j from microbatch j' is
//     remapped to composed microbatch k - (j' - j); the epilogue reads the
//     last microbatch; function results of a unit are live-out only in the
//     last microbatch; data arguments hold m instead of 2 microbatches.
//
// With m = 1 or 2 the template is the whole program and composition replays
// it unchanged. The result is the program dist-opt | dist-sim simulates for
// the configuration, task for task (tests compare the two), provided the
// template's stage cut is the configuration's: the cut balances time per
// microbatch without the once-per-step work, so it is; the caller still
// checks and builds in full otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SEARCH_COMPOSE_H
#define DISTIR_SEARCH_COMPOSE_H

#include "distir/CostModel/CostModel.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Search/Report.h"
#include "distir/Search/Space.h"
#include "distir/Simulator/Framework.h"
#include "distir/Simulator/Program.h"
#include "distir/Support/Status.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distir {
namespace search {

/// dist-pipeline's unit kinds: composition orders the units with its
/// definition (getStageSchedule, mergePipelineUnits).
using UnitKind = mlir::dist::PipelineUnitKind;

/// When a template task runs in the pipelined step.
enum class TaskRole : uint8_t {
  /// Once, before the microbatches (constants, microbatch scale factors).
  Prologue,
  /// Once per microbatch, in unit (stage, kind).
  Unit,
  /// Once, right before its first user (values dist-pipeline recomputes at
  /// the microbatch shape on demand).
  Step,
  /// Once, in its stage's epilogue (optimizer, reductions of the sums).
  Epilogue,
};

struct TemplateTask {
  sim::Task task;
  std::vector<uint32_t> deps;
  TaskRole role = TaskRole::Prologue;
  int64_t stage = 0;
  UnitKind kind = UnitKind::Forward;
  int64_t microbatch = -1;
  /// FLOPs of the op (CostOpInterface), for dist-pipeline's order costs.
  double opFlops = 0;
  /// An op of the program before the split (dist-pipeline's cost counts it);
  /// false for the slices, scale products and accumulations the split adds.
  bool counted = true;
  /// A microbatch slice of a data argument: what it costs (it reads the
  /// whole argument, which holds all microbatches) and the argument's bytes.
  std::optional<cost::OpWork> sliceWork;
  int64_t sliceSourceBytes = 0;
  /// Bytes of the results that are gradient buffers (a resident of the
  /// template): the earlier microbatches' instances hold them themselves.
  int64_t gradientBufferBytes = 0;
};

struct TemplateResident {
  sim::DeviceSetId devices = sim::kNoId;
  int64_t bytes = 0;
  /// Data arguments hold all microbatches of a replica.
  bool isData = false;
  sim::MemoryKind kind = sim::MemoryKind::Other;
};

/// A lowered dist-parallelize program and what composition needs of it.
struct PipelineTemplate {
  /// Device sets, groupings and labels of the lowered program.
  sim::Program program;
  std::vector<TemplateTask> tasks;
  std::vector<TemplateResident> residents;
  /// The stages of the template: the pp x interleave virtual stages (model
  /// chunks, chunk c on stage c mod pp) when interleaved.
  int64_t numStages = 1;
  int64_t interleave = 1;
  int64_t numMicrobatches = 1;
  /// Samples per replica and microbatch.
  int64_t microbatchSize = 1;
  /// The stage of each `dist.layer` (-1: no op of the layer seen).
  std::vector<int64_t> stageOfLayer;
  /// Per layer, the time one microbatch keeps each stream of its devices
  /// busy, and what runs once per step (for the step-time bound).
  std::vector<double> unitCompute, unitCollective, stepCompute, stepCollective;
  /// Per layer and device, for the memory bound: parameters, parameters and
  /// optimizer state, forward results the backward reads (one microbatch),
  /// and data (one microbatch), each attributed to its first user's layer.
  std::vector<int64_t> parameterBytes, persistentBytes, stashBytes, dataBytes;
};

/// Reads the template off `func`, a training step dist-parallelize built
/// with `numStages` stages and `numMicrobatches` microbatches of
/// `microbatchSize` samples per replica, timed as `framework` runs it.
/// Fails with an error diagnostic on `func`.
mlir::FailureOr<std::shared_ptr<const PipelineTemplate>>
extractPipelineTemplate(mlir::func::FuncOp func, const cost::CostModel &model,
                        int64_t numStages, int64_t numMicrobatches,
                        int64_t microbatchSize,
                        const sim::Framework &framework = sim::Framework(),
                        int64_t interleave = 1);

/// Layers of a folded template: the first, one middle one, the last.
inline constexpr int64_t kFoldedLayers = 3;

/// The per-layer facts of a model of `numLayers` (> kFoldedLayers) layers
/// from the template of the same model built with kFoldedLayers, whose
/// middle layer stands for each of the model's middle layers (a generated
/// model's middle layers are the same ops on the same shapes): what the
/// bounds read (getMemoryLowerBound, getStepTimeLowerBound,
/// getCutFreeMemoryLowerBound), without tasks to compose.
std::shared_ptr<const PipelineTemplate>
unfoldLayers(const PipelineTemplate &folded, int64_t numLayers);

/// Composes the program of `microbatches` microbatches ordered by `schedule`
/// (`model`: the cost model the template was lowered with, for the slices).
Status composeProgram(const PipelineTemplate &stage, int64_t microbatches,
                      Schedule schedule, const cost::CostModel &model,
                      sim::Program &program);

/// Composes and simulates: the step time, peak memory and task count of the
/// evaluation (the caller fills the rest). With `extrapolate`, a pipeline of
/// many more microbatches than stages is simulated at 2P and 3P microbatches
/// only (P stages) and its step time and per-device-class peak extrapolated
/// linearly to m (Method::Extrapolated): past its warm-up the schedule repeats
/// one period per microbatch, so both grow by the same amount per microbatch.
StatusOr<Evaluation> evaluateComposed(const PipelineTemplate &stage,
                                      const Configuration &config,
                                      const cost::CostModel &model,
                                      bool extrapolate = false);

/// Whether evaluateComposed(..., /*extrapolate=*/true) extrapolates
/// `config`: when simulating 2P + 3P microbatches costs less than m.
bool isExtrapolated(const PipelineTemplate &stage, const Configuration &config);

/// A lower bound of the step time of `config` from the single-stage,
/// single-microbatch template of its (dp, tp) with at least its microbatch
/// size (the replica's whole batch): for each stage of the cut
/// `stageOfLayer`, microbatches x its layers' per-microbatch busy time plus
/// their once-per-step time, on the compute and on the collective stream;
/// the largest. A stream runs one task at a time and the pipelined program
/// runs at least these tasks (on devices shifted by whole stages: no group
/// straddles fewer nodes). Per-microbatch times are scaled down by
/// microbatch size / template microbatch size: every duration of the cost
/// model is an increasing affine function of the size with a non-negative
/// intercept (launch, ramp, latency), so f(x / k) >= f(x) / k.
double getStepTimeLowerBound(const PipelineTemplate &replica,
                             llvm::ArrayRef<int64_t> stageOfLayer,
                             const Configuration &config);

/// A per-device lower bound of the peak memory of `config` from the same
/// template, for the cut `stageOfLayer`: for each stage, its parameters,
/// optimizer state and data (all microbatches) are resident, plus the
/// largest of
///   - the updated parameters and state (function results, live at the end),
///   - the stashes of the microbatches in flight after the warm-up,
///   - the gradient sums after the first backward plus the stashes of the
///     microbatches still in flight.
/// Stashes and data scale with the microbatch size (rounded down). Exact
/// local sizes (tensor-parallel splits as the transforms make them): much
/// tighter than estimateMemoryLowerBound.
int64_t getMemoryLowerBound(const PipelineTemplate &replica,
                            llvm::ArrayRef<int64_t> stageOfLayer,
                            const Configuration &config);

/// getMemoryLowerBound for the best cut for memory: the smallest, over every
/// cut of the layers into `config.pp` consecutive (possibly empty) stages,
/// of the largest stage's bound. Below getMemoryLowerBound of any cut, so a
/// configuration over the capacity by it is over by its real cut too: the
/// search prunes by it before it times the ops for the stage cuts.
int64_t getCutFreeMemoryLowerBound(const PipelineTemplate &replica,
                                   const Configuration &config);

} // namespace search
} // namespace distir

#endif // DISTIR_SEARCH_COMPOSE_H
