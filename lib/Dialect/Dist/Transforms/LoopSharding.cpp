//===- LoopSharding.cpp - mesh axes over the loops of a sharding rule -----===//
//
// An op's ShardingRule names its loops; a LoopSharding splits them over mesh
// axes. From it follow the layouts the op needs and makes, which propagation
// chooses and partitioning re-derives from the result shardings.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/LoopSharding.h"
#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dist-loop-sharding"

using namespace mlir;
using namespace mlir::dist;

static constexpr int64_t kNone = ShardingRule::kNoLoop;

static void addSortedUnique(SmallVectorImpl<int64_t> &set, int64_t value) {
  auto it = llvm::lower_bound(set, value);
  if (it == set.end() || *it != value)
    set.insert(it, value);
}

/// Each dim split like the loop it runs over.
static Layout splitLikeLoops(ArrayRef<int64_t> dims,
                             ArrayRef<SmallVector<int64_t, 2>> loops) {
  Layout layout;
  for (int64_t loop : dims) {
    layout.dims.emplace_back();
    if (loop != kNone)
      layout.dims.back() = loops[loop];
  }
  return layout;
}

Layout LoopSharding::getOperandLayout(const ShardingRule &rule,
                                      unsigned operand) const {
  Layout layout = splitLikeLoops(rule.operandDims[operand], loops);
  if (!passThrough.empty() && llvm::is_contained(rule.linearOperands, operand))
    layout.partial.assign(passThrough.begin(), passThrough.end());
  return layout;
}

Layout LoopSharding::getResultLayout(const ShardingRule &rule,
                                     unsigned result) const {
  Layout layout = splitLikeLoops(rule.resultDims[result], loops);
  layout.partial.assign(passThrough.begin(), passThrough.end());
  for (auto [loop, axes] : llvm::enumerate(loops))
    if (!axes.empty() && !rule.isInResult(loop, result))
      for (int64_t axis : axes)
        addSortedUnique(layout.partial, axis);
  return layout;
}

int64_t LoopSharding::getNormalization(const ShardingRule &rule,
                                       const Mesh &mesh) const {
  int64_t factor = 1;
  for (auto [loop, axes] : llvm::enumerate(loops))
    if (rule.loops[loop].normalized)
      factor *= getNumShards(axes, mesh);
  return factor;
}

std::string mlir::dist::checkLoopSplit(Operation *op, const ShardingRule &rule,
                                       int64_t loop, ArrayRef<int64_t> axes,
                                       const Mesh &mesh) {
  if (axes.empty())
    return {};
  if (!rule.loops[loop].splittable)
    return "the op needs this dimension whole on every device";
  int64_t shards = getNumShards(axes, mesh);
  auto check = [&](Value value, ArrayRef<int64_t> dims) -> std::string {
    auto type = cast<RankedTensorType>(value.getType());
    for (auto [dim, dimLoop] : llvm::enumerate(dims)) {
      if (dimLoop != loop)
        continue;
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size) || size % shards != 0)
        return ("dimension " + Twine(dim) + " of size " +
                (ShapedType::isDynamic(size) ? std::string("?")
                                             : std::to_string(size)) +
                " is not divisible into " + Twine(shards) + " shards")
            .str();
    }
    return {};
  };
  for (auto [i, dims] : llvm::enumerate(rule.operandDims)) {
    std::string problem = check(op->getOperand(i), dims);
    if (!problem.empty())
      return problem;
  }
  for (auto [i, dims] : llvm::enumerate(rule.resultDims)) {
    std::string problem = check(op->getResult(i), dims);
    if (!problem.empty())
      return problem;
  }
  return {};
}

FailureOr<ShardingRule> mlir::dist::getShardingRule(Operation *op) {
  auto iface = dyn_cast<ShardingRuleOpInterface>(op);
  if (!iface)
    return op->emitOpError("has no sharding rule");
  ShardingRule rule;
  if (failed(iface.getShardingRule(rule)))
    return failure();
  auto rankOf = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getRank();
  };
  bool consistent = rule.operandDims.size() == op->getNumOperands() &&
                    rule.resultDims.size() == op->getNumResults();
  for (unsigned i = 0; consistent && i < op->getNumOperands(); ++i)
    consistent =
        (int64_t)rule.operandDims[i].size() == rankOf(op->getOperand(i));
  for (unsigned i = 0; consistent && i < op->getNumResults(); ++i)
    consistent = (int64_t)rule.resultDims[i].size() == rankOf(op->getResult(i));
  if (!consistent)
    return op->emitOpError("sharding rule does not match the op's operands "
                           "and results");
  return rule;
}

std::optional<SmallVector<int64_t, 2>>
mlir::dist::getSharedLinearPartial(const ShardingRule &rule,
                                   ArrayRef<const Layout *> operandLayouts) {
  if (rule.linearity != ShardingRule::Linearity::Joint ||
      rule.linearOperands.empty())
    return std::nullopt;
  const Layout *first = operandLayouts[rule.linearOperands.front()];
  if (!first || first->partial.empty())
    return std::nullopt;
  for (unsigned i : rule.linearOperands)
    if (!operandLayouts[i] || operandLayouts[i]->partial != first->partial)
      return std::nullopt;
  return SmallVector<int64_t, 2>(first->partial);
}

