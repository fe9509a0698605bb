//===- FrameworkTiming.h - How a framework runs a program -------*- C++ -*-===//
//
// The lowering's view of a Framework (distir/Simulator/Framework.h) on one
// function: the order in which the framework issues the ops, the stream of
// each collective and the element-wise kernels it fuses. Internal to the
// simulator's MLIR library.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_LIB_SIMULATOR_MLIR_FRAMEWORKTIMING_H
#define DISTIR_LIB_SIMULATOR_MLIR_FRAMEWORKTIMING_H

#include "distir/Simulator/Framework.h"
#include "distir/Simulator/Program.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace distir {
namespace sim {

/// Calls `callback` on the ops of `body` in the order the framework issues
/// them, stopping at its first failure: program order, except that with
/// overlapped gradient reduction each run of optimizer-phase ops starts with
/// its gradient reductions (the collectives that read only values from
/// before the run) in the order their gradients are complete, as PyTorch
/// DDP's and Megatron-Core's buckets launch them. `positionOf` orders the
/// ops already issued (when their results are complete).
mlir::LogicalResult forEachInIssueOrder(
    mlir::Block &body, const Framework &framework,
    llvm::function_ref<size_t(mlir::Operation *)> positionOf,
    llvm::function_ref<mlir::LogicalResult(mlir::Operation *)> callback);

/// The stream a collective occupies: Gradient or Compute for the reductions
/// of the optimizer phase (overlapped or after the backward), Collective or
/// Compute for the others (asynchronous tensor-parallel or blocking).
Stream getCollectiveStream(mlir::Operation *op, const Framework &framework);

/// The fused kernel `op` belongs to, in program order, or nothing: Megatron's
/// bias + GeLU, bias (+ dropout) + residual add, and a bias added to a GEMM's
/// only result (the GEMM's bias epilogue), as `framework` enables them. A
/// bias is an `add` of a rank-1 function argument. Decided from the op's
/// neighbours alone, so that the lowering needs no pass over the function.
llvm::SmallVector<mlir::Operation *, 3>
getFusedKernel(mlir::Operation *op, const Framework &framework);

/// The member of a fused kernel that carries the kernel's whole work (the
/// GEMM of a GEMM with bias, else the last op); the others cost nothing.
mlir::Operation *getKernelHost(llvm::ArrayRef<mlir::Operation *> kernel);

} // namespace sim
} // namespace distir

#endif // DISTIR_LIB_SIMULATOR_MLIR_FRAMEWORKTIMING_H
