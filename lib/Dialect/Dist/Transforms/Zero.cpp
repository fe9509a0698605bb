//===- Zero.cpp - ZeRO: optimizer state, gradients, parameters over dp ----===//
//
// ZeRO (Rajbhandari et al. 2020) and Megatron-LM's distributed optimizer
// (stage 1) on a placed data-parallel program. Every data-parallel gradient
// reduction (a sum all-reduce of the optimizer phase over the dp groups)
// becomes a reduce-scatter of the gradient flattened and zero-padded to a
// multiple of dp, so each rank holds 1/dp of it; the optimizer's
// elementwise ops then run on that part, reading the matching part of the
// parameter, of the fp32 master weights and of the moments. The optimizer
// state arguments become flat shards (`dist.flat_shard`, Layout.h): each
// rank keeps only its part. What leaves the optimizer in full (the updated
// parameters) is all-gathered. Padding never changes a result: the pads are
// zeros, an elementwise op maps them to pads that are sliced off, and a
// norm's sum of squares adds zeros.
//
// Stage 2 reduce-scatters each microbatch's gradient as soon as it is
// produced and accumulates the parts, so no rank holds a whole gradient
// past its microbatch (DeepSpeed with gradient accumulation). Stage 3 also
// keeps the parameters as flat shards and all-gathers them before each
// layer's forward and backward of every microbatch; a gathered copy lives
// until its group's last use (the simulator frees it then). The gathers are
// issued one layer early so that a runtime that overlaps them
// (Megatron-LM's --overlap-param-gather) hides them behind compute.
//
// A rewrite of the placed program rather than of shardings: a flattened,
// padded view is not a sharding of the tensor's dimensions.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Layout.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <set>

namespace mlir::dist {
#define GEN_PASS_DEF_DISTZERO
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

namespace {

void dropShardings(Operation *op) {
  op->removeAttr(DistDialect::kShardingAttrName);
  op->removeAttr(DistDialect::kShardingsAttrName);
}

/// The flat form of a tensor of one local shape over one set of dp groups.
struct FlatForm {
  RankedTensorType type;
  DeviceGroupsAttr groups;
  int64_t elements;
  /// Elements per rank: ceil(elements / dp).
  int64_t partSize;
  int64_t getParts() const { return groups.getGroupSize(); }
  int64_t getPadding() const { return partSize * getParts() - elements; }
};

class ZeroRewriter {
public:
  ZeroRewriter(func::FuncOp func, const Mesh &mesh, int64_t axis, int64_t stage)
      : func(func), mesh(mesh), axis(axis), stage(stage),
        builder(func.getContext()) {
    for (const auto &group : mesh.getGroups({axis}))
      dpGroups.insert(std::vector<int64_t>(group.begin(), group.end()));
  }

  LogicalResult run();

private:
  bool isDataParallelReduction(AllReduceOp op) const;
  FlatForm getForm(Value full, DeviceGroupsAttr groups) const;
  Value flatten(Value full, const FlatForm &form, Operation *hints);
  Value reduceScatter(Value gradient, const FlatForm &form,
                      AllReduceOp reduction);
  Value reduceScatterPerMicrobatch(Value gradient, const FlatForm &form,
                                   AllReduceOp reduction);
  Value getRank(DeviceGroupsAttr groups);
  Value getPart(Value full, const FlatForm &form, Operation *user = nullptr);
  Value gatherPart(Value part, const FlatForm &form, Operation *hints);
  bool shardElementwise(Operation *op);
  bool shardReduceSum(ReduceSumOp op);
  void gatherParametersPerLayer();
  void returnParts();
  void eraseDeadOps();
  void convertSignature();

