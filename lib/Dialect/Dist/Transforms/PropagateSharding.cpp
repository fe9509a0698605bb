//===- PropagateSharding.cpp - complete sharding annotations -------------===//
//
// The propagation that completes a function's shardings from a few
// annotations (GSPMD-style): per op, the loop sharding that costs the least
// resharding given what its operands and consumers already have.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/LoopSharding.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Reshard.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#define DEBUG_TYPE "dist-propagate-sharding"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTPROPAGATESHARDING
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

static constexpr int64_t kNone = ShardingRule::kNoLoop;
static constexpr StringLiteral kShardingsAttrName =
    DistDialect::kShardingsAttrName;

//===----------------------------------------------------------------------===//
// Propagation
//===----------------------------------------------------------------------===//

namespace {

/// A value whose layout (or wished layout) is known, seen from an op.
struct Source {
  ArrayRef<int64_t> dims;
  const Layout *layout;
};

class Propagator {
public:
  Propagator(func::FuncOp func, MeshOp meshOp)
      : func(func), meshOp(meshOp), mesh(Mesh::fromOp(meshOp)) {}

  LogicalResult run();

private:
  LogicalResult seed();
  /// Decides the loop sharding of `op` if anything about it is known (or
  /// `force`): the one the user's result annotations imply, else the
  /// cheapest.
  FailureOr<bool> tryDecide(Operation *op, bool force);
  /// Records the layouts `chosen` gives the results of `op`, and the ones it
  /// needs of operands not laid out yet.
  void recordDecision(Operation *op, const ShardingRule &rule,
                      const LoopSharding &chosen,
                      ArrayRef<const Layout *> operandLayouts);
  LogicalResult writeBack();
  /// Marks the dims of every value that run over the batch of the data
  /// arguments (dim 0 of each argument with `dist.role = "data"`), through
  /// the ops' sharding rules: the activations sequence parallelism splits.
  void findBatchDims();
  /// Sequence parallelism: when `chosen` leaves the activation `op` makes
  /// replicated over the sequence axis, splits the loop of the dimension
  /// before its last (the sequence of [batch, sequence, hidden], the tokens
  /// of [tokens, hidden]) over it too. Fails when the axis does not divide
  /// that dimension.
  LogicalResult splitSequence(Operation *op, const ShardingRule &rule,
                              LoopSharding &chosen);
  FailureOr<Layout> resolve(Operation *at, ShardingAttr sharding, Type type,
                            StringRef what);

  const Layout *findLayout(Value value) const {
    auto it = layouts.find(value);
    return it == layouts.end() ? nullptr : &pool[it->second];
  }
  const Layout *findHint(Value value) const {
    auto it = hints.find(value);
    return it == hints.end() ? nullptr : &pool[it->second];
  }

  func::FuncOp func;
  MeshOp meshOp;
  Mesh mesh;
  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> opIndex;
  SmallVector<bool> decided;
  LayoutPool pool;
  /// Final layouts: arguments once known, op results once their op decided.
  llvm::DenseMap<Value, unsigned> layouts;
  /// Wished layouts of values: user targets first, then what consumers need.
  llvm::DenseMap<Value, unsigned> hints;
  /// Result shardings written by the user on ops: the op must produce them.
  llvm::DenseMap<Operation *, SmallVector<Layout>> annotatedResults;
  /// The axis sequence parallelism splits over (kSequenceParallelAttrName).
  std::optional<int64_t> sequenceAxis;
  /// Per value, a bit per dim that runs over the batch (findBatchDims).
  llvm::DenseMap<Value, uint64_t> batchDims;
};

/// Ranks the loop shardings of one op by the bytes of resharding they cost
/// against what is known: the layouts of its operands and the layouts its
/// consumers wish of its results.
class LoopShardingChooser {
public:
  /// `weights` (empty: all 1), one per operand then one per result, scale
  /// the bytes of resharding each; a result weighted above 1 that nobody
  /// wished a layout of yet and that a candidate leaves partial over
  /// `reducedAxis` is charged the all-reduce it will need (the weight
  /// gradients sequence parallelism must not leave pending).
  LoopShardingChooser(Operation *op, const ShardingRule &rule, const Mesh &mesh,
                      ArrayRef<const Layout *> operandLayouts,
                      ArrayRef<const Layout *> resultHints,
                      ArrayRef<double> weights = {},
                      std::optional<int64_t> reducedAxis = std::nullopt);

