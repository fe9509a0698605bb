//===- dist-lsp-server.cpp - language server for dist programs ------------===//
//
// MLIR's language server with the dialects distir's tools read, so an editor
// shows the verifier's diagnostics (placement, shapes, groups) as one types,
// with hover, go-to-definition and outline. Editor setup:
// docs/dist-lsp-server.md.
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  distir::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
