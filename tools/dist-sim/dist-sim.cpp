//===- dist-sim.cpp - Simulate a placed dist program on a cluster ---------===//
//
//   dist-sim prog.mlir --cluster dgx-a100:nodes=4 [--report r.json]
//            [--trace t.json] [--html page.html] [--profile p.json]
//            [--no-overlap] [--progress]
//            [--framework megatron-sc21[:ddp=local]]
//
// Prints a summary of one simulated step. Exits 1 on bad input and when the
// program does not fit in device memory (after writing the report, which
// then says "fits": false).
//
//===----------------------------------------------------------------------===//

#include "distir/Simulator/Driver.h"
#include "distir/Support/Allocator.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/ToolSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

namespace cl = llvm::cl;

static cl::OptionCategory simCategory("dist-sim options");
static cl::opt<std::string> inputFile(cl::Positional, cl::cat(simCategory),
                                      cl::desc("<input.mlir>"), cl::init("-"));
static cl::opt<std::string>
    clusterSpec("cluster", cl::Required, cl::cat(simCategory),
                cl::desc("Cluster: dgx-a100[:nodes=N], dgx-h100[:nodes=N] or "
                         "a JSON cluster file"));
static cl::opt<std::string> frameworkSpec(
    "framework", cl::init("megatron-core"), cl::cat(simCategory),
    cl::desc("What runs the program, for what overlaps and what is fused: "
             "megatron-sc21[:ddp=torch|local], megatron-2022, megatron-core "
             "(default), each with [:tp-overlap=BOOL,fuse=BOOL]"));
static cl::opt<std::string> reportFile("report", cl::cat(simCategory),
                                       cl::desc("Write the JSON report here"));
static cl::opt<std::string>
    traceFile("trace", cl::cat(simCategory),
              cl::desc("Write a Chrome-trace/Perfetto JSON here"));
static cl::opt<std::string>
    htmlFile("html", cl::cat(simCategory),
             cl::desc("Write a self-contained HTML page plotting the step "
                      "(timeline, memory, top ops) here"));
static cl::opt<std::string>
    profileFile("profile", cl::cat(simCategory),
                cl::desc("Measured op times (JSON) overriding the "
                         "cost formulas"));
static cl::opt<bool>
    noOverlap("no-overlap", cl::cat(simCategory),
              cl::desc("Run communication on the compute stream (no overlap), "
                       "whatever the framework"));
static cl::opt<std::string> entry("entry", cl::cat(simCategory),
                                  cl::desc("Function to simulate (default: "
                                           "main, or the only function)"));
static cl::opt<unsigned> topOps("top", cl::init(10), cl::cat(simCategory),
                                cl::desc("Number of op kinds in the summary"));
static cl::opt<double> samplesPerStep(
    "samples-per-step", cl::init(0), cl::cat(simCategory),
    cl::desc("Samples per step, for the throughput line (default: dimension 0 "
             "of the first data argument, the global batch)"));
static cl::opt<bool> timing("timing", cl::cat(simCategory),
                            cl::desc("Print lowering and simulation times"));
static cl::opt<unsigned>
    repeat("repeat", cl::init(1), cl::cat(simCategory),
           cl::desc("Simulate this many times (benchmarking; with --timing "
                    "the mean simulation time is printed)"));

static cl::opt<cl::boolOrDefault>
    progress("progress", cl::cat(simCategory),
             cl::desc("Show the phase running (parsing, lowering, simulating) "
                      "on stderr (default: when stderr is a terminal)"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  distir::installOutOfMemoryHandler("dist-sim");
  distir::keepFreedMemoryForReuse();
  distir::registerDebugOptions();
  cl::HideUnrelatedOptions(simCategory);
  distir::parseCommandLine(argc, argv,
                           "distir cluster simulator: one training step of "
                           "a placed program\n");
  distir::rejectRepeatedOptions("dist-sim");
  distir::sim::DriverOptions options;
  options.inputFile = inputFile;
  options.clusterSpec = clusterSpec;
  options.frameworkSpec = frameworkSpec;
  options.profileFile = profileFile;
  options.entry = entry;
  options.reportFile = reportFile;
  options.traceFile = traceFile;
  options.htmlFile = htmlFile;
  options.overlap = !noOverlap;
  options.topOps = topOps;
  options.samplesPerStep = samplesPerStep;
  options.timing = timing;
  options.repeat = repeat;
  distir::PhaseProgress phases("dist-sim", distir::isProgressOn(progress));
  options.onPhase = [&](const std::string &phase) { phases.start(phase); };
  return distir::sim::runDriver(options);
}
