//===- PipelineSchedule.cpp - schedules and the block order ---------------===//
//
// The one definition of the pipeline schedules (GPipe, 1F1B, interleaved
// 1F1B): the order of a stage's units, and the merge of every stage's units
// into one block order (the pass orders the block by it; the search replays
// it). With interleaving, a unit belongs to a virtual stage (a model chunk) and
// a stage runs the units of its chunks in one sequence.
//
// Block order. Each device runs its ops in block order, so the block must
// interleave the stages such that (1) each stage's projection is its
// schedule, and (2) every value is produced before it is used. The units
// (stage, forward|backward, microbatch) and each stage's epilogue (combining
// the microbatches, optimizer) are merged by simulating the schedule with the
// ops' FLOPs as durations: repeatedly emit, among the stages whose next unit
// has all its inputs emitted, the one that can start earliest. Any such merge
// is a topological order whose per-stage projections are the schedules; a
// send belongs to the unit of its producer, so it comes before its receiver's
// use in every device's order: no deadlock.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Pipeline.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#define DEBUG_TYPE "dist-pipeline-schedule"

using namespace mlir;
using namespace mlir::dist;

/// Megatron-LM's interleaved 1F1B on stage `stage`: the k-th forward (and
/// the k-th backward) of the stage's numMicrobatches x interleave
/// chunk-microbatches is microbatch (k / group) x numStages + k mod
/// numStages, group = numStages x interleave, on chunk (k mod group) /
/// numStages, backwards counting the chunks down. The warm-up covers the
/// (interleave - 1) x numStages forwards the later chunks need before the
/// first backward comes back, plus 1F1B's two per later stage.
static SmallVector<PipelineStep> getInterleavedSchedule(int64_t numStages,
                                                        int64_t stage,
                                                        int64_t numMicrobatches,
                                                        int64_t interleave) {
  int64_t total = numMicrobatches * interleave;
  int64_t group = numStages * interleave;
  auto step = [&](int64_t k, bool backward) {
    int64_t chunk = (k % group) / numStages;
    if (backward)
      chunk = interleave - 1 - chunk;
    return PipelineStep{backward, (k / group) * numStages + k % numStages,
                        chunk};
  };
  // With as many microbatches as stages, Megatron-LM runs every forward
  // first.
  int64_t warmup =
      numMicrobatches == numStages
          ? total
          : std::min((numStages - stage - 1) * 2 + (interleave - 1) * numStages,
                     total);
  SmallVector<PipelineStep> steps;
  for (int64_t k = 0; k < warmup; ++k)
    steps.push_back(step(k, false));
  for (int64_t k = 0; k + warmup < total; ++k) {
    steps.push_back(step(k + warmup, false));
    steps.push_back(step(k, true));
  }
  for (int64_t k = total - warmup; k < total; ++k)
    steps.push_back(step(k, true));
  return steps;
}

SmallVector<PipelineStep>
mlir::dist::getStageSchedule(PipelineSchedule schedule, int64_t numStages,
                             int64_t stage, int64_t numMicrobatches,
                             int64_t interleave) {
  SmallVector<PipelineStep> steps;
  if (schedule == PipelineSchedule::GPipe) {
    for (int64_t m = 0; m < numMicrobatches; ++m)
      steps.push_back({false, m});
    for (int64_t m = 0; m < numMicrobatches; ++m)
      steps.push_back({true, m});
    return steps;
  }
  if (interleave > 1)
    return getInterleavedSchedule(numStages, stage, numMicrobatches,
                                  interleave);
  // The later a stage, the sooner its first backward arrives: it warms up
  // with fewer forwards and keeps fewer microbatches' activations alive.
  int64_t warmup = std::min(numStages - stage - 1, numMicrobatches);
  for (int64_t m = 0; m < warmup; ++m)
    steps.push_back({false, m});
  for (int64_t m = 0; m + warmup < numMicrobatches; ++m) {
    steps.push_back({false, m + warmup});
    steps.push_back({true, m});
  }
  for (int64_t m = numMicrobatches - warmup; m < numMicrobatches; ++m)
    steps.push_back({true, m});
  return steps;
}

SmallVector<PipelineUnit>
mlir::dist::getStageUnits(PipelineSchedule schedule, int64_t numStages,
                          int64_t stage, int64_t numMicrobatches,
                          bool hasForward, bool hasBackward, bool hasEpilogue) {
  return getStageUnits(schedule, numStages, stage, numMicrobatches,
                       /*interleave=*/1, [&](int64_t, PipelineUnitKind kind) {
                         switch (kind) {
                         case PipelineUnitKind::Forward:
                           return hasForward;
                         case PipelineUnitKind::Backward:
                           return hasBackward;
                         case PipelineUnitKind::Epilogue:
                           return hasEpilogue;
                         }
                         llvm_unreachable("covered switch");
                       });
}