  func::FuncOp func;
  const Mesh &mesh;
  int64_t axis;
  int64_t stage;
  OpBuilder builder;
  std::set<std::vector<int64_t>> dpGroups;
  /// Full value -> its flat part on each rank, and the form it has.
  DenseMap<Value, Value> partOf;
  DenseMap<Value, FlatForm> formOf;
  /// Parts whose padding holds zeros.
  DenseSet<Value> zeroPadded;
  DenseMap<Attribute, Value> rankOf;
  /// Argument -> the take that extracts its part (a flat shard candidate).
  llvm::MapVector<BlockArgument, Operation *> argumentParts;
  /// Returned parts: result index -> the part and its form.
  DenseMap<unsigned, std::pair<Value, FlatForm>> returnedParts;
};

/// The widening cast that is the only user of `op`, if any. With bf16 or
/// f16 parameters and fp32 master weights the partitioner reduces the
/// gradient in the parameters' type, in the backward phase, right before
/// that cast (dist-autodiff's mixed precision, docs/mixed-precision.md).
static CastOp getWideningCast(AllReduceOp op) {
  if (!op->hasOneUse())
    return nullptr;
  auto cast = dyn_cast<CastOp>(*op->user_begin());
  if (!cast)
    return nullptr;
  auto from = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
  auto to = dyn_cast<FloatType>(getElementTypeOrSelf(cast.getType()));
  return from && to && to.getWidth() > from.getWidth() ? cast : nullptr;
}

bool ZeroRewriter::isDataParallelReduction(AllReduceOp op) const {
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  std::optional<Phase> phase = getPhase(op);
  bool isStepGradient =
      phase == Phase::Optimizer ||
      (phase == Phase::Backward && getWideningCast(op) != nullptr);
  if (op.getReduction() != ReductionKind::sum || !isStepGradient || !type ||
      !type.hasStaticShape() || type.getRank() == 0 ||
      !isa<FloatType>(type.getElementType()))
    return false;
  DeviceGroupsAttr groups = op.getGroups();
  for (int64_t g = 0; g < groups.getNumGroups(); ++g) {
    DeviceIdRange group = groups.getGroup(g);
    if (!dpGroups.count(std::vector<int64_t>(group.begin(), group.end())))
      return false;
  }
  return groups.getGroupSize() > 1;
}

FlatForm ZeroRewriter::getForm(Value full, DeviceGroupsAttr groups) const {
  auto type = cast<RankedTensorType>(full.getType());
  int64_t elements = type.getNumElements();
  return {type, groups, elements,
          llvm::divideCeilSigned(elements, groups.getGroupSize())};
}

/// `full` reshaped to one dimension and padded to a multiple of dp.
Value ZeroRewriter::flatten(Value full, const FlatForm &form,
                            Operation *hints) {
  Location loc = full.getLoc();
  Value flat =
      ReshapeOp::create(builder, loc, full, ArrayRef<int64_t>{form.elements});
  if (hints)
    copyDistHints(hints, flat.getDefiningOp());
  if (form.getPadding() == 0)
    return flat;
  Value padded =
      PadOp::create(builder, loc, flat, builder.getDenseI64ArrayAttr({0}),
                    builder.getDenseI64ArrayAttr(form.getPadding()),
                    builder.getDenseI64ArrayAttr({0}));
  if (hints)
    copyDistHints(hints, padded.getDefiningOp());
  return padded;
}

/// The gradient's part, reduced over dp right after the gradient is
/// complete (where an overlapping runtime starts the collective).
Value ZeroRewriter::reduceScatter(Value gradient, const FlatForm &form,
                                  AllReduceOp reduction) {
  OpBuilder::InsertionGuard guard(builder);
  Operation *producer = gradient.getDefiningOp();
  if (producer)
    builder.setInsertionPointAfter(producer);
  else
    builder.setInsertionPoint(reduction);
  Value padded = flatten(gradient, form, producer);
  auto scattered =
      ReduceScatterOp::create(builder, reduction.getLoc(), padded, form.groups,
                              /*dim=*/0, ReductionKind::sum);
  // Stage 1 reduces the step's gradient buffer for the optimizer; stage 2
  // reduces during the backward, the microbatch's gradient then freed.
  copyDistHints(reduction, scattered);
  if (stage >= 2 && producer) {
    copyDistHints(producer, scattered);
    setPhase(scattered, Phase::Backward);
  }
  return scattered;
}

/// Stage 2: the microbatches' gradients are summed by a tree of additions;
/// each one is reduce-scattered and the parts are summed instead.
Value ZeroRewriter::reduceScatterPerMicrobatch(Value gradient,
                                               const FlatForm &form,
                                               AllReduceOp reduction) {
  auto add = gradient.getDefiningOp<AddOp>();
  if (!add || !gradient.hasOneUse() ||
      !add->hasAttr(DistDialect::kMicrobatchAttrName) ||
      add.getLhs().getType() != gradient.getType() ||
      add.getRhs().getType() != gradient.getType())
    return reduceScatter(gradient, form, reduction);
  Value lhs = reduceScatterPerMicrobatch(add.getLhs(), form, reduction);
  Value rhs = reduceScatterPerMicrobatch(add.getRhs(), form, reduction);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfterValue(
      lhs.getDefiningOp()->isBeforeInBlock(rhs.getDefiningOp()) ? rhs : lhs);
  Operation *sum = builder.clone(*add);
  sum->setOperands({lhs, rhs});
  sum->getResult(0).setType(lhs.getType());
  dropShardings(sum);
  return sum->getResult(0);
}

Value ZeroRewriter::getRank(DeviceGroupsAttr groups) {
  Value &rank = rankOf[groups];
  if (!rank) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&func.getBody().front());
    rank = GroupRankOp::create(
        builder, func.getLoc(),
        RankedTensorType::get({}, builder.getI64Type(), groups.getUnion()),
        groups);
  }
  return rank;
}

