//===- Simulator.cpp - Event times, memory and busy time per device class -===//

#include "distir/Simulator/Simulator.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace distir {
namespace sim {

namespace {

/// Device classes and the per-set / per-grouping / per-send views of them.
/// A "slot" is the position of a class in a set's sorted class list.
struct ClassStructure {
  int64_t numDevices = 0;
  std::vector<int32_t> classOf;
  uint32_t numClasses = 0;
  std::vector<uint32_t> setClassBegin; // numSets + 1
  std::vector<uint32_t> setClasses;
  std::vector<uint32_t> groupingComponentBegin; // numGroupings + 1
  std::vector<uint32_t> componentSlotBegin;     // numComponents + 1
  std::vector<uint32_t> componentSlots;

  uint32_t numSlots(DeviceSetId set) const {
    return setClassBegin[set + 1] - setClassBegin[set];
  }
  const uint32_t *classes(DeviceSetId set) const {
    return setClasses.data() + setClassBegin[set];
  }
  /// Slot of `cls` in `set`, or kNoId.
  uint32_t slotOf(DeviceSetId set, uint32_t cls) const {
    const uint32_t *begin = classes(set), *end = begin + numSlots(set);
    const uint32_t *it = std::lower_bound(begin, end, cls);
    return it != end && *it == cls ? static_cast<uint32_t>(it - begin) : kNoId;
  }
};

std::string taskName(const Program &program, TaskId id) {
  const Task &task = program.task(id);
  std::string name = "task " + std::to_string(id);
  if (task.label != kNoId)
    name += " (" + program.label(task.label) + ")";
  return name;
}

/// Partition refinement: two devices end in the same class iff they belong
/// to exactly the same device sets. Linear in the total size of the sets.
Status buildClasses(const Program &program, ClassStructure &cs) {
  size_t numSets = program.numDeviceSets();
  int64_t maxDevice = -1;
  for (size_t s = 0; s < numSets; ++s) {
    const std::vector<int64_t> &set = program.deviceSet(s);
    if (set.empty())
      return Status::error("device set " + std::to_string(s) + " is empty");
    for (int64_t d : set) {
      if (d < 0)
        return Status::error("negative device id " + std::to_string(d));
      maxDevice = std::max(maxDevice, d);
    }
  }
  cs.numDevices = maxDevice + 1;
  cs.classOf.assign(cs.numDevices, -1);
  std::vector<int64_t> classSize;
  for (size_t s = 0; s < numSets; ++s)
    for (int64_t d : program.deviceSet(s))
      if (cs.classOf[d] < 0) {
        cs.classOf[d] = 0;
        if (classSize.empty())
          classSize.push_back(0);
        ++classSize[0];
      }

  std::vector<int64_t> countInSet(classSize.size(), 0);
  std::vector<int32_t> newId(classSize.size(), -1);
  std::vector<uint32_t> stamp(cs.numDevices, kNoId);
  std::vector<int32_t> touched;
  for (size_t s = 0; s < numSets; ++s) {
    const std::vector<int64_t> &set = program.deviceSet(s);
    touched.clear();
    for (int64_t d : set) {
      if (stamp[d] == s)
        return Status::error("device " + std::to_string(d) +
                             " appears twice in device set " +
                             std::to_string(s));
      stamp[d] = static_cast<uint32_t>(s);
      int32_t c = cs.classOf[d];
      if (countInSet[c]++ == 0)
        touched.push_back(c);
    }
    for (int32_t c : touched) {
      if (countInSet[c] < classSize[c]) {
        newId[c] = static_cast<int32_t>(classSize.size());
        classSize.push_back(countInSet[c]);
        classSize[c] -= countInSet[c];
        countInSet.push_back(0);
        newId.push_back(-1);
      } else {
        newId[c] = c;
      }
    }
    for (int64_t d : set)
      cs.classOf[d] = newId[cs.classOf[d]];
    for (int32_t c : touched)
      countInSet[c] = 0;
  }
  cs.numClasses = static_cast<uint32_t>(classSize.size());
  // Number classes by their smallest device, so that reports and traces list
  // them in device order.
  std::vector<int32_t> renumbered(cs.numClasses, -1);
  int32_t next = 0;
  for (int64_t d = 0; d < cs.numDevices; ++d) {
    int32_t &c = cs.classOf[d];
    if (c < 0)
      continue;
    if (renumbered[c] < 0)
      renumbered[c] = next++;
    c = renumbered[c];
  }

  cs.setClassBegin.assign(numSets + 1, 0);
  std::vector<uint32_t> scratch;
  for (size_t s = 0; s < numSets; ++s) {
    scratch.clear();
    for (int64_t d : program.deviceSet(s))
      scratch.push_back(static_cast<uint32_t>(cs.classOf[d]));
    std::sort(scratch.begin(), scratch.end());
    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
    cs.setClasses.insert(cs.setClasses.end(), scratch.begin(), scratch.end());
    cs.setClassBegin[s + 1] = static_cast<uint32_t>(cs.setClasses.size());
  }
  return Status::success();
}

/// Members of one group wait for each other, so classes joined by a group
/// start together: the connected components of classes linked by groups.
Status buildGroupings(const Program &program, ClassStructure &cs) {
  std::vector<uint32_t> seenIn(cs.numDevices, kNoId);
  std::vector<uint32_t> parent;
  auto find = [&](uint32_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  };
  cs.groupingComponentBegin.assign(1, 0);
  cs.componentSlotBegin.assign(1, 0);
  for (GroupingId g = 0; g < program.numGroupings(); ++g) {
    DeviceSetId set = program.groupingSet(g);
    const std::vector<int64_t> &members = program.deviceSet(set);
    uint32_t stampIn = 2 * g, stampGrouped = 2 * g + 1;
    for (int64_t d : members)
      seenIn[d] = stampIn;
    uint32_t slots = cs.numSlots(set);
    parent.resize(slots);
    std::iota(parent.begin(), parent.end(), 0);
    size_t grouped = 0;
    for (const std::vector<int64_t> &group : program.grouping(g)) {
      if (group.empty())
        return Status::error("collective grouping " + std::to_string(g) +
                             " has an empty group");
      uint32_t first = kNoId;
      for (int64_t d : group) {
        if (d < 0 || d >= cs.numDevices || seenIn[d] != stampIn)
          return Status::error(
              "device " + std::to_string(d) +
              (d >= 0 && d < cs.numDevices && seenIn[d] == stampGrouped
                   ? " appears in two groups"
                   : " of a collective group is not in the op's device set"));
        seenIn[d] = stampGrouped;
        ++grouped;
        uint32_t slot = cs.slotOf(set, static_cast<uint32_t>(cs.classOf[d]));
        if (first == kNoId)
          first = slot;
        else
          parent[find(slot)] = find(first);
      }
    }
    if (grouped != members.size())
      return Status::error(
          "collective groups cover " + std::to_string(grouped) + " of the " +
          std::to_string(members.size()) + " devices of their device set");
    // Components in order of their smallest slot: deterministic.
    std::vector<std::vector<uint32_t>> components;
    std::vector<uint32_t> componentOfRoot(slots, kNoId);
    for (uint32_t slot = 0; slot < slots; ++slot) {
      uint32_t root = find(slot);
      if (componentOfRoot[root] == kNoId) {
        componentOfRoot[root] = static_cast<uint32_t>(components.size());
        components.emplace_back();
      }
      components[componentOfRoot[root]].push_back(slot);
    }
    for (const std::vector<uint32_t> &component : components) {
      cs.componentSlots.insert(cs.componentSlots.end(), component.begin(),
                               component.end());
      cs.componentSlotBegin.push_back(
          static_cast<uint32_t>(cs.componentSlots.size()));
    }
    cs.groupingComponentBegin.push_back(
        static_cast<uint32_t>(cs.componentSlotBegin.size() - 1));
  }
  return Status::success();
}

/// The distinct (sender slot, receiver slot) pairs of a send.
using SlotPairs = std::vector<std::pair<uint32_t, uint32_t>>;

Status buildSendPairs(const Program &program, const ClassStructure &cs,
                      DeviceSetId from, DeviceSetId to, SlotPairs &pairs) {
  const std::vector<int64_t> &senders = program.deviceSet(from);
  const std::vector<int64_t> &receivers = program.deviceSet(to);
  if (senders.size() != receivers.size())
    return Status::error("send from " + std::to_string(senders.size()) +
                         " devices to " + std::to_string(receivers.size()) +
                         " devices: sets must have the same size");
  for (size_t i = 0; i < senders.size(); ++i)
    pairs.emplace_back(cs.slotOf(from, cs.classOf[senders[i]]),
                       cs.slotOf(to, cs.classOf[receivers[i]]));
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return Status::success();
}

struct Interval {
  double start, end;
  bool operator<(const Interval &other) const {
    return start < other.start || (start == other.start && end < other.end);
  }
};

/// The transfers a device class receives, as sorted disjoint busy intervals.
/// A receiver takes each transfer as soon as it can, in the order its data
/// arrives, not in program order: a device posts its receives in its own
/// order (the order it uses them, e.g. Megatron-LM's pipeline), and the
/// program order of the sends interleaves several senders' orders that the
/// receiver never sees.
class ReceivePort {
public:
  /// The earliest start >= `from` of a transfer of `duration` that fits
  /// between the transfers already taken; reserves it.
  double reserve(double from, double duration) {
    if (duration <= 0)
      return from;
    // Mostly transfers arrive in order: they go after the last one.
    if (busy.empty() || from >= busy.back().end) {
      append(from, from + duration);
      return from;
    }
    auto it = std::upper_bound(
        busy.begin(), busy.end(), from,
        [](double time, const Interval &iv) { return time < iv.end; });
    double begin = from;
    for (; it != busy.end() && begin + duration > it->start; ++it)
      begin = std::max(begin, it->end);
    double end = begin + duration;
    // Merge with the neighbours it touches, so that back-to-back transfers
    // stay one interval.
    bool joinsPrev = it != busy.begin() && std::prev(it)->end == begin;
    bool joinsNext = it != busy.end() && it->start == end;
    if (joinsPrev && joinsNext) {
      std::prev(it)->end = it->end;
      busy.erase(it);
    } else if (joinsPrev) {
      std::prev(it)->end = end;
    } else if (joinsNext) {
      it->start = begin;
    } else {
      busy.insert(it, {begin, end});
    }
    return begin;
  }

private:
  void append(double begin, double end) {
    if (!busy.empty() && busy.back().end == begin)
      busy.back().end = end;
    else
      busy.push_back({begin, end});
  }
  std::vector<Interval> busy;
};

double unionLength(std::vector<Interval> &intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0, curStart = 0, curEnd = -1;
  for (const Interval &iv : intervals) {
    if (iv.start > curEnd) {
      if (curEnd > curStart)
        total += curEnd - curStart;
      curStart = iv.start;
      curEnd = iv.end;
    } else {
      curEnd = std::max(curEnd, iv.end);
    }
  }
  if (curEnd > curStart)
    total += curEnd - curStart;
  return total;
}

/// An allocation (+bytes) or a free (-bytes) on one device class.
struct MemoryEvent {
  double time;
  int64_t delta;
  MemoryKind kind;
};

/// Sorts one class's events by time, frees before allocations at the same
/// instant (a buffer released when a kernel ends can back the next kernel's
/// output). `events` lists the frees first: a stable sort by time alone
/// keeps them first. Within the frees, and within the allocations, of one
/// instant the order changes neither the peak, nor the bytes in use after
/// the instant, nor the events that make the peak (allocations only raise
/// it). Measured on the GPT-3 175B search (perf; composition CPU 12.2 s ->
/// 8.6 s with the counted collection): this merge sort beats introsort on
/// (time, delta), and LSD radix sorts of the time bits with 8-, 11- and
/// 16-bit digits, on these partly ordered lists.
static void sortMemoryEvents(std::vector<MemoryEvent> &events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const MemoryEvent &a, const MemoryEvent &b) {
                     return a.time < b.time;
                   });
}