  /// Candidates: greedy from each known value first (operands, then wished
  /// results), in two loop orders; then nothing split. The cheapest wins,
  /// the earliest among equals; nothing beats a free one, so the search
  /// stops there (most ops of a consistently annotated program).
  LoopSharding choose(ArrayRef<Source> sources);

private:
  /// Whether `axes` may split `loop` (memoized: the check walks every dim).
  bool canSplit(int64_t loop, ArrayRef<int64_t> axes);
  /// Splits each loop like the first source in `order` that splits one of
  /// its dims by axes no other loop uses yet; loops in the results first
  /// when `resultLoopsFirst`.
  LoopSharding greedy(ArrayRef<Source> order, bool resultLoopsFirst);
  /// The estimated bytes resharding the known operands into `candidate` and
  /// its results into the wished layouts.
  double getCost(const LoopSharding &candidate) const;

  struct SplitCheck {
    int64_t loop;
    SmallVector<int64_t, 2> axes;
    bool ok;
  };

  Operation *op;
  const ShardingRule &rule;
  const Mesh &mesh;
  ArrayRef<const Layout *> operandLayouts;
  ArrayRef<const Layout *> resultHints;
  ArrayRef<double> weights;
  std::optional<int64_t> reducedAxis;
  SmallVector<int64_t, 2> passThrough;
  /// Per loop: whether some result dim runs over it.
  SmallVector<bool> inResult;
  SmallVector<SplitCheck, 8> splitCache;
};

} // namespace

LoopShardingChooser::LoopShardingChooser(
    Operation *op, const ShardingRule &rule, const Mesh &mesh,
    ArrayRef<const Layout *> operandLayouts,
    ArrayRef<const Layout *> resultHints, ArrayRef<double> weights,
    std::optional<int64_t> reducedAxis)
    : op(op), rule(rule), mesh(mesh), operandLayouts(operandLayouts),
      resultHints(resultHints), weights(weights), reducedAxis(reducedAxis),
      inResult(rule.loops.size(), false) {
  assert(operandLayouts.size() == op->getNumOperands() &&
         resultHints.size() == op->getNumResults() &&
         "one known layout (or null) per operand and result");
  // Pending sums flow through jointly linear ops when every linear operand
  // carries the same ones; otherwise they are reduced before the op.
  if (std::optional<SmallVector<int64_t, 2>> shared =
          getSharedLinearPartial(rule, operandLayouts))
    passThrough = std::move(*shared);
  for (const auto &dims : rule.resultDims)
    for (int64_t loop : dims)
      if (loop != kNone)
        inResult[loop] = true;
}

bool LoopShardingChooser::canSplit(int64_t loop, ArrayRef<int64_t> axes) {
  for (const SplitCheck &check : splitCache)
    if (check.loop == loop && ArrayRef<int64_t>(check.axes) == axes)
      return check.ok;
  bool ok = checkLoopSplit(op, rule, loop, axes, mesh).empty();
  splitCache.push_back({loop, SmallVector<int64_t, 2>(axes), ok});
  return ok;
}

LoopSharding LoopShardingChooser::greedy(ArrayRef<Source> order,
                                         bool resultLoopsFirst) {
  LoopSharding candidate;
  candidate.loops.resize(rule.loops.size());
  candidate.passThrough = passThrough;
  SmallVector<bool> assigned(rule.loops.size(), false);
  SmallVector<bool> usedAxes(mesh.getRank(), false);
  for (int64_t axis : passThrough)
    usedAxes[axis] = true;
  for (int pass = resultLoopsFirst ? 0 : 1; pass < 2; ++pass) {
    for (const Source &source : order) {
      for (auto [dim, loop] : llvm::enumerate(source.dims)) {
        if (loop == kNone || assigned[loop] || (pass == 0 && !inResult[loop]))
          continue;
        ArrayRef<int64_t> axes = source.layout->dims[dim];
        if (axes.empty() ||
            llvm::any_of(axes, [&](int64_t axis) { return usedAxes[axis]; }) ||
            !canSplit(loop, axes))
          continue;
        candidate.loops[loop].assign(axes.begin(), axes.end());
        assigned[loop] = true;
        for (int64_t axis : axes)
          usedAxes[axis] = true;
      }
    }
  }
  return candidate;
}