raw_ostream &mlir::dist::operator<<(raw_ostream &os,
                                    const LoopSharding &sharding) {
  os << "loops ";
  printAxisLists(os, sharding.loops);
  if (!sharding.passThrough.empty()) {
    os << " pass-through [";
    llvm::interleaveComma(sharding.passThrough, os);
    os << "]";
  }
  return os;
}

FailureOr<LoopSharding>
mlir::dist::deriveLoopSharding(Operation *op, const ShardingRule &rule,
                               ArrayRef<const Layout *> operandLayouts,
                               ArrayRef<Layout> resultLayouts,
                               const Mesh &mesh) {
  LoopSharding sharding;
  sharding.loops.resize(rule.loops.size());
  SmallVector<bool> fromResult(rule.loops.size(), false);
  for (auto [r, dims] : llvm::enumerate(rule.resultDims)) {
    for (auto [dim, loop] : llvm::enumerate(dims)) {
      ArrayRef<int64_t> axes = resultLayouts[r].dims[dim];
      if (loop == kNone) {
        if (!axes.empty())
          return op->emitOpError("result #")
                 << r << " cannot be split on dimension " << dim;
        continue;
      }
      if (fromResult[loop]) {
        if (ArrayRef<int64_t>(sharding.loops[loop]) != axes)
          return op->emitOpError(
              "results disagree on the split of a dimension");
        continue;
      }
      fromResult[loop] = true;
      sharding.loops[loop].assign(axes.begin(), axes.end());
    }
  }

  // Partial axes that all linear operands and all results share flow through.
  if (std::optional<SmallVector<int64_t, 2>> shared =
          getSharedLinearPartial(rule, operandLayouts)) {
    auto hasAll = [&](const Layout &result) {
      return llvm::all_of(*shared, [&](int64_t axis) {
        return llvm::is_contained(result.partial, axis);
      });
    };
    if (llvm::all_of(resultLayouts, hasAll))
      sharding.passThrough = std::move(*shared);
  }

  // The remaining partial axes of each result come from reduction loops.
  for (auto [r, layout] : llvm::enumerate(resultLayouts)) {
    for (int64_t axis : layout.partial) {
      if (llvm::is_contained(sharding.passThrough, axis))
        continue;
      auto splitsAbsentLoop = [&](int64_t loop) {
        return !rule.isInResult(loop, r) &&
               llvm::is_contained(sharding.loops[loop], axis);
      };
      bool covered = false;
      for (int64_t loop = 0, e = rule.loops.size(); loop < e && !covered;
           ++loop)
        covered = splitsAbsentLoop(loop);
      if (covered)
        continue;
      // Prefer the reduction loop an operand already splits by `axis`.
      int64_t chosen = kNone;
      for (auto [i, dims] : llvm::enumerate(rule.operandDims)) {
        if (!operandLayouts[i] || chosen != kNone)
          continue;
        for (auto [dim, loop] : llvm::enumerate(dims))
          if (loop != kNone && !fromResult[loop] && !rule.isInResult(loop, r) &&
              llvm::is_contained(operandLayouts[i]->dims[dim], axis) &&
              checkLoopSplit(op, rule, loop, {axis}, mesh).empty()) {
            chosen = loop;
            break;
          }
      }
      for (int64_t loop = 0, e = rule.loops.size(); loop < e && chosen == kNone;
           ++loop) {
        SmallVector<int64_t, 2> axes(sharding.loops[loop]);
        axes.push_back(axis);
        if (!fromResult[loop] && !rule.isInResult(loop, r) &&
            rule.isUsed(loop) &&
            checkLoopSplit(op, rule, loop, axes, mesh).empty())
          chosen = loop;
      }
      if (chosen == kNone)
        return op->emitOpError("result #")
               << r << " cannot be a partial sum over mesh axis \""
               << mesh.getAxes()[axis] << "\"";
      LLVM_DEBUG(llvm::dbgs()
                 << op->getName() << " result #" << r << " partial over axis "
                 << axis << ": reduction loop " << chosen << "\n");
      sharding.loops[chosen].push_back(axis);
    }
  }

  for (auto [loop, axes] : llvm::enumerate(sharding.loops)) {
    std::string problem = checkLoopSplit(op, rule, loop, axes, mesh);
    if (!problem.empty())
      return op->emitOpError("cannot be split as its sharding says: ")
             << problem;
  }
  for (auto [r, layout] : llvm::enumerate(resultLayouts))
    if (sharding.getResultLayout(rule, r) != layout)
      return op->emitOpError("result #")
             << r << " has a sharding the op cannot produce from its rule";
  return sharding;
}