/// The rank's part of a value replicated over dp: no communication.
Value ZeroRewriter::getPart(Value full, const FlatForm &form, Operation *user) {
  if (Value part = partOf.lookup(full))
    return part;
  OpBuilder::InsertionGuard guard(builder);
  Value rank = getRank(form.groups);
  // An argument's part is taken where it is first needed (the builder's
  // point), anything else's right after it is computed.
  if (!isa<BlockArgument>(full))
    builder.setInsertionPointAfterValue(full);
  Operation *hints = full.getDefiningOp() ? full.getDefiningOp() : user;
  Value padded = flatten(full, form, hints);
  Value view =
      ReshapeOp::create(builder, full.getLoc(), padded,
                        ArrayRef<int64_t>{form.getParts(), form.partSize});
  auto part = TakeOp::create(builder, full.getLoc(), view, rank, /*axis=*/0);
  if (hints) {
    copyDistHints(hints, view.getDefiningOp());
    copyDistHints(hints, part);
  }
  if (auto arg = dyn_cast<BlockArgument>(full))
    argumentParts[arg] = part;
  partOf[full] = part;
  formOf[part] = form;
  zeroPadded.insert(part);
  return part;
}

/// The full value of a part: all-gathered, padding dropped, reshaped.
Value ZeroRewriter::gatherPart(Value part, const FlatForm &form,
                               Operation *hints) {
  Location loc = part.getLoc();
  auto gathered =
      AllGatherOp::create(builder, loc, part, form.groups, /*dim=*/0);
  Value flat = gathered;
  if (form.getPadding() > 0)
    flat = SliceOp::create(builder, loc, gathered,
                           builder.getDenseI64ArrayAttr({0}),
                           builder.getDenseI64ArrayAttr(form.elements),
                           builder.getDenseI64ArrayAttr({1}));
  Value full = ReshapeOp::create(builder, loc, flat, form.type.getShape());
  if (hints)
    for (Value value : {Value(gathered), flat, full})
      copyDistHints(hints, value.getDefiningOp());
  return full;
}

