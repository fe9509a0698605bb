//===- StructuralTensorParallel.cpp - Megatron pairs found by structure ---===//
//
// Without parameter names that Megatron's layouts know (a model imported
// from ONNX), tensor parallelism finds Megatron-LM's column / row pairs from
// the forward graph. A group starts at a matmul whose weight is a parameter
// (column-parallel: its output columns split) and follows the split columns
// as a loop of their own through the ops that keep them one (bias adds,
// activations, the reshape into heads, the per-head attention matmuls, the
// softmax over keys) to the matmuls with a parameter weight that contract
// them (row-parallel: their input rows split, their results partial sums).
// The score matmul of attention needs q and k split alike, so the q, k and v
// projections that feed a group join it. A group that reaches anything else
// (a layer norm or a residual add over the split dim, the returned output, a
// dim the axis does not divide) stays replicated. Operands that do not depend
// on the data (a relative position bias) are sliced where they are used.
// The result is a layout map by parameter name, so a user's layout map stays
// the override.
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/LoopSharding.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Regex.h"

#include <map>

using namespace mlir;
using namespace mlir::dist;

namespace {

/// The parameters one group splits and the dim each splits along.
using ParamSplits = SmallVector<std::pair<BlockArgument, int64_t>>;

class PairFinder {
public:
  PairFinder(func::FuncOp func, int64_t size) : func(func), size(size) {}

  /// Every group found, as the dim each parameter splits along.
  std::map<unsigned, int64_t> find();

private:
  bool isParameter(Value value) const {
    auto arg = dyn_cast<BlockArgument>(value);
    return arg && arg.getOwner()->isEntryBlock() &&
           getArgRole(func, arg.getArgNumber()) == Role::Parameter;
  }
  static bool isForward(Operation *op) {
    return pipeline::getPhaseOrForward(op) == Phase::Forward;
  }
  /// The forward ops that use `value`.
  static SmallVector<OpOperand *> forwardUses(Value value);
  /// Whether `matmul` can start a group: a parameter weight of rank 2 that
  /// only it reads, whose columns the axis divides.
  bool isColumnCandidate(MatmulOp matmul) const;
  /// The column candidate `value` is computed from through ops of one
  /// non-parameter operand (bias adds, activations, reshapes, transposes).
  MatmulOp traceToColumn(Value value) const;
  bool dependsOnData(Value value);
  /// Follows the split columns of `seeds`; collects the parameters to split
  /// and the column candidates the group needs besides. False when the
  /// split reaches an op that cannot keep it.
  bool walk(ArrayRef<MatmulOp> seeds, SmallVectorImpl<MatmulOp> &needed,
            ParamSplits &params);
  bool visitUse(OpOperand &use, int64_t dim, DenseMap<Value, int64_t> &split,
                SmallVectorImpl<Value> &worklist,
                SmallVectorImpl<std::pair<Value, int64_t>> &pending,
                ParamSplits &params);

  func::FuncOp func;
  int64_t size;
  DenseMap<Value, bool> dataDependence;
  DenseSet<Operation *> assigned;
};

} // namespace

SmallVector<OpOperand *> PairFinder::forwardUses(Value value) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : value.getUses())
    if (isForward(use.getOwner()))
      uses.push_back(&use);
  return uses;
}

bool PairFinder::isColumnCandidate(MatmulOp matmul) const {
  Value weight = matmul.getRhs();
  auto type = dyn_cast<RankedTensorType>(weight.getType());
  if (!isForward(matmul) || !isParameter(weight) || !type ||
      type.getRank() != 2 || isParameter(matmul.getLhs()) ||
      forwardUses(weight).size() != 1)
    return false;
  int64_t columns = type.getDimSize(matmul.getTransposeB() ? 0 : 1);
  return columns > 0 && columns % size == 0;
}

MatmulOp PairFinder::traceToColumn(Value value) const {
  for (int step = 0; step < 8; ++step) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return {};
    if (auto matmul = dyn_cast<MatmulOp>(def))
      return isColumnCandidate(matmul) ? matmul : MatmulOp();
    Value next;
    for (Value operand : def->getOperands()) {
      if (isParameter(operand) || operand.getDefiningOp<ConstantOp>())
        continue;
      if (next)
        return {};
      next = operand;
    }
    if (!next || def->getNumResults() != 1)
      return {};
    value = next;
  }
  return {};
}

bool PairFinder::dependsOnData(Value value) {
  auto known = dataDependence.find(value);
  if (known != dataDependence.end())
    return known->second;
  bool depends = false;
  if (auto arg = dyn_cast<BlockArgument>(value))
    depends = getArgRole(func, arg.getArgNumber()) == Role::Data;
  else
    depends =
        llvm::any_of(value.getDefiningOp()->getOperands(),
                     [&](Value operand) { return dependsOnData(operand); });
  dataDependence[value] = depends;
  return depends;
}

bool PairFinder::walk(ArrayRef<MatmulOp> seeds,
                      SmallVectorImpl<MatmulOp> &needed, ParamSplits &params) {
  DenseMap<Value, int64_t> split;
  SmallVector<Value> worklist;
  for (MatmulOp seed : seeds) {
    params.push_back(
        {cast<BlockArgument>(seed.getRhs()), seed.getTransposeB() ? 0 : 1});
    split[seed.getResult()] = seed.getType().getRank() - 1;
    worklist.push_back(seed.getResult());
  }
  SmallVector<std::pair<Value, int64_t>> pending;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    int64_t dim = split.lookup(value);
    for (OpOperand *use : forwardUses(value))
      if (!visitUse(*use, dim, split, worklist, pending, params))
        return false;
  }
  // An operand split alike that the seeds do not reach comes from another
  // projection (k for q): the group needs it as a seed.
  for (auto [value, dim] : pending) {
    auto known = split.find(value);
    if (known != split.end()) {
      if (known->second != dim)
        return false;
      continue;
    }
    MatmulOp column = traceToColumn(value);
    if (!column || llvm::is_contained(seeds, column))
      return false;
    if (!llvm::is_contained(needed, column))
      needed.push_back(column);
  }
  return true;
}

