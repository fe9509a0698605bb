//===- dist-opt.cpp - the distir optimizer driver -------------------------===//
//
// The dist dialect with func, the upstream passes users expect (canonicalize,
// cse, inline, symbol-dce) and every pass of distir.
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  distir::registerAllDialects(registry);
  distir::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "distir optimizer driver\n", registry));
}
