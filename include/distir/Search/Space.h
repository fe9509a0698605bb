//===- Space.h - The configuration space of dist-search ---------*- C++ -*-===//
//
// Plain C++ (no MLIR): what a configuration is, which ones exist for a model
// on a number of devices, why the others are rejected, and the analytical
// memory bound that prunes configurations before anything is built.
//
// A configuration runs the training step of a global batch on a
// pp x dp x tp mesh (pp outermost, tp innermost: a pipeline stage is a
// contiguous block of dp * tp device ids and a tensor-parallel group is a
// contiguous block of tp ids, so tensor parallelism stays inside a node as
// long as tp divides the node size), each data-parallel replica splitting its
// share of the batch into `microbatches` microbatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SEARCH_SPACE_H
#define DISTIR_SEARCH_SPACE_H

#include "distir/Dialect/Dist/IR/DistEnums.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distir {
namespace search {

/// The per-stage order of the microbatches (DistEnums.td, one definition
/// with dist-pipeline): GPipe, or OneFOneB (1F1B).
using Schedule = ::mlir::dist::PipelineSchedule;

/// Activation recomputation, as `--dist-recompute=mode=...` spells it
/// (docs/recompute.md); None runs no dist-recompute at all.
using Recompute = ::mlir::dist::RecomputeMode;

/// The spellings of DistEnums.td ("gpipe", "1f1b"; "none", "full",
/// "selective"), as the core's std::string_view.
inline std::string_view scheduleName(Schedule schedule) {
  llvm::StringRef name = ::mlir::dist::stringifyPipelineSchedule(schedule);
  return {name.data(), name.size()};
}
inline std::optional<Schedule> parseSchedule(std::string_view name) {
  return ::mlir::dist::symbolizePipelineSchedule(
      llvm::StringRef(name.data(), name.size()));
}
inline std::string_view recomputeName(Recompute mode) {
  llvm::StringRef name = ::mlir::dist::stringifyRecomputeMode(mode);
  return {name.data(), name.size()};
}
inline std::optional<Recompute> parseRecompute(std::string_view name) {
  return ::mlir::dist::symbolizeRecomputeMode(
      llvm::StringRef(name.data(), name.size()));
}

struct Configuration {
  int64_t devices = 1;
  int64_t globalBatch = 1;
  int64_t dp = 1, tp = 1, pp = 1;
  int64_t microbatches = 1;
  Schedule schedule = Schedule::OneFOneB;
  Recompute recompute = Recompute::None;
  /// Model chunks per stage (interleaved 1F1B; dist-parallelize's
  /// `interleave`).
  int64_t interleave = 1;
  /// Korthikanti et al.'s sequence parallelism over tp (dist-parallelize's
  /// `sequence-parallel`; only with tp > 1).
  bool sequenceParallel = false;
  /// ZeRO stage over dp (dist-parallelize's `zero`): 1 shards the optimizer
  /// state, 2 also the gradients, 3 also the parameters; 0: none.
  int64_t zero = 0;

  /// Samples one replica processes per microbatch.
  int64_t getMicrobatchSize() const {
    return globalBatch / (dp * microbatches);
  }
  /// Whether the schedule changes anything: with one microbatch both
  /// schedules run each stage's forward, then its backward.
  bool hasSchedule() const { return microbatches > 1; }
  /// The schedule as the tables print it: "1f1b", "1f1b v2" (interleaved,
  /// 2 chunks per stage), "-" without one.
  std::string getScheduleLabel() const;
  /// "dp=2 tp=4 pp=8 mb=16 1f1b batch=1536" (plus " recompute=full" when
  /// it recomputes, " interleave=2" when interleaved, " sp" with sequence
  /// parallelism, " zero=N" with ZeRO): the key configurations
  /// are sorted by when their throughputs tie, and the form the table prints.
  std::string str() const;

