//===- dist-mlir-fuzz.cpp - libFuzzer target of the dist dialect's parser -===//
//
// Feeds arbitrary text to the MLIR parser with the dist dialect (attributes,
// types, ops and their verifiers), as dist-opt reads a program. The
// contract: no crash, a failed parse reports at least one error with a
// non-empty message, and a module that parses and verifies prints to text
// that parses and verifies again (the printer round-trips every valid IR).
//
//   dist-mlir-fuzz -max_total_time=60 -dict=test/Fuzz/mlir.dict CORPUS_DIR
//       test/Fuzz/mlir
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

/// Attributes and types are uniqued in the context for its lifetime: a fresh
/// context now and then keeps a long run's memory bounded.
constexpr int kInputsPerContext = 2000;

struct Session {
  std::unique_ptr<mlir::MLIRContext> context;
  int inputs = 0;
  std::string errors;
  int numErrors = 0;

  mlir::MLIRContext &get() {
    if (!context || ++inputs > kInputsPerContext) {
      mlir::DialectRegistry registry;
      registry.insert<mlir::dist::DistDialect, mlir::func::FuncDialect>();
      context = std::make_unique<mlir::MLIRContext>(
          registry, mlir::MLIRContext::Threading::DISABLED);
      context->loadAllAvailableDialects();
      context->printOpOnDiagnostic(false);
      context->getDiagEngine().registerHandler(
          [this](mlir::Diagnostic &diagnostic) {
            if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error) {
              ++numErrors;
              errors = diagnostic.str();
            }
            return mlir::success();
          });
      inputs = 1;
    }
    errors.clear();
    numErrors = 0;
    return *context;
  }
};

[[noreturn]] void finding(const char *what, const std::string &detail) {
  std::fprintf(stderr, "%s\n%s\n", what, detail.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Session session;
  mlir::MLIRContext &context = session.get();
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  if (!module) {
    if (session.numErrors == 0 || session.errors.empty())
      finding("the parser failed without an error message", text);
    return 0;
  }
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  session.numErrors = 0;
  mlir::OwningOpRef<mlir::ModuleOp> again =
      mlir::parseSourceString<mlir::ModuleOp>(printed, config, "printed.mlir");
  if (!again)
    finding(
        ("a valid module prints to text that does not parse: " + session.errors)
            .c_str(),
        printed);
  return 0;
}
