//===- Simulator.h - Discrete-event simulation of a step --------*- C++ -*-===//
//
// Semantics (docs/dist-sim.md):
//  - every device runs the tasks of each of its streams in program order
//    (a task starts when its inputs are ready on that device and the stream
//    is free); compute and communication are separate streams and overlap
//    unless `overlap` is off;
//  - a collective group starts when every member has reached it;
//  - a send occupies the sender's outgoing port (in program order) and the
//    receiver's incoming port wherever it is free: a receiver takes its
//    transfers as they come, not in the program order of other devices'
//    sends (a pipeline stage posts its receives in its own order).
// Because dependencies and stream predecessors always precede a task in
// program order, the event times are computed in one pass in program order:
// no event queue is needed and the result is the exact event-driven one.
//
// Devices that belong to exactly the same device sets receive the same tasks
// at the same times, so they are simulated once: the devices are partitioned
// into classes (partition refinement over the sets) and each task is
// simulated once per class it touches.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_SIMULATOR_H
#define DISTIR_SIMULATOR_SIMULATOR_H

#include "distir/Simulator/Program.h"
#include "distir/Support/Status.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace distir {
namespace sim {

struct SimOptions {
  /// Communication on its own streams (false: one stream per device).
  bool overlap = true;
  /// Keep every task's times (for the Chrome trace).
  bool recordTrace = false;
  /// Keep each device class's memory curve.
  bool recordMemoryTimeline = false;
  size_t topOps = 10;
};

/// One class of identical devices.
struct DeviceClassReport {
  std::vector<int64_t> devices;
  double computeS = 0; // compute stream busy
  double commS = 0;    // communication tasks (collectives, send, receive)
  double idleS = 0;    // step time not covered by any stream
  int64_t residentBytes = 0;
  int64_t peakMemoryBytes = 0;
  /// The bytes in use at the (first) peak, by MemoryKind; they sum to
  /// peakMemoryBytes.
  std::array<int64_t, kNumMemoryKinds> peakBreakdown{};
  /// (time, bytes in use) after each change; only with recordMemoryTimeline.
  std::vector<std::pair<double, int64_t>> memoryTimeline;
};

struct OpTimeSummary {
  std::string label;
  int64_t count = 0;
  /// Sum of the durations of the tasks with this label (each task counted
  /// once, as one of its devices sees it).
  double totalS = 0;
};

struct TraceEvent {
  uint32_t deviceClass;
  Stream stream;
  LabelId label;
  double startS;
  double durationS;
};

struct SimResult {
  double stepTimeS = 0;
  /// Summed over all devices.
  double flops = 0;
  int64_t commBytes = 0;
  /// Maximum over devices.
  int64_t peakMemoryBytes = 0;
  size_t numTasks = 0;
  std::vector<DeviceClassReport> classes;
  /// Class of every device id (-1: the program does not use the device).
  std::vector<int32_t> classOfDevice;
  std::vector<OpTimeSummary> topOps;
  std::vector<TraceEvent> trace;
};

/// Simulates one step. Fails with a one-line error for a malformed program
/// (a dependency on a value not present on the consumer's devices, a send
/// between sets of different sizes, groups that do not partition their set).
StatusOr<SimResult> simulate(const Program &program, const SimOptions &options);

/// What the report needs to know about the cluster.
struct ReportContext {
  std::string clusterName;
  int64_t memoryCapacityBytes = 0;
  /// Samples (e.g. sequences) processed per step, for throughput; 0: unknown.
  double samplesPerStep = 0;
};

bool fitsInMemory(const SimResult &result, const ReportContext &context);

/// Human-readable summary (step time, throughput, per-device busy/comm/idle,
/// memory against capacity, top ops).
void printSummary(std::ostream &os, const SimResult &result,
                  const ReportContext &context);

/// The --report JSON: step_time_s, peak_memory_bytes, flops, comm_bytes,
/// fits, devices [{id, compute_s, comm_s, idle_s, peak_memory_bytes}], ...
void writeReportJson(std::ostream &os, const SimResult &result,
                     const ReportContext &context);

/// Chrome-trace / Perfetto JSON: one process per device class (named after
/// its devices), one thread per stream, memory as a counter track.
void writeChromeTrace(std::ostream &os, const Program &program,
                      const SimResult &result);

/// "1.50 GiB", "12.00 KiB", "17 B" (binary units, two decimals).
std::string formatBytes(int64_t bytes);

/// "0-3,8,10-11".
std::string formatDeviceList(const std::vector<int64_t> &devices);

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_SIMULATOR_H
