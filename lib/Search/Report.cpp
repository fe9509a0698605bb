//===- Report.cpp - Ranking, table, CSV, JSON and progress bar ------------===//

#include "distir/Search/Report.h"

#include "distir/Simulator/Simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace distir {
namespace search {

using sim::formatBytes;

std::string_view methodName(Method method) {
  switch (method) {
  case Method::Exact:
    return "exact";
  case Method::Composed:
    return "composed";
  case Method::Extrapolated:
    break;
  }
  return "extrapolated";
}

int64_t ScenarioReport::getNumInvalid() const {
  int64_t total = 0;
  for (const auto &[reason, count] : invalid)
    total += count;
  return total;
}

int64_t ScenarioReport::getNumBuildFailures() const {
  int64_t total = 0;
  for (const auto &[reason, count] : buildFailures)
    total += count;
  return total;
}

int64_t ScenarioReport::getNumFitting() const {
  return std::count_if(evaluations.begin(), evaluations.end(),
                       [](const Evaluation &e) { return e.fits; });
}

void rankEvaluations(std::vector<Evaluation> &evaluations) {
  std::stable_sort(evaluations.begin(), evaluations.end(),
                   [](const Evaluation &a, const Evaluation &b) {
                     if (a.fits != b.fits)
                       return a.fits;
                     if (a.samplesPerS != b.samplesPerS)
                       return a.samplesPerS > b.samplesPerS;
                     return a.config < b.config;
                   });
}

/// A number in the table: 4 significant digits without an exponent for the
/// ranges the columns hold.
static std::string formatNumber(double value, int decimals) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(decimals) << value;
  return os.str();
}

/// Whether any configuration of `report` recomputes: then the table, the CSV
/// and the JSON say which mode each row runs.
static bool hasRecompute(const ScenarioReport &report) {
  return std::any_of(report.evaluations.begin(), report.evaluations.end(),
                     [](const Evaluation &e) {
                       return e.config.recompute != Recompute::None;
                     });
}

/// Whether any configuration of `report` runs sequence parallelism: then the
/// table, the CSV and the JSON say which rows do.
static bool hasSequenceParallel(const ScenarioReport &report) {
  return std::any_of(
      report.evaluations.begin(), report.evaluations.end(),
      [](const Evaluation &e) { return e.config.sequenceParallel; });
}

/// Whether any configuration of `report` runs ZeRO: then the table, the CSV
/// and the JSON give each row's stage.
static bool hasZero(const ScenarioReport &report) {
  return std::any_of(report.evaluations.begin(), report.evaluations.end(),
                     [](const Evaluation &e) { return e.config.zero > 0; });
}

/// The columns that appear only when some row needs them, so that plain
/// searches print what they always printed.
struct OptionalColumns {
  bool recompute = false, sequenceParallel = false, zero = false;
};

static OptionalColumns
getOptionalColumns(const std::vector<ScenarioReport> &reports) {
  return {std::any_of(reports.begin(), reports.end(), hasRecompute),
          std::any_of(reports.begin(), reports.end(), hasSequenceParallel),
          std::any_of(reports.begin(), reports.end(), hasZero)};
}

/// Why a scenario shows no row: nothing valid, nothing past the memory
/// bound, nothing the transforms built, or simulated but over capacity.
static std::string describeEmptyScenario(const ScenarioReport &report) {
  const int64_t valid = report.considered - report.getNumInvalid();
  const std::string where = (report.devicesAtMost ? "at most " : "") +
                            std::to_string(report.devices) + " devices";
  if (report.considered == 0)
    return "no configuration to try on " + where;
  if (valid == 0)
    return "no configuration: none of the " +
           std::to_string(report.considered) + " on " + where +
           " is valid (reasons above)" +
           (report.devicesAtMost
                ? ""
                : "; --max-devices " + std::to_string(report.devices) +
                      " also tries fewer devices");
  if (report.evaluations.empty() && report.getNumBuildFailures() == 0)
    return "no configuration fits in memory: the memory bound rules out all " +
           std::to_string(valid) + " valid ones (none simulated)";
  // Nothing simulated and nothing ruled out by memory: memory is not why.
  if (report.evaluations.empty() && report.prunedByMemory == 0)
    return "no configuration could be built: the transforms refused all " +
           std::to_string(report.getNumBuildFailures()) +
           " valid ones (reasons above); none was simulated";
  if (report.evaluations.empty())
    return "no configuration fits in memory: " +
           std::to_string(report.prunedByMemory) +
           " ruled out by the memory bound, the transforms refused the other " +
           std::to_string(report.getNumBuildFailures()) + " (reasons above)";
  return "no configuration fits in memory: " +
         std::to_string(report.evaluations.size()) +
         " simulated, each over the capacity";
}

