//===- Report.h - What dist-search prints and writes ------------*- C++ -*-===//
//
// Plain C++: the per-configuration results, their deterministic ranking, the
// ranked table, the CSV and JSON files (one row per simulated
// configuration) and the terminal progress bar.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SEARCH_REPORT_H
#define DISTIR_SEARCH_REPORT_H

#include "distir/Search/Space.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <string>
#include <vector>

namespace distir {
namespace search {

/// How a configuration's figures were obtained.
enum class Method : uint8_t {
  /// The whole program was built by the transforms the reproduction command
  /// runs and simulated: `command` gives exactly these figures.
  Exact,
  /// Composed from a simulated representative (see Compose.h): an estimate of
  /// what `command` gives.
  Composed,
  /// Composed at two shorter microbatch counts and extrapolated to the
  /// configuration's (evaluateComposed): within 0.1 % of `command`'s figures
  /// (test/Search/extrapolate.test); the rows a table shows are simulated in
  /// full.
  Extrapolated,
};

std::string_view methodName(Method method);

struct Evaluation {
  Configuration config;
  /// The lower bounds the configuration passed (memory: the larger of the
  /// analytical and the single-stage one).
  int64_t memoryBoundBytes = 0;
  double stepTimeBoundS = 0;
  Method method = Method::Exact;
  double stepTimeS = 0;
  int64_t peakMemoryBytes = 0;
  bool fits = false;
  double samplesPerS = 0;
  /// 0 when the model has no tokens.
  double tokensPerS = 0;
  /// Model FLOPs utilisation: model FLOPs per second over the peak of the
  /// devices used.
  double mfu = 0;
  /// Simulated tasks (0 for a composed estimate reusing another's tasks).
  int64_t numTasks = 0;
  /// The command line that builds and simulates this configuration.
  std::string command;
};

/// The outcome for one model on one device count.
struct ScenarioReport {
  std::string model;
  std::string cluster;
  int64_t devices = 0;
  /// `devices` is a limit (--max-devices): each configuration uses
  /// dp x tp x pp of them.
  bool devicesAtMost = false;
  int64_t memoryCapacityBytes = 0;
  double maxMemoryFraction = 1;
  /// Configurations of the space (valid or not).
  int64_t considered = 0;
  RejectionCounts invalid;
  /// Valid, but the memory bound exceeds the capacity.
  int64_t prunedByMemory = 0;
  /// Their step-time bound shows they cannot be among the best shown.
  int64_t prunedByTime = 0;
  /// The transforms refused them (reason: their diagnostic).
  RejectionCounts buildFailures;
  /// Simulated, best first.
  std::vector<Evaluation> evaluations;
  double wallTimeS = 0;

  int64_t getNumInvalid() const;
  int64_t getNumBuildFailures() const;
  int64_t getNumFitting() const;
};

/// Best first: configurations that fit before those that do not, then by
/// throughput (higher first), then by configuration key, so that the order
/// never depends on the order of evaluation.
void rankEvaluations(std::vector<Evaluation> &evaluations);

/// The ranked table of the `top` best configurations that fit, the counts and
/// the wall time; each row is followed by its reproduction command.
void printReport(std::ostream &os, const ScenarioReport &report, size_t top);

/// One row per simulated configuration of every scenario (header first).
void writeCsv(std::ostream &os, const std::vector<ScenarioReport> &reports);
void writeJson(std::ostream &os, const std::vector<ScenarioReport> &reports);
/// The page of dist-search --html: per scenario, step time against peak
/// memory for every simulated configuration, coloured by parallelism form,
/// with the Pareto front and the device memory line; hovering a point shows
/// its command line. Self-contained (Html.h).
void writeSearchHtml(std::ostream &os,
                     const std::vector<ScenarioReport> &reports);

/// A one-line bar on a terminal, redrawn at most every 100 ms; silent when
/// disabled (output not a terminal) so that logs stay clean.
class ProgressBar {
public:
  ProgressBar(std::FILE *stream, bool enabled, std::string label);
  ~ProgressBar();
  void update(int64_t done, int64_t total);
  void finish();

private:
  std::FILE *stream;
  bool enabled;
  std::string label;
  bool drawn = false;
  std::chrono::steady_clock::time_point start, last;
};

} // namespace search
} // namespace distir

#endif // DISTIR_SEARCH_REPORT_H
