//===- Recompute.cpp - activation recomputation (full/minimal/selective) --===//
//
// A training step keeps every forward activation a backward op reads alive
// from its forward op to its backward use. Recomputation trades that memory
// for FLOPs: the backward ops read clones of the forward computation that run
// right before the backward pass of the layer needs them, so the forward
// originals die at the end of the forward pass.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTRECOMPUTE
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

namespace {

constexpr llvm::StringLiteral kPhaseAttrName =
    ::mlir::dist::DistDialect::kPhaseAttrName;
constexpr llvm::StringLiteral kRecomputedAttrName =
    ::mlir::dist::DistDialect::kRecomputedAttrName;

bool hasPhase(Operation *op, Phase phase) { return getPhase(op) == phase; }

/// Forward ops whose results may be recomputed together, and the layer whose
/// backward pass receives the clones.
struct RecomputeGroup {
  int64_t layer;
  llvm::SetVector<Operation *> ops;
  /// Whether a forward use outside the group keeps a result alive. True for
  /// a whole layer: a value another layer reads is also read by that layer's
  /// backward pass, which runs before this one's, so it is stored anyway.
  bool forwardUsesOutsideKeep;
  /// Whether every op of the group is re-run (Megatron's whole-layer
  /// checkpointing, mode=full), or only those the backward reads need
  /// (mode=minimal, mode=selective).
  bool rerunAll;
};

/// Ops that no mode recomputes, as Megatron-LM checkpoints only its
/// transformer layers: those the model marks `dist.no_recompute` (dist-gen
/// gpt's embedding, final norm, head and loss) and the op that computes the
/// returned loss (a model without the mark, e.g. an MLP or an import).
llvm::DenseSet<Operation *> collectOutsideLayers(func::FuncOp func,
                                                 Block &body) {
  llvm::DenseSet<Operation *> outside;
  for (Operation &op : body)
    if (op.hasAttr(DistDialect::kNoRecomputeAttrName))
      outside.insert(&op);
  Operation *terminator = body.getTerminator();
  for (auto [index, result] : llvm::enumerate(terminator->getOperands()))
    if (getResultRole(func, index) == Role::Loss)
      if (Operation *def = result.getDefiningOp())
        outside.insert(def);
  return outside;
}

/// Full and minimal recomputation: one group per layer, every forward op of
/// the layer except those `outside` the recomputable layers.
SmallVector<RecomputeGroup>
collectLayerGroups(Block &body, const llvm::DenseSet<Operation *> &outside,
                   bool rerunAll) {
  llvm::MapVector<int64_t, RecomputeGroup> groups;
  for (Operation &op : body) {
    std::optional<int64_t> layer = getLayer(&op);
    if (!layer || !hasPhase(&op, Phase::Forward) || outside.contains(&op))
      continue;
    RecomputeGroup &group = groups[*layer];
    group.layer = *layer;
    group.forwardUsesOutsideKeep = true;
    group.rerunAll = rerunAll;
    group.ops.insert(&op);
  }
  return llvm::to_vector(llvm::make_second_range(groups.takeVector()));
}

/// Selective recomputation (Korthikanti et al. 2022, section 5): the
/// attention core, whose activations grow with the square of the sequence.
/// Recognised by its op pattern, not by names: a softmax whose input is a
/// matmul (the scores Q K^T) and whose result, directly or through dropouts,
/// is the lhs of a matmul (probs x V). The group is the scores matmul, the
/// softmax and those dropouts; Q, K and V stay checkpoints.
SmallVector<RecomputeGroup>
collectAttentionGroups(Block &body,
                       const llvm::DenseSet<Operation *> &outside) {
  SmallVector<RecomputeGroup> groups;
  for (auto softmax : body.getOps<SoftmaxOp>()) {
    std::optional<int64_t> layer = getLayer(softmax);
    if (!layer || !hasPhase(softmax, Phase::Forward) ||
        outside.contains(softmax))
      continue;
    auto scores = softmax->getOperand(0).getDefiningOp<MatmulOp>();
    if (!scores || !hasPhase(scores, Phase::Forward) ||
        outside.contains(scores))
      continue;
    SmallVector<Operation *> dropouts;
    bool feedsContext = false;
    SmallVector<Value> probs = {softmax->getResult(0)};
    while (!probs.empty()) {
      Value value = probs.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (!hasPhase(user, Phase::Forward))
          continue;
        if (isa<DropoutOp, DropoutTrainOp>(user) &&
            use.getOperandNumber() == 0) {
          dropouts.push_back(user);
          probs.push_back(user->getResult(0));
        } else if (isa<MatmulOp>(user) && use.getOperandNumber() == 0) {
          feedsContext = true;
        }
      }
    }
    if (!feedsContext)
      continue;
    RecomputeGroup group{*layer,
                         {},
                         /*forwardUsesOutsideKeep=*/false,
                         /*rerunAll=*/false};
    group.ops.insert(scores);
    group.ops.insert(softmax);
    group.ops.insert(dropouts.begin(), dropouts.end());
    groups.push_back(std::move(group));
  }
  return groups;
}