bool PairFinder::visitUse(OpOperand &use, int64_t dim,
                          DenseMap<Value, int64_t> &split,
                          SmallVectorImpl<Value> &worklist,
                          SmallVectorImpl<std::pair<Value, int64_t>> &pending,
                          ParamSplits &params) {
  Operation *op = use.getOwner();
  unsigned index = use.getOperandNumber();
  if (!isa<ShardingRuleOpInterface>(op))
    return false; // The returned output, a region op.
  FailureOr<ShardingRule> rule = getShardingRule(op);
  if (failed(rule))
    return false;
  int64_t loop = rule->operandDims[index][dim];
  if (loop == ShardingRule::kNoLoop)
    return false;
  bool inResult =
      llvm::any_of(llvm::seq<unsigned>(0, op->getNumResults()),
                   [&](unsigned r) { return rule->isInResult(loop, r); });
  if (!inResult) {
    // The contraction of a row-parallel matmul ends the group.
    auto matmul = dyn_cast<MatmulOp>(op);
    if (!matmul || index != 0 || !isParameter(matmul.getRhs()) ||
        forwardUses(matmul.getRhs()).size() != 1 ||
        cast<RankedTensorType>(matmul.getRhs().getType()).getRank() != 2)
      return false;
    params.push_back(
        {cast<BlockArgument>(matmul.getRhs()), matmul.getTransposeB() ? 1 : 0});
    assigned.insert(matmul);
    return true;
  }
  if (!rule->loops[loop].splittable || rule->loops[loop].expands)
    return false;
  for (OpOperand &other : op->getOpOperands()) {
    if (other.getOperandNumber() == index)
      continue;
    for (auto [d, l] :
         llvm::enumerate(rule->operandDims[other.getOperandNumber()])) {
      if (l != loop)
        continue;
      Value operand = other.get();
      auto known = split.find(operand);
      if (known != split.end()) {
        if (known->second != (int64_t)d)
          return false;
        continue;
      }
      if (isParameter(operand)) {
        // A parameter read elsewhere too (torch deduplicates equal biases)
        // stays replicated and is sliced here.
        if (forwardUses(operand).size() == 1)
          params.push_back({cast<BlockArgument>(operand), (int64_t)d});
        continue;
      }
      // Data-independent operands are sliced here; the others must be
      // split alike by the time the walk ends (x * x^2 in a GELU).
      if (dependsOnData(operand))
        pending.push_back({operand, (int64_t)d});
    }
  }
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    for (auto [d, l] : llvm::enumerate(rule->resultDims[r])) {
      if (l != loop)
        continue;
      int64_t extent = cast<RankedTensorType>(result.getType()).getDimSize(d);
      if (extent <= 0 || extent % size != 0)
        return false;
      auto [it, inserted] = split.try_emplace(result, (int64_t)d);
      if (inserted)
        worklist.push_back(result);
      else if (it->second != (int64_t)d)
        return false;
    }
  }
  return true;
}

std::map<unsigned, int64_t> PairFinder::find() {
  std::map<unsigned, int64_t> found;
  SmallVector<MatmulOp> candidates;
  func.walk([&](MatmulOp matmul) {
    if (isColumnCandidate(matmul))
      candidates.push_back(matmul);
  });
  for (MatmulOp candidate : candidates) {
    if (assigned.contains(candidate))
      continue;
    SmallVector<MatmulOp> seeds{candidate};
    DenseSet<Operation *> before = assigned;
    // Each round adds the projections the group needs (k and v for q).
    for (int round = 0; round < 8; ++round) {
      SmallVector<MatmulOp> needed;
      ParamSplits params;
      if (!walk(seeds, needed, params)) {
        assigned = before;
        break;
      }
      if (!needed.empty()) {
        if (llvm::any_of(needed,
                         [&](MatmulOp m) { return assigned.contains(m); })) {
          assigned = before;
          break;
        }
        llvm::append_range(seeds, needed);
        continue;
      }
      // A parameter split two ways by two groups leaves the later one out.
      bool conflict = llvm::any_of(params, [&](auto entry) {
        auto it = found.find(entry.first.getArgNumber());
        return it != found.end() && it->second != entry.second;
      });
      if (conflict) {
        assigned = before;
        break;
      }
      for (auto [param, dim] : params)
        found[param.getArgNumber()] = dim;
      for (MatmulOp seed : seeds)
        assigned.insert(seed);
      break;
    }
  }
  return found;
}

LayoutMap mlir::dist::findMegatronPairs(func::FuncOp func, StringRef axis,
                                        int64_t size) {
  std::map<unsigned, int64_t> found = PairFinder(func, size).find();
  LayoutMap map;
  for (auto [argNumber, dim] : found) {
    auto name = func.getArgAttrOfType<StringAttr>(argNumber,
                                                  DistDialect::kNameAttrName);
    if (!name)
      continue;
    auto type = cast<RankedTensorType>(func.getArgument(argNumber).getType());
    SmallVector<SmallVector<std::string, 1>> dims(type.getRank());
    dims[dim] = {axis.str()};
    // The parameter and what follows it by name (its optimizer states).
    map.addEntry("^" + llvm::Regex::escape(name.getValue()) + "(\\.|$)",
                 std::move(dims));
  }
  return map;
}