/// The bytes of one element of `value` (at least 1).
static int64_t getElementBytes(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return std::max<int64_t>(
      1, mlir::dist::detail::getTensorBytes(
             RankedTensorType::get({}, type.getElementType())));
}

double LoopShardingChooser::getCost(const LoopSharding &candidate) const {
  double cost = 0;
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (operandLayouts[i])
      cost += (weights.empty() ? 1.0 : weights[i]) *
              estimateReshardBytes(
                  cast<RankedTensorType>(operand.getType()).getShape(),
                  getElementBytes(operand), *operandLayouts[i],
                  candidate.getOperandLayout(rule, i), mesh);
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    double weight = weights.empty() ? 1.0 : weights[op->getNumOperands() + r];
    auto shape = cast<RankedTensorType>(result.getType()).getShape();
    Layout layout = candidate.getResultLayout(rule, r);
    if (resultHints[r]) {
      cost += weight * estimateReshardBytes(shape, getElementBytes(result),
                                            layout, *resultHints[r], mesh);
    } else if (reducedAxis && weight > 1 &&
               llvm::is_contained(layout.partial, *reducedAxis)) {
      Layout reduced = layout;
      reduced.partial.clear();
      cost += estimateReshardBytes(shape, getElementBytes(result), layout,
                                   reduced, mesh);
    }
  }
  return cost;
}

LoopSharding LoopShardingChooser::choose(ArrayRef<Source> sources) {
  std::optional<LoopSharding> best;
  SmallVector<SmallVector<SmallVector<int64_t, 2>>> seen;
  double bestCost = 0;
  auto consider = [&](LoopSharding candidate) {
    if (llvm::is_contained(seen, candidate.loops))
      return false;
    seen.push_back(candidate.loops);
    double cost = getCost(candidate);
    LLVM_DEBUG(llvm::dbgs() << "  candidate " << candidate << " costs "
                            << llvm::format("%g", cost) << " bytes\n");
    if (!best || cost < bestCost) {
      best = std::move(candidate);
      bestCost = cost;
    }
    return bestCost == 0;
  };
  bool done = false;
  SmallVector<Source> order;
  for (size_t first = 0; first < sources.size() && !done; ++first) {
    order.assign({sources[first]});
    for (size_t i = 0; i < sources.size(); ++i)
      if (i != first)
        order.push_back(sources[i]);
    for (bool resultLoopsFirst : {false, true})
      if (!done)
        done = consider(greedy(order, resultLoopsFirst));
  }
  if (!done) {
    LoopSharding unsplit;
    unsplit.loops.resize(rule.loops.size());
    unsplit.passThrough = passThrough;
    consider(std::move(unsplit));
  }
  assert(best && "the unsplit candidate is always considered");
  return std::move(*best);
}

FailureOr<Layout> Propagator::resolve(Operation *at, ShardingAttr sharding,
                                      Type type, StringRef what) {
  FailureOr<Layout> layout = getLayout(
      sharding, mesh, [&] { return at->emitError() << what << ": "; });
  if (failed(layout))
    return failure();
  auto tensor = cast<RankedTensorType>(type);
  if (layout->getRank() != tensor.getRank())
    return at->emitError() << what << ": sharding has " << layout->getRank()
                           << " dimensions but the tensor has rank "
                           << tensor.getRank();
  if (!layout->getLocalShape(tensor.getShape(), mesh))
    return at->emitError() << what << ": sharding " << sharding
                           << " does not divide " << tensor;
  return layout;
}

