//===- Command.h - dist-search's command line, run ----------------*- C++
//-*-===//
//
// What dist-search does, as a library call: check the options as given,
// parse the models, search, print the tables and write the CSV and JSON
// files. The tool only parses its options into a SearchCommand.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SEARCH_COMMAND_H
#define DISTIR_SEARCH_COMMAND_H

#include "distir/Search/Report.h"
#include "distir/Support/Status.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace distir {
namespace search {

/// dist-search's options as the user gave them (docs/dist-search.md).
struct SearchCommand {
  std::vector<std::string> modelSpecs;
  std::string clusterSpec;
  /// dist-sim's --framework (megatron-core when not given).
  std::string frameworkSpec = "megatron-core";
  /// --scatter-gather; unset: on for the frameworks whose code sends
  /// pipeline tensors that way (megatron-sc21, megatron-2022).
  std::optional<bool> scatterGather;
  std::vector<int64_t> deviceCounts, globalBatches, microbatches;
  /// --max-devices: search every (dp, tp, pp) on at most this many devices
  /// (SpaceOptions::devicesAtMost); 0: not given.
  int64_t maxDevices = 0;
  int64_t maxMicrobatches = 1024;
  std::vector<std::string> schedules, recomputeModes;
  /// --interleave; empty: 1 (plain 1F1B).
  std::vector<int64_t> interleaves;
  /// --sequence-parallel ("false", "true"); empty: false.
  std::vector<std::string> sequenceParallels;
  /// --zero (ZeRO stages 0..3); empty: 0.
  std::vector<int64_t> zeroStages;
  bool powersOfTwo = false;
  bool accumulateWithoutPipeline = false;
  double maxMemoryFraction = 1.0;
  std::string optimizer = "adam";
  std::string precision = "auto";
  unsigned top = 10;
  bool simulateAll = false;
  bool buildAll = false;
  bool extrapolate = true;
  bool timing = false;
  int threads = 0;
  bool showProgress = false;
  /// Where to write every simulated configuration (the HTML page plots
  /// them); empty: nowhere.
  std::string csvFile, jsonFile, htmlFile;
};

/// Checks the options, parses the models and searches: dist-search without
/// its output, the library call behind it and the Python package. Bad input
/// is a one-line error; `progress` (may be empty) gets (done, total);
/// `cancelled` (may be empty) stops the search ("interrupted", see
/// SearchOptions::cancelled).
StatusOr<std::vector<ScenarioReport>>
searchScenarios(const SearchCommand &command,
                const std::function<void(int64_t, int64_t)> &progress = {},
                const std::function<bool()> &cancelled = {});

/// Runs dist-search. Returns the exit code: 1 on bad input (one line on
/// stderr, `dist-search: error: ...`), 2 when no configuration of some
/// scenario fits, 0 otherwise.
int runSearchCommand(const SearchCommand &command);

} // namespace search
} // namespace distir

#endif // DISTIR_SEARCH_COMMAND_H
