//===- StageAssignment.cpp - cut a training step into pipeline stages -----===//
//
// Contiguous ranges of layers (`dist.layer` hints, else the forward ops in
// order), one per stage or, interleaved, per chunk (virtual stage), balanced
// by a cost per op (the time per microbatch measured in
// StageAssignmentCosts.cpp, else FLOPs); ops without a hint follow their
// data; constants are copied to every stage that uses them.
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

#include "distir/Dialect/Dist/Transforms/Pipeline.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#include <map>

#define DEBUG_TYPE "dist-pipeline-stages"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::pipeline;

std::optional<int64_t> mlir::dist::getPipelineStage(Operation *op) {
  if (auto stage = op->getAttrOfType<IntegerAttr>(kStageAttrName))
    return stage.getInt();
  return std::nullopt;
}

namespace {

/// Groups `costs` (in order) into exactly `parts` contiguous non-empty groups
/// whose largest total is minimal; returns each item's group. Needs
/// costs.size() >= parts.
SmallVector<int64_t> partitionBalanced(ArrayRef<double> costs, int64_t parts) {
  assert(parts >= 1 && (int64_t)costs.size() >= parts &&
         "at least one item per group");
  auto countGroups = [&](double limit) {
    int64_t groups = 1;
    double sum = 0;
    bool open = false;
    for (double cost : costs) {
      if (open && sum + cost > limit) {
        ++groups;
        sum = 0;
      }
      sum += cost;
      open = true;
    }
    return groups;
  };
  double lo = 0, hi = 0;
  for (double cost : costs) {
    lo = std::max(lo, cost);
    hi += cost;
  }
  // The bottleneck of the best split lies in [max item, total].
  for (int iter = 0; iter < 100 && hi - lo > 1e-9 * std::max(1.0, hi); ++iter) {
    double mid = lo + (hi - lo) / 2;
    if (countGroups(mid) <= parts)
      hi = mid;
    else
      lo = mid;
  }
  // Greedy fill under the bottleneck; cut early when each remaining item
  // must open a group of its own.
  SmallVector<int64_t> group(costs.size());
  int64_t current = 0;
  double sum = 0;
  int64_t n = costs.size();
  for (int64_t i = 0; i < n; ++i) {
    bool nonEmpty = i > 0 && group[i - 1] == current;
    int64_t groupsAfter = parts - 1 - current;
    bool mustCut = nonEmpty && n - i == groupsAfter;
    bool overfull = nonEmpty && groupsAfter > 0 && sum + costs[i] > hi;
    if (mustCut || overfull) {
      ++current;
      sum = 0;
    }
    group[i] = current;
    sum += costs[i];
  }
  return group;
}

class StageAssigner {
public:
  /// Cuts `numStages` x `interleave` chunks (virtual stages), the first and
  /// last of `ends` layers when given.
  StageAssigner(func::FuncOp func, int64_t numStages, int64_t interleave,
                function_ref<double(Operation *)> opCost, StageCutEnds ends)
      : func(func), numStages(numStages * interleave), interleave(interleave),
        opCost(opCost), ends(ends) {}
  LogicalResult run();
  /// The stage of each layer index (-1: no op has it), without marking
  /// anything; empty without hints.
  FailureOr<std::vector<int64_t>> cutLayers();

private:
  /// Collects the ops, rejecting what the pipeline cannot schedule.
  LogicalResult collectOps();
  /// The cut: contiguous ranges of layers (or, without hints, of forward
  /// ops) balanced by cost.
  LogicalResult cutIntoStages();
  /// Forward ops: hints, else the latest stage of their inputs; ops fed only
  /// by arguments and constants wait for their users.
  void assignForwardOps();
  /// Backward and optimizer ops: hints, else the latest stage where all
  /// their forward inputs are available (the stage of the forward op they
  /// differentiate), else the earliest stage of their gradient inputs.
  void assignBackwardOps();
  /// Ops still without a stage: their users', else their inputs', else 0.
  void assignRemainingOps();
  void duplicateConstants();

