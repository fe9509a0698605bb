//===- dist-onnx-fuzz.cpp - libFuzzer target of the ONNX importer ---------===//
//
// Feeds arbitrary bytes to distir::importOnnxModel, as binary or text ONNX.
// The importer's contract: it never crashes, and a failure comes with a
// non-empty one-line message. Anything else aborts the run (a finding).
//
//   dist-onnx-fuzz -max_total_time=60 CORPUS_DIR SEED_DIR
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Import/OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for the whole run: creating one per input would dominate
  // the time, and the importer keeps no state in it between imports.
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<mlir::dist::DistDialect, mlir::func::FuncDialect>();
    mlir::dist::registerExecutionInterfaceExternalModels(registry);
    auto *created = new mlir::MLIRContext(registry);
    created->disableMultithreading();
    return created;
  }();
  distir::OnnxImportOptions options;
  distir::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      distir::importOnnxModel(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.onnx", *context, options);
  const std::string &error = module.message();
  if (!module && (error.empty() || error.find('\n') != std::string::npos)) {
    std::fprintf(stderr, "importer failed without a one-line message: '%s'\n",
                 error.c_str());
    std::abort();
  }
  return 0;
}
