//===- dist-search.cpp - The best parallel configurations of a model ------===//
//
//   dist-search MODEL... --cluster SPEC [--devices N,...] [--global-batch
//   B,...]
//               [--top K] [--max-memory-fraction F] [--threads T]
//               [--csv out.csv] [--json out.json] [--html out.html]
//
// Prints, per model and device count, the ranked configurations with the
// command line that reproduces each. Exits 1 on bad input (one line on
// stderr) and 2 when no configuration of some scenario fits.
//
//===----------------------------------------------------------------------===//

#include "distir/Search/Command.h"
#include "distir/Support/Allocator.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/ToolSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"

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
static cl::opt<std::string> frameworkSpec(
    "framework", cl::init("megatron-core"),
    cl::desc("What runs the configurations (dist-sim --framework): "
             "megatron-sc21[:ddp=torch|local], megatron-2022, megatron-core"),
    cl::cat(searchCategory));
static cl::list<int64_t>
    deviceCounts("devices", cl::CommaSeparated,
                 cl::desc("Device counts to search (default: the cluster's)"),
                 cl::cat(searchCategory));
static cl::opt<int64_t> maxDevices(
    "max-devices", cl::init(0),
    cl::desc("Use at most N devices: per (tp, pp), the largest dp that fits "
             "and divides the batch (for counts such as 5128 = 8 x 641 that "
             "no dp x tp x pp fills)"),
    cl::value_desc("N"), cl::cat(searchCategory));
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
static cl::opt<std::string>
    htmlFile("html",
             cl::desc("Write a self-contained HTML page plotting every "
                      "simulated configuration here"),
             cl::cat(searchCategory));
static cl::opt<std::string> optimizer("optimizer", cl::init("adam"),
                                      cl::desc("Optimizer: adam or sgd"),
                                      cl::cat(searchCategory));
static cl::opt<std::string>
    precision("precision", cl::init("auto"),
              cl::desc("dist-autodiff's precision: auto (mixed for adam on "
                       "f16/bf16 models), model or mixed"),
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
static cl::list<int64_t> interleaves(
    "interleave", cl::CommaSeparated,
    cl::desc("Model chunks per stage to try (interleaved 1F1B, with pp > 1 "
             "and 1f1b; default: 1)"),
    cl::cat(searchCategory));
static cl::list<std::string> sequenceParallels(
    "sequence-parallel", cl::CommaSeparated,
    cl::desc("Sequence parallelism settings to try (dist-parallelize's "
             "sequence-parallel, with tp > 1): false, true (default: false)"),
    cl::cat(searchCategory));
static cl::list<int64_t> zeroStages(
    "zero", cl::CommaSeparated,
    cl::desc("ZeRO stages to try (dist-parallelize's zero, over dp > 1; 2 "
             "and 3 with pp = 1): 0, 1, 2, 3 (default: 0)"),
    cl::cat(searchCategory));
static cl::list<std::string> recomputeModes(
    "recompute", cl::CommaSeparated,
    cl::desc("Activation recomputation modes (dist-recompute): none, full, "
             "minimal, selective (default: none)"),
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
static cl::opt<cl::boolOrDefault> scatterGather(
    "scatter-gather",
    cl::desc("Pipeline scatter/gather (dist-parallelize scatter-gather): "
             "activations and gradients sent between stages as 1/tp slices "
             "and all-gathered over tp (default: on with --framework "
             "megatron-sc21 or megatron-2022, off otherwise)"),
    cl::cat(searchCategory));
static cl::opt<bool> extrapolate(
    "extrapolate",
    cl::desc("Rank pipelines of many microbatches by simulations at 2, 3 and "
             "4 microbatches per stage, extrapolated; the rows that can reach "
             "--top are then simulated in full (default: true)"),
    cl::init(true), cl::cat(searchCategory));
static cl::opt<bool> timing("timing",
                            cl::desc("Print where the time goes on stderr"),
                            cl::cat(searchCategory));
static cl::opt<cl::boolOrDefault>
    progressBar("progress",
                cl::desc("Show a progress bar (default: when stderr is a "
                         "terminal)"),
                cl::cat(searchCategory));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  distir::installOutOfMemoryHandler("dist-search");
  distir::keepFreedMemoryForReuse();
  distir::registerDebugOptions();
  cl::opt<int> &threads = getThreadsOption();
  threads.setDescription("Worker threads (default: the hardware's)");
  threads.addCategory(searchCategory);
  cl::HideUnrelatedOptions(searchCategory);
  distir::parseCommandLine(
      argc, argv,
      "distir configuration search: the best data / tensor / pipeline "
      "parallel configurations of a model on a cluster\n");
  distir::rejectRepeatedOptions("dist-search");

  SearchCommand command;
  command.modelSpecs.assign(modelSpecs.begin(), modelSpecs.end());
  command.clusterSpec = clusterSpec;
  command.frameworkSpec = frameworkSpec;
  if (scatterGather != cl::BOU_UNSET)
    command.scatterGather = scatterGather == cl::BOU_TRUE;
  command.deviceCounts.assign(deviceCounts.begin(), deviceCounts.end());
  command.maxDevices = maxDevices;
  command.globalBatches.assign(globalBatches.begin(), globalBatches.end());
  command.microbatches.assign(microbatches.begin(), microbatches.end());
  command.maxMicrobatches = maxMicrobatches;
  command.schedules.assign(schedules.begin(), schedules.end());
  command.recomputeModes.assign(recomputeModes.begin(), recomputeModes.end());
  command.interleaves.assign(interleaves.begin(), interleaves.end());
  command.sequenceParallels.assign(sequenceParallels.begin(),
                                   sequenceParallels.end());
  command.zeroStages.assign(zeroStages.begin(), zeroStages.end());
  command.powersOfTwo = powersOfTwo;
  command.accumulateWithoutPipeline = accumulateWithoutPipeline;
  command.maxMemoryFraction = maxMemoryFraction;
  command.optimizer = optimizer;
  command.precision = precision;
  command.top = top;
  command.simulateAll = simulateAll;
  command.buildAll = buildAll;
  command.extrapolate = extrapolate;
  command.timing = timing;
  command.threads = threads;
  command.showProgress = progressBar == cl::BOU_UNSET
                             ? sys::Process::StandardErrIsDisplayed()
                             : progressBar == cl::BOU_TRUE;
  command.csvFile = csvFile;
  command.jsonFile = jsonFile;
  command.htmlFile = htmlFile;
  return runSearchCommand(command);
}
