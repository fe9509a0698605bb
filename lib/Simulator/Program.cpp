//===- Program.cpp - Compact program representation -----------------------===//

#include "distir/Simulator/Program.h"

namespace distir {
namespace sim {

std::string_view streamName(Stream stream) {
  switch (stream) {
  case Stream::Compute:
    return "compute";
  case Stream::Collective:
    return "collective";
  case Stream::SendOut:
    return "send";
  case Stream::RecvIn:
    return "receive";
  case Stream::Gradient:
    return "gradient reduce";
  }
  return "?";
}

std::string_view memoryKindName(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Weights:
    return "weights";
  case MemoryKind::Gradients:
    return "gradients";
  case MemoryKind::OptimizerState:
    return "optimizer_state";
  case MemoryKind::ActivationsStashed:
    return "activations_stashed";
  case MemoryKind::ActivationsInFlight:
    return "activations_in_flight";
  case MemoryKind::Communication:
    return "communication";
  case MemoryKind::Other:
    return "other";
  }
  return "?";
}

size_t Program::VectorHash::operator()(const std::vector<int64_t> &v) const {
  // FNV-1a over the ids.
  uint64_t hash = 1469598103934665603ull;
  for (int64_t x : v) {
    hash ^= static_cast<uint64_t>(x);
    hash *= 1099511628211ull;
  }
  return static_cast<size_t>(hash);
}

DeviceSetId Program::addDeviceSet(const std::vector<int64_t> &devices) {
  auto [it, inserted] =
      setIds.try_emplace(devices, static_cast<DeviceSetId>(deviceSets.size()));
  if (inserted)
    deviceSets.push_back(devices);
  return it->second;
}

GroupingId
Program::addGrouping(DeviceSetId set,
                     const std::vector<std::vector<int64_t>> &groups) {
  auto [it, inserted] = groupingIds.try_emplace(
      std::make_pair(set, groups), static_cast<GroupingId>(groupings.size()));
  if (inserted)
    groupings.push_back({set, groups});
  return it->second;
}

LabelId Program::addLabel(std::string_view label) {
  auto [it, inserted] = labelIds.try_emplace(
      std::string(label), static_cast<LabelId>(labels.size()));
  if (inserted)
    labels.emplace_back(label);
  return it->second;
}

TaskId Program::addTask(Task task, const std::vector<TaskId> &taskDeps) {
  task.depBegin = static_cast<uint32_t>(deps.size());
  deps.insert(deps.end(), taskDeps.begin(), taskDeps.end());
  task.depEnd = static_cast<uint32_t>(deps.size());
  tasks.push_back(task);
  return static_cast<TaskId>(tasks.size() - 1);
}

TaskId Program::addCompute(LabelId label, DeviceSetId devices, double durationS,
                           double flops, int64_t resultBytes,
                           const std::vector<TaskId> &taskDeps) {
  Task task;
  task.kind = TaskKind::Compute;
  task.label = label;
  task.devices = devices;
  task.durationS = durationS;
  task.flops = flops;
  task.resultBytes = resultBytes;
  return addTask(task, taskDeps);
}

TaskId Program::addCollective(LabelId label, DeviceSetId devices,
                              GroupingId grouping, double durationS,
                              int64_t commBytes, int64_t resultBytes,
                              const std::vector<TaskId> &taskDeps,
                              DeviceSetId resultSet) {
  Task task;
  task.kind = TaskKind::Collective;
  task.target = resultSet == devices ? kNoId : resultSet;
  task.label = label;
  task.devices = devices;
  task.grouping = grouping;
  task.durationS = durationS;
  task.commBytes = commBytes;
  task.resultBytes = resultBytes;
  return addTask(task, taskDeps);
}

TaskId Program::addSend(LabelId label, DeviceSetId from, DeviceSetId to,
                        double durationS, int64_t bytes,
                        const std::vector<TaskId> &taskDeps) {
  Task task;
  task.kind = TaskKind::Send;
  task.label = label;
  task.devices = from;
  task.target = to;
  task.durationS = durationS;
  task.commBytes = bytes;
  task.resultBytes = bytes;
  return addTask(task, taskDeps);
}

void Program::addResident(DeviceSetId set, int64_t bytesPerDevice,
                          MemoryKind kind) {
  residents.emplace_back(set, bytesPerDevice);
  residentKinds.push_back(kind);
}

} // namespace sim
} // namespace distir