  bool operator<(const Configuration &other) const;
  bool operator==(const Configuration &other) const;
};

/// One layer (a `dist.layer` index) of the unsplit training step.
struct LayerFacts {
  /// Parameters whose first user is in this layer.
  int64_t parameterBytes = 0;
  /// Optimizer state of those parameters (Adam moments; 0 for SGD).
  int64_t optimizerStateBytes = 0;
  /// Forward results that backward ops read, per sample: what a stage keeps
  /// per microbatch in flight.
  double stashBytesPerSample = 0;
};

/// What the enumeration, the memory bound and the report need to know of a
/// model; extracted once from its training step (see Search.h).
struct ModelFacts {
  std::string name;
  std::vector<LayerFacts> layers;
  /// Data arguments per sample (inputs, labels); they are resident for the
  /// whole step on the stages that read them.
  int64_t dataBytesPerSample = 0;
  /// Elements a sample counts as tokens for tokens/s (the sequence length of
  /// token ids); 0 when the data are not token ids.
  int64_t tokensPerSample = 0;
  /// Forward plus backward FLOPs of the unsplit step per sample: the model
  /// FLOPs of MFU (the optimizer and any communication are not counted).
  double modelFlopsPerSample = 0;
  /// Sizes tensor parallelism must divide, with the name the rejection reason
  /// uses ("attention heads" -> 96). Empty: only the build can tell.
  std::vector<std::pair<std::string, int64_t>> tpDivides;
  /// Peak FLOP/s of one device for the model's element type (for MFU).
  double devicePeakFlops = 0;
  /// Per recompute mode that changes the step: the stash of each layer
  /// (LayerFacts::stashBytesPerSample) once dist-recompute has run. A mode
  /// absent here recomputes nothing for this model (selective without an
  /// attention core, full without layer hints) and is skipped.
  std::map<Recompute, std::vector<double>> recomputedStashBytesPerSample;
};

/// The user's restrictions of the space.
struct SpaceOptions {
  std::vector<int64_t> deviceCounts;
  std::vector<int64_t> globalBatches;
  /// Microbatch counts to try; empty: every divisor of the per-replica batch.
  std::vector<int64_t> microbatches;
  std::vector<Schedule> schedules = {Schedule::GPipe, Schedule::OneFOneB};
  /// Recompute modes to try. Recomputation only trades time for memory, so
  /// the default is the plain step; the user opts in to the others.
  std::vector<Recompute> recomputeModes = {Recompute::None};
  /// Model chunks per stage to try (interleaved 1F1B, only with pp > 1 and
  /// 1F1B; more chunks mean more point-to-point transfers and stash, so the
  /// default is plain 1F1B; the user opts in).
  std::vector<int64_t> interleaves = {1};
  /// Sequence parallelism settings to try (only with tp > 1). It saves
  /// activation memory at about the same communication, so the default
  /// space leaves it off (one program per configuration); the user opts in
  /// with {false, true}.
  std::vector<bool> sequenceParallels = {false};
  /// ZeRO stages to try (only with dp > 1; 2 and 3 only with pp = 1, as
  /// dist-parallelize allows). ZeRO trades communication for memory, so the
  /// default is none; the user opts in.
  std::vector<int64_t> zeroStages = {0};
  /// Only powers of two for dp, tp and pp (DistIR's grid).
  bool powersOfTwo = false;
  /// Each device count is a limit, not an exact size (`--max-devices`): for
  /// each tp that divides what tp must divide and each pp up to the layer
  /// count, the largest dp whose dp x tp x pp fits and that divides the
  /// global batch. A count such as 5128 = 8 x 641 has no exact (dp, tp, pp)
  /// for most models; the user wants the best on at most that many.
  bool devicesAtMost = false;
  /// With one stage, also split the batch into microbatches (gradient
  /// accumulation); off: pp = 1 runs one microbatch, as DistIR's grid does.
  bool accumulateWithoutPipeline = false;
  /// Largest microbatch count tried when `microbatches` is empty.
  int64_t maxMicrobatches = 1024;
};

/// Counts of the rejected configurations by reason, in a stable order.
using RejectionCounts = std::map<std::string, int64_t>;

/// Every valid configuration of `model` over the option lists, in a fixed
/// order; invalid ones are counted in `rejected` by reason (e.g. "tp does
/// not divide the attention heads").
std::vector<Configuration> enumerateSpace(const ModelFacts &model,
                                          const SpaceOptions &options,
                                          RejectionCounts &rejected);

/// Per-device lower bound of the peak memory of any program that runs the
/// configuration the way dist-parallelize builds it, under the simulator's
/// memory model (arguments resident for the whole step, results live until
/// their last use, function results until the end). It is the larger of
///   - twice the average stage's share of parameters and optimizer state
///     (the updated copies are function results, live at the end), and
///   - the activations stashed for backward by the microbatches in flight
///     after the warm-up, for the least favourable stage whatever the cut,
/// plus the data when there is a single stage. ZeRO divides what it shards
/// (the state from stage 1, gradients from 2, parameters from 3) by dp;
/// padding only adds. Every tensor-parallel split
/// is assumed to divide, so the bound stays below the true peak: a
/// configuration that fits is never pruned.
int64_t estimateMemoryLowerBound(const ModelFacts &model,
                                 const Configuration &config);

/// Microbatches a stage holds stashes for at its fullest.
int64_t getMicrobatchesInFlight(const Configuration &config, int64_t stage);

} // namespace search
} // namespace distir

#endif // DISTIR_SEARCH_SPACE_H
