//===- MemoryKinds.h - What each buffer of a training step holds -*- C++
//-*-===//
//
// The memory breakdown of dist-sim (docs/dist-sim.md) reads what a buffer
// holds off the program: `dist.role` on the arguments and results and
// `dist.phase` on the ops. Gradient buffers live for the whole step, as the
// frameworks allocate them once (Megatron-LM's grad buffers, PyTorch's
// `.grad`); updated parameters and optimizer state are written in place into
// their argument's buffer.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_MEMORYKINDS_H
#define DISTIR_SIMULATOR_MEMORYKINDS_H

#include "distir/Simulator/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace distir {
namespace sim {

/// What the results of one op hold. They live from the start of the op to
/// the end of their last consumer, except gradient buffers (allocated for
/// the whole step) and results written in place.
struct BufferRole {
  MemoryKind kind = MemoryKind::Other;
  /// Written into an argument's buffer: no memory of its own.
  bool inPlace = false;
  /// Bytes of the results that are gradient buffers (a layer norm's weight
  /// and bias gradients, but not its input gradient).
  int64_t gradientBufferBytes = 0;
  /// Bytes of the last result when it is held in a buffer of its own, with
  /// its own lifetime (a training dropout's mask), and what it holds.
  int64_t apartBytes = 0;
  MemoryKind apartKind = MemoryKind::Other;
};

/// The kind of the buffer of argument `index`.
MemoryKind getArgumentMemoryKind(mlir::func::FuncOp func, unsigned index);

/// What the results of each op of `func`'s body hold.
llvm::DenseMap<mlir::Operation *, BufferRole>
classifyBuffers(mlir::func::FuncOp func);

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_MEMORYKINDS_H
