//===- dist-sim.cpp - Simulate a placed dist program on a cluster ---------===//
//
//   dist-sim prog.mlir --cluster dgx-a100:nodes=4 [--report r.json]
//            [--trace t.json] [--profile p.json] [--no-overlap]
//
// Prints a summary of one simulated step. Exits 1 on bad input and when the
// program does not fit in device memory (after writing the report, which
// then says "fits": false).
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <fstream>
#include <sstream>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory simCategory("dist-sim options");
static cl::opt<std::string> inputFile(cl::Positional, cl::cat(simCategory),
                                      cl::desc("<input.mlir>"), cl::init("-"));
static cl::opt<std::string>
    clusterSpec("cluster", cl::Required, cl::cat(simCategory),
                cl::desc("Cluster: dgx-a100[:nodes=N], dgx-h100[:nodes=N] or "
                         "a JSON cluster file"));
static cl::opt<std::string> reportFile("report", cl::cat(simCategory),
                                       cl::desc("Write the JSON report here"));
static cl::opt<std::string>
    traceFile("trace", cl::cat(simCategory),
              cl::desc("Write a Chrome-trace/Perfetto JSON here"));
static cl::opt<std::string>
    profileFile("profile", cl::cat(simCategory),
                cl::desc("Measured op times (JSON) overriding the "
                         "cost formulas"));
static cl::opt<bool>
    noOverlap("no-overlap", cl::cat(simCategory),
              cl::desc("Run communication on the compute stream (no overlap)"));
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

/// The global batch of the step, for the throughput line: dimension 0 of the
/// first data argument's global shape (its local size times the shards of its
/// sharding along that dimension). 0 when the function has no data argument
/// or its batch is not static.
static double inferSamplesPerStep(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto role =
        func.getArgAttrOfType<StringAttr>(i, dist::DistDialect::kRoleAttrName);
    if (!role || role.getValue() != "data")
      continue;
    auto type = dyn_cast<RankedTensorType>(func.getArgument(i).getType());
    if (!type || type.getRank() == 0 || type.isDynamicDim(0))
      return 0;
    int64_t batch = type.getDimSize(0);
    if (auto sharding = func.getArgAttrOfType<dist::ShardingAttr>(
            i, dist::DistDialect::kShardingAttrName)) {
      auto mesh = SymbolTable::lookupNearestSymbolFrom<dist::MeshOp>(
          func, sharding.getMesh());
      if (!mesh)
        return 0;
      std::optional<int64_t> shards =
          dist::Mesh::fromOp(mesh).getAxesSize(sharding.getAxesOfDim(0));
      if (!shards)
        return 0;
      batch *= *shards;
    }
    return batch;
  }
  return 0;
}

static int fail(const std::string &message) {
  llvm::errs() << "dist-sim: error: " << message << "\n";
  return 1;
}

template <typename Writer>
static bool writeFile(const std::string &path, Writer write) {
  std::ofstream out(path);
  if (!out) {
    fail(path + ": cannot open for writing");
    return false;
  }
  write(out);
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(simCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "distir cluster simulator: one training step of "
                              "a placed program\n");

  std::string error;
  std::optional<distir::topology::Cluster> cluster =
      distir::topology::parseClusterSpec(clusterSpec, error);
  if (!cluster)
    return fail(error);
  std::shared_ptr<distir::cost::ProfileTable> profile;
  if (!profileFile.empty()) {
    std::optional<distir::cost::ProfileTable> table =
        distir::cost::ProfileTable::load(profileFile, error);
    if (!table)
      return fail(error);
    profile = std::make_shared<distir::cost::ProfileTable>(std::move(*table));
  }
  distir::cost::CostModel model(*cluster, profile);

  // Only what a placed program contains: dist ops inside func.func.
  DialectRegistry registry;
  registry.insert<dist::DistDialect, func::FuncDialect>();
  MLIRContext context(registry);
  // Errors stay one line: no dump of the offending op.
  context.printOpOnDiagnostic(false);
  std::string fileError;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(inputFile, &fileError);
  if (!buffer)
    return fail(fileError);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  func::FuncOp func = distir::sim::findEntryFunction(*module, entry);
  if (!func)
    return 1;

  auto started = std::chrono::steady_clock::now();
  distir::sim::Program program;
  FailureOr<distir::sim::LoweringResult> lowered =
      distir::sim::lowerToProgram(func, model, program);
  if (failed(lowered))
    return 1;
  auto loweredAt = std::chrono::steady_clock::now();

  distir::sim::SimOptions options;
  options.overlap = !noOverlap;
  options.recordTrace = !traceFile.empty();
  options.recordMemoryTimeline = !traceFile.empty();
  options.topOps = topOps;
  std::optional<distir::sim::SimResult> result;
  for (unsigned i = 0; i < std::max(1u, unsigned(repeat)); ++i) {
    result = distir::sim::simulate(program, options, error);
    if (!result)
      return fail(error);
  }
  auto simulatedAt = std::chrono::steady_clock::now();

  double samples =
      samplesPerStep > 0 ? double(samplesPerStep) : inferSamplesPerStep(func);
  distir::sim::ReportContext reportContext{
      cluster->name, cluster->device.memoryBytes, samples};
  std::ostringstream summary;
  distir::sim::printSummary(summary, *result, reportContext);
  llvm::outs() << summary.str();
  if (timing) {
    auto seconds = [](auto from, auto to) {
      return std::chrono::duration<double>(to - from).count();
    };
    llvm::outs() << "lowering: " << seconds(started, loweredAt)
                 << " s, simulation: "
                 << seconds(loweredAt, simulatedAt) /
                        std::max(1u, unsigned(repeat))
                 << " s for " << program.numTasks() << " tasks\n";
  }
  if (!reportFile.empty() && !writeFile(reportFile, [&](std::ostream &os) {
        distir::sim::writeReportJson(os, *result, reportContext);
      }))
    return 1;
  if (!traceFile.empty() && !writeFile(traceFile, [&](std::ostream &os) {
        distir::sim::writeChromeTrace(os, program, *result);
      }))
    return 1;
  if (!distir::sim::fitsInMemory(*result, reportContext)) {
    llvm::outs().flush();
    std::ostringstream message;
    message << "the program does not fit in device memory: peak "
            << result->peakMemoryBytes << " bytes, capacity "
            << cluster->device.memoryBytes << " bytes per device";
    return fail(message.str());
  }
  return 0;
}