/// One step of one program: the slots of every task (a task's copy per
/// device class it touches), then the event times in program order, then
/// memory, per-op times and the trace read off those times.
class StepSimulator {
public:
  StepSimulator(const Program &program, const SimOptions &options,
                ClassStructure &cs)
      : program(program), options(options), cs(cs), tasks(program.getTasks()),
        deps(program.getDeps()), numTasks(tasks.size()) {}

  /// Checks every task and gives it its slots; an error on a malformed
  /// task.
  Status planSlots();
  /// The event loop: start and finish of every slot, busy time per class.
  Status runTasks(SimResult &result);
  /// Peak memory and busy/idle time per device class.
  void reportClasses(SimResult &result);
  /// The `topOps` labels by summed duration.
  void summarizeOps(SimResult &result) const;
  void recordTrace(SimResult &result) const;

private:
  /// The device-set and grouping checks of task `t`.
  Status checkTask(TaskId t) const;
  /// Resolves the dependencies of `t` on its slots (`depSlot`, and when
  /// they are `ready` per slot); returns kNoId, or the producer whose value
  /// is not present on a device running `t` (the loop words the error: a
  /// Status built per task would cost the hot path).
  /// Inlined into the event loop, as it was written there: as a call it
  /// costs ~15% more instructions per step (callgrind).
  [[gnu::always_inline]] TaskId resolveDeps(TaskId t,
                                            const std::vector<double> &finish,
                                            std::vector<uint32_t> &depSlot,
                                            std::vector<double> &ready) const;
  /// `t` reads the value of `producer`, which is not on all of its devices.
  /// Cold and out of line, so that the event loop keeps its registers.
  [[gnu::cold, gnu::noinline]] Status missingValueError(TaskId t,
                                                        TaskId producer) const;
  /// Per class, (time, +bytes) when a result is produced and (time, -bytes)
  /// when its last consumer ends: results live from the start of their
  /// producer to the end of their last consumer (or to the end of the step
  /// for live-out values).
  std::vector<std::vector<MemoryEvent>> collectMemoryEvents() const;