/// An elementwise optimizer op over parts instead of full values: every
/// operand is a scalar or has the full shape of one flat form.
bool ZeroRewriter::shardElementwise(Operation *op) {
  if (!op->hasTrait<dist::Elementwise>() && !isa<AdamUpdateOp>(op))
    return false;
  const FlatForm *form = nullptr;
  for (Value operand : op->getOperands())
    if (Value part = partOf.lookup(operand))
      form = &formOf.find(part)->second;
  if (!form)
    return false;
  FlatForm shared = *form;
  auto isScalar = [](Type type) {
    return cast<RankedTensorType>(type).getRank() == 0;
  };
  auto hasFullShape = [&](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    return tensor.getShape() == shared.type.getShape() &&
           tensor.getEncoding() == shared.type.getEncoding();
  };
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!isScalar(type) && !hasFullShape(type))
      return false;
  for (Type type : op->getResultTypes())
    if (isScalar(type))
      return false;

  IRMapping mapping;
  builder.setInsertionPoint(op);
  for (Value operand : op->getOperands())
    if (!isScalar(operand.getType()))
      mapping.map(operand, getPart(operand, shared, op));
  Operation *sharded = builder.clone(*op, mapping);
  dropShardings(sharded);
  bool padsZero =
      (isa<CastOp>(op) &&
       zeroPadded.contains(mapping.lookup(op->getOperand(0)))) ||
      (isa<MulOp>(op) && llvm::any_of(op->getOperands(), [&](Value operand) {
         return zeroPadded.contains(mapping.lookupOrNull(operand));
       }));
  for (auto [full, part] :
       llvm::zip_equal(op->getResults(), sharded->getResults())) {
    auto type = cast<RankedTensorType>(full.getType());
    part.setType(RankedTensorType::get({shared.partSize}, type.getElementType(),
                                       type.getEncoding()));
    FlatForm resultForm = shared;
    resultForm.type = type;
    partOf[full] = part;
    formOf[part] = resultForm;
    if (padsZero)
      zeroPadded.insert(part);
  }
  return true;
}

/// A sum over every element of a part with zero padding (a gradient norm's
/// sum of squares): the sum of the part, all-reduced over dp.
bool ZeroRewriter::shardReduceSum(ReduceSumOp op) {
  Value part = partOf.lookup(op.getInput());
  if (!part || !zeroPadded.contains(part) ||
      cast<RankedTensorType>(op.getType()).getRank() != 0)
    return false;
  const FlatForm &form = formOf.find(part)->second;
  builder.setInsertionPoint(op);
  auto local = ReduceSumOp::create(builder, op.getLoc(), part,
                                   builder.getDenseI64ArrayAttr({0}),
                                   /*keepdims=*/false);
  copyDistHints(op, local);
  auto total = AllReduceOp::create(builder, op.getLoc(), local, form.groups,
                                   ReductionKind::sum);
  copyDistHints(op, total);
  op.getResult().replaceAllUsesWith(total.getResult());
  return true;
}

using SegmentKey = std::tuple<Attribute, Attribute, Attribute>;

SegmentKey getSegmentKey(Operation *op) {
  return {op->getAttr(DistDialect::kLayerAttrName),
          op->getAttr(DistDialect::kPhaseAttrName),
          op->getAttr(DistDialect::kMicrobatchAttrName)};
}

/// Per op, the first op of the run of (layer, phase, microbatch) before its
/// own in program order: where a prefetch for the op is issued. Ops without
/// a layer hint continue the current run.
DenseMap<Operation *, Operation *> getPreviousSegmentStarts(Block &body) {
  DenseMap<Operation *, Operation *> previousStart;
  Operation *previous = nullptr, *current = nullptr;
  std::optional<SegmentKey> key;
  for (Operation &op : body) {
    if (op.hasAttr(DistDialect::kLayerAttrName) && getSegmentKey(&op) != key) {
      key = getSegmentKey(&op);
      previous = current;
      current = &op;
    }
    previousStart[&op] = previous ? previous : current;
  }
  return previousStart;
}

