//===- Lowering.h - From placed dist IR to a Program ------------*- C++ -*-===//
//
// Walks one func.func of placed dist ops in program order and emits one task
// per op, with its duration from the cost model. Function arguments
// (parameters, gradients, optimizer state, inputs) are resident on their
// placement for the whole step; values the function returns stay allocated
// to its end. Unplaced values (the sequential program) live on device 0.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_LOWERING_H
#define DISTIR_SIMULATOR_LOWERING_H

#include "distir/CostModel/CostModel.h"
#include "distir/Dialect/Dist/IR/CostEstimator.h"
#include "distir/Simulator/Framework.h"
#include "distir/Simulator/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>

namespace distir {
namespace sim {

struct LoweringResult {
  /// Largest device id the program uses, plus one.
  int64_t numDevicesUsed = 0;
  /// Task of each simulated op, in program order (for annotations); an op
  /// whose last result has a buffer of its own (a training dropout's mask)
  /// has a second, zero-time task that holds it, listed right after.
  std::vector<std::pair<mlir::Operation *, TaskId>> opTasks;
  /// Tasks whose results include gradient buffers, held for the whole step
  /// as residents (MemoryKinds.h) instead of by the task, and their bytes.
  std::vector<std::pair<TaskId, int64_t>> gradientBuffers;
};

/// Lowers `func` into `program`, timed as `framework` runs it (which
/// collectives block the device or have their own stream, when gradient
/// reductions run, which element-wise kernels are fused). Emits an error
/// diagnostic at the offending op (unsupported op, device id beyond the
/// cluster) and fails.
mlir::FailureOr<LoweringResult>
lowerToProgram(mlir::func::FuncOp func, const cost::CostModel &model,
               Program &program, const Framework &framework = Framework());

/// Reads a profile (ProfileTable) whose kinds must name compute ops of the
/// dist dialect (the ones the simulator times), loaded in `context`.
StatusOr<cost::ProfileTable> loadProfile(const std::string &path,
                                         mlir::MLIRContext *context);

/// Estimated seconds of one op on the model's cluster (the duration its task
/// gets), or std::nullopt for ops the simulator does not model.
std::optional<double> estimateOpTime(mlir::Operation *op,
                                     const cost::CostModel &model);

/// estimateOpTime on `model` as the dialect's op timer.
mlir::dist::OpTimer makeOpTimer(std::shared_ptr<const cost::CostModel> model);

/// Gives the `dist` dialect its CostEstimatorDialectInterface (op times from
/// this cost model for the transforms that decide by time, e.g. the
/// pipeline's stage cut). distir::registerAllDialects calls it.
void registerCostEstimatorInterface(mlir::DialectRegistry &registry);

/// The function to simulate: `name` if given, else `main`, else the only
/// function with a body. Emits an error on the module and returns null.
mlir::func::FuncOp findEntryFunction(mlir::ModuleOp module,
                                     llvm::StringRef name);

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_LOWERING_H