  const Program &program;
  const SimOptions &options;
  ClassStructure &cs;
  const std::vector<Task> &tasks;
  const std::vector<TaskId> &deps;
  const size_t numTasks;

  // Slots: the classes a task runs on, then (sends only) its receivers.
  std::vector<uint32_t> slotBase, resultBase;
  std::map<std::pair<DeviceSetId, DeviceSetId>, SlotPairs> sendPairsCache;
  std::vector<const SlotPairs *> sendPairs;
  size_t numSlots = 0;

  // What runTasks leaves for the reports.
  std::vector<double> start, finish, lastUse;
  std::vector<double> computeBusy, commBusy;
  std::vector<std::vector<Interval>> busy;
};

Status StepSimulator::checkTask(TaskId t) const {
  const Task &task = tasks[t];
  auto badSet = [&](DeviceSetId set) {
    return set == kNoId || set >= program.numDeviceSets();
  };
  if (badSet(task.devices) || (task.target != kNoId && badSet(task.target)))
    return Status::error(taskName(program, t) + ": unknown device set");
  if (task.kind == TaskKind::Collective &&
      (task.grouping >= program.numGroupings() ||
       program.groupingSet(task.grouping) != task.devices))
    return Status::error(taskName(program, t) +
                         ": its groups belong to another device set");
  for (uint32_t i = task.depBegin; i < task.depEnd; ++i)
    if (deps[i] >= t)
      return Status::error(taskName(program, t) + ": depends on task " +
                           std::to_string(deps[i]) +
                           ", which does not precede it");
  return Status::success();
}