/// A result that stays alive whatever we do (returned, read by the
/// optimizer, or read by another layer), so recomputing it frees nothing.
bool isCheckpoint(Value value, const RecomputeGroup &group) {
  for (Operation *user : value.getUsers()) {
    if (hasPhase(user, Phase::Backward))
      continue;
    if (hasPhase(user, Phase::Forward) &&
        (!group.forwardUsesOutsideKeep || group.ops.contains(user)))
      continue;
    return true;
  }
  return false;
}

/// Whether `user` is a backward op that the clones inserted before
/// `insertBefore` can serve (the clones must dominate it).
bool readsAfter(Operation *user, Operation *insertBefore) {
  return hasPhase(user, Phase::Backward) &&
         user->getBlock() == insertBefore->getBlock() &&
         !user->isBeforeInBlock(insertBefore);
}

/// The ops of `group` that recompute `needed`, stopping at values that stay
/// alive anyway (checkpoints, values from outside the group, arguments).
llvm::DenseSet<Operation *>
collectNeededOps(const RecomputeGroup &group,
                 const llvm::SetVector<Value> &needed) {
  llvm::DenseSet<Operation *> toClone;
  SmallVector<Value> worklist(needed.begin(), needed.end());
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !group.ops.contains(def) || !toClone.insert(def).second)
      continue;
    for (Value operand : def->getOperands()) {
      Operation *operandDef = operand.getDefiningOp();
      if (operandDef && group.ops.contains(operandDef) &&
          !isCheckpoint(operand, group))
        worklist.push_back(operand);
    }
  }
  return toClone;
}

/// Every op of `group` placed before `insertBefore`: the whole layer's
/// forward is re-run, including the ops whose results the backward does not
/// read (a row-parallel matmul, its all-reduce, the residual add), as
/// Megatron-LM's activation checkpointing does. Their clones stay unused.
llvm::DenseSet<Operation *> collectWholeGroup(const RecomputeGroup &group,
                                              Operation *insertBefore) {
  llvm::DenseSet<Operation *> toClone;
  for (Operation *op : group.ops)
    if (op->getBlock() == insertBefore->getBlock() &&
        op->isBeforeInBlock(insertBefore))
      toClone.insert(op);
  return toClone;
}

