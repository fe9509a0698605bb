//===- dist-opt.cpp - the distir optimizer driver -------------------------===//
//
// The dist dialect with func, the upstream passes users expect (canonicalize,
// cse, inline, symbol-dce) and every pass of distir.
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"
#include "distir/Support/DebugOptions.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

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
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "distir optimizer driver\n", registry));
}
