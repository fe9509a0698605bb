//===- dist-search.cpp - The best parallel configurations of a model ------===//
//
//   dist-search MODEL... --cluster SPEC [--devices N,...] [--global-batch
//   B,...]
//               [--top K] [--max-memory-fraction F] [--threads T]
//               [--csv out.csv] [--json out.json]
//
// Prints, per model and device count, the ranked configurations with the
// command line that reproduces each. Exits 1 on bad input (one line on
// stderr) and 2 when no configuration of some scenario fits.
//
//===----------------------------------------------------------------------===//

#include "distir/Search/Search.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <sstream>

using namespace llvm;
using namespace distir::search;

static cl::OptionCategory searchCategory("dist-search options");

static cl::list<std::string>
    modelSpecs(cl::Positional, cl::OneOrMore,
               cl::desc("<model>... (a .mlir forward program, a generator spec "
                        "such as gpt:layers=96,hidden=12288,heads=96,seq=2048,"
                        "vocab=51200, or a preset: mlp-xs, mlp-small, "
                        "mlp-medium, mlp-large, gpt3-175b)"),
               cl::cat(searchCategory));
static cl::opt<std::string>
    clusterSpec("cluster", cl::Required,
                cl::desc("Cluster: dgx-a100[:nodes=N], dgx-h100[:nodes=N] or a "
                         "JSON cluster file"),
                cl::cat(searchCategory));
static cl::list<int64_t>
    deviceCounts("devices", cl::CommaSeparated,
                 cl::desc("Device counts to search (default: the cluster's)"),
                 cl::cat(searchCategory));
static cl::list<int64_t>
    globalBatches("global-batch", cl::CommaSeparated,
                  cl::desc("Global batch sizes (samples per step); a .mlir "
                           "model runs its own"),
                  cl::cat(searchCategory));
static cl::opt<unsigned> top("top", cl::init(10),
                             cl::desc("Configurations shown per scenario"),
                             cl::cat(searchCategory));
static cl::opt<double> maxMemoryFraction(
    "max-memory-fraction", cl::init(1.0),
    cl::desc("Fraction of device memory a configuration may use (0, 1]"),
    cl::cat(searchCategory));
/// libLLVM already registers an undocumented `--threads=<int>`; a second
/// registration aborts, so dist-search adopts that option (and documents it).
static cl::opt<int> &getThreadsOption() {
  auto &registered = cl::getRegisteredOptions();
  auto it = registered.find("threads");
  if (it != registered.end())
    return *static_cast<cl::opt<int> *>(it->second);
  static cl::opt<int> own("threads", cl::init(0));
  return own;
}
static cl::opt<std::string> csvFile("csv",
                                    cl::desc("Write every simulated "
                                             "configuration as CSV here"),
                                    cl::cat(searchCategory));
static cl::opt<std::string> jsonFile("json",
                                     cl::desc("Write every simulated "
                                              "configuration as JSON here"),
                                     cl::cat(searchCategory));
static cl::opt<std::string> optimizer("optimizer", cl::init("adam"),
                                      cl::desc("Optimizer: adam or sgd"),
                                      cl::cat(searchCategory));
static cl::list<int64_t> microbatches(
    "microbatches", cl::CommaSeparated,
    cl::desc("Microbatch counts to try (default: every divisor of the "
             "samples per replica)"),
    cl::cat(searchCategory));
static cl::opt<int64_t>
    maxMicrobatches("max-microbatches", cl::init(1024),
                    cl::desc("Largest microbatch count tried by default"),
                    cl::cat(searchCategory));
static cl::list<std::string>
    schedules("schedules", cl::CommaSeparated,
              cl::desc("Pipeline schedules: gpipe, 1f1b (default: both)"),
              cl::cat(searchCategory));
static cl::list<std::string> recomputeModes(
    "recompute", cl::CommaSeparated,
    cl::desc("Activation recomputation modes (dist-recompute): none, full, "
             "selective (default: none)"),
    cl::cat(searchCategory));
static cl::opt<bool>
    powersOfTwo("power-of-two",
                cl::desc("Only powers of two for dp, tp and pp"),
                cl::cat(searchCategory));
static cl::opt<bool> accumulateWithoutPipeline(
    "accumulate",
    cl::desc("Also split the batch into microbatches without pipelining "
             "(gradient accumulation)"),
    cl::cat(searchCategory));
static cl::opt<bool> simulateAll(
    "simulate-all",
    cl::desc("Simulate every configuration that passes the memory bound, "
             "also those whose step-time bound cannot reach the top"),
    cl::cat(searchCategory));
static cl::opt<bool> buildAll(
    "build-all",
    cl::desc("Build every configuration in full with dist-parallelize "
             "instead of composing it from its two-microbatch build (slow)"),
    cl::cat(searchCategory));
static cl::opt<bool> timing("timing",
                            cl::desc("Print where the time goes on stderr"),
                            cl::cat(searchCategory));
static cl::opt<cl::boolOrDefault>
    progressBar("progress",
                cl::desc("Show a progress bar (default: when stderr is a "
                         "terminal)"),
                cl::cat(searchCategory));

static int fail(const Twine &message) {
  WithColor::error(errs(), "dist-search") << message << "\n";
  return 1;
}

