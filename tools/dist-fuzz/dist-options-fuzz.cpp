//===- dist-options-fuzz.cpp - libFuzzer target of dist-parallelize's options
//===//
//
// Feeds arbitrary text as the options of dist-parallelize
// (`--dist-parallelize='<input>'`) and runs the pass on a small MLP with
// parameters and a loss, as dist-opt would. The contract: no crash, and a
// failure reports an error with a non-empty message.
//
//   dist-options-fuzz -max_total_time=60 -dict=test/Fuzz/options.dict
//       CORPUS_DIR test/Fuzz/options
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

/// `dist-gen mlp --layers 2 --hidden 16 --batch 8`: parameters, data and a
/// loss, what dist-parallelize's options act on. The bad-input corpus's base
/// program (test/BadInputs/generate.py writes it), so that it has one
/// definition; the path comes from CMake.
#ifndef DISTIR_FUZZ_PROGRAM
#error "DISTIR_FUZZ_PROGRAM must name the program the options act on"
#endif
const char *const kProgramPath = DISTIR_FUZZ_PROGRAM;

/// Passes with these options parse fast but may build programs whose size
/// grows with a count in the options: inputs longer than this are skipped.
constexpr size_t kMaxOptionsLength = 200;

struct Session {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> program;
  std::string lastError;
  int numErrors = 0;

  Session() {
    mlir::DialectRegistry registry;
    distir::registerAllDialects(registry);
    distir::registerAllPasses();
    context = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->printOpOnDiagnostic(false);
    context->getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
      if (d.getSeverity() == mlir::DiagnosticSeverity::Error) {
        ++numErrors;
        lastError = d.str();
      }
      return mlir::success();
    });
    program =
        mlir::parseSourceFile<mlir::ModuleOp>(kProgramPath, context.get());
    if (!program) {
      std::fprintf(stderr, "the fuzzer's program %s does not parse\n",
                   kProgramPath);
      std::abort();
    }
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Session session;
  if (size > kMaxOptionsLength)
    return 0;
  std::string options(reinterpret_cast<const char *>(data), size);
  // The options stay inside the braces: a '}' would end them and start
  // another pass, which the pipeline parser handles on its own.
  // No paths: cluster= and layout-map= read files, and the fuzzer must not
  // read whatever it names (a FIFO would block it).
  if (options.find_first_of("{}/") != std::string::npos)
    return 0;
  mlir::PassManager pm(session.context.get());
  std::string pipelineErrors;
  llvm::raw_string_ostream errorStream(pipelineErrors);
  if (mlir::failed(mlir::parsePassPipeline("builtin.module(dist-parallelize{" +
                                               options + "})",
                                           pm, errorStream))) {
    if (pipelineErrors.empty()) {
      std::fprintf(stderr, "options refused without a message: '%s'\n",
                   options.c_str());
      std::abort();
    }
    return 0;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module = session.program->clone();
  session.numErrors = 0;
  session.lastError.clear();
  if (mlir::failed(pm.run(*module)) &&
      (session.numErrors == 0 || session.lastError.empty())) {
    std::fprintf(stderr, "dist-parallelize{%s} failed without an error\n",
                 options.c_str());
    std::abort();
  }
  return 0;
}
