//===- PipelineUtils.h - what the pipeline steps share ----------*- C++ -*-===//
//
// Private to the pipeline's files (StageAssignment.cpp, MicrobatchSplit.cpp,
// Pipeline.cpp): how they read an op's phase and cost, and how they word
// their errors.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_LIB_DIALECT_DIST_TRANSFORMS_PIPELINEUTILS_H
#define DISTIR_LIB_DIALECT_DIST_TRANSFORMS_PIPELINEUTILS_H

#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

#include <string>

namespace mlir::dist::pipeline {

/// The phase of an op; ops without one (before dist-autodiff) are forward.
inline Phase getPhaseOrForward(Operation *op) {
  return getPhase(op).value_or(Phase::Forward);
}

/// An error at the op's location without the op dump that
/// Operation::emitOpError attaches: one line.
inline InFlightDiagnostic opError(Operation *op) {
  return mlir::emitError(op->getLoc()) << "'" << op->getName() << "' op ";
}

/// "argument 4 ('input')": how errors name an argument.
inline std::string describeArgument(func::FuncOp func, unsigned index) {
  std::string name = "argument " + std::to_string(index);
  if (auto attr =
          func.getArgAttrOfType<StringAttr>(index, DistDialect::kNameAttrName))
    name += " ('" + attr.getValue().str() + "')";
  return name;
}

/// What both the stage cut and the microbatch split need of the function.
inline LogicalResult checkPipelineFunction(func::FuncOp func,
                                           int64_t numStages) {
  if (numStages < 1)
    return mlir::emitError(func.getLoc())
           << "pp must be at least 1, got " << numStages;
  if (!func.getBody().hasOneBlock())
    return mlir::emitError(func.getLoc())
           << "dist-pipeline needs a function with one block";
  return success();
}

/// What the stage cut needs of the function: checkPipelineFunction, no
/// placed argument or result, only dist compute ops (StageAssignment.cpp).
LogicalResult checkUnplacedStep(func::FuncOp func, int64_t numStages);

/// The FLOPs of an op plus one: one unit per op keeps stages of cheap ops
/// (reshapes) from looking free.
inline double getOpCost(Operation *op) {
  double flops = 0;
  if (auto iface = dyn_cast<CostOpInterface>(op))
    flops = iface.getFlops();
  return flops + 1;
}

inline bool isCommunication(Operation *op) {
  return isa<SendOp, CollectiveOpInterface>(op);
}

} // namespace mlir::dist::pipeline

#endif // DISTIR_LIB_DIALECT_DIST_TRANSFORMS_PIPELINEUTILS_H
