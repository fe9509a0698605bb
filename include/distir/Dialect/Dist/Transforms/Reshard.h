//===- Reshard.h - plans between layouts ------------------------*- C++ -*-===//
//
// The collectives that move a value from one Layout to another, in the
// order partitioning inserts them, and their estimated traffic (what
// propagation ranks its choices by).
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_RESHARD_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_RESHARD_H

#include "distir/Dialect/Dist/IR/Layout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::dist {

/// One step of a resharding, on groups along `axes` (major to minor).
struct ReshardStep {
  enum class Kind {
    /// Sum the partial values over `axes`.
    AllReduce,
    /// Sum over `axes` and keep this device's block of `dim`.
    ReduceScatter,
    /// Concatenate the blocks of `dim` over `axes` (removes them from dim).
    AllGather,
    /// Move the split of `axes` from `concatDim` to `dim`.
    AllToAll,
    /// Keep this device's block of `dim` of a value replicated over `axes`
    /// (a reduce_scatter with `avg`: the dialect has no device-indexed slice).
    Slice,
    /// Make a replicated value partial over `axes` (scale by 1/size).
    MakePartial,
  };
  Kind kind;
  llvm::SmallVector<int64_t, 2> axes;
  int64_t dim = -1;
  int64_t concatDim = -1;
};

/// The steps from layout `from` to `to` (same rank), in order: partial sums
/// first (reduce_scatter where the target splits a dim by the partial axis,
/// else all_reduce), then gathers / all_to_all of splits the target does not
/// keep, then slices of new splits.
llvm::SmallVector<ReshardStep> planReshard(const Layout &from,
                                           const Layout &to);
/// Bytes each device sends for `steps` applied to a value of global `shape`
/// with `elementBytes` per element starting from `from` (NCCL ring volumes).
/// Used to rank propagation choices; Slice costs a little, so that an
/// already-split operand is preferred.
double estimateReshardBytes(llvm::ArrayRef<int64_t> shape, int64_t elementBytes,
                            const Layout &from, const Layout &to,
                            const Mesh &mesh);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_RESHARD_H