LogicalResult Propagator::seed() {
  Block &body = func.getBody().front();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = body.getArgument(i);
    if (auto sharding = func.getArgAttrOfType<ShardingAttr>(
            i, DistDialect::kShardingAttrName)) {
      FailureOr<Layout> layout = resolve(func, sharding, arg.getType(),
                                         "argument " + std::to_string(i));
      if (failed(layout))
        return failure();
      layouts[arg] = pool.intern(*layout);
    }
  }
  for (Operation &op : body.without_terminator()) {
    opIndex[&op] = ops.size();
    ops.push_back(&op);
    decided.push_back(false);
    for (Type type :
         llvm::concat<Type>(op.getOperandTypes(), op.getResultTypes()))
      if (getPlacement(type))
        return op.emitOpError("is already placed: sharding works on the "
                              "unplaced program");
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
      FailureOr<Layout> layout = resolve(&op, constraint.getSharding(),
                                         constraint.getType(), "constraint");
      if (failed(layout))
        return failure();
      layouts[constraint.getResult()] = pool.intern(*layout);
      hints.try_emplace(constraint.getInput(), pool.intern(*layout));
      decided.back() = true;
      continue;
    }
    if (isa<func::CallOp>(op))
      return op.emitOpError(
          "calls are not supported by sharding: inline first");
    if (!isa<ShardingRuleOpInterface>(op))
      return op.emitOpError("has no sharding rule");
    SmallVector<Attribute> annotated;
    if (auto single =
            op.getAttrOfType<ShardingAttr>(DistDialect::kShardingAttrName))
      annotated.push_back(single);
    else if (auto array = op.getAttrOfType<ArrayAttr>(kShardingsAttrName))
      annotated.assign(array.begin(), array.end());
    if (annotated.empty())
      continue;
    if (annotated.size() != op.getNumResults())
      return op.emitOpError("has ")
             << annotated.size() << " result shardings for "
             << op.getNumResults() << " results";
    SmallVector<Layout> results;
    for (auto [r, attr] : llvm::enumerate(annotated)) {
      auto sharding = dyn_cast<ShardingAttr>(attr);
      if (!sharding)
        return op.emitOpError("result shardings must be #dist.sharding");
      FailureOr<Layout> layout = resolve(&op, sharding, op.getResultTypes()[r],
                                         "result " + std::to_string(r));
      if (failed(layout))
        return failure();
      results.push_back(*layout);
      hints[op.getResult(r)] = pool.intern(*layout);
    }
    annotatedResults[&op] = std::move(results);
  }
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto sharding = func.getResultAttrOfType<ShardingAttr>(
        i, DistDialect::kShardingAttrName);
    if (!sharding)
      continue;
    FailureOr<Layout> layout =
        resolve(func, sharding, value.getType(), "result " + std::to_string(i));
    if (failed(layout))
      return failure();
    hints.try_emplace(value, pool.intern(*layout));
  }
  return success();
}

/// Whether `loop` splits only through the op's expansion and runs over
/// results alone (the scatter into a table split along the vocabulary).
static bool isResultOnlyExpandingLoop(const ShardingRule &rule, int64_t loop) {
  auto runsOver = [&](const SmallVector<int64_t> &dims) {
    return llvm::is_contained(dims, loop);
  };
  return rule.loops[loop].expands && llvm::any_of(rule.resultDims, runsOver) &&
         llvm::none_of(rule.operandDims, runsOver);
}

static bool hasResultOnlyExpandingLoop(const ShardingRule &rule) {
  return llvm::any_of(
      llvm::seq<int64_t>(0, rule.loops.size()),
      [&](int64_t loop) { return isResultOnlyExpandingLoop(rule, loop); });
}

/// Whether a wished result layout splits such a loop.
static bool wishesExpansion(const ShardingRule &rule,
                            ArrayRef<const Layout *> resultHints) {
  for (auto [r, hint] : llvm::enumerate(resultHints)) {
    if (!hint)
      continue;
    for (auto [dim, loop] : llvm::enumerate(rule.resultDims[r]))
      if (loop != ShardingRule::kNoLoop && !hint->dims[dim].empty() &&
          isResultOnlyExpandingLoop(rule, loop))
        return true;
  }
  return false;
}

