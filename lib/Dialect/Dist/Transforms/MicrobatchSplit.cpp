//===- MicrobatchSplit.cpp - split pipeline stages into microbatches ------===//
//
// On the placed program: splitting the batch into microbatches is sharding
// the batch loop of every op over time instead of devices, so it rests on the
// partitioner's per-op facts (ShardingRule, localizeShapeAttributes;
// collectives get their rule here): a value either holds the microbatch's
// block of the batch (split) or sums over the microbatches to the unsplit
// value (partial: weight gradients, the loss). Ops that average over the
// batch (normalized loops) are scaled by 1/microbatches, so every microbatch
// value is exactly the block or the partial sum of the unsplit one and
// combining is a plain sum, whatever mix of means and sums the loss holds.
// Ops that are linear in partial sums and only feed the optimizer (the
// data-parallel all_reduce of a gradient, a send) sink below the
// accumulation: they run once per step. The block is then ordered by the
// schedule (mergePipelineUnits).
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

#include "distir/Dialect/Dist/IR/SequenceParallel.h"
#include "distir/Dialect/Dist/IR/ShardingRule.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#include <map>

#define DEBUG_TYPE "dist-pipeline-microbatches"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::pipeline;

namespace {

/// When an op runs in the pipelined step.
enum class OpClass : uint8_t {
  /// Independent of the data: once per step, before the microbatches.
  Prologue,
  /// Once per microbatch, in the stage's forward unit.
  Forward,
  /// Once per microbatch, in the stage's backward unit.
  Backward,
  /// Once per step after the microbatches (optimizer updates and whatever
  /// needs the values combined over all microbatches).
  Epilogue,
};

/// How a per-microbatch value relates to the value of the unsplit program.
struct MicrobatchState {
  /// The dimension holding the microbatch's block of the batch, or -1.
  int64_t batchDim = -1;
  /// The microbatch values sum to the unsplit value.
  bool partial = false;
  /// The batch dim was gathered over devices: the microbatch holds every
  /// device's block of it, side by side, not one block of the whole.
  bool interleaved = false;
  /// The batch dim's extent is outer x batch x inner (row-major) and the
  /// microbatch holds its block of the `batch` factor in each of the `outer`
  /// blocks: more than one after a reshape that merged the batch as a minor
  /// factor ([seq, batch, h] -> [seq * batch, h]), whose rows are then not
  /// a block of the whole.
  int64_t outer = 1;
  /// The extent of the batch factor.
  int64_t batch = 0;

  /// Whether the microbatch's part of the batch dim is one block of it.
  bool isBlock() const { return !interleaved && outer == 1; }
};

/// The state of a reshape's result from `in` to `out` whose operand is split
/// as `state`, when the batch factor stays one factor of one result dim:
/// the microbatch's part is then the reshape of its part.
std::optional<MicrobatchState> reshapeState(ArrayRef<int64_t> in,
                                            ArrayRef<int64_t> out,
                                            const MicrobatchState &state) {
  int64_t dim = state.batchDim;
  if (state.interleaved || state.batch <= 0 ||
      in[dim] % (state.outer * state.batch) != 0)
    return std::nullopt;
  // The element stride of the batch factor, the same before and after.
  int64_t stride = in[dim] / (state.outer * state.batch);
  for (int64_t d = dim + 1; d < (int64_t)in.size(); ++d)
    stride *= in[d];
  int64_t suffix = 1;
  for (int64_t d = (int64_t)out.size() - 1; d >= 0; suffix *= out[d--]) {
    if (suffix > stride || stride * state.batch > suffix * out[d])
      continue;
    if (stride % suffix != 0 || out[d] % (stride / suffix * state.batch) != 0)
      return std::nullopt;
    MicrobatchState result = state;
    result.batchDim = d;
    result.outer = out[d] / (stride / suffix * state.batch);
    return result;
  }
  return std::nullopt;
}

using UnitKind = PipelineUnitKind;
using Unit = PipelineUnit;

[[maybe_unused]] StringRef getOpClassName(OpClass opClass) {
  switch (opClass) {
  case OpClass::Prologue:
    return "prologue";
  case OpClass::Forward:
    return "forward";
  case OpClass::Backward:
    return "backward";
  case OpClass::Epilogue:
    return "epilogue";
  }
  llvm_unreachable("unknown op class");
}

/// The loop structure of a collective or a send for splitting the batch:
/// every dim runs over its own loop, except the dims a collective gathers or
/// scatters along (their blocks belong to other devices) which stay whole.
/// Sends, gathers and sum / average reductions are linear: sums over the
/// microbatches flow through them.
void getCommunicationRule(Operation *op, ShardingRule &rule) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<int64_t> loops = rule.addLoops(result.getRank());
  auto keepWhole = [&](int64_t dim) {
    rule.loops[loops[dim]].splittable = false;
  };
  bool linear = true;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AllGatherOp op) { keepWhole(op.getDim()); })
      .Case([&](ReduceScatterOp op) {
        keepWhole(op.getDim());
        linear = op.getReduction() == ReductionKind::sum ||
                 op.getReduction() == ReductionKind::avg;
      })
      .Case([&](AllToAllOp op) {
        keepWhole(op.getSplitDim());
        keepWhole(op.getConcatDim());
      })
      .Case([&](ScatterOp op) { keepWhole(op.getDim()); })
      .Case([&](GatherOp op) { keepWhole(op.getDim()); })
      .Case([&](AllReduceOp op) {
        linear = op.getReduction() == ReductionKind::sum ||
                 op.getReduction() == ReductionKind::avg;
      })
      .Case([&](ReduceOp op) {
        linear = op.getReduction() == ReductionKind::sum ||
                 op.getReduction() == ReductionKind::avg;
      });
  rule.addOperand(loops);
  rule.addResult(loops);
  if (linear) {
    rule.linearity = ShardingRule::Linearity::Joint;
    rule.linearOperands.push_back(0);
  }
}

/// The rule the microbatch split follows: the sharding rule of a compute op,
/// the one above for communication.
LogicalResult getMicrobatchRule(Operation *op, ShardingRule &rule) {
  if (isCommunication(op)) {
    getCommunicationRule(op, rule);
    return success();
  }
  if (failed(cast<ShardingRuleOpInterface>(op).getShardingRule(rule)))
    return failure();
  if (rule.operandDims.size() != op->getNumOperands() ||
      rule.resultDims.size() != op->getNumResults())
    return opError(op) << "has a sharding rule that does not describe every "
                          "operand and result";
  return success();
}

} // namespace

namespace {

class PipelineSplitter {
public:
  PipelineSplitter(func::FuncOp func, const PipelineOptions &options)
      : func(func), options(options),
        numStages(options.numStages * options.interleave),
        numMicrobatches(options.numMicrobatches) {}