/// Writes what `write` prints to `path` through LLVM's output files (written
/// whole or not at all).
template <typename Writer>
static bool writeOutput(const std::string &path, Writer write) {
  std::ostringstream text;
  write(text);
  std::string error;
  std::unique_ptr<ToolOutputFile> file = mlir::openOutputFile(path, &error);
  if (!file) {
    fail(error);
    return false;
  }
  file->os() << text.str();
  file->keep();
  return true;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::opt<int> &threads = getThreadsOption();
  threads.setDescription("Worker threads (default: the hardware's)");
  threads.addCategory(searchCategory);
  cl::HideUnrelatedOptions(searchCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "distir configuration search: the best data / tensor / pipeline "
      "parallel configurations of a model on a cluster\n");

  std::string error;
  SearchOptions options;
  std::optional<distir::topology::Cluster> cluster =
      distir::topology::parseClusterSpec(clusterSpec, error);
  if (!cluster)
    return fail(error);
  options.cluster = *cluster;
  options.clusterSpec = clusterSpec;

  for (int64_t n : deviceCounts)
    if (n <= 0)
      return fail("--devices must be positive integers, got " + Twine(n));
  options.space.deviceCounts.assign(deviceCounts.begin(), deviceCounts.end());
  if (options.space.deviceCounts.empty())
    options.space.deviceCounts = {cluster->numDevices()};
  for (int64_t b : globalBatches)
    if (b <= 0)
      return fail("--global-batch must be positive integers, got " + Twine(b));
  options.space.globalBatches.assign(globalBatches.begin(),
                                     globalBatches.end());
  for (int64_t m : microbatches)
    if (m <= 0)
      return fail("--microbatches must be positive integers, got " + Twine(m));
  options.space.microbatches.assign(microbatches.begin(), microbatches.end());
  if (maxMicrobatches <= 0)
    return fail("--max-microbatches must be positive, got " +
                Twine(maxMicrobatches.getValue()));
  options.space.maxMicrobatches = maxMicrobatches;
  if (!schedules.empty()) {
    options.space.schedules.clear();
    for (const std::string &name : schedules) {
      std::optional<Schedule> schedule = parseSchedule(name);
      if (!schedule)
        return fail("--schedules: unknown schedule '" + name +
                    "' (gpipe or 1f1b)");
      options.space.schedules.push_back(*schedule);
    }
  }
  if (!recomputeModes.empty()) {
    options.space.recomputeModes.clear();
    for (const std::string &name : recomputeModes) {
      std::optional<Recompute> mode = parseRecompute(name);
      if (!mode)
        return fail("--recompute: unknown mode '" + name +
                    "' (none, full or selective)");
      if (llvm::is_contained(options.space.recomputeModes, *mode))
        return fail("--recompute: '" + name + "' given twice");
      options.space.recomputeModes.push_back(*mode);
    }
  }
  options.space.powersOfTwo = powersOfTwo;
  options.space.accumulateWithoutPipeline = accumulateWithoutPipeline;
  if (!(maxMemoryFraction > 0 && maxMemoryFraction <= 1))
    return fail("--max-memory-fraction must be in (0, 1], got " +
                std::to_string(maxMemoryFraction.getValue()));
  options.maxMemoryFraction = maxMemoryFraction;
  if (optimizer != "adam" && optimizer != "sgd")
    return fail("--optimizer must be adam or sgd, got '" + optimizer + "'");
  options.optimizer = optimizer;
  options.top = top;
  options.pruneByTime = !simulateAll;
  options.buildAll = buildAll;
  options.timing = timing;
  if (threads < 0)
    return fail("--threads must be a non-negative integer, got " +
                Twine(int(threads)));
  options.threads = unsigned(threads);

  std::vector<ModelSource> models;
  for (const std::string &spec : modelSpecs) {
    std::optional<ModelSource> model = ModelSource::parse(spec, error);
    if (!model)
      return fail(error);
    if (model->kind != ModelSource::Kind::File &&
        options.space.globalBatches.empty())
      return fail("model '" + spec + "' needs --global-batch");
    models.push_back(std::move(*model));
  }

  bool showProgress = progressBar == cl::BOU_UNSET
                          ? sys::Process::StandardErrIsDisplayed()
                          : progressBar == cl::BOU_TRUE;
  ProgressBar bar(stderr, showProgress, "searching");
  if (showProgress)
    options.progress = [&](int64_t done, int64_t total) {
      bar.update(done, total);
    };
  std::optional<std::vector<ScenarioReport>> reports =
      runSearch(models, options, error);
  bar.finish();
  if (!reports)
    return fail(error);

  std::ostringstream text;
  for (const ScenarioReport &report : *reports)
    printReport(text, report, top);
  outs() << text.str();
  outs().flush();
  if (!csvFile.empty() &&
      !writeOutput(csvFile, [&](std::ostream &os) { writeCsv(os, *reports); }))
    return 1;
  if (!jsonFile.empty() && !writeOutput(jsonFile, [&](std::ostream &os) {
        writeJson(os, *reports);
      }))
    return 1;
  for (const ScenarioReport &report : *reports)
    if (report.getNumFitting() == 0)
      return 2;
  return 0;
}