FailureOr<bool> Propagator::tryDecide(Operation *op, bool force) {
  FailureOr<ShardingRule> ruleOr = getShardingRule(op);
  if (failed(ruleOr))
    return failure();
  const ShardingRule &rule = *ruleOr;
  auto annotated = annotatedResults.find(op);
  bool hasAnnotation = annotated != annotatedResults.end();

  // What is known: operand layouts, then wished result layouts.
  SmallVector<Source> sources;
  SmallVector<const Layout *> operandLayouts, resultHints;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    operandLayouts.push_back(findLayout(operand));
    if (operandLayouts.back())
      sources.push_back({rule.operandDims[i], operandLayouts.back()});
  }
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    resultHints.push_back(hasAnnotation ? &annotated->second[r]
                                        : findHint(result));
    if (resultHints.back())
      sources.push_back({rule.resultDims[r], resultHints.back()});
  }
  // A loop that only results run over and only the op's expansion splits
  // (the scatter into a table split along the vocabulary) takes its split
  // from the consumers alone: wait for their wish. A wish that does not
  // split it is ignored, so that the op decides from its operands as it
  // would without the loop (a scatter of batch-split gradients leaves a
  // partial sum rather than gathering them).
  if (!hasAnnotation && hasResultOnlyExpandingLoop(rule)) {
    bool wished = llvm::any_of(
        resultHints, [](const Layout *hint) { return hint != nullptr; });
    if (!force && !wished)
      return false;
    if (!wishesExpansion(rule, resultHints)) {
      sources.resize(sources.size() -
                     llvm::count_if(resultHints, [](const Layout *hint) {
                       return hint != nullptr;
                     }));
      resultHints.assign(resultHints.size(), nullptr);
    }
  }
  if (!force && sources.empty())
    return false;

  LLVM_DEBUG(llvm::dbgs() << "deciding " << op->getName() << " at "
                          << op->getLoc() << (force ? " (forced)" : "")
                          << " from " << sources.size() << " known values\n");
  // Results the user fixed leave one choice, the one partitioning makes.
  LoopSharding chosen;
  if (hasAnnotation) {
    FailureOr<LoopSharding> fromAnnotation =
        deriveLoopSharding(op, rule, operandLayouts, annotated->second, mesh);
    if (failed(fromAnnotation))
      return failure();
    chosen = std::move(*fromAnnotation);
  } else {
    // Sequence parallelism moves activations, never weights or their
    // gradients: Megatron-LM gathers the sequence-split input of a
    // column-parallel matmul (and of its weight gradient) even where the
    // weight has fewer bytes.
    SmallVector<double> weights;
    if (sequenceAxis)
      for (Value value :
           llvm::concat<Value>(op->getOperands(), op->getResults()))
        weights.push_back(batchDims.count(value) ? 1.0 : 1024.0);
    chosen = LoopShardingChooser(op, rule, mesh, operandLayouts, resultHints,
                                 weights, sequenceAxis)
                 .choose(sources);
  }
  if (!hasAnnotation && failed(splitSequence(op, rule, chosen)))
    return failure();
  LLVM_DEBUG(llvm::dbgs() << "  chose " << chosen
                          << (hasAnnotation ? " (annotated results)" : "")
                          << "\n");
  recordDecision(op, rule, chosen, operandLayouts);
  return true;
}

void Propagator::recordDecision(Operation *op, const ShardingRule &rule,
                                const LoopSharding &chosen,
                                ArrayRef<const Layout *> operandLayouts) {
  assert(!decided[opIndex[op]] && "an op is decided once");
  for (auto [r, result] : llvm::enumerate(op->getResults()))
    layouts[result] = pool.intern(chosen.getResultLayout(rule, r));
  // Operands nobody laid out yet: arguments take what the op needs, op
  // results are asked for it.
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (operandLayouts[i])
      continue;
    unsigned needed = pool.intern(chosen.getOperandLayout(rule, i));
    if (isa<BlockArgument>(operand))
      layouts[operand] = needed;
    else
      hints.try_emplace(operand, needed);
  }
  decided[opIndex[op]] = true;
}

