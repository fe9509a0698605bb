//===- Driver.cpp - dist-sim: simulate a placed program file --------------===//

#include "distir/Simulator/Driver.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"
#include "distir/Support/OneLineDiagnostics.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

using namespace mlir;

namespace distir {
namespace sim {

double inferSamplesPerStep(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    if (dist::getArgRole(func, i) != dist::Role::Data)
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

namespace {

int fail(const std::string &message) {
  llvm::errs() << "dist-sim: error: " << message << "\n";
  return 1;
}

template <typename Writer>
bool writeFile(const std::string &path, Writer write) {
  std::ofstream out(path);
  if (!out) {
    fail(path + ": cannot open for writing");
    return false;
  }
  write(out);
  // A full disk (or /dev/full) shows only when the buffer is written.
  out.close();
  if (!out) {
    fail(path + ": cannot write");
    return false;
  }
  return true;
}

/// The cost model of the cluster, with the measured times of the profile.
StatusOr<cost::CostModel> loadCostModel(const DriverOptions &options) {
  DISTIR_ASSIGN_OR_RETURN(topology::Cluster cluster,
                          topology::parseClusterSpec(options.clusterSpec));
  std::shared_ptr<cost::ProfileTable> profile;
  if (!options.profileFile.empty()) {
    DISTIR_ASSIGN_OR_RETURN(cost::ProfileTable table,
                            cost::ProfileTable::load(options.profileFile));
    profile = std::make_shared<cost::ProfileTable>(std::move(table));
  }
  return cost::CostModel(cluster, profile);
}

/// The summary on stdout, then the report and the trace files; the exit
/// code: 1 when a file cannot be written or the step does not fit.
int writeOutputs(const DriverOptions &options, const topology::Cluster &cluster,
                 func::FuncOp func, const Program &program,
                 const SimResult &result, const std::string &timing) {
  double samples = options.samplesPerStep > 0 ? options.samplesPerStep
                                              : inferSamplesPerStep(func);
  ReportContext reportContext{cluster.name, cluster.device.memoryBytes,
                              samples};
  std::ostringstream summary;
  printSummary(summary, result, reportContext);
  llvm::outs() << summary.str() << timing;
  if (!options.reportFile.empty() &&
      !writeFile(options.reportFile, [&](std::ostream &os) {
        writeReportJson(os, result, reportContext);
      }))
    return 1;
  if (!options.traceFile.empty() &&
      !writeFile(options.traceFile, [&](std::ostream &os) {
        writeChromeTrace(os, program, result);
      }))
    return 1;
  if (!fitsInMemory(result, reportContext)) {
    llvm::outs().flush();
    std::ostringstream message;
    message << "the program does not fit in device memory: peak "
            << result.peakMemoryBytes << " bytes, capacity "
            << cluster.device.memoryBytes << " bytes per device";
    return fail(message.str());
  }
  return 0;
}

/// Simulates the lowered `program` `options.repeat` times: the last result.
StatusOr<SimResult> simulateRepeatedly(const DriverOptions &options,
                                       const Program &program) {
  SimOptions simOptions;
  simOptions.overlap = options.overlap;
  simOptions.recordTrace = !options.traceFile.empty();
  simOptions.recordMemoryTimeline = !options.traceFile.empty();
  simOptions.topOps = options.topOps;
  std::optional<SimResult> result;
  for (unsigned i = 0, e = std::max(1u, options.repeat); i < e; ++i) {
    DISTIR_ASSIGN_OR_RETURN(SimResult simulated, simulate(program, simOptions));
    result = std::move(simulated);
  }
  return *std::move(result);
}

/// The --timing line: lowering, then one simulation (the mean of the
/// repeats).
std::string formatTiming(const DriverOptions &options, const Program &program,
                         std::chrono::steady_clock::time_point started,
                         std::chrono::steady_clock::time_point loweredAt,
                         std::chrono::steady_clock::time_point simulatedAt) {
  auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  std::string timing;
  llvm::raw_string_ostream os(timing);
  os << "lowering: " << seconds(started, loweredAt) << " s, simulation: "
     << seconds(loweredAt, simulatedAt) / std::max(1u, options.repeat)
     << " s for " << program.numTasks() << " tasks\n";
  return timing;
}

} // namespace

int runDriver(const DriverOptions &options) {
  StatusOr<cost::CostModel> model = loadCostModel(options);
  if (!model)
    return fail(model.message());
  StatusOr<Framework> framework = parseFrameworkSpec(options.frameworkSpec);
  if (!framework)
    return fail(framework.message());

  // Only what a placed program contains: dist ops inside func.func.
  DialectRegistry registry;
  registry.insert<dist::DistDialect, func::FuncDialect>();
  distir::OneLineDiagnostics diagnostics;
  MLIRContext context(registry);
  // Errors stay one line: no dump of the offending op, no echoed source.
  context.printOpOnDiagnostic(false);
  diagnostics.install(context);
  llvm::SourceMgr sourceMgr;
  std::string fileError;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(options.inputFile, &fileError);
  if (!buffer)
    return fail(fileError);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // the diagnostic says why
  func::FuncOp func = findEntryFunction(*module, options.entry);
  if (!func)
    return 1;

  Program program;
  auto started = std::chrono::steady_clock::now();
  if (failed(lowerToProgram(func, *model, program, *framework)))
    return 1; // the diagnostic says why
  auto loweredAt = std::chrono::steady_clock::now();
  StatusOr<SimResult> result = simulateRepeatedly(options, program);
  if (!result)
    return fail(result.message());
  std::string timing = options.timing
                           ? formatTiming(options, program, started, loweredAt,
                                          std::chrono::steady_clock::now())
                           : "";
  return writeOutputs(options, model->getCluster(), func, program, *result,
                      timing);
}

} // namespace sim
} // namespace distir