  ~PipelineSplitter() { destroyTemplates(); }

  LogicalResult run();

private:
  LogicalResult checkInput();
  void expandMaskedMeanLosses();
  Value countLabels(Operation *loss, Value labels, int64_t ignoreIndex,
                    Type elementType);
  Value cloneOnWholeBatch(Value value, OpBuilder &builder, IRMapping &mapping);
  LogicalResult classifyAndSplit();
  LogicalResult splitOp(unsigned index,
                        ArrayRef<std::optional<MicrobatchState>> operandStates,
                        bool &promote);
  FailureOr<bool>
  splitReshape(unsigned index, const ShardingRule &rule,
               ArrayRef<std::optional<MicrobatchState>> operandStates);
  LogicalResult
  buildTemplate(unsigned index, const ShardingRule &rule,
                ArrayRef<std::optional<MicrobatchState>> operandStates,
                int64_t batchLoop, ArrayRef<RankedTensorType> localTypes,
                bool batchIsBlock = true);
  FailureOr<Value> localizeOrSlice(Value value, RankedTensorType localType,
                                   Operation *user, unsigned operandIndex,
                                   bool batchIsBlock);
  Value getStepSlice(SliceOp slice, int64_t stage, int64_t microbatch);
  FailureOr<Value> localizeStepValue(Value value, RankedTensorType localType,
                                     Operation *user, unsigned operandIndex);
  void sinkLinearOps();
  LogicalResult collectFrontier();
  void collectUnits();
  LogicalResult orderUnits(SmallVectorImpl<Unit> &order);
  /// The kAllStages unit: every stage's epilogue, in program order.
  void emitAllEpilogues();
  /// Every op of class `once` (prologue or epilogue), in program order.
  void emitOncePerStep(OpClass once);
  void emit(ArrayRef<Unit> order);

  // Emission helpers.
  Value lookup(Value original, int64_t stage, int64_t microbatch);
  Value getSlice(BlockArgument arg, int64_t stage, int64_t microbatch);
  Value getLocalized(Value local, int64_t stage);
  Value getScale(RankedTensorType like, int64_t stage);
  Operation *emitOp(Operation *original, int64_t stage, int64_t microbatch);
  void placeDropoutMicrobatch(Operation *copy, Operation *original,
                              int64_t microbatch);
  void finalizeFrontier(Value original, int64_t stage);
  void tag(Operation *op, int64_t stage, int64_t microbatch,
           Operation *from = nullptr);
  void destroyTemplates();

  bool isPerMicrobatch(unsigned index) const {
    return opClass[index] == OpClass::Forward ||
           opClass[index] == OpClass::Backward;
  }
  std::optional<unsigned> producerIndex(Value value) const {
    if (Operation *def = value.getDefiningOp())
      return indexOf.lookup(def);
    return std::nullopt;
  }

  func::FuncOp func;
  PipelineOptions options;
  /// Virtual stages (chunks): options.numStages x options.interleave; a
  /// unit's stage is its chunk, `dist.stage` on the ops.
  int64_t numStages;
  int64_t numMicrobatches;

  Block *body = nullptr;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> indexOf;
  SmallVector<OpClass> opClass;
  SmallVector<int64_t> stageOf;
  SmallVector<bool> isDataArg;
  /// Ops that read the whole step's data once, before the microbatches (the
  /// count of a masked mean's labels).
  DenseSet<Operation *> wholeBatchOps;
  DenseMap<Value, Value> labelCounts;

  // Splitting into microbatches (only with more than one): the op as it
  // runs on one microbatch, built once in a scratch block.
  Block *scratch = nullptr;
  SmallVector<Operation *> templateOf;
  SmallVector<bool> scaleResults;
  /// Per op: linear in its per-microbatch operands, which are all partial.
  SmallVector<bool> linearInPartials;
  DenseMap<Value, MicrobatchState> states;
  DenseMap<Value, Value> templateValues;
  /// Step values recomputed at the microbatch shape (scratch ops).
  DenseMap<std::pair<Value, Type>, Value> localizedValues;
  DenseSet<Operation *> localizedOps;
  /// Template slices of step values (the microbatch-0 block; each
  /// microbatch slices its own).
  DenseSet<Operation *> stepSlices;

  // Values combined over the microbatches (used by the epilogue or returned).
  SetVector<Value> frontier;

  // Units.
  SmallVector<SmallVector<Operation *>> forwardOps, backwardOps, epilogueOps;
  SmallVector<SmallVector<Value>> frontierOfStage;

  // Emission state.
  Block *newBody = nullptr;
  OpBuilder builder{func.getContext()};
  IRMapping scratchMapping;
  DenseMap<Value, Value> stepValues;
  SmallVector<DenseMap<Value, Value>> microbatchValues;
  DenseMap<Value, Value> accumulators;
  DenseMap<Value, SmallVector<Value>> parts;
  DenseMap<std::pair<Operation *, int64_t>, Operation *> localizedCopies;
  std::map<std::tuple<Operation *, int64_t, int64_t>, Value> stepSliceCopies;
  std::map<std::tuple<unsigned, int64_t, int64_t>, Value> slices;
  DenseMap<Type, Value> scales;
};

} // namespace

//===----------------------------------------------------------------------===//
// Input checks
//===----------------------------------------------------------------------===//