void Propagator::findBatchDims() {
  Block &body = func.getBody().front();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(body.getArgument(i).getType());
    if (getArgRole(func, i) == Role::Data && type && type.getRank() > 0)
      batchDims[body.getArgument(i)] = 1;
  }
  for (Operation *op : ops) {
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
      auto it = batchDims.find(constraint.getInput());
      if (it != batchDims.end())
        batchDims[constraint.getResult()] = it->second;
      continue;
    }
    FailureOr<ShardingRule> rule = getShardingRule(op);
    if (failed(rule))
      continue;
    SmallVector<bool> batchLoops(rule->loops.size(), false);
    bool any = false;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      auto it = batchDims.find(operand);
      if (it == batchDims.end())
        continue;
      for (auto [dim, loop] : llvm::enumerate(rule->operandDims[i]))
        if (loop != kNone && dim < 64 && (it->second >> dim & 1)) {
          batchLoops[loop] = true;
          any = true;
        }
    }
    if (!any)
      continue;
    for (auto [r, result] : llvm::enumerate(op->getResults())) {
      uint64_t bits = 0;
      for (auto [dim, loop] : llvm::enumerate(rule->resultDims[r]))
        if (loop != kNone && dim < 64 && batchLoops[loop])
          bits |= uint64_t(1) << dim;
      if (bits)
        batchDims[result] = bits;
    }
  }
}

LogicalResult Propagator::splitSequence(Operation *op, const ShardingRule &rule,
                                        LoopSharding &chosen) {
  if (!sequenceAxis || op->getNumResults() == 0 ||
      getPhase(op) == Phase::Optimizer || !batchDims.count(op->getResult(0)))
    return success();
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() < 2 || !isa<FloatType>(type.getElementType()))
    return success();
  // Whatever already uses the axis (a split, a pending sum) is tensor
  // parallelism's, and stays.
  int64_t axis = *sequenceAxis;
  if (llvm::is_contained(chosen.passThrough, axis) ||
      llvm::any_of(chosen.loops, [&](const SmallVector<int64_t, 2> &axes) {
        return llvm::is_contained(axes, axis);
      }))
    return success();
  int64_t dim = type.getRank() - 2;
  int64_t loop = rule.resultDims[0][dim];
  if (loop == kNone || !rule.loops[loop].splittable)
    return success();
  // An operand split over the axis elsewhere (a [batch, sequence] split
  // flattened to [batch * sequence], whose blocks are not the sequence's) is
  // gathered rather than moved.
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    const Layout *layout = findLayout(operand);
    if (!layout)
      continue;
    for (auto [operandDim, axes] : llvm::enumerate(layout->dims))
      if (llvm::is_contained(axes, axis) &&
          rule.operandDims[i][operandDim] != loop)
        return success();
  }
  SmallVector<int64_t, 2> axes(chosen.loops[loop]);
  axes.push_back(axis);
  std::string problem = checkLoopSplit(op, rule, loop, axes, mesh);
  if (!problem.empty())
    return op->emitOpError("sequence-parallel=true: ")
           << mesh.getAxes()[axis] << "=" << mesh.getAxisSize(axis)
           << " cannot split the sequence: " << problem;
  chosen.loops[loop] = std::move(axes);
  return success();
}