/// Stage 3: the forward and backward uses of a parameter read a copy
/// all-gathered for their (layer, phase, microbatch), issued at the start
/// of the layer before in program order (one layer of prefetch).
void ZeroRewriter::gatherParametersPerLayer() {
  DenseMap<Operation *, Operation *> previousStart =
      getPreviousSegmentStarts(func.getBody().front());
  for (auto [arg, take] : argumentParts) {
    if (getArgRole(func, arg.getArgNumber()) != Role::Parameter)
      continue;
    Value part = take->getResult(0);
    const FlatForm &form = formOf.find(part)->second;
    llvm::MapVector<SegmentKey, SmallVector<OpOperand *>> groups;
    for (OpOperand &use : arg.getUses()) {
      Operation *user = use.getOwner();
      std::optional<Phase> phase = getPhase(user);
      if (phase != Phase::Forward && phase != Phase::Backward)
        continue;
      groups[getSegmentKey(user)].push_back(&use);
    }
    SmallVector<std::pair<Operation *, SmallVector<OpOperand *>>> ordered;
    for (auto &[key, uses] : groups) {
      Operation *first = uses.front()->getOwner();
      for (OpOperand *use : uses)
        if (use->getOwner()->isBeforeInBlock(first))
          first = use->getOwner();
      ordered.push_back({first, uses});
    }
    llvm::sort(ordered, [](const auto &a, const auto &b) {
      return a.first->isBeforeInBlock(b.first);
    });
    for (auto &[first, uses] : ordered) {
      Operation *issueAt = previousStart.lookup(first);
      if (!issueAt || issueAt->isBeforeInBlock(take))
        issueAt = take->getNextNode();
      builder.setInsertionPoint(issueAt);
      Value full = gatherPart(part, form, first);
      for (OpOperand *use : uses)
        use->set(full);
    }
  }
}

/// Optimizer state (and stage 3's parameters) leaves as parts; the other
/// results that have a part are gathered.
void ZeroRewriter::returnParts() {
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (OpOperand &operand : ret->getOpOperands()) {
    Value part = partOf.lookup(operand.get());
    if (!part)
      continue;
    std::optional<Role> role = getResultRole(func, operand.getOperandNumber());
    bool keepPart = role == Role::UpdatedOptimizerState ||
                    (stage >= 3 && role == Role::UpdatedParameter);
    const FlatForm &form = formOf.find(part)->second;
    if (keepPart) {
      returnedParts[operand.getOperandNumber()] = {part, form};
      operand.set(part);
      continue;
    }
    builder.setInsertionPoint(ret);
    operand.set(gatherPart(part, form, part.getDefiningOp()));
  }
}

void ZeroRewriter::eraseDeadOps() {
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front().without_terminator())
    ops.push_back(&op);
  // Users come after their operands' producers: erasing backwards frees
  // whole dead chains in one sweep.
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
}

/// Arguments read only through their part become that part (a flat shard);
/// so do the results that return parts.
void ZeroRewriter::convertSignature() {
  MLIRContext *ctx = func.getContext();
  auto flatShardOf = [&](DictionaryAttr attrs, const FlatForm &form) {
    FlatShard shard{
        mesh.getAxes()[axis], llvm::to_vector(form.type.getShape()),
        attrs ? attrs.getAs<ShardingAttr>(DistDialect::kShardingAttrName)
              : ShardingAttr()};
    NamedAttrList list(attrs);
    list.erase(DistDialect::kShardingAttrName);
    list.set(kFlatShardAttrName, getFlatShardAttr(ctx, shard));
    return list.getDictionary(ctx);
  };
  for (auto [arg, take] : argumentParts) {
    // The part's chain: reshape, (pad,) reshape, take.
    SmallVector<Operation *> chain;
    for (Operation *op = take; op;) {
      chain.push_back(op);
      Value input = op->getOperand(0);
      if (input == arg)
        break;
      op = input.getDefiningOp();
    }
    if (!arg.hasOneUse() || chain.back()->getOperand(0) != arg)
      continue;
    unsigned index = arg.getArgNumber();
    const FlatForm &form = formOf.find(take->getResult(0))->second;
    DictionaryAttr attrs = flatShardOf(func.getArgAttrDict(index), form);
    arg.setType(take->getResult(0).getType());
    take->getResult(0).replaceAllUsesWith(arg);
    for (Operation *op : chain)
      op->erase();
    func.setArgAttrs(index, attrs);
  }
  for (auto &[index, partAndForm] : returnedParts)
    func.setResultAttrs(
        index, flatShardOf(func.getResultAttrDict(index), partAndForm.second));
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  func.setType(FunctionType::get(ctx, func.getBody().getArgumentTypes(),
                                 ret.getOperandTypes()));
}

