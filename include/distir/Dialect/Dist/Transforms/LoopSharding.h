//===- LoopSharding.h - mesh axes per rule loop -----------------*- C++ -*-===//
//
// An op's ShardingRule with mesh axes per loop: what propagation chooses,
// partitioning re-derives from the result shardings, and both turn into the
// layouts an op needs of its operands and makes of its results.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_LOOPSHARDING_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_LOOPSHARDING_H

#include "distir/Dialect/Dist/IR/Layout.h"
#include "distir/Dialect/Dist/IR/ShardingRule.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::dist {

/// The mesh axes each loop of an op's ShardingRule is split over: what
/// propagation chooses and partitioning re-derives from the result shardings.
struct LoopSharding {
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> loops;
  /// Partial axes that flow from the linear operands to every result.
  llvm::SmallVector<int64_t, 2> passThrough;

  /// What the op needs of operand `operand` / makes of result `result`:
  /// dims split like their loops; results are partial over the axes of the
  /// split loops they do not have (sum reductions) and over `passThrough`.
  Layout getOperandLayout(const ShardingRule &rule, unsigned operand) const;
  Layout getResultLayout(const ShardingRule &rule, unsigned result) const;
  /// The product of the shards of the split normalized loops (means): every
  /// local result is scaled by its inverse.
  int64_t getNormalization(const ShardingRule &rule, const Mesh &mesh) const;
};

/// Prints the axes of every loop, for debug output.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const LoopSharding &sharding);

/// The partial axes every linear operand of a jointly linear op carries
/// alike (operands null: unknown), which may flow through the op to its
/// results; nullopt when there are none or the operands disagree.
std::optional<llvm::SmallVector<int64_t, 2>>
getSharedLinearPartial(const ShardingRule &rule,
                       llvm::ArrayRef<const Layout *> operandLayouts);

/// Why `axes` cannot split loop `loop` of `op` (global types): the loop is
/// not splittable, or a dimension running over it is not divisible. Empty
/// when they can.
std::string checkLoopSplit(Operation *op, const ShardingRule &rule,
                           int64_t loop, llvm::ArrayRef<int64_t> axes,
                           const Mesh &mesh);

/// Re-derives the loop sharding that produces `resultLayouts` from operands
/// laid out as `operandLayouts` (null: unknown); reduction loops take the
/// result's partial axes, preferring the loop whose operand dims already
/// carry them. Fails at `op` when the result layouts are inconsistent or
/// impossible for the rule.
FailureOr<LoopSharding>
deriveLoopSharding(Operation *op, const ShardingRule &rule,
                   llvm::ArrayRef<const Layout *> operandLayouts,
                   llvm::ArrayRef<Layout> resultLayouts, const Mesh &mesh);

/// The rule of a dist op (ShardingRuleOpInterface::getShardingRule), checked
/// against the op's operand and result ranks; fails at the op for other ops.
FailureOr<ShardingRule> getShardingRule(Operation *op);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_LOOPSHARDING_H