/// Clones what `group` needs to rematerialise before `insertBefore` and
/// redirects the later backward uses to the clones.
void recomputeGroup(const RecomputeGroup &group, Operation *insertBefore) {
  // Values to rematerialise: results of the group that are no checkpoint
  // and that a backward op at or after the insertion point reads.
  llvm::SetVector<Value> needed;
  for (Operation *op : group.ops)
    for (Value result : op->getResults()) {
      if (isCheckpoint(result, group))
        continue;
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return readsAfter(user, insertBefore);
          }))
        needed.insert(result);
    }
  if (needed.empty())
    return;

  llvm::DenseSet<Operation *> toClone =
      group.rerunAll ? collectWholeGroup(group, insertBefore)
                     : collectNeededOps(group, needed);
  // The clones read the originals of everything they do not recompute;
  // those must exist at the insertion point.
  for (Operation *op : toClone)
    for (Value operand : op->getOperands())
      if (Operation *operandDef = operand.getDefiningOp())
        if (!toClone.contains(operandDef) &&
            operandDef->getBlock() == insertBefore->getBlock() &&
            !operandDef->isBeforeInBlock(insertBefore))
          return;

  OpBuilder builder(insertBefore);
  IRMapping mapping;
  MLIRContext *ctx = insertBefore->getContext();
  for (Operation *op : group.ops) {
    if (!toClone.contains(op))
      continue;
    Operation *clone = builder.clone(*op, mapping);
    setPhase(clone, Phase::Backward);
    clone->setAttr(DistDialect::kLayerAttrName,
                   IntegerAttr::get(IntegerType::get(ctx, 64), group.layer));
    clone->setAttr(kRecomputedAttrName, UnitAttr::get(ctx));
  }
  for (Value value : needed) {
    Value clone = mapping.lookup(value);
    value.replaceUsesWithIf(clone, [&](OpOperand &use) {
      return readsAfter(use.getOwner(), insertBefore);
    });
  }
}

/// Where a module-level error points: the first function (an implicit
/// module has no location of its own in the file).
Location diagnosticLoc(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    return func.getLoc();
  return module.getLoc();
}

struct RecomputePass
    : public mlir::dist::impl::DistRecomputeBase<RecomputePass> {
  using DistRecomputeBase::DistRecomputeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The option parser offers full, minimal and selective; none (set from C++)
    // keeps every activation.
    if (mode == RecomputeMode::None)
      return;
    bool sawTrainingStep = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !llvm::hasSingleElement(func.getBody()))
        continue;
      Block &body = func.getBody().front();
      if (llvm::none_of(body, [](Operation &op) {
            return hasPhase(&op, Phase::Backward);
          }))
        continue;
      sawTrainingStep = true;
      recomputeFunction(func, body);
    }
    if (!sawTrainingStep) {
      mlir::emitError(diagnosticLoc(module))
          << "dist-recompute: no training step (a function with "
          << DistDialect::kPhaseAttrName
          << " = \"backward\" ops): run dist-autodiff first";
      return signalPassFailure();
    }
  }

  void recomputeFunction(func::FuncOp func, Block &body) {
    bool selective = mode == RecomputeMode::Selective;
    llvm::DenseSet<Operation *> outside = collectOutsideLayers(func, body);
    SmallVector<RecomputeGroup> groups =
        selective
            ? collectAttentionGroups(body, outside)
            : collectLayerGroups(body, outside,
                                 /*rerunAll=*/mode == RecomputeMode::Full);
    if (groups.empty()) {
      // Fused attention stores no [s, s] tensor and recomputes its
      // probabilities in its own backward: nothing is left to recompute.
      bool fused = !body.getOps<AttentionOp>().empty();
      mlir::emitWarning(func.getLoc())
          << "dist-recompute: nothing to recompute in @" << func.getSymName()
          << (!selective ? " (forward ops carry no dist.layer)"
              : fused    ? " (the attention is fused: dist.attention stores "
                           "no [s, s] tensor)"
                         : " (no softmax attention pattern)");
      return;
    }
    // Insertion points first: cloning adds backward ops of the layer.
    llvm::DenseMap<int64_t, Operation *> firstBackward;
    for (Operation &op : body)
      if (std::optional<int64_t> layer = getLayer(&op))
        if (hasPhase(&op, Phase::Backward))
          firstBackward.try_emplace(*layer, &op);
    for (const RecomputeGroup &group : groups)
      if (Operation *insertBefore = firstBackward.lookup(group.layer))
        recomputeGroup(group, insertBefore);
  }
};

} // namespace