LogicalResult PipelineSplitter::checkInput() {
  if (failed(checkPipelineFunction(func, numStages)))
    return failure();
  if (numMicrobatches < 1)
    return mlir::emitError(func.getLoc())
           << "microbatches must be at least 1, got " << numMicrobatches;
  body = &func.getBody().front();

  // Data arguments (dist.role = "data") are split on dim 0, their local
  // batch once placed.
  isDataArg.assign(body->getNumArguments(), false);
  for (BlockArgument arg : body->getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return mlir::emitError(func.getLoc())
             << "argument " << arg.getArgNumber() << " is not a ranked tensor";
    if (getArgRole(func, arg.getArgNumber()) != Role::Data)
      continue;
    isDataArg[arg.getArgNumber()] = true;
    if (numMicrobatches == 1)
      continue;
    std::string name = describeArgument(func, arg.getArgNumber());
    if (type.getRank() == 0 || type.isDynamicDim(0))
      return mlir::emitError(func.getLoc())
             << "data " << name << " has no static batch dimension to split";
    int64_t batch = type.getDimSize(0);
    if (batch % numMicrobatches != 0)
      return mlir::emitError(func.getLoc())
             << (getPlacement(type) ? "local batch size " : "batch size ")
             << batch << " of data " << name << " is not divisible by "
             << numMicrobatches << " microbatches";
  }

  stageOf.clear();
  for (Operation &op : body->without_terminator()) {
    if (!isa<CostOpInterface>(op) || op.getNumRegions() != 0)
      return opError(&op) << "is not a dist op; dist-pipeline cannot "
                             "schedule it";
    std::optional<int64_t> stage = getPipelineStage(&op);
    if (!stage || *stage < 0 || *stage >= numStages)
      return opError(&op) << "has no pipeline stage in [0, " << numStages
                          << ") (dist.stage)";
    // The layouts propagation left on the ops describe the unsplit values;
    // the placed types and groups say everything about the split ones.
    op.removeAttr(DistDialect::kShardingAttrName);
    op.removeAttr(DistDialect::kShardingsAttrName);
    indexOf[&op] = ops.size();
    ops.push_back(&op);
    stageOf.push_back(*stage);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Masked means
//===----------------------------------------------------------------------===//

/// A cross entropy averaged over the samples whose label is not
/// `ignore_index` (torch's F.cross_entropy) divides by a count that depends
/// on the labels of the whole batch. Split as it is, no microbatch could
/// compute its share; but the count depends on the data alone, so it is
/// computed once per step from the whole batch's labels, and the loss
/// becomes the sum over the counted samples (a partial sum over the
/// microbatches) divided by the count after the microbatches are
/// accumulated. The gradient is the sum's, its seed divided by the count:
/// every microbatch then computes exactly its block of the unsplit gradient.
void PipelineSplitter::expandMaskedMeanLosses() {
  Block &block = func.getBody().front();
  // The count for a masked mean (cross_entropy or its gradient), or null.
  auto countFor = [&](auto op) -> Value {
    if (op.getReduction() != LossReduction::mean || op.getWeights() ||
        !op.getIgnoreIndex())
      return {};
    return countLabels(op, op.getLabels(), *op.getIgnoreIndex(),
                       op.getType().getElementType());
  };
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    if (auto loss = dyn_cast<CrossEntropyOp>(op)) {
      Value count = countFor(loss);
      if (!count)
        continue;
      OpBuilder builder(loss);
      auto sum = cast<CrossEntropyOp>(builder.clone(*loss));
      sum.setReduction(LossReduction::sum);
      auto mean = DivOp::create(builder, loss.getLoc(), sum, count);
      copyDistHints(loss, mean);
      loss.replaceAllUsesWith(mean.getResult());
      loss.erase();
    } else if (auto grad = dyn_cast<CrossEntropyGradOp>(op)) {
      Value count = countFor(grad);
      if (!count)
        continue;
      OpBuilder builder(grad);
      auto seed = DivOp::create(builder, grad.getLoc(), grad.getGrad(), count);
      copyDistHints(grad, seed);
      grad.getGradMutable().assign(seed);
      grad.setReduction(LossReduction::sum);
    }
  }
}

/// The number of samples of `labels` (over the whole step's batch) that are
/// not `ignoreIndex`, as a scalar of `elementType`, built before `loss`;
/// null when the labels depend on more than the data.
Value PipelineSplitter::countLabels(Operation *loss, Value labels,
                                    int64_t ignoreIndex, Type elementType) {
  if (Value count = labelCounts.lookup(labels))
    return count;
  OpBuilder builder(loss);
  IRMapping mapping;
  Value whole = cloneOnWholeBatch(labels, builder, mapping);
  if (!whole)
    return {};
  Location loc = loss->getLoc();
  auto type = cast<RankedTensorType>(whole.getType());
  DevicesAttr placement = getPlacement(type);
  auto track = [&](Operation *op) {
    copyDistHints(loss, op);
    wholeBatchOps.insert(op);
    return op->getResult(0);
  };
  // One-hot with blocks of one class, the block at `ignoreIndex`: 1 exactly
  // where a label is `ignoreIndex`.
  auto indexType = RankedTensorType::get({}, builder.getI64Type());
  Value ignoreBlock = track(ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(indexType, builder.getI64IntegerAttr(ignoreIndex)),
      placement));
  Value ignored = track(OneHotOp::create(builder, loc, whole, ignoreBlock,
                                         /*depth=*/1, /*axis=*/type.getRank(),
                                         elementType));
  auto axes = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank() + 1));
  Value numIgnored = track(ReduceSumOp::create(
      builder, loc, ignored, builder.getDenseI64ArrayAttr(axes)));
  auto scalarType = RankedTensorType::get({}, elementType);
  Value numLabels = track(ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(
          scalarType,
          builder.getFloatAttr(elementType, (double)type.getNumElements())),
      placement));
  Value count = track(SubOp::create(builder, loc, numLabels, numIgnored));
  labelCounts[labels] = count;
  return count;
}

/// `value` computed from the whole step's data (the ops that compute it
/// cloned before the builder's point, marked to run once per step); null
/// when it depends on anything but data arguments.
Value PipelineSplitter::cloneOnWholeBatch(Value value, OpBuilder &builder,
                                          IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (auto arg = dyn_cast<BlockArgument>(value))
    return getArgRole(func, arg.getArgNumber()) == Role::Data ? value : Value();
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 ||
      getPhaseOrForward(def) == Phase::Optimizer)
    return {};
  for (Value operand : def->getOperands())
    if (!cloneOnWholeBatch(operand, builder, mapping))
      return {};
  wholeBatchOps.insert(builder.clone(*def, mapping));
  return mapping.lookup(value);
}

//===----------------------------------------------------------------------===//
// Classification and microbatch templates
//===----------------------------------------------------------------------===//