  std::optional<unsigned> producerIndex(Value value) const {
    if (Operation *def = value.getDefiningOp())
      return indexOf.lookup(def);
    return std::nullopt;
  }
  bool isConstant(unsigned index) const {
    return ops[index]->getNumOperands() == 0;
  }
  /// The stage of the op producing `value`, or -1.
  int64_t stageOfValue(Value value) const {
    if (std::optional<unsigned> producer = producerIndex(value))
      return stageOf[*producer];
    return -1;
  }
  bool isForwardProducer(Value value) const {
    std::optional<unsigned> producer = producerIndex(value);
    return producer && !isConstant(*producer) &&
           getPhaseOrForward(ops[*producer]) == Phase::Forward;
  }
  /// The earliest stage of the users of op `index` that have one, or -1.
  int64_t stageFromUsers(unsigned index) const;
  /// Where forward value `value` is available: the stages of its forward
  /// users (after a send). A parameter is available where the forward uses
  /// it.
  void getForwardUseStages(Value value, SmallVectorImpl<int64_t> &stages) const;

  /// What the cut balances for one op.
  double costOf(Operation *op) const {
    // A nanosecond per op keeps stages of ops the timer calls free (views)
    // from looking empty, as the one FLOP per op does for FLOPs.
    return opCost ? opCost(op) + 1e-9 : getOpCost(op);
  }

  /// The group of each layer (`costs` in layer order): the first
  /// `ends.first` layers in chunk 0, the last `ends.last` in the last chunk,
  /// the others balanced over the chunks in between.
  FailureOr<SmallVector<int64_t>> cutWithFixedEnds(ArrayRef<double> costs);

  /// What an error calls the number of chunks: "pp = 4" or "pp x
  /// interleave = 2 x 2 = 4".
  std::string describeChunks() const {
    if (interleave == 1)
      return "pp = " + std::to_string(numStages);
    return "pp x interleave = " + std::to_string(numStages / interleave) +
           " x " + std::to_string(interleave) + " = " +
           std::to_string(numStages);
  }

  func::FuncOp func;
  /// The chunks (virtual stages) the cut makes: pp x interleave.
  int64_t numStages;
  int64_t interleave;
  function_ref<double(Operation *)> opCost;
  StageCutEnds ends;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> indexOf;
  SmallVector<int64_t> stageOf;
  /// The stage of each `dist.layer` hint, when the program has hints.
  DenseMap<int64_t, int64_t> layerStage;
  bool hinted = false;
};

} // namespace

LogicalResult StageAssigner::run() {
  if (failed(collectOps()) || failed(cutIntoStages()))
    return failure();
  assignForwardOps();
  assignBackwardOps();
  assignRemainingOps();
  OpBuilder builder(func.getContext());
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (isConstant(index))
      continue;
    assert(stageOf[index] >= 0 && stageOf[index] < numStages &&
           "every op that is not a constant has a stage");
    op->setAttr(kStageAttrName, builder.getI64IntegerAttr(stageOf[index]));
  }
  duplicateConstants();
  return success();
}

FailureOr<std::vector<int64_t>> StageAssigner::cutLayers() {
  if (failed(collectOps()) || failed(cutIntoStages()))
    return failure();
  std::vector<int64_t> stageOfLayer;
  for (auto [layer, stage] : layerStage) {
    if (layer < 0)
      continue;
    if ((int64_t)stageOfLayer.size() <= layer)
      stageOfLayer.resize(layer + 1, -1);
    stageOfLayer[layer] = stage;
  }
  return stageOfLayer;
}

LogicalResult mlir::dist::pipeline::checkUnplacedStep(func::FuncOp func,
                                                      int64_t numStages) {
  if (failed(checkPipelineFunction(func, numStages)))
    return failure();
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments())
    if (getPlacement(arg.getType()))
      return mlir::emitError(func.getLoc())
             << "dist-pipeline expects an unplaced program, but argument "
             << arg.getArgNumber() << " is placed";
  for (Operation &op : body.without_terminator()) {
    if (!isa<CostOpInterface>(op) || op.getNumRegions() != 0 ||
        isCommunication(&op))
      return opError(&op) << "is not a dist compute op; dist-pipeline "
                             "cannot schedule it";
    for (Type type : op.getResultTypes())
      if (getPlacement(type))
        return opError(&op)
               << "is placed; dist-pipeline expects an unplaced program";
  }
  return success();
}

LogicalResult StageAssigner::collectOps() {
  if (failed(checkUnplacedStep(func, numStages)))
    return failure();
  for (Operation &op : func.getBody().front().without_terminator()) {
    indexOf[&op] = ops.size();
    ops.push_back(&op);
  }
  stageOf.assign(ops.size(), -1);
  return success();
}

