//===- Command.cpp - dist-search's command line, run ----------------------===//

#include "distir/Search/Command.h"

#include "distir/Search/Search.h"
#include "distir/Support/ToolSupport.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <sstream>

using namespace llvm;

namespace distir {
namespace search {

namespace {

/// Prints `dist-search: error: <message>`; the exit code of bad input.
int fail(const Twine &message) {
  WithColor::error(errs(), "dist-search") << message << "\n";
  return 1;
}

/// A bad option's error.
Status invalid(const Twine &message) { return Status::error(message.str()); }

/// Writes what `write` prints to `path` through LLVM's output files (written
/// whole or not at all).
template <typename Writer>
bool writeOutput(const std::string &path, Writer write) {
  std::ostringstream text;
  write(text);
  std::string error;
  std::unique_ptr<ToolOutputFile> file = mlir::openOutputFile(path, &error);
  if (!file) {
    fail(error);
    return false;
  }
  file->os() << text.str();
  if (std::optional<std::string> writeError =
          distir::keepOutputFile(*file, path)) {
    fail(*writeError);
    return false;
  }
  return true;
}

/// The space: device counts, batches, microbatches, schedules and
/// recomputation modes as given.
Status readSpace(const SearchCommand &command, const topology::Cluster &cluster,
                 SpaceOptions &space) {
  for (int64_t n : command.deviceCounts)
    if (n <= 0)
      return invalid("--devices must be positive integers, got " + Twine(n));
  space.deviceCounts = command.deviceCounts;
  if (command.maxDevices != 0) {
    if (command.maxDevices < 0)
      return invalid("--max-devices must be a positive integer, got " +
                     Twine(command.maxDevices));
    if (!command.deviceCounts.empty())
      return invalid("--max-devices and --devices exclude each other: the "
                     "first is a limit, the second exact counts");
    space.deviceCounts = {command.maxDevices};
    space.devicesAtMost = true;
  }
  if (space.deviceCounts.empty())
    space.deviceCounts = {cluster.numDevices()};
  for (int64_t b : command.globalBatches)
    if (b <= 0)
      return invalid("--global-batch must be positive integers, got " +
                     Twine(b));
  space.globalBatches = command.globalBatches;
  for (int64_t m : command.microbatches)
    if (m <= 0)
      return invalid("--microbatches must be positive integers, got " +
                     Twine(m));
  space.microbatches = command.microbatches;
  if (command.maxMicrobatches <= 0)
    return invalid("--max-microbatches must be positive, got " +
                   Twine(command.maxMicrobatches));
  space.maxMicrobatches = command.maxMicrobatches;
  if (!command.schedules.empty()) {
    space.schedules.clear();
    for (const std::string &name : command.schedules) {
      std::optional<Schedule> schedule = parseSchedule(name);
      if (!schedule)
        return invalid("--schedules: unknown schedule '" + name +
                       "' (gpipe or 1f1b)");
      space.schedules.push_back(*schedule);
    }
  }
  if (!command.recomputeModes.empty()) {
    space.recomputeModes.clear();
    for (const std::string &name : command.recomputeModes) {
      std::optional<Recompute> mode = parseRecompute(name);
      if (!mode)
        return invalid("--recompute: unknown mode '" + name +
                       "' (none, full, minimal or selective)");
      if (llvm::is_contained(space.recomputeModes, *mode))
        return invalid("--recompute: '" + name + "' given twice");
      space.recomputeModes.push_back(*mode);
    }
  }
  if (!command.interleaves.empty()) {
    space.interleaves.clear();
    for (int64_t v : command.interleaves) {
      if (v <= 0)
        return invalid("--interleave must be positive integers, got " +
                       Twine(v));
      if (llvm::is_contained(space.interleaves, v))
        return invalid("--interleave: " + Twine(v) + " given twice");
      space.interleaves.push_back(v);
    }
  }
  if (!command.sequenceParallels.empty()) {
    space.sequenceParallels.clear();
    for (const std::string &name : command.sequenceParallels) {
      if (name != "false" && name != "true")
        return invalid("--sequence-parallel: unknown value '" + name +
                       "' (false or true)");
      bool value = name == "true";
      if (llvm::is_contained(space.sequenceParallels, value))
        return invalid("--sequence-parallel: '" + name + "' given twice");
      space.sequenceParallels.push_back(value);
    }
  }
  if (!command.zeroStages.empty()) {
    space.zeroStages.clear();
    for (int64_t stage : command.zeroStages) {
      if (stage < 0 || stage > 3)
        return invalid("--zero: stages are 0, 1, 2 or 3, got " + Twine(stage));
      if (llvm::is_contained(space.zeroStages, stage))
        return invalid("--zero: " + Twine(stage) + " given twice");
      space.zeroStages.push_back(stage);
    }
  }
  space.powersOfTwo = command.powersOfTwo;
  space.accumulateWithoutPipeline = command.accumulateWithoutPipeline;
  return Status::success();
}

/// The search options of `command`.
Status readOptions(const SearchCommand &command, SearchOptions &options) {
  StatusOr<topology::Cluster> cluster =
      topology::parseClusterSpec(command.clusterSpec);
  if (!cluster)
    return cluster.status();
  options.cluster = *cluster;
  options.clusterSpec = command.clusterSpec;
  StatusOr<sim::Framework> framework =
      sim::parseFrameworkSpec(command.frameworkSpec);
  if (!framework)
    return framework.status();
  options.framework = *framework;
  options.frameworkSpec = command.frameworkSpec;
  // SC'21's and 2022's Megatron-LM scatter and gather pipeline tensors by
  // default (--no-scatter-gather-tensors-in-pipeline turns it off);
  // Megatron-Core sends them whole.
  StringRef preset = StringRef(command.frameworkSpec).split(':').first;
  options.scatterGather = command.scatterGather.value_or(
      preset == "megatron-sc21" || preset == "megatron-2022");
  DISTIR_RETURN_IF_ERROR(readSpace(command, *cluster, options.space));
  if (!(command.maxMemoryFraction > 0 && command.maxMemoryFraction <= 1))
    return invalid("--max-memory-fraction must be in (0, 1], got " +
                   std::to_string(command.maxMemoryFraction));
  options.maxMemoryFraction = command.maxMemoryFraction;
  std::optional<mlir::dist::Optimizer> optimizer =
      mlir::dist::symbolizeOptimizer(command.optimizer);
  // A search compares memory with optimizer state: none is no training step.
  if (!optimizer || *optimizer == mlir::dist::Optimizer::None)
    return invalid("--optimizer must be adam or sgd, got '" +
                   command.optimizer + "'");
  options.optimizer = *optimizer;
  std::optional<mlir::dist::Precision> precision =
      mlir::dist::symbolizePrecision(command.precision);
  if (!precision)
    return invalid("--precision must be auto, model or mixed, got '" +
                   command.precision + "'");
  options.precision = *precision;
  options.top = command.top;
  options.pruneByTime = !command.simulateAll;
  options.buildAll = command.buildAll;
  options.extrapolate = command.extrapolate;
  options.timing = command.timing;
  if (command.threads < 0)
    return invalid("--threads must be a non-negative integer, got " +
                   Twine(command.threads));
  options.threads = unsigned(command.threads);
  return Status::success();
}

/// The tables on stdout, then the files; the exit code.
int writeReports(const SearchCommand &command,
                 const std::vector<ScenarioReport> &reports) {
  std::ostringstream text;
  for (const ScenarioReport &report : reports)
    printReport(text, report, command.top);
  outs() << text.str();
  outs().flush();
  if (!command.csvFile.empty() &&
      !writeOutput(command.csvFile,
                   [&](std::ostream &os) { writeCsv(os, reports); }))
    return 1;
  if (!command.jsonFile.empty() &&
      !writeOutput(command.jsonFile,
                   [&](std::ostream &os) { writeJson(os, reports); }))
    return 1;
  if (!command.htmlFile.empty() &&
      !writeOutput(command.htmlFile,
                   [&](std::ostream &os) { writeSearchHtml(os, reports); }))
    return 1;
  for (const ScenarioReport &report : reports)
    if (report.getNumFitting() == 0)
      return 2;
  return 0;
}

} // namespace

StatusOr<std::vector<ScenarioReport>>
searchScenarios(const SearchCommand &command,
                const std::function<void(int64_t, int64_t)> &progress,
                const std::function<bool()> &cancelled) {
  SearchOptions options;
  DISTIR_RETURN_IF_ERROR(readOptions(command, options));
  std::vector<ModelSource> models;
  for (const std::string &spec : command.modelSpecs) {
    DISTIR_ASSIGN_OR_RETURN(ModelSource model, ModelSource::parse(spec));
    if (model.kind != ModelSource::Kind::File &&
        options.space.globalBatches.empty())
      return invalid("model '" + spec + "' needs --global-batch");
    models.push_back(std::move(model));
  }
  options.progress = progress;
  options.cancelled = cancelled;
  return runSearch(models, options);
}

int runSearchCommand(const SearchCommand &command) {
  ProgressBar bar(stderr, command.showProgress, "searching");
  std::function<void(int64_t, int64_t)> progress;
  if (command.showProgress)
    progress = [&](int64_t done, int64_t total) { bar.update(done, total); };
  StatusOr<std::vector<ScenarioReport>> reports =
      searchScenarios(command, progress);
  bar.finish();
  if (!reports)
    return fail(reports.message());
  return writeReports(command, *reports);
}

} // namespace search
} // namespace distir