LogicalResult PipelineSplitter::classifyAndSplit() {
  opClass.assign(ops.size(), OpClass::Prologue);
  templateOf.assign(ops.size(), nullptr);
  scaleResults.assign(ops.size(), false);
  linearInPartials.assign(ops.size(), false);
  bool splitting = numMicrobatches > 1;
  if (splitting) {
    scratch = new Block();
    for (BlockArgument arg : body->getArguments()) {
      auto type = cast<RankedTensorType>(arg.getType());
      if (!isDataArg[arg.getArgNumber()]) {
        scratch->addArgument(type, arg.getLoc());
        continue;
      }
      SmallVector<int64_t> shape(type.getShape());
      shape[0] /= numMicrobatches;
      BlockArgument local = scratch->addArgument(
          RankedTensorType::get(shape, type.getElementType(),
                                type.getEncoding()),
          arg.getLoc());
      templateValues[arg] = local;
      states[arg] = {0, false, false, 1, type.getDimSize(0)};
    }
  }

  SmallVector<std::optional<MicrobatchState>> operandStates;
  for (auto [index, op] : llvm::enumerate(ops)) {
    bool usesEpilogue = false, usesMicrobatch = false;
    operandStates.clear();
    for (Value operand : op->getOperands()) {
      std::optional<MicrobatchState> state;
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (isDataArg[arg.getArgNumber()]) {
          usesMicrobatch = true;
          if (splitting)
            state = states.lookup(arg);
        }
      } else {
        unsigned producer = indexOf.lookup(operand.getDefiningOp());
        usesEpilogue |= opClass[producer] == OpClass::Epilogue;
        if (isPerMicrobatch(producer)) {
          usesMicrobatch = true;
          if (splitting)
            state = states.lookup(operand);
        }
      }
      operandStates.push_back(state);
    }
    Phase phase = getPhaseOrForward(op);
    if (phase == Phase::Optimizer || usesEpilogue) {
      opClass[index] = OpClass::Epilogue;
      continue;
    }
    if (!usesMicrobatch || wholeBatchOps.contains(op))
      continue;
    opClass[index] =
        phase == Phase::Forward ? OpClass::Forward : OpClass::Backward;
    if (!splitting) {
      templateOf[index] = op;
      continue;
    }
    bool promote = false;
    if (failed(splitOp(index, operandStates, promote)))
      return failure();
    if (promote)
      opClass[index] = OpClass::Epilogue;
  }
  LLVM_DEBUG({
    for (auto [index, op] : llvm::enumerate(ops))
      llvm::dbgs() << "op " << index << " (" << op->getName() << ", stage "
                   << stageOf[index] << "): " << getOpClassName(opClass[index])
                   << (scaleResults[index] ? ", scaled" : "") << "\n";
  });
  return success();
}

/// Splits one op whose operands hold microbatch values: picks the loop the
/// batch runs over, derives the local result types and builds the template.
/// Sets `promote` instead when the op must see the combined values (it is
/// not linear in an operand that sums over the microbatches).
LogicalResult PipelineSplitter::splitOp(
    unsigned index, ArrayRef<std::optional<MicrobatchState>> operandStates,
    bool &promote) {
  Operation *op = ops[index];
  ShardingRule rule;
  if (failed(getMicrobatchRule(op, rule)))
    return opError(op) << "cannot be split into microbatches";

  FailureOr<bool> reshaped = splitReshape(index, rule, operandStates);
  if (failed(reshaped) || *reshaped)
    return reshaped;

  bool anyPartial = false, anySplit = false;
  MicrobatchState batchState;
  int64_t batchLoop = ShardingRule::kNoLoop;
  for (auto [i, state] : llvm::enumerate(operandStates)) {
    if (!state)
      continue;
    if (state->partial) {
      anyPartial = true;
      continue;
    }
    int64_t loop = rule.operandDims[i][state->batchDim];
    if (loop == ShardingRule::kNoLoop ||
        (batchLoop != ShardingRule::kNoLoop &&
         (loop != batchLoop || batchState.interleaved != state->interleaved ||
          batchState.outer != state->outer)))
      return opError(op)
             << "mixes batch dimensions of its operands in a way that "
                "cannot be split into microbatches";
    anySplit = true;
    batchLoop = loop;
    batchState = *state;
  }
  bool interleaved = batchState.interleaved;
  int64_t batchOperandDim = batchState.batchDim;

  SmallVector<RankedTensorType> localTypes;
  for (Type type : op->getResultTypes())
    localTypes.push_back(cast<RankedTensorType>(type));

  if (anyPartial) {
    // Sums over the microbatches flow through ops that are linear in all of
    // them jointly (add, reshape, ...); anything else runs once on the sum.
    bool linear = !anySplit && rule.linearity == ShardingRule::Linearity::Joint;
    for (auto [i, state] : llvm::enumerate(operandStates)) {
      bool isLinear = llvm::is_contained(rule.linearOperands, (unsigned)i);
      if (isLinear != state.has_value())
        linear = false;
    }
    if (!linear) {
      promote = true;
      return success();
    }
    for (Value result : op->getResults())
      states[result] = {-1, true, false};
    linearInPartials[index] = true;
  } else {
    // Gathering the batch over devices puts each device's microbatch block
    // side by side; scattering it back undoes that. Both stay per
    // microbatch.
    bool resultInterleaved = interleaved;
    bool splittable = rule.loops[batchLoop].splittable;
    if (auto gather = dyn_cast<AllGatherOp>(op);
        gather && (int64_t)gather.getDim() == batchOperandDim && !interleaved) {
      splittable = true;
      resultInterleaved = true;
    } else if (auto scatter = dyn_cast<ReduceScatterOp>(op);
               scatter && (int64_t)scatter.getDim() == batchOperandDim &&
               interleaved) {
      splittable = true;
      resultInterleaved = false;
    }
    if (!splittable) {
      InFlightDiagnostic diag =
          opError(op) << "needs the whole batch dimension; it cannot be "
                         "split into microbatches";
      // A model whose tokens are its batch (an MLP) has its batch split by
      // sequence parallelism.
      if (op->getParentOfType<func::FuncOp>()->hasAttr(
              kSequenceParallelAttrName))
        diag << " (sequence-parallel=true splits the tokens, which are this "
                "model's batch)";
      return diag;
    }
    // A microbatch of a gathered batch is no block of the reference batch.
    if ((resultInterleaved || batchState.outer > 1) &&
        isa<DropoutTrainOp, AttentionOp, AttentionGradOp>(op))
      return opError(op) << "draws its mask over a batch gathered over "
                            "devices; it cannot be split into microbatches";
    for (auto [r, result] : llvm::enumerate(op->getResults())) {
      MicrobatchState state{-1, true, false};
      SmallVector<int64_t> shape(localTypes[r].getShape());
      for (auto [d, loop] : llvm::enumerate(rule.resultDims[r])) {
        if (loop != batchLoop)
          continue;
        if (shape[d] % numMicrobatches != 0)
          return opError(op) << "result dimension " << d << " of size "
                             << shape[d] << " is not divisible by "
                             << numMicrobatches << " microbatches";
        shape[d] /= numMicrobatches;
        if (state.partial)
          state = {(int64_t)d, false, resultInterleaved, batchState.outer,
                   batchState.batch};
      }
      localTypes[r] = RankedTensorType::get(
          shape, localTypes[r].getElementType(), localTypes[r].getEncoding());
      states[result] = state;
    }
    scaleResults[index] = rule.loops[batchLoop].normalized;
  }

  return buildTemplate(index, rule, operandStates, batchLoop, localTypes,
                       batchState.isBlock());
}