Status StepSimulator::planSlots() {
  slotBase.resize(numTasks);
  resultBase.resize(numTasks);
  sendPairs.assign(numTasks, nullptr);
  for (TaskId t = 0; t < numTasks; ++t) {
    const Task &task = tasks[t];
    DISTIR_RETURN_IF_ERROR(checkTask(t));
    slotBase[t] = static_cast<uint32_t>(numSlots);
    numSlots += cs.numSlots(task.devices);
    resultBase[t] = slotBase[t];
    if (task.target != kNoId) {
      resultBase[t] = static_cast<uint32_t>(numSlots);
      numSlots += cs.numSlots(task.target);
    }
    if (task.kind == TaskKind::Collective && task.target != kNoId) {
      const uint32_t *classes = cs.classes(task.target);
      for (uint32_t r = 0, e = cs.numSlots(task.target); r < e; ++r)
        if (cs.slotOf(task.devices, classes[r]) == kNoId)
          return Status::error(
              taskName(program, t) +
              ": its result lives outside the devices it runs on");
    }
    if (task.kind == TaskKind::Send) {
      auto [it, inserted] =
          sendPairsCache.try_emplace({task.devices, task.target});
      if (inserted) {
        Status paired =
            buildSendPairs(program, cs, task.devices, task.target, it->second);
        if (!paired.ok())
          return Status::error(taskName(program, t) + ": " + paired.message());
      }
      sendPairs[t] = &it->second;
    }
  }
  return Status::success();
}