FailureOr<SmallVector<int64_t>>
StageAssigner::cutWithFixedEnds(ArrayRef<double> costs) {
  if (ends.first == 0 && ends.last == 0)
    return partitionBalanced(costs, numStages);
  int64_t numLayers = costs.size();
  int64_t fixed = (ends.first > 0) + (ends.last > 0);
  int64_t middleChunks = numStages - fixed;
  int64_t middleLayers = numLayers - ends.first - ends.last;
  if (ends.first < 0 || ends.last < 0 || middleChunks < 0 ||
      middleLayers < middleChunks || (middleChunks == 0 && middleLayers > 0))
    return mlir::emitError(func.getLoc())
           << "first-layers = " << ends.first
           << " and last-layers = " << ends.last << " leave " << middleLayers
           << " of the " << numLayers << " layers for the "
           << std::max<int64_t>(middleChunks, 0) << " other chunks of "
           << describeChunks();
  SmallVector<int64_t> groups(numLayers, numStages - 1);
  for (int64_t i = 0; i < ends.first; ++i)
    groups[i] = 0;
  if (middleChunks > 0) {
    SmallVector<int64_t> middle =
        partitionBalanced(costs.slice(ends.first, middleLayers), middleChunks);
    for (auto [i, group] : llvm::enumerate(middle))
      groups[ends.first + i] = group + (ends.first > 0);
  }
  return groups;
}

LogicalResult StageAssigner::cutIntoStages() {
  std::map<int64_t, double> layerCosts;
  for (Operation *op : ops)
    if (std::optional<int64_t> layer = getLayer(op))
      layerCosts[*layer] += costOf(op);
  hinted = !layerCosts.empty();
  if (hinted) {
    if ((int64_t)layerCosts.size() < numStages)
      return mlir::emitError(func.getLoc())
             << describeChunks() << " is larger than the number of layers ("
             << layerCosts.size() << ")";
    SmallVector<double> costs;
    for (auto &entry : layerCosts)
      costs.push_back(entry.second);
    FailureOr<SmallVector<int64_t>> groups = cutWithFixedEnds(costs);
    if (failed(groups))
      return failure();
    for (auto [i, entry] : llvm::enumerate(layerCosts)) {
      layerStage[entry.first] = (*groups)[i];
      LLVM_DEBUG(llvm::dbgs() << "layer " << entry.first << " (cost "
                              << llvm::format("%g", entry.second)
                              << ") -> stage " << (*groups)[i] << "\n");
    }
    return success();
  }
  if (ends.first > 0 || ends.last > 0)
    return mlir::emitError(func.getLoc())
           << "first-layers and last-layers need dist.layer hints";
  SmallVector<unsigned> forward;
  SmallVector<double> costs;
  for (auto [index, op] : llvm::enumerate(ops))
    if (!isConstant(index) && getPhaseOrForward(op) == Phase::Forward) {
      forward.push_back(index);
      costs.push_back(costOf(op));
    }
  if ((int64_t)forward.size() < numStages)
    return mlir::emitError(func.getLoc())
           << describeChunks() << " is larger than the number of "
           << "forward ops (" << forward.size()
           << ") of a program without dist.layer hints";
  SmallVector<int64_t> groups = partitionBalanced(costs, numStages);
  for (auto [i, index] : llvm::enumerate(forward)) {
    stageOf[index] = groups[i];
    LLVM_DEBUG(llvm::dbgs()
               << "forward op " << index << " (" << ops[index]->getName()
               << ", cost " << llvm::format("%g", costs[i]) << ") -> stage "
               << groups[i] << "\n");
  }
  return success();
}

int64_t StageAssigner::stageFromUsers(unsigned index) const {
  int64_t stage = -1;
  for (Operation *user : ops[index]->getUsers()) {
    auto it = indexOf.find(user);
    if (it == indexOf.end() || stageOf[it->second] < 0)
      continue;
    int64_t userStage = stageOf[it->second];
    stage = stage < 0 ? userStage : std::min(stage, userStage);
  }
  return stage;
}

void StageAssigner::getForwardUseStages(
    Value value, SmallVectorImpl<int64_t> &stages) const {
  for (Operation *user : value.getUsers()) {
    auto it = indexOf.find(user);
    if (it == indexOf.end() || getPhaseOrForward(user) != Phase::Forward ||
        stageOf[it->second] < 0)
      continue;
    stages.push_back(stageOf[it->second]);
  }
}