LogicalResult ZeroRewriter::run() {
  Block &body = func.getBody().front();
  SmallVector<AllReduceOp> reductions;
  for (auto reduction : body.getOps<AllReduceOp>())
    if (isDataParallelReduction(reduction))
      reductions.push_back(reduction);
  // The widening casts of mixed-precision gradients run on the parts too.
  DenseSet<Operation *> widenings;
  for (AllReduceOp reduction : reductions) {
    if (CastOp widening = getWideningCast(reduction))
      widenings.insert(widening);
    FlatForm form = getForm(reduction.getInput(), reduction.getGroups());
    Value part =
        stage >= 2
            ? reduceScatterPerMicrobatch(reduction.getInput(), form, reduction)
            : reduceScatter(reduction.getInput(), form, reduction);
    partOf[reduction.getResult()] = part;
    formOf[part] = form;
    zeroPadded.insert(part);
  }
  if (reductions.empty())
    return success();
  if (stage >= 3) {
    // Every parameter of a reduced gradient's shape gets its part first, so
    // that the forward can gather it.
    builder.setInsertionPointToStart(&body);
    for (BlockArgument arg : body.getArguments())
      if (getArgRole(func, arg.getArgNumber()) == Role::Parameter)
        for (AllReduceOp reduction : reductions)
          if (arg.getType() == reduction.getType()) {
            getPart(arg, getForm(arg, reduction.getGroups()));
            break;
          }
  }
  // Program order: every operand's part exists before its users are seen.
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    if (getPhase(&op) == Phase::Optimizer || widenings.contains(&op))
      ops.push_back(&op);
  for (Operation *op : ops) {
    if (llvm::none_of(op->getOperands(),
                      [&](Value operand) { return partOf.count(operand); }))
      continue;
    if (auto sum = dyn_cast<ReduceSumOp>(op))
      shardReduceSum(sum);
    else
      shardElementwise(op);
  }
  returnParts();
  if (stage >= 3)
    gatherParametersPerLayer();
  eraseDeadOps();
  convertSignature();
  eraseDeadOps();
  return success();
}

} // namespace

LogicalResult mlir::dist::shardOptimizerOverDataParallel(func::FuncOp func,
                                                         MeshOp meshOp,
                                                         StringRef axisName,
                                                         int64_t stage) {
  if (stage == 0 || func.isExternal() || func.getBody().empty())
    return success();
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> axis = mesh.getAxisIndex(axisName);
  if (!axis)
    return func.emitError() << "zero: mesh @" << meshOp.getSymName()
                            << " has no axis \"" << axisName << "\"";
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "zero: needs a function of one block";
  return ZeroRewriter(func, mesh, *axis, stage).run();
}

namespace {
struct ZeroPass : public mlir::dist::impl::DistZeroBase<ZeroPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkZeroStage(module.getLoc(), stage, /*pp=*/1)))
      return signalPassFailure();
    FailureOr<MeshOp> meshOp =
        applyDataParallel(module, mesh, axis, dp, /*annotateOnly=*/false);
    if (failed(meshOp))
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(shardOptimizerOverDataParallel(func, *meshOp, axis.getValue(),
                                                stage)))
        return signalPassFailure();
  }
};
} // namespace

LogicalResult mlir::dist::checkZeroStage(Location loc, int64_t stage,
                                         int64_t pp) {
  if (stage < 0 || stage > 3)
    return mlir::emitError(loc)
           << "zero stage must be 0, 1, 2 or 3, got " << stage;
  if (stage >= 2 && pp > 1)
    return mlir::emitError(loc)
           << "zero=" << stage
           << " shards gradients per microbatch and cannot be combined with "
              "pp > 1 (got pp="
           << pp
           << "), as DeepSpeed refuses ZeRO-2/3 with pipelines; use "
              "zero=1";
  return success();
}
