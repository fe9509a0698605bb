//===- dist-opt.cpp - the distir optimizer driver -------------------------===//
//
// The dist dialect with func, the upstream passes users expect (canonicalize,
// cse, inline, symbol-dce) and every pass of distir.
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"
#include "distir/Support/DebugOptions.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

#ifdef DISTIR_INCLUDE_TESTS
namespace mlir::dist::test {
/// The test-only passes of test/lib (-dist-test-*).
void registerTestPasses();
} // namespace mlir::dist::test
#endif

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
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
  mlir::registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto it = options.find("mlir-print-op-on-diagnostic");
      it != options.end())
    static_cast<llvm::cl::opt<bool> *>(it->second)->setInitialValue(false);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "distir optimizer driver\n", registry));
}