void StageAssigner::assignForwardOps() {
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (isConstant(index) || getPhaseOrForward(op) != Phase::Forward)
      continue;
    if (std::optional<int64_t> layer = getLayer(op)) {
      stageOf[index] = layerStage.lookup(*layer);
      continue;
    }
    if (!hinted)
      continue;
    for (Value operand : op->getOperands())
      if (isForwardProducer(operand))
        stageOf[index] = std::max(stageOf[index], stageOfValue(operand));
  }
  for (int64_t index = ops.size() - 1; index >= 0; --index)
    if (stageOf[index] < 0 && !isConstant(index) &&
        getPhaseOrForward(ops[index]) == Phase::Forward)
      stageOf[index] = stageFromUsers(index);
}

void StageAssigner::assignBackwardOps() {
  SmallVector<int64_t> available, candidates;
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (isConstant(index) || getPhaseOrForward(op) == Phase::Forward)
      continue;
    if (std::optional<int64_t> layer = getLayer(op)) {
      stageOf[index] = layerStage.lookup(*layer);
      continue;
    }
    bool anyAnchor = false;
    candidates.clear();
    int64_t fallback = -1, gradientStage = -1;
    for (Value operand : op->getOperands()) {
      available.clear();
      bool anchor = false;
      if (isa<BlockArgument>(operand)) {
        getForwardUseStages(operand, available);
        anchor = !available.empty();
      } else if (isForwardProducer(operand) && stageOfValue(operand) >= 0) {
        // Available at its producer's stage and where forward users are.
        available.push_back(stageOfValue(operand));
        getForwardUseStages(operand, available);
        anchor = true;
      } else if (stageOfValue(operand) >= 0) {
        int64_t stage = stageOfValue(operand);
        gradientStage =
            gradientStage < 0 ? stage : std::min(gradientStage, stage);
      }
      if (!anchor)
        continue;
      llvm::sort(available);
      available.erase(llvm::unique(available), available.end());
      fallback = std::max(fallback, available.back());
      if (!anyAnchor) {
        candidates.assign(available.begin(), available.end());
      } else {
        SmallVector<int64_t> both;
        std::set_intersection(candidates.begin(), candidates.end(),
                              available.begin(), available.end(),
                              std::back_inserter(both));
        candidates = std::move(both);
      }
      anyAnchor = true;
    }
    if (anyAnchor)
      stageOf[index] = candidates.empty() ? fallback : candidates.back();
    else
      stageOf[index] = gradientStage;
  }
}

void StageAssigner::assignRemainingOps() {
  for (int64_t index = ops.size() - 1; index >= 0; --index) {
    if (stageOf[index] >= 0 || isConstant(index))
      continue;
    int64_t stage = stageFromUsers(index);
    if (stage < 0)
      for (Value operand : ops[index]->getOperands())
        stage = std::max(stage, stageOfValue(operand));
    stageOf[index] = std::max<int64_t>(stage, 0);
  }
}

/// A constant lives on every stage that uses it (a copy is cheaper than a
/// send); one used by nothing but the return lives on stage 0.
void StageAssigner::duplicateConstants() {
  OpBuilder builder(func.getContext());
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (!isConstant(index))
      continue;
    std::map<int64_t, SmallVector<OpOperand *>> usesByStage;
    for (OpOperand &use : op->getUses()) {
      std::optional<int64_t> stage = getPipelineStage(use.getOwner());
      usesByStage[stage.value_or(0)].push_back(&use);
    }
    if (usesByStage.empty())
      usesByStage[0] = {};
    bool first = true;
    for (auto &[stage, uses] : usesByStage) {
      Operation *copy = op;
      if (!first) {
        builder.setInsertionPointAfter(op);
        copy = builder.clone(*op);
        for (OpOperand *use : uses)
          use->set(
              copy->getResult(cast<OpResult>(use->get()).getResultNumber()));
      }
      first = false;
      copy->setAttr(kStageAttrName, builder.getI64IntegerAttr(stage));
    }
  }
}

LogicalResult
mlir::dist::assignPipelineStages(func::FuncOp func, int64_t numStages,
                                 function_ref<double(Operation *)> opCost,
                                 int64_t interleave, StageCutEnds ends) {
  return StageAssigner(func, numStages, interleave, opCost, ends).run();
}

FailureOr<std::vector<int64_t>>
mlir::dist::cutPipelineLayers(func::FuncOp func, int64_t numStages,
                              function_ref<double(Operation *)> opCost,
                              int64_t interleave) {
  return StageAssigner(func, numStages, interleave, opCost, {}).cutLayers();
}
