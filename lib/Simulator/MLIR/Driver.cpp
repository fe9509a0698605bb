//===- Driver.cpp - dist-sim: simulate a placed program file --------------===//

#include "distir/Simulator/Driver.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"

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
  return true;
}

/// The cost model of the cluster, with the measured times of the profile.
StatusOr<cost::CostModel> loadCostModel(const DriverOptions &options) {
  std::string error;
  std::optional<topology::Cluster> cluster =
      topology::parseClusterSpec(options.clusterSpec, error);
  if (!cluster)
    return Status::error(error);
  std::shared_ptr<cost::ProfileTable> profile;
  if (!options.profileFile.empty()) {
    std::optional<cost::ProfileTable> table =
        cost::ProfileTable::load(options.profileFile, error);
    if (!table)
      return Status::error(error);
    profile = std::make_shared<cost::ProfileTable>(std::move(*table));
  }
  return cost::CostModel(*cluster, profile);
}

/// Parses the input; errors are diagnostics on stderr.
OwningOpRef<ModuleOp> parseInput(const std::string &inputFile,
                                 MLIRContext &context,
                                 llvm::SourceMgr &sourceMgr,
                                 std::string &fileError) {
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(inputFile, &fileError);
  if (!buffer)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
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

/// Lowers `func` and simulates it `options.repeat` times; the last result,
/// and the --timing line in `timing`.
std::optional<SimResult> lowerAndSimulate(const DriverOptions &options,
                                          const cost::CostModel &model,
                                          func::FuncOp func, Program &program,
                                          std::string &timing,
                                          std::string &error) {
  error.clear(); // lowering fails with diagnostics, simulation with `error`
  auto started = std::chrono::steady_clock::now();
  if (failed(lowerToProgram(func, model, program)))
    return std::nullopt;
  auto loweredAt = std::chrono::steady_clock::now();
  SimOptions simOptions;
  simOptions.overlap = options.overlap;
  simOptions.recordTrace = !options.traceFile.empty();
  simOptions.recordMemoryTimeline = !options.traceFile.empty();
  simOptions.topOps = options.topOps;
  std::optional<SimResult> result;
  unsigned repeat = std::max(1u, options.repeat);
  for (unsigned i = 0; i < repeat; ++i) {
    StatusOr<SimResult> simulated = simulate(program, simOptions);
    if (!simulated) {
      error = simulated.message();
      return std::nullopt;
    }
    result = std::move(*simulated);
  }
  auto simulatedAt = std::chrono::steady_clock::now();
  if (options.timing) {
    auto seconds = [](auto from, auto to) {
      return std::chrono::duration<double>(to - from).count();
    };
    llvm::raw_string_ostream os(timing);
    os << "lowering: " << seconds(started, loweredAt)
       << " s, simulation: " << seconds(loweredAt, simulatedAt) / repeat
       << " s for " << program.numTasks() << " tasks\n";
  }
  return result;
}

} // namespace

int runDriver(const DriverOptions &options) {
  StatusOr<cost::CostModel> model = loadCostModel(options);
  if (!model)
    return fail(model.message());

  // Only what a placed program contains: dist ops inside func.func.
  DialectRegistry registry;
  registry.insert<dist::DistDialect, func::FuncDialect>();
  MLIRContext context(registry);
  // Errors stay one line: no dump of the offending op.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string fileError;
  OwningOpRef<ModuleOp> module =
      parseInput(options.inputFile, context, sourceMgr, fileError);
  if (!fileError.empty())
    return fail(fileError);
  if (!module)
    return 1;
  func::FuncOp func = findEntryFunction(*module, options.entry);
  if (!func)
    return 1;

  Program program;
  std::string timing, error;
  std::optional<SimResult> result =
      lowerAndSimulate(options, *model, func, program, timing, error);
  if (!result)
    return error.empty() ? 1 : fail(error);
  return writeOutputs(options, model->getCluster(), func, program, *result,
                      timing);
}

} // namespace sim
} // namespace distir
