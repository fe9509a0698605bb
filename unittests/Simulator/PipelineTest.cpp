//===- PipelineTest.cpp - Bubble and memory of GPipe and 1F1B -------------===//
//
// A balanced pipeline (every stage the same forward and backward time) with
// zero-cost communication has bubble fraction (p-1)/m under both GPipe and
// 1F1B, and 1F1B keeps at most p microbatches of activations alive on stage
// 0 where GPipe keeps all m.
//
//===----------------------------------------------------------------------===//

#include "distir/Simulator/Simulator.h"

#include <gtest/gtest.h>

#include <deque>
#include <ostream>
#include <string>

using namespace distir::sim;

namespace {

enum class Schedule { GPipe, OneFOneB };

struct PipelineSpec {
  int stages;
  int microbatches;
  int devicesPerStage; // > 1: each stage is a tensor-parallel set
  Schedule schedule;
};

/// "4stages_8microbatches_1device_1f1b": the test's name and its printout.
std::string getName(const PipelineSpec &spec) {
  return std::to_string(spec.stages) + "stages_" +
         std::to_string(spec.microbatches) + "microbatches_" +
         std::to_string(spec.devicesPerStage) +
         (spec.devicesPerStage == 1 ? "device_" : "devices_") +
         (spec.schedule == Schedule::GPipe ? "gpipe" : "1f1b");
}

void PrintTo(const PipelineSpec &spec, std::ostream *os) {
  *os << getName(spec);
}

constexpr double kForwardS = 1e-3, kBackwardS = 2e-3;
constexpr int64_t kActivationBytes = 1 << 20;

/// One stage's operations in its schedule order: (is backward, microbatch).
std::vector<std::pair<bool, int>> stageOrder(const PipelineSpec &spec,
                                             int stage) {
  std::vector<std::pair<bool, int>> order;
  int m = spec.microbatches;
  if (spec.schedule == Schedule::GPipe) {
    for (int j = 0; j < m; ++j)
      order.push_back({false, j});
    for (int j = 0; j < m; ++j)
      order.push_back({true, j});
    return order;
  }
  int warmup = std::min(spec.stages - stage - 1, m);
  int forward = 0, backward = 0;
  for (; forward < warmup; ++forward)
    order.push_back({false, forward});
  while (forward < m) {
    order.push_back({false, forward++});
    order.push_back({true, backward++});
  }
  while (backward < m)
    order.push_back({true, backward++});
  return order;
}

/// Merges the per-stage schedules into one program order. Every device runs
/// each of its streams in program order, so the order must agree with each
/// stage's compute order, with its order of sends (the order it produces
/// them) and with its order of receives (the order it consumes them): a send
/// is emitted once it heads both the sender's send queue and the receiver's
/// receive queue.
Program buildPipeline(const PipelineSpec &spec, double sendS = 0) {
  Program program;
  int p = spec.stages, m = spec.microbatches;
  std::vector<DeviceSetId> stageSet(p);
  for (int s = 0; s < p; ++s) {
    std::vector<int64_t> devices;
    for (int d = 0; d < spec.devicesPerStage; ++d)
      devices.push_back(int64_t(s) * spec.devicesPerStage + d);
    stageSet[s] = program.addDeviceSet(devices);
    program.addResident(stageSet[s], 1000);
  }
  LabelId fwd = program.addLabel("forward"), bwd = program.addLabel("backward"),
          send = program.addLabel("send");
  using Item = std::pair<bool, int>; // (is backward, microbatch)
  // Emitted task ids; kNoId until emitted. received[s] holds what stage s
  // received for an item.
  std::vector<std::vector<TaskId>> f(p, std::vector<TaskId>(m, kNoId)),
      b(p, std::vector<TaskId>(m, kNoId)),
      receivedF(p, std::vector<TaskId>(m, kNoId)),
      receivedB(p, std::vector<TaskId>(m, kNoId));
  std::vector<std::deque<Item>> computeQueue(p), sendQueue(p), receiveQueue(p);
  for (int s = 0; s < p; ++s)
    for (Item item : stageOrder(spec, s)) {
      computeQueue[s].push_back(item);
      bool backward = item.first;
      if (backward ? s > 0 : s + 1 < p)
        sendQueue[s].push_back(item);
      if (backward ? s + 1 < p : s > 0)
        receiveQueue[s].push_back(item);
    }
  bool progress = true;
  while (progress) {
    progress = false;
    for (int s = 0; s < p; ++s) {
      while (!computeQueue[s].empty()) {
        auto [backward, j] = computeQueue[s].front();
        std::vector<TaskId> deps;
        if (!backward) {
          if (s > 0 && receivedF[s][j] == kNoId)
            break;
          if (s > 0)
            deps.push_back(receivedF[s][j]);
          f[s][j] = program.addCompute(fwd, stageSet[s], kForwardS, 1e9,
                                       kActivationBytes, deps);
        } else {
          if (s + 1 < p && receivedB[s][j] == kNoId)
            break;
          deps.push_back(f[s][j]); // the stashed activations
          if (s + 1 < p)
            deps.push_back(receivedB[s][j]);
          b[s][j] = program.addCompute(bwd, stageSet[s], kBackwardS, 2e9,
                                       kActivationBytes / 4, deps);
        }
        computeQueue[s].pop_front();
        progress = true;
      }
      while (!sendQueue[s].empty()) {
        auto [backward, j] = sendQueue[s].front();
        int to = backward ? s - 1 : s + 1;
        TaskId produced = backward ? b[s][j] : f[s][j];
        if (produced == kNoId || receiveQueue[to].empty() ||
            receiveQueue[to].front() != sendQueue[s].front())
          break;
        TaskId sent = program.addSend(
            send, stageSet[s], stageSet[to], sendS,
            backward ? kActivationBytes / 4 : kActivationBytes, {produced});
        (backward ? receivedB : receivedF)[to][j] = sent;
        sendQueue[s].pop_front();
        receiveQueue[to].pop_front();
        progress = true;
      }
    }
  }
  for (int s = 0; s < p; ++s)
    EXPECT_TRUE(computeQueue[s].empty() && sendQueue[s].empty())
        << "schedule deadlocks at stage " << s;
  return program;
}

SimResult run(const Program &program, SimOptions options = {}) {
  distir::StatusOr<SimResult> result = simulate(program, options);
  EXPECT_TRUE(result) << result.message();
  return result ? *result : SimResult();
}

class BubbleTest : public ::testing::TestWithParam<PipelineSpec> {};

TEST_P(BubbleTest, BubbleFractionIsStagesMinusOneOverMicrobatches) {
  const PipelineSpec &spec = GetParam();
  SimResult result = run(buildPipeline(spec));
  double ideal = spec.microbatches * (kForwardS + kBackwardS);
  double bubble = (result.stepTimeS - ideal) / ideal;
  double expected = double(spec.stages - 1) / spec.microbatches;
  EXPECT_NEAR(bubble, expected, 0.01 * expected);
  // Every stage is busy for exactly the ideal time and idle for the bubble.
  for (const DeviceClassReport &c : result.classes) {
    EXPECT_NEAR(c.computeS, ideal, 1e-12);
    EXPECT_NEAR(c.idleS, result.stepTimeS - ideal, 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, BubbleTest,
    ::testing::Values(PipelineSpec{4, 8, 1, Schedule::GPipe},
                      PipelineSpec{4, 8, 1, Schedule::OneFOneB},
                      PipelineSpec{4, 16, 2, Schedule::GPipe},
                      PipelineSpec{8, 32, 2, Schedule::OneFOneB},
                      PipelineSpec{2, 4, 4, Schedule::OneFOneB}),
    [](const ::testing::TestParamInfo<PipelineSpec> &info) {
      return getName(info.param);
    });

TEST(Pipeline, OneFOneBHoldsLessActivationMemoryOnStageZero) {
  PipelineSpec gpipe{4, 16, 1, Schedule::GPipe};
  PipelineSpec oneFOneB{4, 16, 1, Schedule::OneFOneB};
  SimResult a = run(buildPipeline(gpipe));
  SimResult b = run(buildPipeline(oneFOneB));
  int32_t stage0 = a.classOfDevice[0];
  int64_t gpipePeak = a.classes[stage0].peakMemoryBytes;
  int64_t oneFOneBPeak = b.classes[b.classOfDevice[0]].peakMemoryBytes;
  EXPECT_LT(oneFOneBPeak, gpipePeak);
  // GPipe stage 0 holds all 16 microbatches' activations, 1F1B at most 4
  // (plus, transiently, one backward result and one received gradient).
  EXPECT_GE(gpipePeak, 1000 + 16 * kActivationBytes);
  EXPECT_LE(oneFOneBPeak,
            1000 + 4 * kActivationBytes + 2 * kActivationBytes / 4);
}

/// Per-stage forward and backward seconds of one microbatch.
struct StageDurations {
  std::vector<double> forward, backward;
};

/// When each stage's units of each microbatch end (-1: not yet).
struct UnitEnds {
  UnitEnds(int p, int m)
      : p(p), forward(p, std::vector<double>(m, -1)), backward(forward) {}
  /// When the result a unit reads ends on its neighbour stage: 0 when it
  /// reads none, -1 when it has not ended yet.
  double inputOf(int s, bool isBackward, int j) const {
    if (!isBackward && s > 0)
      return forward[s - 1][j];
    if (isBackward && s + 1 < p)
      return backward[s + 1][j];
    return 0;
  }
  int p;
  std::vector<std::vector<double>> forward, backward;
};

/// The reference step: each stage runs its own order (stageOrder); a unit
/// starts when the stage is free and its input has arrived, `sendS` after
/// the producing unit ends.
double listSchedule(const PipelineSpec &spec, const StageDurations &d,
                    double sendS) {
  int p = spec.stages, m = spec.microbatches;
  UnitEnds ends(p, m);
  std::vector<double> free(p, 0);
  std::vector<size_t> next(p, 0);
  for (bool progress = true; progress;) {
    progress = false;
    for (int s = 0; s < p; ++s) {
      std::vector<std::pair<bool, int>> order = stageOrder(spec, s);
      for (; next[s] < order.size(); ++next[s], progress = true) {
        auto [backward, j] = order[next[s]];
        double input = ends.inputOf(s, backward, j);
        if (input < 0)
          break;
        double arrival = (backward ? s + 1 < p : s > 0) ? input + sendS : 0;
        free[s] = std::max(free[s], arrival) +
                  (backward ? d.backward[s] : d.forward[s]);
        (backward ? ends.backward : ends.forward)[s][j] = free[s];
      }
    }
  }
  return *std::max_element(free.begin(), free.end());
}

/// A 1F1B program in the block order dist-pipeline gives it when it merges
/// the stages by *estimated* durations that disagree with the real ones:
/// repeatedly the stage whose next unit can start earliest under `estimate`
/// emits that unit, then the send of its result (the send belongs to its
/// producer). The tasks take the `real` durations.
Program buildMergedPipeline(const PipelineSpec &spec,
                            const StageDurations &real,
                            const StageDurations &estimate, double sendS) {
  Program program;
  int p = spec.stages, m = spec.microbatches;
  std::vector<DeviceSetId> stageSet(p);
  for (int s = 0; s < p; ++s)
    stageSet[s] = program.addDeviceSet({s});
  LabelId unitLabel = program.addLabel("unit"),
          sendLabel = program.addLabel("send");
  std::vector<std::vector<TaskId>> f(p, std::vector<TaskId>(m, kNoId)),
      b = f, sentF = f, sentB = f;
  UnitEnds ends(p, m);
  std::vector<double> free(p, 0);
  std::vector<size_t> next(p, 0);
  for (int emitted = 0; emitted < 2 * p * m; ++emitted) {
    int best = -1;
    double bestStart = 0;
    for (int s = 0; s < p; ++s) {
      std::vector<std::pair<bool, int>> order = stageOrder(spec, s);
      if (next[s] == order.size())
        continue;
      auto [backward, j] = order[next[s]];
      double input = ends.inputOf(s, backward, j);
      double start = std::max(free[s], input);
      if (input >= 0 && (best < 0 || start < bestStart)) {
        best = s;
        bestStart = start;
      }
    }
    EXPECT_GE(best, 0) << "the merge deadlocks";
    if (best < 0)
      break;
    int s = best;
    auto [backward, j] = stageOrder(spec, s)[next[s]++];
    std::vector<TaskId> deps;
    if (backward) {
      deps.push_back(f[s][j]);
      if (s + 1 < p)
        deps.push_back(sentB[s + 1][j]);
    } else if (s > 0) {
      deps.push_back(sentF[s - 1][j]);
    }
    TaskId unit = program.addCompute(
        unitLabel, stageSet[s], backward ? real.backward[s] : real.forward[s],
        1e9, kActivationBytes, deps);
    (backward ? b : f)[s][j] = unit;
    free[s] =
        bestStart + (backward ? estimate.backward[s] : estimate.forward[s]);
    (backward ? ends.backward : ends.forward)[s][j] = free[s];
    int to = backward ? s - 1 : s + 1;
    if (to >= 0 && to < p)
      (backward ? sentB : sentF)[s][j] =
          program.addSend(sendLabel, stageSet[s], stageSet[to], sendS,
                          kActivationBytes, {unit});
  }
  return program;
}

// The block order interleaves the stages by estimated durations (here: a
// light first and a heavy last stage, while really the first is heavy in
// the estimate's eyes and the last in time), so a middle stage's gradient
// from the right comes before the activation from the left that the stage
// needs first. A receiver takes its transfers as they arrive: the step is
// the list schedule of each stage's own order.
TEST(Pipeline, ReceiversDoNotWaitForTheBlockOrderOfOtherSenders) {
  PipelineSpec spec{4, 16, 1, Schedule::OneFOneB};
  StageDurations real{{1e-3, 1e-3, 1e-3, 3e-3}, {2e-3, 2e-3, 2e-3, 6e-3}};
  StageDurations estimate{{3e-3, 1e-3, 1e-3, 1e-3}, {6e-3, 2e-3, 2e-3, 2e-3}};
  double sendS = 5e-5;
  double reference = listSchedule(spec, real, sendS);
  double simulated =
      run(buildMergedPipeline(spec, real, estimate, sendS)).stepTimeS;
  EXPECT_NEAR(simulated, reference, 0.02 * reference)
      << "simulated " << simulated * 1e3 << " ms, reference " << reference * 1e3
      << " ms";
  // The same with the estimate right, and with the stages the other way.
  EXPECT_NEAR(run(buildMergedPipeline(spec, real, real, sendS)).stepTimeS,
              reference, 0.02 * reference);
  EXPECT_NEAR(run(buildMergedPipeline(spec, estimate, real, sendS)).stepTimeS,
              listSchedule(spec, estimate, sendS),
              0.02 * listSchedule(spec, estimate, sendS));
}

TEST(Pipeline, SendTimeStretchesTheBubble) {
  PipelineSpec spec{4, 8, 1, Schedule::OneFOneB};
  double free = run(buildPipeline(spec)).stepTimeS;
  double slow = run(buildPipeline(spec, /*sendS=*/1e-4)).stepTimeS;
  // At least the 2 (p-1) transfers on the critical path.
  EXPECT_GE(slow - free, 2 * 3 * 1e-4 - 1e-12);
}

} // namespace