/// Splits a reshape of a value split along the batch whose batch factor
/// stays one factor of one result dim, as a major factor (the LM head's
/// [b, s, V] -> [b * s, V]) or not (a time-major LSTM's [s, b, h] ->
/// [s * b, h]): the microbatch's part is the reshape of its part. False
/// when the reshape is not one (the sharding rule decides then).
FailureOr<bool> PipelineSplitter::splitReshape(
    unsigned index, const ShardingRule &rule,
    ArrayRef<std::optional<MicrobatchState>> operandStates) {
  auto reshape = dyn_cast<ReshapeOp>(ops[index]);
  if (!reshape || !operandStates[0] || operandStates[0]->partial ||
      !reshape.getInput().getType().hasStaticShape() ||
      !reshape.getType().hasStaticShape())
    return false;
  std::optional<MicrobatchState> state =
      reshapeState(reshape.getInput().getType().getShape(),
                   reshape.getType().getShape(), *operandStates[0]);
  if (!state)
    return false;
  RankedTensorType type = reshape.getType();
  SmallVector<int64_t> shape(type.getShape());
  shape[state->batchDim] /= numMicrobatches;
  states[reshape.getResult()] = *state;
  RankedTensorType local =
      RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
  if (failed(buildTemplate(index, rule, operandStates,
                           rule.operandDims[0][operandStates[0]->batchDim],
                           {local})))
    return failure();
  return true;
}

/// The template of op `index`: the op on one microbatch's values, with
/// result types `localTypes`; operands that span the batch without
/// depending on the data are recomputed at the microbatch's shape.
LogicalResult PipelineSplitter::buildTemplate(
    unsigned index, const ShardingRule &rule,
    ArrayRef<std::optional<MicrobatchState>> operandStates, int64_t batchLoop,
    ArrayRef<RankedTensorType> localTypes, bool batchIsBlock) {
  Operation *op = ops[index];
  OpBuilder scratchBuilder(func.getContext());
  scratchBuilder.setInsertionPointToEnd(scratch);
  IRMapping mapping;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (operandStates[i]) {
      mapping.map(operand, templateValues.lookup(operand));
      continue;
    }
    if (batchLoop == ShardingRule::kNoLoop ||
        !llvm::is_contained(rule.operandDims[i], batchLoop))
      continue;
    // An operand that does not depend on the data yet spans the batch (a
    // splat constant, the loss gradient expanded to the batch shape): it is
    // recomputed at the microbatch's shape.
    auto type = cast<RankedTensorType>(operand.getType());
    SmallVector<int64_t> shape(type.getShape());
    for (auto [d, loop] : llvm::enumerate(rule.operandDims[i]))
      if (loop == batchLoop)
        shape[d] /= numMicrobatches;
    FailureOr<Value> local = localizeOrSlice(
        operand,
        RankedTensorType::get(shape, type.getElementType(), type.getEncoding()),
        op, i, batchIsBlock);
    if (failed(local))
      return failure();
    mapping.map(operand, *local);
  }
  Operation *tmpl = scratchBuilder.clone(*op, mapping);
  if (failed(localizeShapeAttributes(tmpl, localTypes)))
    return failure();
  for (auto [result, type] : llvm::zip(tmpl->getResults(), localTypes))
    result.setType(type);

  // The shape rules must agree with the sharding rule's local types.
  if (auto infer = dyn_cast<InferTypeOpInterface>(tmpl)) {
    SmallVector<Type> inferred;
    if (failed(infer.inferReturnTypes(
            tmpl->getContext(), op->getLoc(), tmpl->getOperands(),
            tmpl->getRawDictionaryAttrs(), tmpl->getPropertiesStorage(),
            tmpl->getRegions(), inferred)))
      return opError(op) << "cannot be split into microbatches";
    if (!areRefinableTypes(inferred, tmpl->getResultTypes()))
      return opError(op)
             << "cannot be split into microbatches: its shape rule gives "
             << TypeRange(inferred) << " where the sharding rule gives "
             << tmpl->getResultTypes();
  }
  templateOf[index] = tmpl;
  for (auto [result, local] : llvm::zip(op->getResults(), tmpl->getResults()))
    templateValues[result] = local;
  return success();
}

/// `value`, computed once per step without the data, at the microbatch shape
/// `localType`: recomputed at that shape where its producers allow, else
/// (a value the partitioner resharded, such as a class token expanded to
/// the batch and scattered over dp) the microbatch's block of it, sliced
/// from the step value when the batch is a block of its dims.
FailureOr<Value> PipelineSplitter::localizeOrSlice(Value value,
                                                   RankedTensorType localType,
                                                   Operation *user,
                                                   unsigned operandIndex,
                                                   bool batchIsBlock) {
  {
    ScopedDiagnosticHandler quiet(func.getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<Value> local =
        localizeStepValue(value, localType, user, operandIndex);
    if (succeeded(local))
      return local;
  }
  if (!batchIsBlock)
    return localizeStepValue(value, localType, user, operandIndex);
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
  OpBuilder scratchBuilder(func.getContext());
  scratchBuilder.setInsertionPointToEnd(scratch);
  auto slice = SliceOp::create(scratchBuilder, value.getLoc(), value, starts,
                               localType.getShape(), strides);
  stepSlices.insert(slice);
  return slice.getResult();
}

/// Microbatch `microbatch`'s block of the step value a template slice
/// `slice` cuts (its microbatch-0 block).
Value PipelineSplitter::getStepSlice(SliceOp slice, int64_t stage,
                                     int64_t microbatch) {
  Value &copy = stepSliceCopies[{slice, stage, microbatch}];
  if (copy)
    return copy;
  Value whole = lookup(slice.getInput(), stage, -1);
  auto type = cast<RankedTensorType>(whole.getType());
  ArrayRef<int64_t> part = slice.getType().getShape();
  SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
  SmallVector<int64_t> limits(type.getShape());
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (part[d] != type.getDimSize(d)) {
      starts[d] = microbatch * part[d];
      limits[d] = starts[d] + part[d];
    }
  auto sliceOp =
      SliceOp::create(builder, slice.getLoc(), whole, starts, limits, strides);
  tag(sliceOp, stage, microbatch);
  copy = sliceOp;
  return copy;
}

/// `value`, computed once per step without the data, at the microbatch shape
/// `localType`: its producer (and what feeds it) is cloned into the scratch
/// block with the dims that span the batch cut.
FailureOr<Value> PipelineSplitter::localizeStepValue(Value value,
                                                     RankedTensorType localType,
                                                     Operation *user,
                                                     unsigned operandIndex) {
  auto fail =
      [&]() {
        return opError(user)
               << "operand #" << operandIndex
               << " spans the batch dimension but does not depend on the data; "
                  "it cannot be split into microbatches";
      };
  if (value.getType() == localType)
    return value;
  Value &cached = localizedValues[{value, localType}];
  if (cached)
    return cached;
  Operation *def = value.getDefiningOp();
  if (!def)
    return fail();
  unsigned index = indexOf.lookup(def);
  if (opClass[index] != OpClass::Prologue)
    return fail();
  ShardingRule rule;
  if (failed(getMicrobatchRule(def, rule)))
    return failure();
  unsigned resultIndex = cast<OpResult>(value).getResultNumber();
  auto fullType = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> cut;
  for (int64_t d = 0; d < fullType.getRank(); ++d) {
    if (fullType.getDimSize(d) == localType.getDimSize(d))
      continue;
    int64_t loop = rule.resultDims[resultIndex][d];
    if (loop == ShardingRule::kNoLoop || !rule.loops[loop].splittable ||
        rule.loops[loop].normalized)
      return fail();
    cut.push_back(loop);
  }
  auto shrink = [&](RankedTensorType type, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> shape(type.getShape());
    for (auto [d, loop] : llvm::enumerate(dims))
      if (llvm::is_contained(cut, loop))
        shape[d] /= numMicrobatches;
    return RankedTensorType::get(shape, type.getElementType(),
                                 type.getEncoding());
  };
  IRMapping mapping;
  for (auto [i, operand] : llvm::enumerate(def->getOperands())) {
    FailureOr<Value> local = localizeStepValue(
        operand,
        shrink(cast<RankedTensorType>(operand.getType()), rule.operandDims[i]),
        user, operandIndex);
    if (failed(local))
      return failure();
    mapping.map(operand, *local);
  }
  SmallVector<RankedTensorType> localTypes;
  for (auto [r, result] : llvm::enumerate(def->getResults()))
    localTypes.push_back(
        shrink(cast<RankedTensorType>(result.getType()), rule.resultDims[r]));
  OpBuilder scratchBuilder(func.getContext());
  scratchBuilder.setInsertionPointToEnd(scratch);
  Operation *local = scratchBuilder.clone(*def, mapping);
  if (failed(localizeShapeAttributes(local, localTypes)))
    return failure();
  for (auto [result, type] : llvm::zip(local->getResults(), localTypes))
    result.setType(type);
  localizedOps.insert(local);
  cached = local->getResult(resultIndex);
  return cached;
}

void PipelineSplitter::destroyTemplates() {
  if (!scratch)
    return;
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*scratch)))
    op.erase();
  delete scratch;
  scratch = nullptr;
}