inline TaskId StepSimulator::resolveDeps(TaskId t,
                                         const std::vector<double> &finish,
                                         std::vector<uint32_t> &depSlot,
                                         std::vector<double> &ready) const {
  const Task &task = tasks[t];
  uint32_t slots = cs.numSlots(task.devices);
  uint32_t numDeps = task.depEnd - task.depBegin;
  depSlot.resize(size_t(slots) * numDeps);
  ready.assign(slots, 0.0);
  const uint32_t *classes = cs.classes(task.devices);
  for (uint32_t j = 0; j < numDeps; ++j) {
    TaskId producer = deps[task.depBegin + j];
    DeviceSetId where = tasks[producer].resultSet();
    uint32_t base = resultBase[producer];
    for (uint32_t k = 0; k < slots; ++k) {
      uint32_t slot = where == task.devices ? k : cs.slotOf(where, classes[k]);
      // A broadcast or scatter reads its operand on the roots only; the
      // group waits for them.
      if (slot == kNoId && task.kind == TaskKind::Collective) {
        depSlot[size_t(k) * numDeps + j] = kNoId;
        continue;
      }
      if (slot == kNoId)
        return producer;
      depSlot[size_t(k) * numDeps + j] = base + slot;
      ready[k] = std::max(ready[k], finish[base + slot]);
    }
  }
  return kNoId;
}

Status StepSimulator::missingValueError(TaskId t, TaskId producer) const {
  return Status::error(taskName(program, t) + " uses the result of " +
                       taskName(program, producer) +
                       ", which is not on all of its devices");
}

