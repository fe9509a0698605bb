//===- CostEstimator.cpp - the dist dialect's op timer from the cost model ===//
//
// Implements mlir::dist::CostEstimatorDialectInterface with estimateOpTime:
// the transforms that decide by time (the pipeline's stage cut) time ops as
// the simulator does, without linking the cost model themselves.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/CostEstimator.h"
#include "distir/Dialect/Dist/IR/DistDialect.h"
#include "distir/Simulator/Lowering.h"

#include "mlir/IR/DialectRegistry.h"

#include <memory>

using namespace mlir;

namespace {

struct SimulatorCostEstimator : public dist::CostEstimatorDialectInterface {
  using CostEstimatorDialectInterface::CostEstimatorDialectInterface;

  FailureOr<dist::OpTimer>
  getOpTimer(StringRef clusterSpec,
             function_ref<InFlightDiagnostic()> emitError) const override {
    distir::StatusOr<distir::topology::Cluster> cluster =
        distir::topology::parseClusterSpec(clusterSpec.str());
    if (!cluster)
      return emitError() << cluster.message();
    return distir::sim::makeOpTimer(
        std::make_shared<const distir::cost::CostModel>(std::move(*cluster)));
  }
};

} // namespace

dist::OpTimer
distir::sim::makeOpTimer(std::shared_ptr<const cost::CostModel> model) {
  return [model = std::move(model)](Operation *op) {
    return estimateOpTime(op, *model);
  };
}

void distir::sim::registerCostEstimatorInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, dist::DistDialect *dialect) {
    dialect->addInterfaces<SimulatorCostEstimator>();
  });
}
