//===- InitAll.cpp - register everything distir tools use ----------------===//

#include "distir/InitAll.h"
#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/GradientInterfaceImpl.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Passes.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void distir::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::dist::DistDialect, mlir::func::FuncDialect>();
  mlir::func::registerInlinerExtension(registry);
  // The compiler's interfaces: cost and sharding rules come with the
  // dialect, gradients from beside autodiff. Execution is not registered
  // here (dist-opt does not link the kernels).
  mlir::dist::registerGradientInterfaceExternalModels(registry);
  // Op times for the transforms that decide by time (the stage cut), from
  // the simulator's cost model.
  distir::sim::registerCostEstimatorInterface(registry);
}

void distir::registerAllPasses() {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  mlir::dist::registerDistPasses();
  distir::sim::registerDistSimulatorPasses();
}