void PipelineSplitter::collectUnits() {
  forwardOps.assign(numStages, {});
  backwardOps.assign(numStages, {});
  epilogueOps.assign(numStages, {});
  frontierOfStage.assign(numStages, {});
  for (auto [index, op] : llvm::enumerate(ops)) {
    switch (opClass[index]) {
    case OpClass::Forward:
      forwardOps[stageOf[index]].push_back(op);
      break;
    case OpClass::Backward:
      backwardOps[stageOf[index]].push_back(op);
      break;
    case OpClass::Epilogue:
      epilogueOps[stageOf[index]].push_back(op);
      break;
    default:
      break;
    }
  }
  for (Value value : frontier)
    frontierOfStage[stageOf[*producerIndex(value)]].push_back(value);
}

LogicalResult PipelineSplitter::orderUnits(SmallVectorImpl<Unit> &order) {
  PipelineUnitGraph graph;
  graph.numStages = options.numStages;
  graph.numMicrobatches = numMicrobatches;
  graph.interleave = options.interleave;
  graph.sequences.resize(options.numStages);
  graph.inputs.resize(numStages);
  graph.durations.assign(numStages, {0, 0, 0});

  for (int64_t s = 0; s < options.numStages; ++s)
    graph.sequences[s] =
        getStageUnits(options.schedule, options.numStages, s, numMicrobatches,
                      options.interleave, [&](int64_t chunk, UnitKind kind) {
                        switch (kind) {
                        case UnitKind::Forward:
                          return !forwardOps[chunk].empty();
                        case UnitKind::Backward:
                          return !backwardOps[chunk].empty();
                        case UnitKind::Epilogue:
                          return !epilogueOps[chunk].empty() ||
                                 !frontierOfStage[chunk].empty();
                        }
                        llvm_unreachable("covered switch");
                      });

  // Which units of other stages each unit reads from (same microbatch), and
  // how long the units take: FLOPs (only the order matters).
  auto kindOf = [&](unsigned index) {
    switch (opClass[index]) {
    case OpClass::Forward:
      return UnitKind::Forward;
    case OpClass::Backward:
      return UnitKind::Backward;
    default:
      return UnitKind::Epilogue;
    }
  };
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (opClass[index] == OpClass::Prologue)
      continue;
    int64_t stage = stageOf[index];
    UnitKind kind = kindOf(index);
    double cost = getOpCost(op);
    graph.durations[stage][(int)kind] +=
        kind == UnitKind::Epilogue ? cost : cost / numMicrobatches;
    auto &inputs = graph.inputs[stage][(int)kind];
    for (Value operand : op->getOperands()) {
      std::optional<unsigned> producer = producerIndex(operand);
      if (!producer || stageOf[*producer] == stage ||
          opClass[*producer] == OpClass::Prologue)
        continue;
      // The epilogue reads other epilogues (where microbatches are combined).
      std::pair<int64_t, UnitKind> input{
          stageOf[*producer],
          kind == UnitKind::Epilogue ? UnitKind::Epilogue : kindOf(*producer)};
      if (!llvm::is_contained(inputs, input))
        inputs.push_back(input);
    }
  }

  LLVM_DEBUG({
    for (int64_t s = 0; s < options.numStages; ++s)
      llvm::dbgs() << "stage " << s << " runs " << graph.sequences[s].size()
                   << " units\n";
    for (int64_t s = 0; s < numStages; ++s)
      llvm::dbgs() << "virtual stage " << s << ": forward "
                   << llvm::format("%g", graph.durations[s][0]) << ", backward "
                   << llvm::format("%g", graph.durations[s][1]) << ", epilogue "
                   << llvm::format("%g", graph.durations[s][2]) << "\n";
  });
  FailureOr<SmallVector<Unit>> merged = mergePipelineUnits(graph);
  if (failed(merged))
    return mlir::emitError(func.getLoc())
           << "the " << stringifyPipelineSchedule(options.schedule)
           << " schedule cannot run this cut: a stage waits for a value "
              "that its own schedule produces later";
  order.assign(merged->begin(), merged->end());
  return success();
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

void PipelineSplitter::tag(Operation *op, int64_t stage, int64_t microbatch,
                           Operation *from) {
  if (from) {
    for (StringRef name :
         {DistDialect::kPhaseAttrName, DistDialect::kLayerAttrName})
      if (Attribute attr = from->getAttr(name))
        op->setAttr(name, attr);
  }
  op->setAttr(kStageAttrName, builder.getI64IntegerAttr(stage));
  if (microbatch >= 0)
    op->setAttr(kMicrobatchAttrName, builder.getI64IntegerAttr(microbatch));
}