SmallVector<PipelineUnit>
mlir::dist::getStageUnits(PipelineSchedule schedule, int64_t numStages,
                          int64_t stage, int64_t numMicrobatches,
                          int64_t interleave,
                          function_ref<bool(int64_t, PipelineUnitKind)> has) {
  SmallVector<PipelineUnit> units;
  // Without a backward, 1F1B has nothing to alternate.
  bool anyBackward = false;
  for (int64_t chunk = 0; chunk < interleave; ++chunk)
    anyBackward |= has(chunk * numStages + stage, PipelineUnitKind::Backward);
  if (!anyBackward)
    schedule = PipelineSchedule::GPipe;
  for (const PipelineStep &step :
       getStageSchedule(schedule, numStages, stage, numMicrobatches,
                        schedule == PipelineSchedule::GPipe ? 1 : interleave)) {
    auto kind =
        step.backward ? PipelineUnitKind::Backward : PipelineUnitKind::Forward;
    // GPipe's steps name no chunk: each runs every chunk in model order.
    for (int64_t chunk = 0; chunk < interleave; ++chunk) {
      if (schedule != PipelineSchedule::GPipe && chunk != step.chunk)
        continue;
      int64_t orderedChunk =
          schedule == PipelineSchedule::GPipe && step.backward
              ? interleave - 1 - chunk
              : chunk;
      int64_t virtualStage = orderedChunk * numStages + stage;
      if (has(virtualStage, kind))
        units.push_back({virtualStage, kind, step.microbatch});
    }
  }
  for (int64_t chunk = 0; chunk < interleave; ++chunk)
    if (has(chunk * numStages + stage, PipelineUnitKind::Epilogue))
      units.push_back(
          {chunk * numStages + stage, PipelineUnitKind::Epilogue, -1});
  return units;
}

static FailureOr<SmallVector<PipelineUnit>>
mergeUnits(const PipelineUnitGraph &graph);

FailureOr<SmallVector<PipelineUnit>>
mlir::dist::mergePipelineUnits(const PipelineUnitGraph &graph) {
  FailureOr<SmallVector<PipelineUnit>> order = mergeUnits(graph);
  if (succeeded(order))
    return order;
  // Epilogues that wait for each other run together after every other unit.
  PipelineUnitGraph apart = graph;
  for (auto &inputs : apart.inputs)
    llvm::erase_if(inputs[(int)PipelineUnitKind::Epilogue], [](auto &input) {
      return input.second == PipelineUnitKind::Epilogue;
    });
  order = mergeUnits(apart);
  if (failed(order))
    return failure();
  llvm::erase_if(*order, [](const PipelineUnit &unit) {
    return unit.kind == PipelineUnitKind::Epilogue;
  });
  order->push_back({kAllStages, PipelineUnitKind::Epilogue, -1});
  return order;
}

static FailureOr<SmallVector<PipelineUnit>>
mergeUnits(const PipelineUnitGraph &graph) {
  using Kind = PipelineUnitKind;
  int64_t numStages = graph.numStages;
  int64_t numVirtualStages = numStages * graph.interleave;
  // Finish time of every emitted unit, by (virtual stage, kind, microbatch).
  auto key = [&](int64_t stage, Kind kind, int64_t microbatch) {
    return (stage * 3 + (int64_t)kind) * (graph.numMicrobatches + 1) +
           (microbatch + 1);
  };
  DenseMap<int64_t, double> finish;
  SmallVector<size_t> next(numStages, 0);
  SmallVector<double> freeAt(numStages, 0);
  size_t total = 0;
  for (const auto &sequence : graph.sequences)
    total += sequence.size();
  assert((int64_t)graph.sequences.size() == numStages &&
         (int64_t)graph.inputs.size() == numVirtualStages &&
         (int64_t)graph.durations.size() == numVirtualStages &&
         "one sequence per stage, one input list and duration per virtual "
         "stage");
  (void)numVirtualStages;
  SmallVector<PipelineUnit> order;
  order.reserve(total);
  while (order.size() < total) {
    int64_t best = -1;
    double bestStart = 0;
    for (int64_t s = 0; s < numStages; ++s) {
      if (next[s] >= graph.sequences[s].size())
        continue;
      const PipelineUnit &unit = graph.sequences[s][next[s]];
      double start = freeAt[s];
      bool ready = true;
      for (const auto &[stage, kind] :
           graph.inputs[unit.stage][(int)unit.kind]) {
        auto it = finish.find(
            key(stage, kind, kind == Kind::Epilogue ? -1 : unit.microbatch));
        if (it == finish.end()) {
          ready = false;
          break;
        }
        start = std::max(start, it->second);
      }
      if (ready && (best < 0 || start < bestStart)) {
        best = s;
        bestStart = start;
      }
    }
    if (best < 0) {
      LLVM_DEBUG(llvm::dbgs() << "no stage can go on after " << order.size()
                              << " of " << total << " units\n");
      return failure();
    }
    const PipelineUnit &unit = graph.sequences[best][next[best]++];
    assert(unit.stage % numStages == best &&
           "a stage's sequence holds its own units");
    freeAt[best] = bestStart + graph.durations[unit.stage][(int)unit.kind];
    LLVM_DEBUG(llvm::dbgs() << "t=" << llvm::format("%g", bestStart)
                            << ": stage " << unit.stage << " "
                            << (unit.kind == Kind::Forward    ? "forward"
                                : unit.kind == Kind::Backward ? "backward"
                                                              : "epilogue")
                            << " " << unit.microbatch << "\n");
    finish[key(unit.stage, unit.kind, unit.microbatch)] = freeAt[best];
    order.push_back(unit);
  }
  return order;
}