void printReport(std::ostream &os, const ScenarioReport &report, size_t top) {
  os << "model " << report.model << " on "
     << (report.devicesAtMost ? "at most " : "") << report.devices
     << " devices of " << report.cluster << " ("
     << formatBytes(report.memoryCapacityBytes) << " per device";
  if (report.maxMemoryFraction != 1)
    os << ", using at most " << formatNumber(report.maxMemoryFraction * 100, 0)
       << "%";
  os << ")\n";
  os << "configurations: " << report.considered << " considered, "
     << report.getNumInvalid() << " invalid, " << report.prunedByMemory
     << " pruned by the memory bound, " << report.prunedByTime
     << " pruned by the time bound, " << report.getNumBuildFailures()
     << " refused by the transforms, " << report.evaluations.size()
     << " simulated (" << report.getNumFitting() << " fit)\n";
  for (const auto &[reason, count] : report.invalid)
    os << "  invalid: " << count << " x " << reason << "\n";
  for (const auto &[reason, count] : report.buildFailures)
    os << "  refused: " << count << " x " << reason << "\n";
  os << "wall time: " << formatNumber(report.wallTimeS, 3) << " s\n";

  std::vector<const Evaluation *> shown;
  for (const Evaluation &e : report.evaluations)
    if (e.fits && shown.size() < top)
      shown.push_back(&e);
  if (shown.empty()) {
    os << describeEmptyScenario(report) << "\n\n";
    return;
  }
  std::vector<std::string> header = {
      "rank",        "dp",    "tp",      "pp",        "mb",
      "mbs",         "sched", "step ms", "samples/s", "tokens/s",
      "peak memory", "mem %", "MFU %",   "method"};
  // The column appears only when the search tried recomputation, so that
  // plain searches print what they always printed.
  const bool showRecompute = hasRecompute(report);
  const bool showSequenceParallel = hasSequenceParallel(report);
  const bool showZero = hasZero(report);
  if (showZero)
    header.insert(header.begin() + 7, "zero");
  if (showSequenceParallel)
    header.insert(header.begin() + 7, "sp");
  if (showRecompute)
    header.insert(header.begin() + 7, "recompute");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < shown.size(); ++i) {
    const Evaluation &e = *shown[i];
    const Configuration &c = e.config;
    rows.push_back(
        {std::to_string(i + 1), std::to_string(c.dp), std::to_string(c.tp),
         std::to_string(c.pp), std::to_string(c.microbatches),
         std::to_string(c.getMicrobatchSize()), c.getScheduleLabel(),
         formatNumber(e.stepTimeS * 1e3, 3), formatNumber(e.samplesPerS, 1),
         e.tokensPerS > 0 ? formatNumber(e.tokensPerS, 0) : "-",
         formatBytes(e.peakMemoryBytes),
         formatNumber(100.0 * double(e.peakMemoryBytes) /
                          double(report.memoryCapacityBytes),
                      1),
         formatNumber(100.0 * e.mfu, 1), std::string(methodName(e.method))});
    if (showZero)
      rows.back().insert(rows.back().begin() + 7, std::to_string(c.zero));
    if (showSequenceParallel)
      rows.back().insert(rows.back().begin() + 7,
                         c.sequenceParallel ? "sp" : "-");
    if (showRecompute)
      rows.back().insert(rows.back().begin() + 7,
                         std::string(recomputeName(c.recompute)));
  }
  std::vector<size_t> widths(header.size());
  for (size_t c = 0; c < widths.size(); ++c) {
    widths[c] = std::string(header[c]).size();
    for (const auto &row : rows)
      widths[c] = std::max(widths[c], row[c].size());
  }
  auto printRow = [&](auto cell) {
    for (size_t c = 0; c < widths.size(); ++c)
      os << (c ? "  " : "") << std::setw(int(widths[c])) << cell(c);
    os << "\n";
  };
  printRow([&](size_t c) { return std::string(header[c]); });
  for (size_t r = 0; r < rows.size(); ++r) {
    printRow([&](size_t c) { return rows[r][c]; });
    os << "      $ " << shown[r]->command << "\n";
  }
  os << "\n";
}