Status StepSimulator::runTasks(SimResult &result) {
  // The loop's state is local, not members: it does not escape, so the
  // compiler keeps the vectors' data pointers in registers across the calls
  // that grow `busy` (measured: ~20% more instructions with members).
  std::vector<double> start(numSlots, 0), finish(numSlots, 0),
      lastUse(numSlots, 0);
  std::vector<double> streamFree(size_t(cs.numClasses) * kNumStreams, 0);
  std::vector<double> computeBusy(cs.numClasses, 0), commBusy(cs.numClasses, 0);
  std::vector<std::vector<Interval>> busy(cs.numClasses);
  // depSlot[k * numDeps + j]: where slot k reads its j-th dependency.
  std::vector<uint32_t> depSlot;
  std::vector<double> ready;
  auto streamOf = [&](Stream stream) {
    return options.overlap ? static_cast<size_t>(stream) : size_t(0);
  };
  auto releaseDeps = [&](const Task &task, uint32_t k, double when) {
    uint32_t numDeps = task.depEnd - task.depBegin;
    for (uint32_t j = 0; j < numDeps; ++j) {
      uint32_t slot = depSlot[size_t(k) * numDeps + j];
      if (slot != kNoId)
        lastUse[slot] = std::max(lastUse[slot], when);
    }
  };
  auto occupy = [&](uint32_t cls, Stream stream, double from, double to) {
    streamFree[size_t(cls) * kNumStreams + streamOf(stream)] = to;
    if (to > from)
      busy[cls].push_back({from, to});
  };
  auto freeAt = [&](uint32_t cls, Stream stream) {
    return streamFree[size_t(cls) * kNumStreams + streamOf(stream)];
  };

  // Each slot of the set starts when its inputs are ready and its compute
  // stream is free.
  auto runCompute = [&](const Task &task, const uint32_t *classes,
                        uint32_t slots, uint32_t base) {
    for (uint32_t k = 0; k < slots; ++k) {
      uint32_t cls = classes[k];
      double begin = std::max(ready[k], freeAt(cls, Stream::Compute));
      double end = begin + task.durationS;
      start[base + k] = begin;
      finish[base + k] = end;
      occupy(cls, Stream::Compute, begin, end);
      computeBusy[cls] += task.durationS;
      releaseDeps(task, k, end);
    }
  };
  // Each group (a component of the grouping) starts when all its members
  // have reached it.
  auto runCollective = [&](TaskId t, const Task &task, const uint32_t *classes,
                           uint32_t base) {
    uint32_t firstComponent = cs.groupingComponentBegin[task.grouping];
    uint32_t lastComponent = cs.groupingComponentBegin[task.grouping + 1];
    for (uint32_t c = firstComponent; c < lastComponent; ++c) {
      const uint32_t *compSlots =
          cs.componentSlots.data() + cs.componentSlotBegin[c];
      uint32_t compSize =
          cs.componentSlotBegin[c + 1] - cs.componentSlotBegin[c];
      double begin = 0;
      for (uint32_t i = 0; i < compSize; ++i) {
        uint32_t k = compSlots[i];
        begin = std::max({begin, ready[k], freeAt(classes[k], task.stream)});
      }
      double end = begin + task.durationS;
      for (uint32_t i = 0; i < compSize; ++i) {
        uint32_t k = compSlots[i];
        start[base + k] = begin;
        finish[base + k] = end;
        occupy(classes[k], task.stream, begin, end);
        commBusy[classes[k]] += task.durationS;
        releaseDeps(task, k, end);
      }
    }
    if (task.target == kNoId)
      return;
    const uint32_t *resultClasses = cs.classes(task.target);
    for (uint32_t r = 0, e = cs.numSlots(task.target); r < e; ++r) {
      uint32_t k = cs.slotOf(task.devices, resultClasses[r]);
      start[resultBase[t] + r] = start[base + k];
      finish[resultBase[t] + r] = finish[base + k];
    }
  };
  // A send occupies the sender's outgoing port, in program order (the order
  // the sender issues its sends), and the receiver's incoming port wherever
  // it is free (ReceivePort). Without overlap both are the compute streams.
  std::vector<ReceivePort> receivePorts(options.overlap ? cs.numClasses : 0);
  auto runSend = [&](TaskId t, const Task &task, const uint32_t *classes,
                     uint32_t base) {
    const uint32_t *receivers = cs.classes(task.target);
    uint32_t rbase = resultBase[t];
    for (auto [k, r] : *sendPairs[t]) {
      uint32_t from = classes[k], to = receivers[r];
      double begin = std::max(ready[k], freeAt(from, Stream::SendOut));
      if (options.overlap)
        begin = receivePorts[to].reserve(begin, task.durationS);
      else
        begin = std::max(begin, freeAt(to, Stream::RecvIn));
      double end = begin + task.durationS;
      start[base + k] = std::max(start[base + k], begin);
      finish[base + k] = std::max(finish[base + k], end);
      start[rbase + r] = std::max(start[rbase + r], begin);
      finish[rbase + r] = std::max(finish[rbase + r], end);
      occupy(from, Stream::SendOut, begin, end);
      occupy(to, Stream::RecvIn, begin, end);
      commBusy[from] += task.durationS;
      commBusy[to] += task.durationS;
      releaseDeps(task, k, end);
    }
  };

  result.numTasks = numTasks;
  for (TaskId t = 0; t < numTasks; ++t) {
    const Task &task = tasks[t];
    if (TaskId missing = resolveDeps(t, finish, depSlot, ready);
        missing != kNoId)
      return missingValueError(t, missing);
    const uint32_t *classes = cs.classes(task.devices);
    double setSize =
        static_cast<double>(program.deviceSet(task.devices).size());
    if (task.kind == TaskKind::Compute) {
      result.flops += task.flops * setSize;
      runCompute(task, classes, cs.numSlots(task.devices), slotBase[t]);
    } else {
      result.commBytes += static_cast<int64_t>(task.commBytes * setSize);
      if (task.kind == TaskKind::Collective)
        runCollective(t, task, classes, slotBase[t]);
      else
        runSend(t, task, classes, slotBase[t]);
    }
  }
  double stepTime = 0;
  for (double end : finish)
    stepTime = std::max(stepTime, end);
  result.stepTimeS = stepTime;
  this->start = std::move(start);
  this->finish = std::move(finish);
  this->lastUse = std::move(lastUse);
  this->computeBusy = std::move(computeBusy);
  this->commBusy = std::move(commBusy);
  this->busy = std::move(busy);
  return Status::success();
}

