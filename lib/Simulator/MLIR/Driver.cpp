//===- Driver.cpp - dist-sim: simulate a placed program file --------------===//

#include "distir/Simulator/Driver.h"
#include "distir/Simulator/Html.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"
#include "distir/Support/OneLineDiagnostics.h"
#include "distir/Support/ToolSupport.h"

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
StatusOr<cost::CostModel> loadCostModel(const DriverOptions &options,
                                        MLIRContext *context) {
  DISTIR_ASSIGN_OR_RETURN(topology::Cluster cluster,
                          topology::parseClusterSpec(options.clusterSpec));
  std::shared_ptr<cost::ProfileTable> profile;
  if (!options.profileFile.empty()) {
    context->getOrLoadDialect<dist::DistDialect>(); // the profile's kinds
    DISTIR_ASSIGN_OR_RETURN(cost::ProfileTable table,
                            loadProfile(options.profileFile, context));
    profile = std::make_shared<cost::ProfileTable>(std::move(table));
  }
  return cost::CostModel(cluster, profile);
}

/// The summary on stdout, then the report, the trace and the page; the exit
/// code: 1 when a file cannot be written or the step does not fit.
int writeOutputs(const DriverOptions &options, const SimulatedStep &step) {
  const SimResult &result = step.result;
  std::ostringstream summary;
  printSummary(summary, result, step.context);
  llvm::outs() << summary.str();
  if (options.timing)
    llvm::outs() << "lowering: " << step.loweringS
                 << " s, simulation: " << step.simulationS << " s for "
                 << step.program.numTasks() << " tasks\n";
  if (!options.reportFile.empty() &&
      !writeFile(options.reportFile, [&](std::ostream &os) {
        writeReportJson(os, result, step.context);
      }))
    return 1;
  if (!options.traceFile.empty() &&
      !writeFile(options.traceFile, [&](std::ostream &os) {
        writeChromeTrace(os, step.program, result);
      }))
    return 1;
  if (!options.htmlFile.empty() &&
      !writeFile(options.htmlFile, [&](std::ostream &os) {
        writeReportHtml(os, step.program, result, step.context);
      }))
    return 1;
  if (!fitsInMemory(result, step.context)) {
    llvm::outs().flush();
    std::ostringstream message;
    message << "the program does not fit in device memory: peak "
            << result.peakMemoryBytes << " bytes, capacity "
            << step.context.memoryCapacityBytes << " bytes per device";
    return fail(message.str());
  }
  return 0;
}

/// Simulates the lowered `program` `options.repeat` times: the last result.
StatusOr<SimResult> simulateRepeatedly(const DriverOptions &options,
                                       const Program &program) {
  SimOptions simOptions;
  simOptions.overlap = options.overlap;
  simOptions.recordTrace = options.recordTimeline ||
                           !options.traceFile.empty() ||
                           !options.htmlFile.empty();
  simOptions.recordMemoryTimeline = simOptions.recordTrace;
  simOptions.topOps = options.topOps;
  std::optional<SimResult> result;
  for (unsigned i = 0, e = std::max(1u, options.repeat); i < e; ++i) {
    DISTIR_ASSIGN_OR_RETURN(SimResult simulated, simulate(program, simOptions));
    result = std::move(simulated);
  }
  return *std::move(result);
}

} // namespace

StatusOr<SimulatedStep> simulateFunction(func::FuncOp func,
                                         const DriverOptions &options) {
  DISTIR_ASSIGN_OR_RETURN(cost::CostModel model,
                          loadCostModel(options, func->getContext()));
  DISTIR_ASSIGN_OR_RETURN(Framework framework,
                          parseFrameworkSpec(options.frameworkSpec));
  auto phase = [&](const std::string &name) {
    if (options.onPhase)
      options.onPhase(name);
  };
  SimulatedStep step;
  auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  phase("lowering");
  auto started = std::chrono::steady_clock::now();
  if (failed(lowerToProgram(func, model, step.program, framework)))
    return Status::error("cannot lower @" + func.getSymName().str() +
                         " for the simulator");
  auto loweredAt = std::chrono::steady_clock::now();
  phase("simulating " + std::to_string(step.program.numTasks()) + " tasks");
  DISTIR_ASSIGN_OR_RETURN(step.result,
                          simulateRepeatedly(options, step.program));
  step.loweringS = seconds(started, loweredAt);
  step.simulationS = seconds(loweredAt, std::chrono::steady_clock::now()) /
                     std::max(1u, options.repeat);
  const topology::Cluster &cluster = model.getCluster();
  step.context =
      ReportContext{cluster.name, cluster.device.memoryBytes,
                    options.samplesPerStep > 0 ? options.samplesPerStep
                                               : inferSamplesPerStep(func)};
  return step;
}

int runDriver(const DriverOptions &options) {
  // Only what a placed program contains: dist ops inside func.func.
  DialectRegistry registry;
  registry.insert<dist::DistDialect, func::FuncDialect>();
  distir::OneLineDiagnostics diagnostics;
  MLIRContext context(registry);
  // Errors stay one line: no dump of the offending op, no echoed source.
  context.printOpOnDiagnostic(false);
  diagnostics.install(context);

  // Bad options before reading the input, as before.
  if (StatusOr<cost::CostModel> model = loadCostModel(options, &context);
      !model)
    return fail(model.message());
  if (StatusOr<Framework> framework = parseFrameworkSpec(options.frameworkSpec);
      !framework)
    return fail(framework.message());

  // Read whole: /dev/zero would never end.
  if (std::optional<std::string> error = checkRegularFile(options.inputFile))
    return fail(*error);
  llvm::SourceMgr sourceMgr;
  std::string fileError;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(options.inputFile, &fileError);
  if (!buffer)
    return fail(fileError);
  if (options.onPhase)
    options.onPhase(
        "parsing " + (options.inputFile == "-" ? "stdin" : options.inputFile) +
        " (" + std::to_string(buffer->getBufferSize() >> 20) + " MiB)");
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // the diagnostic says why
  func::FuncOp func = findEntryFunction(*module, options.entry);
  if (!func)
    return 1;
  StatusOr<SimulatedStep> step = simulateFunction(func, options);
  if (!step) {
    // A lowering error was printed as a diagnostic already.
    if (diagnostics.hasPrintedError())
      return 1;
    return fail(step.message());
  }
  if (options.onPhase)
    options.onPhase("writing");
  return writeOutputs(options, *step);
}

} // namespace sim
} // namespace distir