/// One simulated configuration: the one list of fields the CSV and the
/// JSON both write.
static nlohmann::ordered_json getRow(const Evaluation &e,
                                     OptionalColumns columns) {
  const Configuration &c = e.config;
  nlohmann::ordered_json row;
  row["global_batch"] = c.globalBatch;
  row["dp"] = c.dp;
  row["tp"] = c.tp;
  row["pp"] = c.pp;
  row["microbatches"] = c.microbatches;
  row["microbatch_size"] = c.getMicrobatchSize();
  row["schedule"] = c.hasSchedule() ? c.getScheduleLabel() : "";
  if (columns.recompute)
    row["recompute"] = std::string(recomputeName(c.recompute));
  if (columns.sequenceParallel)
    row["sequence_parallel"] = c.sequenceParallel;
  if (columns.zero)
    row["zero"] = c.zero;
  row["method"] = std::string(methodName(e.method));
  row["step_time_s"] = e.stepTimeS;
  row["samples_per_s"] = e.samplesPerS;
  row["tokens_per_s"] = e.tokensPerS;
  row["peak_memory_bytes"] = e.peakMemoryBytes;
  row["memory_bound_bytes"] = e.memoryBoundBytes;
  row["step_time_bound_s"] = e.stepTimeBoundS;
  row["fits"] = e.fits;
  row["mfu"] = e.mfu;
  row["num_tasks"] = e.numTasks;
  row["command"] = e.command;
  return row;
}

/// CSV quoting (RFC 4180): models and commands hold commas and quotes.
static std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char ch : text) {
    if (ch == '"')
      quoted += '"';
    quoted += ch;
  }
  return quoted + "\"";
}

void writeCsv(std::ostream &os, const std::vector<ScenarioReport> &reports) {
  const OptionalColumns optional = getOptionalColumns(reports);
  os << "model,cluster,devices";
  const nlohmann::ordered_json columns = getRow(Evaluation(), optional);
  for (const auto &field : columns.items())
    os << "," << field.key();
  os << "\n";
  for (const ScenarioReport &report : reports) {
    for (const Evaluation &e : report.evaluations) {
      os << csvField(report.model) << "," << csvField(report.cluster) << ","
         << e.config.devices;
      // Numbers as JSON writes them: the shortest text that reads back to
      // the same double.
      const nlohmann::ordered_json row = getRow(e, optional);
      for (const auto &field : row.items())
        os << ","
           << csvField(field.value().is_string()
                           ? field.value().get<std::string>()
                           : field.value().dump());
      os << "\n";
    }
  }
}

void writeJson(std::ostream &os, const std::vector<ScenarioReport> &reports) {
  const OptionalColumns optional = getOptionalColumns(reports);
  nlohmann::ordered_json scenarios = nlohmann::ordered_json::array();
  for (const ScenarioReport &report : reports) {
    nlohmann::ordered_json scenario;
    scenario["model"] = report.model;
    scenario["cluster"] = report.cluster;
    scenario["devices"] = report.devices;
    if (report.devicesAtMost)
      scenario["devices_at_most"] = true;
    scenario["memory_capacity_bytes"] = report.memoryCapacityBytes;
    scenario["max_memory_fraction"] = report.maxMemoryFraction;
    scenario["considered"] = report.considered;
    scenario["invalid"] = report.invalid;
    scenario["pruned_by_memory"] = report.prunedByMemory;
    scenario["pruned_by_time"] = report.prunedByTime;
    scenario["refused_by_transforms"] = report.buildFailures;
    scenario["simulated"] = report.evaluations.size();
    scenario["wall_time_s"] = report.wallTimeS;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const Evaluation &e : report.evaluations)
      rows.push_back(getRow(e, optional));
    scenario["configurations"] = std::move(rows);
    scenarios.push_back(std::move(scenario));
  }
  nlohmann::ordered_json root;
  root["scenarios"] = std::move(scenarios);
  os << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
     << "\n";
}

ProgressBar::ProgressBar(std::FILE *stream, bool enabled, std::string label)
    : stream(stream), enabled(enabled), label(std::move(label)),
      start(std::chrono::steady_clock::now()), last(start) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(int64_t done, int64_t total) {
  if (!enabled || total <= 0)
    return;
  auto now = std::chrono::steady_clock::now();
  if (drawn && done < total && now - last < std::chrono::milliseconds(100))
    return;
  last = now;
  constexpr int kWidth = 30;
  int filled = int(kWidth * done / total);
  double elapsed = std::chrono::duration<double>(now - start).count();
  std::fprintf(stream, "\r%s [%s%s] %lld/%lld %.1f s", label.c_str(),
               std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), (long long)done,
               (long long)total, elapsed);
  std::fflush(stream);
  drawn = true;
}

void ProgressBar::finish() {
  if (!drawn)
    return;
  // Erase the bar so that the report starts on a clean line.
  std::fprintf(stream, "\r%*s\r", 80, "");
  std::fflush(stream);
  drawn = false;
}

} // namespace search
} // namespace distir
