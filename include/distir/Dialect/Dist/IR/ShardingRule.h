//===- ShardingRule.h - how a dist op may be split --------------*- C++ -*-===//
//
// The einsum-like description behind ShardingRuleOpInterface::getShardingRule,
// in the spirit of upstream MLIR's ShardingInterface (loop iterator types +
// indexing maps): an op iterates over loops; every operand and result dimension
// runs over one loop (or none: broadcast dims of size 1, scalars); a loop that
// appears in operands but not in a result is a sum reduction for that result,
// so splitting it leaves partial sums there. Sharding propagation chooses mesh
// axes per loop; partitioning derives every operand's and result's local
// layout from that choice.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_SHARDINGRULE_H
#define DISTIR_DIALECT_DIST_IR_SHARDINGRULE_H

#include "distir/Dialect/Dist/IR/DistAttrs.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::dist {

struct ShardingRule {
  static constexpr int64_t kNoLoop = -1;

  struct Loop {
    /// False when the op needs the whole extent on every device: the axis of
    /// a softmax, the normalized dims of layer_norm, a gather axis, windows
    /// of convolutions and pools, minor factors of a reshape group.
    bool splittable = true;
    /// The op divides by this loop's extent (a mean): split into P parts,
    /// each device's result must be scaled by 1/P to be the global one's
    /// shard (or partial sum).
    bool normalized = false;
    /// Split, the op's local form is not the op on local shapes: the op
    /// builds it (ShardingRuleOpInterface::buildLocalExpansion). A lookup in
    /// a table split along the gathered axis masks the indices outside its
    /// block; a softmax cross-entropy over split classes all-reduces its
    /// normalizers.
    bool expands = false;
  };

  /// How pending partial sums on operands may flow to the results without
  /// being reduced first.
  enum class Linearity {
    /// Every partial operand is reduced before the op.
    None,
    /// f(a1 + a2, b1 + b2) = f(a1, b1) + f(a2, b2) over `linearOperands`
    /// (add, sub, concat, reshape, transpose): when all of them are partial
    /// over the same axes, so are the results.
    Joint,
  };

  llvm::SmallVector<Loop> loops;
  /// operandDims[i][d]: the loop dimension d of operand i runs over.
  llvm::SmallVector<llvm::SmallVector<int64_t>> operandDims;
  llvm::SmallVector<llvm::SmallVector<int64_t>> resultDims;
  Linearity linearity = Linearity::None;
  llvm::SmallVector<unsigned> linearOperands;

  int64_t addLoop(bool splittable = true, bool normalized = false) {
    loops.push_back({splittable, normalized});
    return loops.size() - 1;
  }
  /// A loop that splits only through the op's local expansion.
  int64_t addExpandingLoop() {
    loops.push_back({/*splittable=*/true, /*normalized=*/false,
                     /*expands=*/true});
    return loops.size() - 1;
  }
  /// Appends an operand (or result) whose dims run over `dims`.
  void addOperand(llvm::ArrayRef<int64_t> dims) {
    operandDims.emplace_back(dims.begin(), dims.end());
  }
  void addResult(llvm::ArrayRef<int64_t> dims) {
    resultDims.emplace_back(dims.begin(), dims.end());
  }
  /// One new loop per dim of a rank-`rank` value: the identity map.
  llvm::SmallVector<int64_t> addLoops(int64_t rank, bool splittable = true);

  /// Whether loop `loop` is a dimension of result `result`.
  bool isInResult(int64_t loop, unsigned result) const;
  /// Whether loop `loop` runs over a dimension of some operand or result.
  bool isUsed(int64_t loop) const;
};

/// What an op's local expansion (ShardingRuleOpInterface::
/// buildLocalExpansion) knows of its split.
struct LocalExpansion {
  /// Per loop of the rule, the device groups the loop is split over (members
  /// hold its blocks in group order); null when the loop is not split.
  llvm::SmallVector<DeviceGroupsAttr> loopGroups;
  /// The local types the expansion's results must have.
  llvm::SmallVector<RankedTensorType> resultTypes;
  /// Values one expansion computes and a later one may reuse, by a key the
  /// ops agree on and the local value they derive from: the gradient of a
  /// vocab-parallel cross entropy reads the global normalizers its forward
  /// all-reduced, as Megatron-LM keeps them. Owned by the partitioner; the
  /// values dominate every later op of the block. Null: nothing is shared.
  llvm::DenseMap<std::pair<llvm::StringRef, Value>, llvm::SmallVector<Value, 2>>
      *shared = nullptr;

  /// Whether `loop` is split.
  bool isSplit(int64_t loop) const {
    return loop >= 0 && static_cast<size_t>(loop) < loopGroups.size() &&
           loopGroups[loop];
  }
};

/// After the operands of `op` were replaced by local (per-device) values,
/// rewrites the attributes that state global shapes (reshape and expand
/// targets, the full-extent limits of slices, the shapes of convolution and
/// pooling gradients, splat constants) so that inference yields
/// `localResultTypes`; fails at the op if they cannot be expressed. Lives
/// beside the rules because it depends on the same per-op facts.
LogicalResult
localizeShapeAttributes(Operation *op,
                        llvm::ArrayRef<RankedTensorType> localResultTypes);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_IR_SHARDINGRULE_H