std::vector<std::vector<MemoryEvent>>
StepSimulator::collectMemoryEvents() const {
  // Each result slot of each task that has bytes: its class and slot.
  auto forEachResult = [&](auto visit) {
    for (TaskId t = 0; t < numTasks; ++t) {
      const Task &task = tasks[t];
      if (task.resultBytes == 0)
        continue;
      DeviceSetId where = task.resultSet();
      const uint32_t *classes = cs.classes(where);
      for (uint32_t k = 0, e = cs.numSlots(where); k < e; ++k)
        visit(task, classes[k], resultBase[t] + k);
    }
  };
  // Counted first, so that each class's frees go first (sortMemoryEvents)
  // into storage allocated once.
  std::vector<size_t> nextFree(cs.numClasses), nextAlloc(cs.numClasses);
  forEachResult([&](const Task &task, uint32_t cls, uint32_t) {
    ++nextAlloc[cls];
    if (!task.liveOut)
      ++nextFree[cls];
  });
  std::vector<std::vector<MemoryEvent>> events(cs.numClasses);
  for (uint32_t c = 0; c < cs.numClasses; ++c) {
    events[c].resize(nextFree[c] + nextAlloc[c]);
    nextAlloc[c] = nextFree[c];
    nextFree[c] = 0;
  }
  forEachResult([&](const Task &task, uint32_t cls, uint32_t slot) {
    events[cls][nextAlloc[cls]++] = {start[slot], task.resultBytes,
                                     task.memoryKind};
    if (!task.liveOut)
      events[cls][nextFree[cls]++] = {std::max(finish[slot], lastUse[slot]),
                                      -task.resultBytes, task.memoryKind};
  });
  return events;
}