Value PipelineSplitter::getLocalized(Value local, int64_t stage) {
  Operation *def = local.getDefiningOp();
  Operation *&copy = localizedCopies[{def, stage}];
  if (!copy) {
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && localizedOps.contains(producer))
        mapping.map(operand, getLocalized(operand, stage));
      else
        mapping.map(operand, lookup(operand, stage, -1));
    }
    copy = builder.clone(*def, mapping);
    tag(copy, stage, -1);
  }
  return copy->getResult(cast<OpResult>(local).getResultNumber());
}

Value PipelineSplitter::getScale(RankedTensorType like, int64_t stage) {
  // One per element type and device set, at the top of the body.
  auto key =
      RankedTensorType::get({}, like.getElementType(), like.getEncoding());
  Value &scale = scales[key];
  if (!scale) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(newBody);
    auto value = DenseElementsAttr::get(
        RankedTensorType::get({}, like.getElementType()),
        builder.getFloatAttr(like.getElementType(), 1.0 / numMicrobatches));
    auto op =
        ConstantOp::create(builder, func.getLoc(), value, getPlacement(like));
    tag(op, stage, -1);
    // The search tells the split's scaling from the program's by this mark.
    op->setAttr(DistDialect::kMicrobatchScaleAttrName, builder.getUnitAttr());
    scale = op.getResult();
  }
  return scale;
}

Value PipelineSplitter::getSlice(BlockArgument arg, int64_t stage,
                                 int64_t microbatch) {
  Value &slice = slices[{arg.getArgNumber(), stage, microbatch}];
  if (slice)
    return slice;
  Value whole = newBody->getArgument(arg.getArgNumber());
  auto type = cast<RankedTensorType>(whole.getType());
  int64_t part = type.getDimSize(0) / numMicrobatches;
  SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
  SmallVector<int64_t> limits(type.getShape());
  starts[0] = microbatch * part;
  limits[0] = (microbatch + 1) * part;
  auto sliceOp =
      SliceOp::create(builder, arg.getLoc(), whole, starts, limits, strides);
  tag(sliceOp, stage, microbatch);
  slice = sliceOp;
  return slice;
}

Value PipelineSplitter::lookup(Value original, int64_t stage,
                               int64_t microbatch) {
  if (auto arg = dyn_cast<BlockArgument>(original)) {
    if (microbatch >= 0 && numMicrobatches > 1 && isDataArg[arg.getArgNumber()])
      return getSlice(arg, stage, microbatch);
    return newBody->getArgument(arg.getArgNumber());
  }
  unsigned index = *producerIndex(original);
  switch (opClass[index]) {
  case OpClass::Prologue:
  case OpClass::Epilogue:
    return stepValues.lookup(original);
  case OpClass::Forward:
  case OpClass::Backward:
    if (microbatch >= 0)
      return microbatchValues[microbatch].lookup(original);
    return stepValues.lookup(original);
  }
  llvm_unreachable("covered switch");
}

Operation *PipelineSplitter::emitOp(Operation *original, int64_t stage,
                                    int64_t microbatch) {
  unsigned index = indexOf.lookup(original);
  Operation *source = microbatch >= 0 ? templateOf[index] : original;
  scratchMapping.clear();
  for (auto [i, operand] : llvm::enumerate(original->getOperands())) {
    Value sourceOperand = source->getOperand(i);
    Operation *def = sourceOperand.getDefiningOp();
    if (source != original && def && localizedOps.contains(def))
      scratchMapping.map(sourceOperand, getLocalized(sourceOperand, stage));
    else if (source != original && def && stepSlices.contains(def))
      scratchMapping.map(sourceOperand,
                         getStepSlice(cast<SliceOp>(def), stage, microbatch));
    else
      scratchMapping.map(sourceOperand, lookup(operand, stage, microbatch));
  }
  Operation *copy = builder.clone(*source, scratchMapping);
  if (microbatch >= 0)
    placeDropoutMicrobatch(copy, original, microbatch);
  tag(copy, stage, microbatch);
  return copy;
}

/// Moves the reference offset of a dropout's mask (of `dropout`'s reference
/// tensor, whose dimension `dim` is the local `size`) by `microbatch`
/// blocks; `reference` is the unsplit op's reference shape.
template <typename OpTy>
static void moveDropoutReference(OpTy dropout, ArrayRef<int64_t> reference,
                                 int64_t dim, int64_t size,
                                 int64_t microbatch) {
  SmallVector<int64_t> offset(reference.size(), 0);
  if (std::optional<ArrayRef<int64_t>> previous = dropout.getReferenceOffset())
    offset.assign(previous->begin(), previous->end());
  offset[dim] += microbatch * size;
  dropout.setReferenceShape(reference);
  dropout.setReferenceOffset(offset);
}

/// Microbatch `microbatch` of a training dropout (or of a fused attention
/// that drops its probabilities, forward and backward) draws the mask
/// elements of its block of the batch: its reference offset moves by the
/// blocks before.
void PipelineSplitter::placeDropoutMicrobatch(Operation *copy,
                                              Operation *original,
                                              int64_t microbatch) {
  if (!isa<DropoutTrainOp, AttentionOp, AttentionGradOp>(copy))
    return;
  auto state = states.find(original->getResult(0));
  if (state == states.end() || state->second.batchDim < 0)
    return; // Runs on a sum over the microbatches: the unsplit tensor.
  int64_t dim = state->second.batchDim;
  // An attention result's batch and head dimensions (0, 1) are its
  // probabilities'.
  int64_t size =
      cast<RankedTensorType>(copy->getResult(0).getType()).getDimSize(dim);
  if (auto dropout = dyn_cast<DropoutTrainOp>(copy))
    moveDropoutReference(
        dropout,
        cast<DropoutTrainOp>(original).getReferenceShapeOrResultShape(), dim,
        size, microbatch);
  else if (auto attention = dyn_cast<AttentionOp>(copy))
    moveDropoutReference(
        attention, cast<AttentionOp>(original).getReferenceShapeOrProbsShape(),
        dim, size, microbatch);
  else if (auto grad = dyn_cast<AttentionGradOp>(copy))
    moveDropoutReference(
        grad, cast<AttentionGradOp>(original).getReferenceShapeOrProbsShape(),
        dim, size, microbatch);
}

