//===- dist-opt.cpp - the distir optimizer driver -------------------------===//
//
// The dist dialect with func, the upstream passes users expect (canonicalize,
// cse, inline, symbol-dce) and every pass of distir.
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/OneLineDiagnostics.h"
#include "distir/Support/ToolSupport.h"

#include "mlir/Debug/Counter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using distir::OneLineDiagnostics;

#ifdef DISTIR_INCLUDE_TESTS
namespace mlir::dist::test {
/// The test-only passes of test/lib (-dist-test-*).
void registerTestPasses();
} // namespace mlir::dist::test
#endif

namespace {

/// The one-line printer of the run: the first error only, unless the input
/// is split into chunks (one error each).
OneLineDiagnostics *printer = nullptr;

/// Installs `printer` in every context MlirOptMain creates, instead of its
/// SourceMgrDiagnosticHandler that echoes source lines. The contexts are
/// made inside MlirOptMain, after that handler; a dialect extension runs
/// when a dialect loads (the builtin one at creation, the others as the
/// parser meets them), and the handler registered last is asked first.
/// Registering once per loaded dialect is harmless: the first handler that
/// takes a diagnostic ends its delivery.
struct OneLineDiagnosticsExtension : public DialectExtensionBase {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OneLineDiagnosticsExtension)
  OneLineDiagnosticsExtension() : DialectExtensionBase({}) {}
  void apply(MLIRContext *context, MutableArrayRef<Dialect *>) const final {
    printer->install(*context);
  }
  std::unique_ptr<DialectExtensionBase> clone() const final {
    return std::make_unique<OneLineDiagnosticsExtension>(*this);
  }
};

/// registerAndParseCLIOptions of MlirOptMain.h, with LLVM's complaints about
/// the command line on one line (distir::parseCommandLine).
std::pair<std::string, std::string> parseOptions(int argc, char **argv,
                                                 DialectRegistry &registry) {
  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  MlirOptMainConfig::registerCLOptions(registry);
  registerAsmPrinterCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  tracing::DebugCounter::registerCLOptions();
  std::string header = "distir optimizer driver\nAvailable Dialects: ";
  llvm::raw_string_ostream os(header);
  llvm::interleaveComma(registry.getDialectNames(), os);
  distir::parseCommandLine(argc, argv, header);
  return {inputFilename.getValue(), outputFilename.getValue()};
}

llvm::cl::opt<llvm::cl::boolOrDefault>
    progress("progress",
             llvm::cl::desc("Show each pass as it starts on stderr (default: "
                            "when stderr is a terminal)"));

/// --progress: a line per pass on the module as it starts (the nested
/// passes run on threads, one op each: too many to show).
struct ProgressInstrumentation : public PassInstrumentation {
  explicit ProgressInstrumentation(distir::PhaseProgress &phases)
      : phases(phases) {}
  void runBeforePass(Pass *pass, Operation *op) override {
    if (!op->getParentOp())
      phases.start(pass->getArgument().str());
  }
  distir::PhaseProgress &phases;
};

/// Adds the --progress instrumentation to the pipeline `config` builds.
void addProgress(MlirOptMainConfig &config, distir::PhaseProgress &phases) {
  MlirOptMainConfig withoutProgress = config;
  config.setPassPipelineSetupFn(
      [withoutProgress, &phases](PassManager &manager) -> LogicalResult {
        if (failed(withoutProgress.setupPassPipeline(manager)))
          return failure();
        manager.addInstrumentation(
            std::make_unique<ProgressInstrumentation>(phases));
        return success();
      });
}

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "dist-opt") << message << "\n";
  std::exit(1);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  distir::installOutOfMemoryHandler("dist-opt");
  DialectRegistry registry;
  distir::registerAllDialects(registry);
  distir::registerAllPasses();
#ifdef DISTIR_INCLUDE_TESTS
  mlir::dist::test::registerTestPasses();
#endif
  distir::registerDebugOptions();
  // An error at a function or the module is one line: MLIR appends the whole
  // op ("see current operation:", megabytes for GPT-3) unless
  // --mlir-print-op-on-diagnostic=false, so that is the default here (the
  // flag still turns it on).
  registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto it = options.find("mlir-print-op-on-diagnostic");
      it != options.end())
    static_cast<llvm::cl::opt<bool> *>(it->second)->setInitialValue(false);
  auto [inputFilename, outputFilename] = parseOptions(argc, argv, registry);
  distir::rejectRepeatedOptions("dist-opt");

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listings print no IR: MlirOptMain handles them.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  // One line per diagnostic, except under --verify-diagnostics, which
  // matches MLIR's own diagnostics against the file.
  OneLineDiagnostics oneLine("", !config.inputSplitMarker().empty());
  printer = &oneLine;
  if (!config.shouldVerifyDiagnostics())
    registry.addExtension(TypeID::get<OneLineDiagnosticsExtension>(),
                          std::make_unique<OneLineDiagnosticsExtension>());

  if (std::optional<std::string> error =
          distir::checkRegularFile(inputFilename))
    fail(*error);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input)
    fail(errorMessage);
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output)
    fail(errorMessage);
  distir::PhaseProgress phases("dist-opt", distir::isProgressOn(progress));
  if (distir::isProgressOn(progress)) {
    addProgress(config, phases);
    phases.start("parsing " +
                 (inputFilename == "-" ? std::string("stdin") : inputFilename));
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  if (std::optional<std::string> error =
          distir::keepOutputFile(*output, outputFilename))
    fail(*error);
  return EXIT_SUCCESS;
}
