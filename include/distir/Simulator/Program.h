//===- Program.h - Compact program for simulation ---------------*- C++ -*-===//
//
// The simulator does not walk MLIR: a placed program is lowered once into
// flat arrays of tasks. A task runs on a device set (every device of the set
// does the same local work), has a duration from the cost model, depends on
// earlier tasks (the producers of its operands) and allocates its result on
// each device of its result set. Device sets, collective groupings and labels
// are interned, so a 1024-way data-parallel op is one task, not 1024.
//
// Tasks must be added in program order: dependencies always point backwards.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_PROGRAM_H
#define DISTIR_SIMULATOR_PROGRAM_H

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace distir {
namespace sim {

using TaskId = uint32_t;
using DeviceSetId = uint32_t;
using GroupingId = uint32_t;
using LabelId = uint32_t;
inline constexpr uint32_t kNoId = UINT32_MAX;

enum class TaskKind : uint8_t {
  /// Local work on the compute stream of every device of the set.
  Compute,
  /// A collective on the communication stream, over groups partitioning the
  /// set; a group starts when all its members reached it.
  Collective,
  /// Position-by-position transfer from one device set to another of the
  /// same size, occupying the sender's outgoing and the receiver's incoming
  /// port (the endpoints of the link in a switched fabric).
  Send,
};

/// The streams of one device. With overlap disabled everything runs on
/// Compute. Collectives run on Collective unless the framework (Framework.h)
/// puts them elsewhere: on Compute when they block the device, on Gradient
/// for data-parallel gradient reductions that have their own communicator
/// (and so their own stream) beside the tensor-parallel one.
enum class Stream : uint8_t {
  Compute = 0,
  Collective = 1,
  SendOut = 2,
  RecvIn = 3,
  Gradient = 4,
};
inline constexpr int kNumStreams = 5;
std::string_view streamName(Stream stream);

/// What a buffer holds, for the memory breakdown at the peak
/// (docs/dist-sim.md): the lowering reads it off the program's roles and
/// phases.
enum class MemoryKind : uint8_t {
  Weights = 0,
  Gradients,
  OptimizerState,
  /// Forward values kept for backward.
  ActivationsStashed,
  /// Other forward and backward intermediates (activation gradients,
  /// recomputed values).
  ActivationsInFlight,
  /// Results of collectives and transfers that are not one of the above.
  Communication,
  Other,
};
inline constexpr int kNumMemoryKinds = 7;
/// "weights", "gradients", "optimizer_state", "activations_stashed", ...
std::string_view memoryKindName(MemoryKind kind);

struct Task {
  TaskKind kind = TaskKind::Compute;
  /// Collective only: the stream it occupies on each member.
  Stream stream = Stream::Collective;
  LabelId label = kNoId;
  /// Where the task runs; for a send, the senders.
  DeviceSetId devices = kNoId;
  /// Where the result lives when not on `devices`: the receivers of a send
  /// (position by position), the roots of a gather or reduce.
  DeviceSetId target = kNoId;
  /// Collective only: the groups.
  GroupingId grouping = kNoId;
  double durationS = 0;
  /// Per device.
  double flops = 0;
  /// Bytes each participating device sends (for the report's totals).
  int64_t commBytes = 0;
  /// Per device of the result set (`devices`, or `target` for a send).
  int64_t resultBytes = 0;
  /// The result stays allocated to the end of the step (function results).
  bool liveOut = false;
  MemoryKind memoryKind = MemoryKind::Other;
  uint32_t depBegin = 0, depEnd = 0;

  DeviceSetId resultSet() const { return target != kNoId ? target : devices; }
};

class Program {
public:
  /// Interns a device list; the order matters for sends (positions).
  DeviceSetId addDeviceSet(const std::vector<int64_t> &devices);
  /// Interns a partition of `set` into groups (validated by the simulator).
  GroupingId addGrouping(DeviceSetId set,
                         const std::vector<std::vector<int64_t>> &groups);
  LabelId addLabel(std::string_view label);

  TaskId addCompute(LabelId label, DeviceSetId devices, double durationS,
                    double flops, int64_t resultBytes,
                    const std::vector<TaskId> &deps);
  /// `resultSet`: where the result lives if not on all of `devices` (the
  /// roots of gather/reduce). Operands may live on a subset of `devices`
  /// (the roots of broadcast/scatter).
  TaskId addCollective(LabelId label, DeviceSetId devices, GroupingId grouping,
                       double durationS, int64_t commBytes, int64_t resultBytes,
                       const std::vector<TaskId> &deps,
                       DeviceSetId resultSet = kNoId);
  TaskId addSend(LabelId label, DeviceSetId from, DeviceSetId to,
                 double durationS, int64_t bytes,
                 const std::vector<TaskId> &deps);
  /// Room for `numTasks` more tasks with `numDeps` more dependencies: a
  /// composed pipeline of millions of tasks grows its arrays once.
  void reserve(size_t numTasks, size_t numDeps) {
    tasks.reserve(tasks.size() + numTasks);
    deps.reserve(deps.size() + numDeps);
  }
  void markLiveOut(TaskId task) { tasks[task].liveOut = true; }
  /// Moves a collective to another stream (Compute: it blocks the device).
  void setStream(TaskId task, Stream stream) { tasks[task].stream = stream; }
  /// What the result of `task` holds.
  void setMemoryKind(TaskId task, MemoryKind kind) {
    tasks[task].memoryKind = kind;
  }
  /// Bytes held on every device of `set` for the whole step (parameters,
  /// optimizer state, inputs, gradient buffers).
  void addResident(DeviceSetId set, int64_t bytesPerDevice,
                   MemoryKind kind = MemoryKind::Other);

  size_t numTasks() const { return tasks.size(); }
  const Task &task(TaskId id) const { return tasks[id]; }
  const std::vector<Task> &getTasks() const { return tasks; }
  const std::vector<TaskId> &getDeps() const { return deps; }
  const std::vector<int64_t> &deviceSet(DeviceSetId id) const {
    return deviceSets[id];
  }
  size_t numDeviceSets() const { return deviceSets.size(); }
  const std::vector<std::vector<int64_t>> &grouping(GroupingId id) const {
    return groupings[id].groups;
  }
  DeviceSetId groupingSet(GroupingId id) const { return groupings[id].set; }
  size_t numGroupings() const { return groupings.size(); }
  const std::string &label(LabelId id) const { return labels[id]; }
  size_t numLabels() const { return labels.size(); }
  const std::vector<std::pair<DeviceSetId, int64_t>> &getResidents() const {
    return residents;
  }
  /// The kind of each resident, in the order of getResidents.
  const std::vector<MemoryKind> &getResidentKinds() const {
    return residentKinds;
  }

private:
  TaskId addTask(Task task, const std::vector<TaskId> &taskDeps);

  struct VectorHash {
    size_t operator()(const std::vector<int64_t> &v) const;
  };
  struct Grouping {
    DeviceSetId set;
    std::vector<std::vector<int64_t>> groups;
  };

  std::vector<Task> tasks;
  std::vector<TaskId> deps;
  std::vector<std::vector<int64_t>> deviceSets;
  std::unordered_map<std::vector<int64_t>, DeviceSetId, VectorHash> setIds;
  std::vector<Grouping> groupings;
  std::map<std::pair<DeviceSetId, std::vector<std::vector<int64_t>>>,
           GroupingId>
      groupingIds;
  std::vector<std::string> labels;
  std::unordered_map<std::string, LabelId> labelIds;
  std::vector<std::pair<DeviceSetId, int64_t>> residents;
  std::vector<MemoryKind> residentKinds;
};

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_PROGRAM_H
