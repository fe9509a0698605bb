//===- Compose.h - Pipelined programs composed from one stage template -*- C++ -*-===//
//
// Building and lowering the whole program of every configuration through the
// transforms costs time proportional to layers x microbatches; the search
// instead builds, per (dp, tp, microbatch size), the data x tensor parallel
// training step of one microbatch through the real transforms and lowers it
// once (the *template*). Every configuration sharing those three numbers is
// then composed at the level of the simulator's task arrays:
//
//   - each task belongs to a layer and a phase (forward, backward, epilogue:
//     the optimizer and the collectives that only feed it, i.e. the
//     data-parallel gradient reductions); layers are cut into `pp` stages
//     (cutStages, FLOP-balanced) and stage s runs on devices
//     [s dp tp, (s+1) dp tp), the template's devices shifted;
//   - every stage runs its forward and backward tasks once per microbatch in
//     the order of the schedule (gpipe or 1f1b); the stages' sequences are
//     merged into one program order by list scheduling on the template's
//     durations, the way dist-pipeline orders its block;
//   - a value used on another stage is sent once per microbatch and
//     destination right after its producer (position by position);
//   - gradients (backward results the epilogue reads) and function results
//     are accumulated over the microbatches with one dist.add each; the
//     epilogue (gradient reductions and optimizer, in the template's order,
//     which is where the partitioner puts them) runs once per stage after
//     its last backward;
//   - collective and send durations are re-costed on the shifted device ids
//     (a stage may straddle nodes the template does not), compute durations
//     are the template's.
//
// The composed program is then simulated exactly by the engine. It is an
// estimate of what the real dist-parallelize program gives: the real program
// also slices the data into microbatches and may order ties differently. The
// search reports such rows as "composed" (see docs/dist-search.md).
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SEARCH_COMPOSE_H
#define DISTIR_SEARCH_COMPOSE_H

#include "distir/CostModel/CostModel.h"
#include "distir/Search/Report.h"
#include "distir/Search/Space.h"
#include "distir/Simulator/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distir {
namespace search {

enum class Phase : uint8_t { Forward, Backward, Epilogue };

/// One task of the template with what composition needs to replay it.
struct TemplateTask {
  sim::Task task;
  int64_t layer = 0;
  Phase phase = Phase::Forward;
  /// Collectives: the kind and payload, to re-cost on shifted groups.
  cost::CollectiveKind collective = cost::CollectiveKind::AllReduce;
  int64_t payloadBytes = 0;
  /// The element type of the result (for accumulation adds).
  topology::DataType dtype = topology::DataType::F32;
  int64_t resultElements = 0;
  /// A backward result the epilogue reads, or a function result computed
  /// per microbatch: summed over the microbatches.
  bool accumulated = false;
  /// The dist.add that accumulates it: its time and FLOPs on one device.
  double accumulateDurationS = 0;
  double accumulateFlops = 0;
  std::vector<uint32_t> deps;
};

struct TemplateResident {
  sim::DeviceSetId devices;
  int64_t bytes = 0;
  int64_t layer = 0;
  /// Data arguments hold the microbatch: the real program holds all of a
  /// replica's microbatches.
  bool isData = false;
};

/// The lowered one-microbatch dp x tp training step on devices [0, dp tp).
struct StageTemplate {
  /// Device sets, groupings and labels of the lowered program.
  sim::Program program;
  std::vector<TemplateTask> tasks;
  std::vector<TemplateResident> residents;
  int64_t numDevices = 0;
};

/// Reads the template off a placed (or unplaced: one device) training step
/// of one microbatch. Fails with a one-line `error` when the simulator
/// cannot lower it.
std::optional<std::shared_ptr<const StageTemplate>>
extractStageTemplate(mlir::func::FuncOp func, const cost::CostModel &model,
                     std::string &error);

/// Composes the program of `config` from `stage` (built for its dp, tp and
/// microbatch size) into `program`.
bool composeProgram(const StageTemplate &stage, const ModelFacts &facts,
                    const Configuration &config, const cost::CostModel &model,
                    sim::Program &program, std::string &error);

/// A lower bound of the step time of the composed program of `config`: the
/// busiest stage's compute stream (microbatches x its forward and backward
/// work, the accumulations, the epilogue) or collective stream, each with
/// the template's durations (the template sits at device 0, node-aligned,
/// where no group straddles more nodes than when shifted). Streams run their
/// tasks one at a time, so no schedule beats it.
double getStepTimeLowerBound(const StageTemplate &stage,
                             const ModelFacts &facts,
                             const Configuration &config);

/// Composes and simulates: step time, peak memory and task count of the
/// evaluation (the rest is filled by the caller).
std::optional<Evaluation> evaluateComposed(const StageTemplate &stage,
                                           const ModelFacts &facts,
                                           const Configuration &config,
                                           const cost::CostModel &model,
                                           std::string &error);

} // namespace search
} // namespace distir

#endif // DISTIR_SEARCH_COMPOSE_H
