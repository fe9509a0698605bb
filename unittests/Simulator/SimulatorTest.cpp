//===- SimulatorTest.cpp - Event semantics, memory, classes, outputs ------===//

#include "distir/Simulator/Simulator.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <set>
#include <sstream>

using namespace distir::sim;

namespace {

std::vector<int64_t> range(int64_t begin, int64_t end) {
  std::vector<int64_t> ids;
  for (int64_t i = begin; i < end; ++i)
    ids.push_back(i);
  return ids;
}

SimResult run(const Program &program, SimOptions options = {}) {
  distir::StatusOr<SimResult> result = simulate(program, options);
  EXPECT_TRUE(result) << result.message();
  return result ? *result : SimResult();
}

std::string simulateError(const Program &program) {
  distir::StatusOr<SimResult> result = simulate(program, {});
  EXPECT_FALSE(result);
  return result.message();
}

/// Data-parallel backward over `layers` layers on `dp` devices: each layer's
/// weight gradient is all-reduced as soon as it is computed, while the
/// backward of the earlier layers continues.
Program dataParallelBackward(int layers, int64_t dp, double backwardS,
                             double allReduceS) {
  Program program;
  DeviceSetId all = program.addDeviceSet(range(0, dp));
  GroupingId groups = program.addGrouping(all, {range(0, dp)});
  LabelId grad = program.addLabel("matmul"),
          reduce = program.addLabel("all_reduce");
  TaskId previous = kNoId;
  for (int l = 0; l < layers; ++l) {
    std::vector<TaskId> deps;
    if (previous != kNoId)
      deps.push_back(previous);
    TaskId dW = program.addCompute(grad, all, backwardS, 1e9, 4096, deps);
    TaskId summed = program.addCollective(reduce, all, groups, allReduceS, 4096,
                                          4096, {dW});
    program.markLiveOut(summed);
    previous = dW;
  }
  return program;
}

TEST(Simulator, GradientAllReduceOverlapsBackward) {
  Program program = dataParallelBackward(8, 4, 1e-3, 0.6e-3);
  SimResult overlapped = run(program);
  SimOptions serial;
  serial.overlap = false;
  SimResult noOverlap = run(program, serial);
  EXPECT_LT(overlapped.stepTimeS, noOverlap.stepTimeS);
  // All but the last all-reduce hide behind the next layer's backward.
  EXPECT_NEAR(overlapped.stepTimeS, 8 * 1e-3 + 0.6e-3, 1e-12);
  EXPECT_NEAR(noOverlap.stepTimeS, 8 * (1e-3 + 0.6e-3), 1e-12);
  const DeviceClassReport &device = overlapped.classes[0];
  EXPECT_NEAR(device.computeS, 8e-3, 1e-12);
  EXPECT_NEAR(device.commS, 8 * 0.6e-3, 1e-12);
  EXPECT_NEAR(device.idleS, 0, 1e-12);
}

TEST(Simulator, ReplicasAreSimulatedOnceAndReportedPerDevice) {
  Program program = dataParallelBackward(4, 1024, 1e-3, 2e-3);
  SimResult result = run(program);
  ASSERT_EQ(result.classes.size(), 1u);
  EXPECT_EQ(result.classes[0].devices.size(), 1024u);
  EXPECT_EQ(result.classOfDevice.size(), 1024u);
  EXPECT_DOUBLE_EQ(result.flops, 4 * 1024 * 1e9);
  EXPECT_EQ(result.commBytes, 4 * 1024 * 4096);
  std::ostringstream report;
  writeReportJson(report, result, {"test", 1 << 20, 0});
  nlohmann::json json = nlohmann::json::parse(report.str());
  ASSERT_EQ(json["devices"].size(), 1024u);
  EXPECT_EQ(json["devices"][1023]["id"], 1023);
  EXPECT_DOUBLE_EQ(json["devices"][1023]["comm_s"].get<double>(), 8e-3);
}

TEST(Simulator, DevicesSplitIntoClassesBySetMembership) {
  Program program;
  DeviceSetId all = program.addDeviceSet(range(0, 4));
  DeviceSetId half = program.addDeviceSet({0, 1});
  LabelId op = program.addLabel("op");
  TaskId a = program.addCompute(op, all, 1e-3, 0, 0, {});
  program.addCompute(op, half, 5e-3, 0, 0, {a});
  SimResult result = run(program);
  ASSERT_EQ(result.classes.size(), 2u);
  EXPECT_EQ(result.classes[result.classOfDevice[0]].devices,
            (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(result.classes[result.classOfDevice[2]].devices,
            (std::vector<int64_t>{2, 3}));
  EXPECT_DOUBLE_EQ(result.stepTimeS, 6e-3);
  EXPECT_DOUBLE_EQ(result.classes[result.classOfDevice[3]].idleS, 5e-3);
}

/// Devices 0,1 are busy longer than 2,3 before a collective over all four.
Program unevenThenCollective(const std::vector<std::vector<int64_t>> &groups) {
  Program program;
  DeviceSetId all = program.addDeviceSet(range(0, 4));
  DeviceSetId slow = program.addDeviceSet({0, 1});
  LabelId op = program.addLabel("op");
  program.addCompute(op, slow, 5e-3, 0, 0, {});
  TaskId x = program.addCompute(op, all, 1e-3, 0, 64, {});
  program.addCollective(program.addLabel("all_reduce"), all,
                        program.addGrouping(all, groups), 1e-3, 64, 64, {x});
  return program;
}

TEST(Simulator, CollectiveGroupStartsWhenAllMembersArrive) {
  // Groups mixing slow and fast devices wait for the slow ones.
  SimOptions options;
  options.recordTrace = true;
  SimResult mixed = run(unevenThenCollective({{0, 2}, {1, 3}}), options);
  EXPECT_DOUBLE_EQ(mixed.stepTimeS, 7e-3);
  for (const DeviceClassReport &c : mixed.classes)
    EXPECT_NEAR(c.idleS, c.devices[0] < 2 ? 0 : 5e-3, 1e-12);
  // Groups that keep the fast devices together do not wait.
  SimResult separate = run(unevenThenCollective({{0, 1}, {2, 3}}), options);
  EXPECT_DOUBLE_EQ(separate.stepTimeS, 7e-3);
  double fastCollectiveStart = -1;
  for (const TraceEvent &event : separate.trace)
    if (event.stream == Stream::Collective &&
        separate.classes[event.deviceClass].devices[0] == 2)
      fastCollectiveStart = event.startS;
  EXPECT_DOUBLE_EQ(fastCollectiveStart, 1e-3);
}

TEST(Simulator, SendsOccupyTheEndpointsOfTheirLink) {
  Program program;
  DeviceSetId d0 = program.addDeviceSet({0}), d1 = program.addDeviceSet({1}),
              d2 = program.addDeviceSet({2}), d3 = program.addDeviceSet({3});
  LabelId op = program.addLabel("op"), send = program.addLabel("send");
  TaskId x = program.addCompute(op, d0, 0, 0, 8, {});
  TaskId y = program.addCompute(op, d2, 0, 0, 8, {});
  // Two sends out of device 0 serialize on its outgoing port (in program
  // order, the order device 0 issues them)...
  program.addSend(send, d0, d1, 1e-3, 8, {x});
  program.addSend(send, d0, d3, 1e-3, 8, {x});
  // ...while 2 -> 3 uses other ports: device 3 takes it while 0 is still
  // busy with 0 -> 1, although it comes after 0 -> 3 in program order (a
  // receiver is not bound to the order of other devices' sends).
  program.addSend(send, d2, d3, 1e-3, 8, {y});
  // 2 -> 1 does not fit before 0 -> 1 on 1's incoming port: it waits.
  program.addSend(send, d2, d1, 0.5e-3, 8, {y});
  SimOptions options;
  options.recordTrace = true;
  SimResult result = run(program, options);
  std::vector<std::vector<double>> receiveStarts(4);
  for (const TraceEvent &event : result.trace)
    if (event.stream == Stream::RecvIn)
      receiveStarts[result.classes[event.deviceClass].devices[0]].push_back(
          event.startS);
  EXPECT_EQ(receiveStarts[1], (std::vector<double>{0, 1e-3}));
  EXPECT_EQ(receiveStarts[3], (std::vector<double>{1e-3, 0}));
  EXPECT_DOUBLE_EQ(result.stepTimeS, 2e-3);
  // Without overlap every transfer takes its endpoints' single streams in
  // program order.
  options.overlap = false;
  EXPECT_DOUBLE_EQ(run(program, options).stepTimeS, 3.5e-3);
}

TEST(Simulator, MemoryOfAnUnsplitMlpStepMatchesHandCount) {
  // Two-layer MLP training step on one device, SGD with momentum: weights,
  // gradients and one optimizer state per weight are resident; activations
  // live from their producer to their last consumer.
  const int64_t w1 = 4096, w2 = 2048;        // weight bytes
  const int64_t x = 1000, h = 3000, y = 500; // activation bytes
  Program program;
  DeviceSetId dev = program.addDeviceSet({0});
  program.addResident(dev, 3 * (w1 + w2) + x); // params, grads, momentum, input
  LabelId mm = program.addLabel("matmul"), relu = program.addLabel("relu"),
          loss = program.addLabel("mse_loss"), upd = program.addLabel("sgd");
  TaskId hPre = program.addCompute(mm, dev, 1, 0, h, {});
  TaskId hAct = program.addCompute(relu, dev, 1, 0, h, {hPre});
  TaskId out = program.addCompute(mm, dev, 1, 0, y, {hAct});
  TaskId l = program.addCompute(loss, dev, 1, 0, 4, {out});
  TaskId dOut = program.addCompute(loss, dev, 1, 0, y, {l, out});
  TaskId dW2 = program.addCompute(mm, dev, 1, 0, w2, {dOut, hAct});
  TaskId dH = program.addCompute(mm, dev, 1, 0, h, {dOut});
  TaskId dHPre = program.addCompute(relu, dev, 1, 0, h, {dH, hPre});
  TaskId dW1 = program.addCompute(mm, dev, 1, 0, w1, {dHPre});
  program.addCompute(upd, dev, 1, 0, 0, {dW1, dW2});
  program.markLiveOut(l);
  SimResult result = run(program);
  // Unit durations, one stream: task i runs in [i, i+1]. Live sets (frees
  // at a consumer's end come before allocations at the same instant):
  int64_t resident = 3 * (w1 + w2) + x;
  int64_t atDOut = h + h + y + 4 + y;   // hPre hAct out l dOut
  int64_t atDW2 = h + h + 4 + y + w2;   // hPre hAct l dOut dW2
  int64_t atDHPre = h + 4 + w2 + h + h; // hPre l dW2 dH dHPre
  int64_t atDW1 = 4 + w2 + h + w1;      // l dW2 dHPre dW1
  int64_t expected = resident + std::max({atDOut, atDW2, atDHPre, atDW1});
  EXPECT_EQ(expected, resident + atDHPre);
  EXPECT_EQ(result.peakMemoryBytes, expected);
  EXPECT_EQ(result.classes[0].residentBytes, resident);
}

TEST(Simulator, SameInputGivesIdenticalOutputs) {
  Program program = dataParallelBackward(16, 8, 1e-3, 1.7e-3);
  SimOptions options;
  options.recordTrace = true;
  options.recordMemoryTimeline = true;
  std::string first, second;
  for (std::string *out : {&first, &second}) {
    SimResult result = run(program, options);
    std::ostringstream os;
    writeReportJson(os, result, {"c", 1 << 30, 8});
    writeChromeTrace(os, program, result);
    printSummary(os, result, {"c", 1 << 30, 8});
    *out = os.str();
  }
  EXPECT_EQ(first, second);
}

TEST(Simulator, TraceIsValidChromeTraceJson) {
  Program program = dataParallelBackward(3, 2, 1e-3, 0.5e-3);
  DeviceSetId other = program.addDeviceSet({5});
  program.addSend(program.addLabel("send \"quoted\""),
                  program.addDeviceSet({0}), other, 1e-4, 16, {});
  SimOptions options;
  options.recordTrace = true;
  options.recordMemoryTimeline = true;
  SimResult result = run(program, options);
  std::ostringstream os;
  writeChromeTrace(os, program, result);
  nlohmann::json trace = nlohmann::json::parse(os.str());
  ASSERT_TRUE(trace["traceEvents"].is_array());
  int complete = 0, counters = 0;
  std::set<std::string> processNames;
  for (const nlohmann::json &event : trace["traceEvents"]) {
    std::string phase = event.at("ph");
    EXPECT_TRUE(event.at("pid").is_number_integer());
    if (phase == "X") {
      ++complete;
      EXPECT_TRUE(event.at("tid").is_number_integer());
      EXPECT_GE(event.at("ts").get<double>(), 0);
      EXPECT_GT(event.at("dur").get<double>(), 0);
      EXPECT_TRUE(event.at("name").is_string());
    } else if (phase == "C") {
      ++counters;
      EXPECT_TRUE(event.at("args").at("bytes").is_number_integer());
    } else {
      EXPECT_EQ(phase, "M");
      if (event.at("name") == "process_name")
        processNames.insert(event.at("args").at("name").get<std::string>());
    }
  }
  // 3 backward + 3 all-reduce on the class {1}, and on {0}; a send and a
  // receive.
  EXPECT_EQ(complete, 6 * 2 + 2);
  EXPECT_GT(counters, 0);
  EXPECT_EQ(processNames,
            (std::set<std::string>{"devices 0", "devices 1", "devices 5"}));
}

TEST(Simulator, ReportHasTheDocumentedKeysAndFitsFlag) {
  Program program = dataParallelBackward(2, 2, 1e-3, 1e-3);
  program.addResident(program.addDeviceSet({0, 1}), 1 << 20);
  SimResult result = run(program);
  for (int64_t capacity : {int64_t(1) << 30, int64_t(1) << 10}) {
    std::ostringstream os;
    writeReportJson(os, result, {"c", capacity, 0});
    nlohmann::json report = nlohmann::json::parse(os.str());
    for (const char *key : {"step_time_s", "peak_memory_bytes", "flops",
                            "comm_bytes", "devices", "fits"})
      EXPECT_TRUE(report.contains(key)) << key;
    EXPECT_EQ(report["fits"].get<bool>(), capacity > (1 << 20));
    for (const char *key :
         {"id", "compute_s", "comm_s", "idle_s", "peak_memory_bytes"})
      EXPECT_TRUE(report["devices"][0].contains(key)) << key;
  }
}

TEST(Simulator, MalformedProgramsAreErrors) {
  {
    Program program;
    DeviceSetId a = program.addDeviceSet({0, 1}), b = program.addDeviceSet({2});
    LabelId op = program.addLabel("matmul");
    TaskId x = program.addCompute(op, a, 1, 0, 8, {});
    program.addCompute(op, b, 1, 0, 8, {x});
    EXPECT_EQ(simulateError(program), "task 1 (matmul) uses the result of "
                                      "task 0 (matmul), which is not on all "
                                      "of its devices");
  }
  {
    Program program;
    DeviceSetId a = program.addDeviceSet({0, 1}), b = program.addDeviceSet({2});
    program.addSend(program.addLabel("send"), a, b, 1, 8, {});
    EXPECT_EQ(simulateError(program), "task 0 (send): send from 2 devices to 1 "
                                      "devices: sets must have the same size");
  }
  {
    Program program;
    DeviceSetId a = program.addDeviceSet(range(0, 4));
    program.addCollective(program.addLabel("all_reduce"), a,
                          program.addGrouping(a, {{0, 1}, {2}}), 1, 8, 8, {});
    EXPECT_EQ(simulateError(program),
              "collective groups cover 3 of the 4 devices of their device set");
  }
  {
    Program program;
    DeviceSetId a = program.addDeviceSet(range(0, 4));
    program.addCollective(program.addLabel("all_reduce"), a,
                          program.addGrouping(a, {{0, 1}, {1, 2, 3}}), 1, 8, 8,
                          {});
    EXPECT_EQ(simulateError(program), "device 1 appears in two groups");
  }
  {
    Program program;
    program.addDeviceSet({0, 3, 0});
    EXPECT_EQ(simulateError(program), "device 0 appears twice in device set 0");
  }
}

TEST(Simulator, FormatDeviceList) {
  EXPECT_EQ(formatDeviceList({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10,11");
  EXPECT_EQ(formatDeviceList({5}), "5");
  EXPECT_EQ(formatDeviceList(range(0, 1024)), "0-1023");
}

} // namespace

namespace {

TEST(Simulator, RootedCollectivesReadAndWriteOnTheRootsOnly) {
  // Broadcast: the operand lives on root 0 only; the group still waits for
  // it. Gather: the result lives on the root only.
  Program program;
  DeviceSetId all = program.addDeviceSet(range(0, 4));
  DeviceSetId root = program.addDeviceSet({0});
  GroupingId group = program.addGrouping(all, {range(0, 4)});
  LabelId op = program.addLabel("op");
  TaskId x = program.addCompute(op, root, 2e-3, 0, 100, {});
  TaskId b = program.addCollective(program.addLabel("broadcast"), all, group,
                                   1e-3, 100, 100, {x});
  TaskId g = program.addCollective(program.addLabel("gather"), all, group, 1e-3,
                                   100, 400, {b}, root);
  program.markLiveOut(g);
  SimResult result = run(program);
  EXPECT_DOUBLE_EQ(result.stepTimeS, 4e-3);
  const DeviceClassReport &rootClass = result.classes[result.classOfDevice[0]];
  const DeviceClassReport &others = result.classes[result.classOfDevice[1]];
  EXPECT_EQ(others.devices, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_NEAR(others.idleS, 2e-3, 1e-12);
  // Root: x (until the broadcast ends), then the broadcast copy and the
  // gathered result together.
  EXPECT_EQ(rootClass.peakMemoryBytes, 100 + 400);
  EXPECT_EQ(others.peakMemoryBytes, 100);
}

} // namespace