LogicalResult Propagator::run() {
  if (func.getBody().getBlocks().size() != 1)
    return func.emitOpError("sharding needs a function with one block");
  if (auto axisName =
          func->getAttrOfType<StringAttr>(kSequenceParallelAttrName)) {
    sequenceAxis = mesh.getAxisIndex(axisName.getValue());
    if (!sequenceAxis)
      return func.emitOpError("sequence-parallel=true: mesh @")
             << meshOp.getSymName() << " has no axis \"" << axisName.getValue()
             << "\"";
  }
  if (failed(seed()))
    return failure();
  if (sequenceAxis)
    findBatchDims();
  Block &body = func.getBody().front();
  while (true) {
    bool progress = false;
    for (bool forward : {true, false}) {
      for (size_t k = 0; k < ops.size(); ++k) {
        size_t i = forward ? k : ops.size() - 1 - k;
        if (decided[i])
          continue;
        FailureOr<bool> done = tryDecide(ops[i], /*force=*/false);
        if (failed(done))
          return failure();
        progress |= *done;
      }
    }
    if (progress)
      continue;
    auto undecided = llvm::find(decided, false);
    if (undecided == decided.end())
      break;
    // Stalled: arguments nobody constrains are replicated, then, if that is
    // not enough, the first undecided op replicates its loops.
    LLVM_DEBUG(llvm::dbgs() << "stalled with " << llvm::count(decided, false)
                            << " undecided ops\n");
    bool defaulted = false;
    for (BlockArgument arg : body.getArguments())
      if (!layouts.count(arg)) {
        const Layout *hint = findHint(arg);
        Layout layout =
            hint ? *hint
                 : Layout::replicated(
                       cast<RankedTensorType>(arg.getType()).getRank());
        layout.partial.clear();
        layouts[arg] = pool.intern(layout);
        defaulted = true;
      }
    if (defaulted)
      continue;
    if (failed(tryDecide(ops[undecided - decided.begin()], /*force=*/true)))
      return failure();
  }
  for (BlockArgument arg : body.getArguments())
    if (!layouts.count(arg))
      layouts[arg] = pool.intern(
          Layout::replicated(cast<RankedTensorType>(arg.getType()).getRank()));
  return writeBack();
}

LogicalResult Propagator::writeBack() {
  MLIRContext *ctx = func.getContext();
  StringRef meshName = meshOp.getSymName();
  // Few distinct layouts serve many values: build each attribute once.
  SmallVector<ShardingAttr> attrs;
  auto attrOf = [&](unsigned id) {
    if (attrs.size() <= id)
      attrs.resize(id + 1);
    if (!attrs[id])
      attrs[id] = getShardingAttr(ctx, meshName, mesh, pool[id]);
    return attrs[id];
  };
  auto shardingName = StringAttr::get(ctx, DistDialect::kShardingAttrName);
  auto shardingsName = StringAttr::get(ctx, kShardingsAttrName);
  Block &body = func.getBody().front();
  SmallVector<ShardingAttr> argShardings, resultShardings;
  for (BlockArgument arg : body.getArguments())
    argShardings.push_back(attrOf(layouts[arg]));
  for (Operation *op : ops) {
    if (isa<ShardingConstraintOp>(op))
      continue;
    if (op->getNumResults() == 1) {
      op->setAttr(shardingName, attrOf(layouts[op->getResult(0)]));
      continue;
    }
    SmallVector<Attribute> shardings;
    for (Value result : op->getResults())
      shardings.push_back(attrOf(layouts[result]));
    op->setAttr(shardingsName, ArrayAttr::get(ctx, shardings));
  }
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    resultShardings.emplace_back();
    if (func.getResultAttr(i, DistDialect::kShardingAttrName))
      continue;
    // Outputs nobody annotated are reduced at the return: a pending sum is
    // rarely what a caller expects.
    Layout layout = pool[layouts[value]];
    layout.partial.clear();
    resultShardings.back() = attrOf(pool.intern(layout));
  }
  setSignatureShardings(func, argShardings, resultShardings);
  func->setAttr(DistDialect::kMeshAttrName, FlatSymbolRefAttr::get(meshOp));
  return success();
}

LogicalResult mlir::dist::propagateShardings(func::FuncOp func) {
  FailureOr<MeshOp> mesh = getFunctionMesh(func);
  if (failed(mesh))
    return failure();
  return *mesh ? Propagator(func, *mesh).run() : success();
}

namespace {
struct PropagateShardingPass
    : public mlir::dist::impl::DistPropagateShardingBase<
          PropagateShardingPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(propagateShardings(func)))
        return signalPassFailure();
  }
};
} // namespace
