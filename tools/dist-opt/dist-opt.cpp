//===- dist-opt.cpp - the distir optimizer driver -------------------------===//
//
// The dist dialect with func, the upstream passes users expect (canonicalize,
// cse, inline, symbol-dce) and every pass of distir.
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;

#ifdef DISTIR_INCLUDE_TESTS
namespace mlir::dist::test {
/// The test-only passes of test/lib (-dist-test-*).
void registerTestPasses();
} // namespace mlir::dist::test
#endif

namespace {

/// Prints a diagnostic as one "file:line:col: error: message" line, without
/// the source line MlirOptMain's SourceMgrDiagnosticHandler echoes (a
/// GPT-3 function signature is one line of 110 KB). Notes follow on their
/// own lines; the op MLIR attaches with --mlir-print-op-on-diagnostic is one.
void printOneLine(Diagnostic &diagnostic, VerbosityLevel verbosity) {
  DiagnosticSeverity severity = diagnostic.getSeverity();
  if ((severity == DiagnosticSeverity::Warning &&
       verbosity == VerbosityLevel::ErrorsOnly) ||
      (severity == DiagnosticSeverity::Remark &&
       verbosity != VerbosityLevel::ErrorsWarningsAndRemarks))
    return;
  llvm::raw_ostream &os = llvm::errs();
  Location location = diagnostic.getLocation();
  if (auto file = location->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  else if (!isa<UnknownLoc>(location))
    os << location << ": ";
  switch (severity) {
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  }
  os << diagnostic.str() << "\n";
  for (Diagnostic &note : diagnostic.getNotes())
    printOneLine(note, verbosity);
}

/// Installs printOneLine in every context MlirOptMain creates. The contexts
/// are made inside MlirOptMain, after its own SourceMgrDiagnosticHandler;
/// a dialect extension runs when a dialect loads (the builtin one at
/// creation, the others as the parser meets them), and the handler
/// registered last is asked first. Registering once per loaded dialect is
/// harmless: the first handler that takes a diagnostic ends its delivery.
struct OneLineDiagnostics : public DialectExtensionBase {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OneLineDiagnostics)
  explicit OneLineDiagnostics(VerbosityLevel verbosity)
      : DialectExtensionBase({}), verbosity(verbosity) {}
  void apply(MLIRContext *context, MutableArrayRef<Dialect *>) const final {
    VerbosityLevel level = verbosity;
    context->getDiagEngine().registerHandler([level](Diagnostic &diagnostic) {
      printOneLine(diagnostic, level);
      return success();
    });
  }
  std::unique_ptr<DialectExtensionBase> clone() const final {
    return std::make_unique<OneLineDiagnostics>(*this);
  }
  VerbosityLevel verbosity;
};

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
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "distir optimizer driver\n", registry);
  distir::rejectRepeatedOptions("dist-opt");

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listings print no IR: MlirOptMain handles them.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  // --verify-diagnostics matches MLIR's own diagnostics against the file.
  if (!config.shouldVerifyDiagnostics())
    registry.addExtension(TypeID::get<OneLineDiagnostics>(),
                          std::make_unique<OneLineDiagnostics>(
                              config.getDiagnosticVerbosityLevel()));

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
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  if (std::optional<std::string> error =
          distir::keepOutputFile(*output, outputFilename))
    fail(*error);
  return EXIT_SUCCESS;
}
