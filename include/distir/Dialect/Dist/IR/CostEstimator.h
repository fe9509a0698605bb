//===- CostEstimator.h - op times for the transforms ----------*- C++ -*-===//
//
// Some transforms decide by how long ops take on the target cluster (the
// pipeline's stage cut balances the stages' time). The cost model is plain
// C++ (lib/CostModel) and its MLIR adapter lives with the simulator
// (lib/Simulator/MLIR), above the transforms: so the dialect declares what
// the transforms may ask, and the simulator's MLIR half implements it as a
// dialect interface of `dist`, registered by the tools
// (distir::registerAllDialects). A context without it gives the transforms
// no timer; they then fall back to what they can count themselves (FLOPs).
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_COSTESTIMATOR_H
#define DISTIR_DIALECT_DIST_IR_COSTESTIMATOR_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <optional>

namespace mlir::dist {

/// Seconds one device of a placed op's devices spends on it (a collective:
/// its slowest group; a send: the transfer), or nullopt for an op the cost
/// model does not time.
using OpTimer = std::function<std::optional<double>(Operation *op)>;

class CostEstimatorDialectInterface
    : public DialectInterface::Base<CostEstimatorDialectInterface> {
public:
  CostEstimatorDialectInterface(Dialect *dialect) : Base(dialect) {}

  /// The timer of cluster `clusterSpec` (dist-sim's `--cluster` syntax: a
  /// preset with options or a JSON file); an error through `emitError` for a
  /// spec that does not parse.
  virtual FailureOr<OpTimer>
  getOpTimer(StringRef clusterSpec,
             function_ref<InFlightDiagnostic()> emitError) const = 0;
};

/// The timer of `clusterSpec` from the interface registered on `context`'s
/// dist dialect; nullptr (no error) when none is registered.
FailureOr<OpTimer>
getRegisteredOpTimer(MLIRContext *context, StringRef clusterSpec,
                     function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::dist

MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::dist::CostEstimatorDialectInterface)

#endif // DISTIR_DIALECT_DIST_IR_COSTESTIMATOR_H