void PipelineSplitter::finalizeFrontier(Value original, int64_t stage) {
  if (numMicrobatches == 1) {
    stepValues[original] = microbatchValues[0].lookup(original);
    return;
  }
  MicrobatchState state = states.lookup(original);
  if (state.partial) {
    stepValues[original] = accumulators.lookup(original);
    return;
  }
  // A value that keeps the batch: the microbatches side by side.
  auto concat = ConcatOp::create(builder, original.getLoc(), parts[original],
                                 (uint64_t)state.batchDim);
  tag(concat, stage, -1, original.getDefiningOp());
  stepValues[original] = concat;
}

void PipelineSplitter::emitAllEpilogues() {
  for (int64_t s = 0; s < numStages; ++s)
    for (Value value : frontierOfStage[s])
      finalizeFrontier(value, s);
  emitOncePerStep(OpClass::Epilogue);
}

void PipelineSplitter::emitOncePerStep(OpClass once) {
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (opClass[index] != once)
      continue;
    Operation *copy = emitOp(op, stageOf[index], -1);
    for (auto [result, value] : llvm::zip(op->getResults(), copy->getResults()))
      stepValues[result] = value;
  }
}

void PipelineSplitter::emit(ArrayRef<Unit> order) {
  Region &region = func.getBody();
  newBody = new Block();
  region.push_back(newBody);
  for (BlockArgument arg : body->getArguments())
    newBody->addArgument(arg.getType(), arg.getLoc());
  builder.setInsertionPointToEnd(newBody);
  microbatchValues.clear();
  microbatchValues.resize(numMicrobatches);

  // Once per step before the microbatches.
  emitOncePerStep(OpClass::Prologue);

  for (const Unit &unit : order) {
    int64_t s = unit.stage, m = unit.microbatch;
    if (s == kAllStages) {
      emitAllEpilogues();
      continue;
    }
    if (unit.kind == UnitKind::Epilogue) {
      for (Value value : frontierOfStage[s])
        finalizeFrontier(value, s);
      for (Operation *op : epilogueOps[s]) {
        Operation *copy = emitOp(op, s, -1);
        for (auto [result, value] :
             llvm::zip(op->getResults(), copy->getResults()))
          stepValues[result] = value;
      }
      continue;
    }
    ArrayRef<Operation *> unitOps =
        unit.kind == UnitKind::Forward ? forwardOps[s] : backwardOps[s];
    for (Operation *op : unitOps) {
      unsigned index = indexOf.lookup(op);
      Operation *copy = emitOp(op, s, m);
      for (auto [result, value] :
           llvm::zip(op->getResults(), copy->getResults())) {
        Value local = value;
        if (scaleResults[index]) {
          // A mean over the microbatch: 1/microbatches of it is the block
          // (or partial sum) of the mean over the batch.
          auto type = cast<RankedTensorType>(value.getType());
          auto mul =
              MulOp::create(builder, op->getLoc(), value, getScale(type, s));
          tag(mul, s, m, op);
          local = mul;
        }
        microbatchValues[m][result] = local;
        if (!frontier.contains(result))
          continue;
        if (numMicrobatches == 1)
          continue;
        if (states.lookup(result).partial) {
          Value &sum = accumulators[result];
          if (!sum) {
            sum = local;
          } else {
            auto add = AddOp::create(builder, op->getLoc(), sum, local);
            tag(add, s, m, op);
            sum = add;
          }
        } else {
          parts[result].push_back(local);
        }
      }
    }
  }

  Operation *terminator = body->getTerminator();
  SmallVector<Value> results;
  for (Value operand : terminator->getOperands())
    results.push_back(lookup(operand, 0, -1));
  func::ReturnOp::create(builder, terminator->getLoc(), results);

  // The old body goes: first the templates that use its values.
  destroyTemplates();
  body->dropAllDefinedValueUses();
  body->erase();
  body = newBody;
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         func.getArgumentTypes(),
                                         ValueRange(results).getTypes()));
}

//===----------------------------------------------------------------------===//
// Sinking and the values combined over the microbatches
//===----------------------------------------------------------------------===//

/// An op linear in sums over the microbatches whose results only feed the
/// epilogue runs once on the accumulated sums instead of once per
/// microbatch: the data-parallel all_reduce of a weight gradient, the send of
/// a gradient to the stage that updates a weight used on two stages, the add
/// of two contributions to one gradient.
void PipelineSplitter::sinkLinearOps() {
  if (numMicrobatches == 1)
    return;
  Operation *terminator = body->getTerminator();
  for (int64_t index = ops.size() - 1; index >= 0; --index) {
    if (!isPerMicrobatch(index) || !linearInPartials[index])
      continue;
    bool onlyEpilogueUsers =
        llvm::all_of(ops[index]->getUsers(), [&](Operation *user) {
          return user == terminator ||
                 opClass[indexOf.lookup(user)] == OpClass::Epilogue;
        });
    if (onlyEpilogueUsers)
      opClass[index] = OpClass::Epilogue;
  }
}

LogicalResult PipelineSplitter::collectFrontier() {
  auto check = [&](Value value) -> LogicalResult {
    MicrobatchState state = states.lookup(value);
    if (numMicrobatches > 1 && !state.partial && !state.isBlock())
      return opError(value.getDefiningOp())
             << (state.interleaved ? "gathers the batch over devices"
                                   : "holds the batch as a minor factor of a "
                                     "merged dimension")
             << " and is needed after the microbatches; its microbatches "
                "cannot be put back in order";
    return success();
  };
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (opClass[index] != OpClass::Epilogue)
      continue;
    for (Value operand : op->getOperands())
      if (std::optional<unsigned> producer = producerIndex(operand))
        if (isPerMicrobatch(*producer)) {
          if (failed(check(operand)))
            return failure();
          frontier.insert(operand);
        }
  }
  for (Value operand : body->getTerminator()->getOperands()) {
    if (auto arg = dyn_cast<BlockArgument>(operand)) {
      if (isDataArg[arg.getArgNumber()] && numMicrobatches > 1)
        return mlir::emitError(func.getLoc())
               << "returns data argument " << arg.getArgNumber()
               << " unchanged; dist-pipeline cannot split it";
      continue;
    }
    if (isPerMicrobatch(*producerIndex(operand))) {
      if (failed(check(operand)))
        return failure();
      frontier.insert(operand);
    }
  }
  return success();
}

LogicalResult PipelineSplitter::run() {
  if (numMicrobatches > 1)
    expandMaskedMeanLosses();
  if (failed(checkInput()) || failed(classifyAndSplit()))
    return failure();
  sinkLinearOps();
  if (failed(collectFrontier()))
    return failure();
  collectUnits();
  SmallVector<Unit> order;
  if (failed(orderUnits(order)))
    return failure();
  emit(order);
  return success();
}

LogicalResult mlir::dist::splitPipelineStages(func::FuncOp func,
                                              const PipelineOptions &options) {
  PipelineSplitter splitter(func, options);
  return splitter.run();
}
