//===- Report.cpp - Summary, JSON report and Chrome trace -----------------===//

#include "distir/Simulator/Simulator.h"

#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cstdio>
#include <ostream>

namespace distir {
namespace sim {

std::string formatDeviceList(const std::vector<int64_t> &devices) {
  std::string text;
  for (size_t i = 0; i < devices.size();) {
    size_t j = i;
    while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1)
      ++j;
    if (!text.empty())
      text += ',';
    text += std::to_string(devices[i]);
    if (j > i)
      text += (j == i + 1 ? "," : "-") + std::to_string(devices[j]);
    i = j + 1;
  }
  return text;
}

bool fitsInMemory(const SimResult &result, const ReportContext &context) {
  return context.memoryCapacityBytes <= 0 ||
         result.peakMemoryBytes <= context.memoryCapacityBytes;
}

static std::string printf1(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string formatBytes(int64_t bytes) {
  double value = static_cast<double>(bytes);
  if (bytes >= (int64_t(1) << 30))
    return printf1("%.2f GiB", value / (1u << 30));
  if (bytes >= (int64_t(1) << 20))
    return printf1("%.2f MiB", value / (1u << 20));
  if (bytes >= 1024)
    return printf1("%.2f KiB", value / 1024);
  return std::to_string(bytes) + " B";
}

/// The bytes in use at each device class's peak, by kind.
static void printMemoryBreakdown(std::ostream &os, const SimResult &result) {
  static const char *const kHeadings[kNumMemoryKinds] = {
      "weights",   "gradients", "optimizer", "stashed",
      "in flight", "comm",      "other"};
  char line[256];
  os << "\nmemory at the peak (activations: stashed for backward, in flight)"
        ":\n";
  int length = std::snprintf(line, sizeof(line), "%-20s", "devices");
  for (const char *heading : kHeadings)
    length +=
        std::snprintf(line + length, sizeof(line) - length, " %11s", heading);
  os << line << "\n";
  for (const DeviceClassReport &c : result.classes) {
    std::string devices = formatDeviceList(c.devices);
    if (devices.size() > 20)
      devices = devices.substr(0, 17) + "...";
    length = std::snprintf(line, sizeof(line), "%-20s", devices.c_str());
    for (int64_t bytes : c.peakBreakdown)
      length += std::snprintf(line + length, sizeof(line) - length, " %11s",
                              formatBytes(bytes).c_str());
    os << line << "\n";
  }
}

static nlohmann::json getMemoryBreakdownJson(const DeviceClassReport &c) {
  nlohmann::json breakdown = nlohmann::json::object();
  for (int k = 0; k < kNumMemoryKinds; ++k)
    breakdown[std::string(memoryKindName(MemoryKind(k)))] = c.peakBreakdown[k];
  return breakdown;
}

void printSummary(std::ostream &os, const SimResult &result,
                  const ReportContext &context) {
  double ms = 1e3;
  os << "cluster:        " << context.clusterName << "\n";
  os << "step time:      " << printf1("%.3f ms", result.stepTimeS * ms) << "\n";
  if (result.stepTimeS > 0) {
    if (context.samplesPerStep > 0)
      os << "throughput:     "
         << printf1("%.2f samples/s", context.samplesPerStep / result.stepTimeS)
         << "\n";
    else
      os << "throughput:     " << printf1("%.3f steps/s", 1 / result.stepTimeS)
         << "\n";
  }
  size_t usedDevices = 0;
  for (const DeviceClassReport &c : result.classes)
    usedDevices += c.devices.size();
  os << "devices used:   " << usedDevices << " (" << result.classes.size()
     << " classes of identical devices)\n";
  os << "flops:          " << printf1("%.4g", result.flops);
  if (result.stepTimeS > 0 && usedDevices > 0)
    os << printf1(" (%.1f TFLOP/s per device)",
                  result.flops / result.stepTimeS / usedDevices / 1e12);
  os << "\n";
  os << "comm bytes:     " << result.commBytes << "\n";
  bool fits = fitsInMemory(result, context);
  os << "peak memory:    " << formatBytes(result.peakMemoryBytes);
  if (context.memoryCapacityBytes > 0)
    os << " of " << formatBytes(context.memoryCapacityBytes)
       << (fits ? " (fits)" : " (DOES NOT FIT)");
  os << "\n\n";

  char line[256];
  std::snprintf(line, sizeof(line), "%-20s %12s %12s %12s %14s\n", "devices",
                "compute ms", "comm ms", "idle ms", "peak memory");
  os << line;
  for (const DeviceClassReport &c : result.classes) {
    std::string devices = formatDeviceList(c.devices);
    if (devices.size() > 20)
      devices = devices.substr(0, 17) + "...";
    std::snprintf(line, sizeof(line), "%-20s %12.3f %12.3f %12.3f %14s\n",
                  devices.c_str(), c.computeS * ms, c.commS * ms, c.idleS * ms,
                  formatBytes(c.peakMemoryBytes).c_str());
    os << line;
  }
  printMemoryBreakdown(os, result);
  if (!result.topOps.empty()) {
    os << "\ntop ops by time (sum over tasks, one device's view):\n";
    for (const OpTimeSummary &op : result.topOps) {
      std::snprintf(line, sizeof(line), "  %-24s %8" PRId64 " x %12.3f ms\n",
                    op.label.c_str(), op.count, op.totalS * ms);
      os << line;
    }
  }
}

void writeReportJson(std::ostream &os, const SimResult &result,
                     const ReportContext &context) {
  nlohmann::json devices = nlohmann::json::array();
  for (size_t d = 0; d < result.classOfDevice.size(); ++d) {
    int32_t cls = result.classOfDevice[d];
    if (cls < 0)
      continue;
    const DeviceClassReport &c = result.classes[cls];
    devices.push_back({{"id", static_cast<int64_t>(d)},
                       {"compute_s", c.computeS},
                       {"comm_s", c.commS},
                       {"idle_s", c.idleS},
                       {"peak_memory_bytes", c.peakMemoryBytes},
                       {"resident_bytes", c.residentBytes},
                       {"memory_at_peak", getMemoryBreakdownJson(c)}});
  }
  nlohmann::json topOps = nlohmann::json::array();
  for (const OpTimeSummary &op : result.topOps)
    topOps.push_back(
        {{"label", op.label}, {"count", op.count}, {"total_s", op.totalS}});
  nlohmann::json report = {
      {"cluster", context.clusterName},
      {"step_time_s", result.stepTimeS},
      {"peak_memory_bytes", result.peakMemoryBytes},
      {"memory_capacity_bytes", context.memoryCapacityBytes},
      {"fits", fitsInMemory(result, context)},
      {"flops", result.flops},
      {"comm_bytes", result.commBytes},
      {"num_tasks", result.numTasks},
      {"num_device_classes", result.classes.size()},
      {"devices", devices},
      {"top_ops", topOps}};
  if (context.samplesPerStep > 0 && result.stepTimeS > 0)
    report["samples_per_s"] = context.samplesPerStep / result.stepTimeS;
  os << report.dump(2) << "\n";
}

void writeChromeTrace(std::ostream &os, const Program &program,
                      const SimResult &result) {
  // Streamed by hand: a trace can hold millions of events.
  std::vector<std::string> quotedLabels(program.numLabels());
  for (LabelId l = 0; l < program.numLabels(); ++l)
    quotedLabels[l] = nlohmann::json(program.label(l)).dump();
  os << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  auto separator = [&]() -> std::ostream & {
    if (!first)
      os << ",\n";
    first = false;
    return os;
  };
  for (size_t c = 0; c < result.classes.size(); ++c) {
    std::string name = "devices " + formatDeviceList(result.classes[c].devices);
    separator() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << c
                << ",\"tid\":0,\"args\":{\"name\":"
                << nlohmann::json(name).dump() << "}}";
    separator() << "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << c
                << ",\"tid\":0,\"args\":{\"sort_index\":" << c << "}}";
    for (int s = 0; s < kNumStreams; ++s)
      separator() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << c
                  << ",\"tid\":" << s << ",\"args\":{\"name\":\""
                  << streamName(static_cast<Stream>(s)) << "\"}}";
  }
  char number[64];
  auto micros = [&](double seconds) {
    std::snprintf(number, sizeof(number), "%.3f", seconds * 1e6);
    return number;
  };
  for (const TraceEvent &event : result.trace) {
    separator() << "{\"ph\":\"X\",\"pid\":" << event.deviceClass
                << ",\"tid\":" << static_cast<int>(event.stream) << ",\"name\":"
                << (event.label == kNoId ? std::string("\"task\"")
                                         : quotedLabels[event.label])
                << ",\"ts\":" << micros(event.startS);
    os << ",\"dur\":" << micros(event.durationS) << "}";
  }
  for (size_t c = 0; c < result.classes.size(); ++c)
    for (auto [time, bytes] : result.classes[c].memoryTimeline) {
      separator() << "{\"ph\":\"C\",\"name\":\"memory\",\"pid\":" << c
                  << ",\"ts\":" << micros(time)
                  << ",\"args\":{\"bytes\":" << bytes << "}}";
    }
  os << "\n]}\n";
}

} // namespace sim
} // namespace distir