void StepSimulator::reportClasses(SimResult &result) {
  std::vector<std::vector<MemoryEvent>> events = collectMemoryEvents();
  result.classes.resize(cs.numClasses);
  for (int64_t d = 0; d < cs.numDevices; ++d)
    if (cs.classOf[d] >= 0)
      result.classes[cs.classOf[d]].devices.push_back(d);
  std::vector<std::array<int64_t, kNumMemoryKinds>> residentByKind(
      cs.numClasses);
  const std::vector<MemoryKind> &residentKinds = program.getResidentKinds();
  const auto &residents = program.getResidents();
  for (size_t r = 0; r < residents.size(); ++r) {
    auto [set, bytes] = residents[r];
    const uint32_t *classes = cs.classes(set);
    for (uint32_t k = 0, e = cs.numSlots(set); k < e; ++k) {
      result.classes[classes[k]].residentBytes += bytes;
      residentByKind[classes[k]][size_t(residentKinds[r])] += bytes;
    }
  }
  for (uint32_t c = 0; c < cs.numClasses; ++c) {
    DeviceClassReport &report = result.classes[c];
    sortMemoryEvents(events[c]);
    int64_t inUse = report.residentBytes, peak = inUse;
    size_t peakEnd = 0; // events [0, peakEnd) make the peak
    if (options.recordMemoryTimeline)
      report.memoryTimeline.emplace_back(0.0, inUse);
    for (size_t i = 0; i < events[c].size(); ++i) {
      auto [time, delta, kind] = events[c][i];
      inUse += delta;
      if (inUse > peak) {
        peak = inUse;
        peakEnd = i + 1;
      }
      if (options.recordMemoryTimeline) {
        if (!report.memoryTimeline.empty() &&
            report.memoryTimeline.back().first == time)
          report.memoryTimeline.back().second = inUse;
        else
          report.memoryTimeline.emplace_back(time, inUse);
      }
    }
    report.peakMemoryBytes = peak;
    report.peakBreakdown = residentByKind[c];
    for (size_t i = 0; i < peakEnd; ++i)
      report.peakBreakdown[size_t(events[c][i].kind)] += events[c][i].delta;
    report.computeS = computeBusy[c];
    report.commS = commBusy[c];
    report.idleS = std::max(0.0, result.stepTimeS - unionLength(busy[c]));
    result.peakMemoryBytes = std::max(result.peakMemoryBytes, peak);
  }
  result.classOfDevice = std::move(cs.classOf);
}

void StepSimulator::summarizeOps(SimResult &result) const {
  std::vector<OpTimeSummary> perLabel(program.numLabels());
  for (const Task &task : tasks) {
    if (task.label == kNoId)
      continue;
    ++perLabel[task.label].count;
    perLabel[task.label].totalS += task.durationS;
  }
  for (LabelId l = 0; l < perLabel.size(); ++l)
    perLabel[l].label = program.label(l);
  std::stable_sort(perLabel.begin(), perLabel.end(),
                   [](const OpTimeSummary &a, const OpTimeSummary &b) {
                     return a.totalS > b.totalS;
                   });
  perLabel.resize(std::min(perLabel.size(), options.topOps));
  result.topOps = std::move(perLabel);
}

void StepSimulator::recordTrace(SimResult &result) const {
  for (TaskId t = 0; t < numTasks; ++t) {
    const Task &task = tasks[t];
    if (task.durationS <= 0)
      continue;
    Stream stream = task.kind == TaskKind::Compute      ? Stream::Compute
                    : task.kind == TaskKind::Collective ? task.stream
                                                        : Stream::SendOut;
    const uint32_t *classes = cs.classes(task.devices);
    for (uint32_t k = 0, e = cs.numSlots(task.devices); k < e; ++k)
      result.trace.push_back({classes[k], stream, task.label,
                              start[slotBase[t] + k], task.durationS});
    if (task.kind == TaskKind::Send) {
      const uint32_t *receivers = cs.classes(task.target);
      for (uint32_t k = 0, e = cs.numSlots(task.target); k < e; ++k)
        result.trace.push_back({receivers[k], Stream::RecvIn, task.label,
                                start[resultBase[t] + k], task.durationS});
    }
  }
}

} // namespace

StatusOr<SimResult> simulate(const Program &program,
                             const SimOptions &options) {
  ClassStructure cs;
  DISTIR_RETURN_IF_ERROR(buildClasses(program, cs));
  DISTIR_RETURN_IF_ERROR(buildGroupings(program, cs));
  StepSimulator simulator(program, options, cs);
  SimResult result;
  DISTIR_RETURN_IF_ERROR(simulator.planSlots());
  DISTIR_RETURN_IF_ERROR(simulator.runTasks(result));
  simulator.reportClasses(result);
  simulator.summarizeOps(result);
  if (options.recordTrace)
    simulator.recordTrace(result);
  return result;
}

} // namespace sim
} // namespace distir
