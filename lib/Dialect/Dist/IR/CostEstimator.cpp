//===- CostEstimator.cpp - the op-timer dialect interface -----------------===//

#include "distir/Dialect/Dist/IR/CostEstimator.h"

#include "distir/Dialect/Dist/IR/DistDialect.h"

#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::dist;

MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::dist::CostEstimatorDialectInterface)

FailureOr<OpTimer>
mlir::dist::getRegisteredOpTimer(MLIRContext *context, StringRef clusterSpec,
                                 function_ref<InFlightDiagnostic()> emitError) {
  auto *dialect = context->getOrLoadDialect<DistDialect>();
  auto *estimator =
      dialect->getRegisteredInterface<CostEstimatorDialectInterface>();
  if (!estimator)
    return OpTimer();
  return estimator->getOpTimer(clusterSpec, emitError);
}
