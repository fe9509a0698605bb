//===- Partition.cpp - rewrite a sharded program into placed local ops ---===//
//
// Every op of a propagated, unplaced function becomes one op on local shapes
// placed on its mesh's devices; the collectives that keep the meaning are
// inserted where an operand's layout differs from the one the op's loop
// sharding needs (planReshard), and at the return to honour the signature's
// shardings (the global-view contract).
//
//===----------------------------------------------------------------------===//

#include "ScatterGather.h"

#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/LoopSharding.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Reshard.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#include <map>

#define DEBUG_TYPE "dist-partition"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTPARTITION
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

static constexpr StringLiteral kShardingsAttrName =
    DistDialect::kShardingsAttrName;

namespace {

class Partitioner {
public:
  Partitioner(func::FuncOp func, MeshOp meshOp, const PartitionOptions &options)
      : func(func), ctx(func.getContext()), meshOp(meshOp),
        funcMesh(Mesh::fromOp(meshOp)), options(options),
        sequenceParallel(func->hasAttr(kSequenceParallelAttrName)) {}

  LogicalResult run();

private:
  /// A value of the original program, as it now exists: its local value,
  /// its layout and the mesh it lives on.
  struct Placed {
    Value local;
    /// Index into `pool`.
    unsigned layout;
    const Mesh *mesh;
    /// A copy made for the backward pass (kept apart only with sequence
    /// parallelism, see getAs).
    bool backward = false;
  };

  const Mesh *meshOf(Operation *op) {
    if (options.meshOf)
      if (const Mesh *mesh = options.meshOf(op))
        return mesh;
    return &funcMesh;
  }
  static bool sameMesh(const Mesh *a, const Mesh *b) {
    return a == b ||
           (a->getDevices() == b->getDevices() &&
            a->getShape() == b->getShape() && a->getAxes() == b->getAxes());
  }
  static bool sameShape(const Mesh *a, const Mesh *b) {
    return a->getShape() == b->getShape() && a->getAxes() == b->getAxes();
  }
  DevicesAttr devicesOf(const Mesh *mesh) {
    DevicesAttr &devices = deviceCache[mesh];
    if (!devices)
      devices = DevicesAttr::getFromUnsorted(ctx, mesh->getDevices());
    return devices;
  }
  DeviceGroupsAttr groupsOf(const Mesh *mesh, ArrayRef<int64_t> axes) {
    auto key =
        std::make_pair(mesh->getDevices(), SmallVector<int64_t, 2>(axes));
    auto it = groupCache.find(key);
    if (it != groupCache.end())
      return it->second;
    DeviceGroupsAttr groups = DeviceGroupsAttr::get(ctx, mesh->getGroups(axes));
    groupCache.emplace(std::move(key), groups);
    return groups;
  }

  FailureOr<Layout> resolve(Operation *at, ShardingAttr sharding,
                            const Mesh *mesh, StringRef what);
  FailureOr<RankedTensorType> localType(Operation *at, Type global,
                                        const Layout &layout, const Mesh *mesh,
                                        StringRef what);
  /// `original` laid out as `layout` on `mesh`, resharded and sent there if
  /// needed (memoized: every consumer that needs the same gets one value).
  FailureOr<Value> getAs(Operation *user, Value original, const Layout &layout,
                         const Mesh *mesh);
  Value reshard(OpBuilder &builder, Location loc, Value value,
                const Layout &from, const Layout &to, const Mesh *mesh);
  Value scale(OpBuilder &builder, Location loc, Value value, int64_t divisor);
  /// `value`, laid out as `layout` on mesh `from`, sent to `to`: whole, or
  /// scattered and gathered over PartitionOptions::scatterGatherAxis.
  /// `receiver` gives the hints of the receiving side's ops.
  Value send(OpBuilder &builder, Location loc, Value value,
             const Layout &layout, const Mesh &from, const Mesh &to,
             Operation *receiver);
  LogicalResult partitionOp(Operation *op);
  /// Whether the loop sharding splits a loop that only the op's local
  /// expansion can split.
  static bool expands(const ShardingRule &rule, const LoopSharding &loops);
  /// The op on local operands, its shape attributes localized.
  FailureOr<SmallVector<Value>> buildClone(Operation *op,
                                           ValueRange localOperands,
                                           ArrayRef<RankedTensorType> expected);
  /// The op's own local form (ShardingRuleOpInterface::buildLocalExpansion).
  FailureOr<SmallVector<Value>>
  buildExpansion(Operation *op, const ShardingRule &rule,
                 const LoopSharding &loops, ValueRange localOperands,
                 ArrayRef<RankedTensorType> expected, const Mesh *mesh);
  void copyHints(Operation *from, Operation *to);

  func::FuncOp func;
  MLIRContext *ctx;
  MeshOp meshOp;
  Mesh funcMesh;
  const PartitionOptions &options;
  /// Sequence parallelism (kSequenceParallelAttrName): backward re-gathers
  /// what forward gathered, and new splits are local slices.
  bool sequenceParallel;
  LayoutPool pool;
  llvm::DenseMap<Value, Placed> placed;
  llvm::DenseMap<Value, SmallVector<Placed, 1>> copies;
  std::map<std::pair<ArrayRef<int64_t>, SmallVector<int64_t, 2>>,
           DeviceGroupsAttr>
      groupCache;
  llvm::DenseMap<const Mesh *, DevicesAttr> deviceCache;
  /// Shardings resolved against a mesh: few distinct ones serve many ops.
  llvm::DenseMap<std::pair<Attribute, const Mesh *>, Layout> layoutCache;
  /// The op whose hints (layer, phase, stage, microbatch) new ops inherit.
  Operation *hintSource = nullptr;
  /// Values local expansions share (LocalExpansion::shared).
  llvm::DenseMap<std::pair<StringRef, Value>, SmallVector<Value, 2>>
      sharedByExpansions;
};

} // namespace

FailureOr<Layout> Partitioner::resolve(Operation *at, ShardingAttr sharding,
                                       const Mesh *mesh, StringRef what) {
  if (sharding.getMesh().getValue() != meshOp.getSymName())
    return at->emitError() << what << ": sharding names mesh "
                           << sharding.getMesh()
                           << " but the function works on @"
                           << meshOp.getSymName();
  auto key = std::make_pair(Attribute(sharding), mesh);
  auto it = layoutCache.find(key);
  if (it != layoutCache.end())
    return it->second;
  FailureOr<Layout> layout = getLayout(
      sharding, *mesh, [&] { return at->emitError() << what << ": "; });
  if (failed(layout))
    return failure();
  layoutCache[key] = *layout;
  return layout;
}

FailureOr<RankedTensorType> Partitioner::localType(Operation *at, Type global,
                                                   const Layout &layout,
                                                   const Mesh *mesh,
                                                   StringRef what) {
  auto tensor = cast<RankedTensorType>(global);
  if (layout.getRank() != tensor.getRank())
    return at->emitError() << what << ": sharding of rank " << layout.getRank()
                           << " for " << tensor;
  std::optional<SmallVector<int64_t>> shape =
      layout.getLocalShape(tensor.getShape(), *mesh);
  if (!shape)
    return at->emitError() << what << ": sharding "
                           << getShardingAttr(ctx, meshOp.getSymName(), *mesh,
                                              layout)
                           << " does not divide " << tensor;
  return RankedTensorType::get(*shape, tensor.getElementType(),
                               devicesOf(mesh));
}

void Partitioner::copyHints(Operation *from, Operation *to) {
  if (!from)
    return;
  for (NamedAttribute attr : from->getDiscardableAttrs()) {
    StringRef name = attr.getName().getValue();
    if (isa_and_nonnull<DistDialect>(attr.getNameDialect()) &&
        name != DistDialect::kShardingAttrName && name != kShardingsAttrName)
      to->setAttr(attr.getName(), attr.getValue());
  }
}

Value Partitioner::scale(OpBuilder &builder, Location loc, Value value,
                         int64_t divisor) {
  auto type = cast<RankedTensorType>(value.getType());
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  auto factor = DenseElementsAttr::get(
      scalarType, FloatAttr::get(type.getElementType(), 1.0 / divisor));
  auto constant = ConstantOp::create(builder, loc, factor, getPlacement(type));
  auto mul = MulOp::create(builder, loc, value, constant);
  copyHints(hintSource, constant);
  copyHints(hintSource, mul);
  return mul;
}

Value Partitioner::reshard(OpBuilder &builder, Location loc, Value value,
                           const Layout &from, const Layout &to,
                           const Mesh *mesh) {
  using Kind = ReshardStep::Kind;
  assert(from.getRank() == to.getRank() && "resharding keeps the rank");
  LLVM_DEBUG(if (from != to) llvm::dbgs()
             << "reshard " << value.getType() << " from " << from << " to "
             << to << " at " << loc << "\n");
  for (const ReshardStep &step : planReshard(from, to)) {
    DeviceGroupsAttr groups = groupsOf(mesh, step.axes);
    Operation *created = nullptr;
    switch (step.kind) {
    case Kind::AllReduce:
      created =
          AllReduceOp::create(builder, loc, value, groups, ReductionKind::sum);
      break;
    case Kind::Slice:
      // Sequence parallelism splits replicated parameters (a position
      // table) along the sequence: each device cuts its block locally.
      if (sequenceParallel) {
        value =
            takeGroupBlock(builder, loc, value, step.dim, groups,
                           [&](Operation *op) { copyHints(hintSource, op); });
        continue;
      }
      [[fallthrough]];
    case Kind::ReduceScatter:
      // A slice is the average of identical copies: each device keeps its
      // block without a device-indexed slice op.
      created = ReduceScatterOp::create(
          builder, loc, value, groups, (uint64_t)step.dim,
          step.kind == Kind::Slice ? ReductionKind::avg : ReductionKind::sum);
      break;
    case Kind::AllGather:
      created =
          AllGatherOp::create(builder, loc, value, groups, (uint64_t)step.dim);
      break;
    case Kind::AllToAll:
      created =
          AllToAllOp::create(builder, loc, value, groups, (uint64_t)step.dim,
                             (uint64_t)step.concatDim);
      break;
    case Kind::MakePartial:
      value = scale(builder, loc, value, groups.getGroupSize());
      continue;
    }
    copyHints(hintSource, created);
    value = created->getResult(0);
  }
  return value;
}

Value Partitioner::send(OpBuilder &builder, Location loc, Value value,
                        const Layout &layout, const Mesh &from, const Mesh &to,
                        Operation *receiver) {
  std::optional<int64_t> axis;
  if (!options.scatterGatherAxis.empty())
    axis = from.getAxisIndex(options.scatterGatherAxis);
  // Only a value every device of the axis holds whole is cut.
  std::optional<int64_t> dim;
  if (axis && !layout.usesAxis(*axis))
    dim = getScatterGatherDim(cast<RankedTensorType>(value.getType()),
                              from.getAxisSize(*axis));
  if (!dim) {
    auto send = SendOp::create(builder, loc, value, devicesOf(&to));
    copyHints(hintSource, send);
    return send;
  }
  return sendScatterGather(
      builder, loc, value, *dim, devicesOf(&to), groupsOf(&from, {*axis}),
      groupsOf(&to, {*axis}), [&](Operation *op) { copyHints(hintSource, op); },
      [&](Operation *op) { copyHints(receiver, op); });
}

FailureOr<Value> Partitioner::getAs(Operation *user, Value original,
                                    const Layout &layout, const Mesh *mesh) {
  auto it = placed.find(original);
  if (it == placed.end())
    return user->emitOpError("uses a value the partitioner has not placed");
  const Placed source = it->second;
  unsigned wanted = pool.intern(layout);
  if (source.layout == wanted && sameMesh(source.mesh, mesh))
    return source.local;
  // With sequence parallelism, forward's gathered copy of a sequence-split
  // activation is not kept for backward (Korthikanti et al. §4.2.2): the
  // backward gathers it again.
  bool backward = sequenceParallel && getPhase(user) == Phase::Backward &&
                  pool[source.layout].partial.empty();
  auto copied = copies.find(original);
  if (copied != copies.end())
    for (const Placed &copy : copied->second)
      if (copy.layout == wanted && sameMesh(copy.mesh, mesh) &&
          copy.backward == backward)
        return copy.local;

  // A partial sum of a replicated value is its scaled copy: floats only.
  const Layout &from = pool[source.layout];
  if (!isa<FloatType>(getElementTypeOrSelf(original.getType())) &&
      llvm::any_of(layout.partial, [&](int64_t axis) {
        return !llvm::is_contained(from.partial, axis);
      }))
    return user->emitOpError("needs a partial sum of a non-float value");

  // Reshard where the value lives, then send it across.
  Layout target = layout;
  bool crossing = !sameMesh(source.mesh, mesh);
  if (crossing) {
    if (source.mesh->getShape() != mesh->getShape() ||
        source.mesh->getAxes() != mesh->getAxes())
      return user->emitOpError("needs a value from a mesh of another shape");
    // Send pairs devices by position in the sorted sets: coordinates must
    // agree.
    SmallVector<int64_t> fromIds(source.mesh->getDevices()),
        toIds(mesh->getDevices());
    SmallVector<int64_t> sortedFrom(fromIds), sortedTo(toIds);
    llvm::sort(sortedFrom);
    llvm::sort(sortedTo);
    for (size_t i = 0; i < sortedFrom.size(); ++i)
      if (source.mesh->getCoordinates(sortedFrom[i]) !=
          mesh->getCoordinates(sortedTo[i]))
        return user->emitOpError(
            "cannot send between meshes whose devices are ordered differently");
  }
  OpBuilder builder(user);
  Operation *savedHints = hintSource;
  if (crossing)
    if (Operation *producer = original.getDefiningOp())
      hintSource = producer;
  Value value = reshard(builder, user->getLoc(), source.local,
                        pool[source.layout], target, source.mesh);
  if (crossing) {
    LLVM_DEBUG(llvm::dbgs()
               << "send " << value.getType() << " for " << user->getName()
               << " at " << user->getLoc() << "\n");
    value = send(builder, user->getLoc(), value, target, *source.mesh, *mesh,
                 savedHints);
  }
  hintSource = savedHints;
  copies[original].push_back({value, wanted, mesh, backward});
  return value;
}

bool Partitioner::expands(const ShardingRule &rule, const LoopSharding &loops) {
  for (auto [loop, axes] : llvm::enumerate(loops.loops))
    if (!axes.empty() && rule.loops[loop].expands)
      return true;
  return false;
}

FailureOr<SmallVector<Value>>
Partitioner::buildClone(Operation *op, ValueRange localOperands,
                        ArrayRef<RankedTensorType> expected) {
  IRMapping mapping;
  mapping.map(op->getOperands(), localOperands);
  OpBuilder builder(op);
  Operation *local = builder.clone(*op, mapping);
  if (failed(localizeShapeAttributes(local, expected))) {
    local->erase();
    return failure();
  }
  SmallVector<Type> inferred;
  auto infer = cast<InferTypeOpInterface>(local);
  if (failed(infer.inferReturnTypes(ctx, local->getLoc(), local->getOperands(),
                                    local->getRawDictionaryAttrs(),
                                    local->getPropertiesStorage(),
                                    local->getRegions(), inferred))) {
    local->erase();
    return op->emitOpError("cannot be partitioned: its local form is invalid");
  }
  for (auto [r, type] : llvm::enumerate(inferred)) {
    if (type != expected[r]) {
      local->erase();
      return op->emitOpError("partitioned result #")
             << r << " would be " << type << " but its sharding needs "
             << expected[r];
    }
    local->getResult(r).setType(type);
  }
  return SmallVector<Value>(local->getResults());
}

namespace {
/// Remembers the ops an expansion inserts, so that they inherit the hints.
struct InsertedOps : public OpBuilder::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.push_back(op);
  }
  SmallVector<Operation *> ops;
};
} // namespace

FailureOr<SmallVector<Value>>
Partitioner::buildExpansion(Operation *op, const ShardingRule &rule,
                            const LoopSharding &loops, ValueRange localOperands,
                            ArrayRef<RankedTensorType> expected,
                            const Mesh *mesh) {
  LocalExpansion expansion;
  for (ArrayRef<int64_t> axes : loops.loops)
    expansion.loopGroups.push_back(axes.empty() ? DeviceGroupsAttr()
                                                : groupsOf(mesh, axes));
  expansion.resultTypes.assign(expected.begin(), expected.end());
  expansion.shared = &sharedByExpansions;
  InsertedOps inserted;
  OpBuilder builder(op, &inserted);
  FailureOr<SmallVector<Value>> results =
      cast<ShardingRuleOpInterface>(op).buildLocalExpansion(
          builder, localOperands, expansion);
  if (failed(results))
    return failure();
  for (Operation *created : inserted.ops)
    copyHints(op, created);
  for (auto [r, value] : llvm::enumerate(*results))
    if (value.getType() != expected[r])
      return op->emitOpError("partitioned result #")
             << r << " would be " << value.getType()
             << " but its sharding needs " << expected[r];
  LLVM_DEBUG(llvm::dbgs() << "expanded " << op->getName() << " into "
                          << inserted.ops.size() << " ops\n");
  return results;
}

LogicalResult Partitioner::partitionOp(Operation *op) {
  const Mesh *mesh = meshOf(op);
  hintSource = op;
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
    FailureOr<Layout> layout =
        resolve(op, constraint.getSharding(), mesh, "constraint");
    if (failed(layout))
      return failure();
    FailureOr<Value> local = getAs(op, constraint.getInput(), *layout, mesh);
    if (failed(local))
      return failure();
    placed[constraint.getResult()] = {*local, pool.intern(*layout), mesh};
    return success();
  }

  FailureOr<ShardingRule> rule = getShardingRule(op);
  if (failed(rule))
    return failure();
  SmallVector<Attribute> shardings;
  if (auto single =
          op->getAttrOfType<ShardingAttr>(DistDialect::kShardingAttrName))
    shardings.push_back(single);
  else if (auto array = op->getAttrOfType<ArrayAttr>(kShardingsAttrName))
    shardings.assign(array.begin(), array.end());
  if (shardings.size() != op->getNumResults())
    return op->emitOpError(
        "has no result sharding: run dist-propagate-sharding "
        "first");
  SmallVector<Layout> resultLayouts;
  for (auto [r, attr] : llvm::enumerate(shardings)) {
    auto sharding = dyn_cast<ShardingAttr>(attr);
    if (!sharding)
      return op->emitOpError("result shardings must be #dist.sharding");
    FailureOr<Layout> layout =
        resolve(op, sharding, mesh, "result " + std::to_string(r));
    if (failed(layout))
      return failure();
    resultLayouts.push_back(*layout);
  }

  // Operand layouts as the op's mesh names them (for pending sums that flow
  // through linear ops). A value from another stage's mesh of the same shape
  // keeps its layout across the send (devices are paired by coordinates), so
  // a partial sum over dp sent from another stage (a gradient contribution
  // of a parameter read on two stages) flows through the add that combines
  // it.
  SmallVector<Layout> operandStorage(op->getNumOperands());
  SmallVector<const Layout *> operandLayouts;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto it = placed.find(operand);
    const Layout *layout = nullptr;
    if (it != placed.end() &&
        (sameMesh(it->second.mesh, mesh) || sameShape(it->second.mesh, mesh)))
      layout = &pool[it->second.layout];
    operandLayouts.push_back(layout);
  }
  FailureOr<LoopSharding> loops =
      deriveLoopSharding(op, *rule, operandLayouts, resultLayouts, *mesh);
  if (failed(loops))
    return failure();
  LLVM_DEBUG(llvm::dbgs() << "partitioning " << op->getName() << " at "
                          << op->getLoc() << ": " << *loops << "\n");

  SmallVector<Value> localOperands;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    FailureOr<Value> local =
        getAs(op, operand, loops->getOperandLayout(*rule, i), mesh);
    if (failed(local))
      return failure();
    localOperands.push_back(*local);
  }
  SmallVector<RankedTensorType> expected;
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    FailureOr<RankedTensorType> type =
        localType(op, result.getType(), resultLayouts[r], mesh,
                  "result " + std::to_string(r));
    if (failed(type))
      return failure();
    expected.push_back(*type);
  }

  FailureOr<SmallVector<Value>> localResults =
      expands(*rule, *loops)
          ? buildExpansion(op, *rule, *loops, localOperands, expected, mesh)
          : buildClone(op, localOperands, expected);
  if (failed(localResults))
    return failure();

  int64_t normalization = loops->getNormalization(*rule, *mesh);
  OpBuilder builder(op);
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    Value value = (*localResults)[r];
    if (normalization > 1 &&
        isa<FloatType>(
            cast<RankedTensorType>(value.getType()).getElementType()))
      value = scale(builder, op->getLoc(), value, normalization);
    placed[result] = {value, pool.intern(resultLayouts[r]), mesh};
  }
  return success();
}

LogicalResult Partitioner::run() {
  if (func.getBody().getBlocks().size() != 1)
    return func.emitOpError("partitioning needs a function with one block");
  Block &body = func.getBody().front();
  for (Type type : func.getArgumentTypes())
    if (getPlacement(type))
      return func.emitOpError("is already placed");

  // Arguments live on the mesh of their first user.
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  SmallVector<Type> argTypes;
  SmallVector<BlockArgument> originalArgs(body.getArguments());
  for (BlockArgument arg : originalArgs) {
    Operation *firstUser = nullptr;
    for (Operation *user : arg.getUsers())
      if (!isa<func::ReturnOp>(user) &&
          (!firstUser || user->isBeforeInBlock(firstUser)))
        firstUser = user;
    const Mesh *mesh = firstUser ? meshOf(firstUser) : &funcMesh;
    assert(mesh && "every op runs on a mesh");
    std::string what = "argument " + std::to_string(arg.getArgNumber());
    Layout layout =
        Layout::replicated(cast<RankedTensorType>(arg.getType()).getRank());
    if (auto sharding = func.getArgAttrOfType<ShardingAttr>(
            arg.getArgNumber(), DistDialect::kShardingAttrName)) {
      FailureOr<Layout> resolved = resolve(func, sharding, mesh, what);
      if (failed(resolved))
        return failure();
      layout = *resolved;
    }
    if (!layout.partial.empty())
      return func.emitError() << what << ": inputs cannot be partial sums";
    FailureOr<RankedTensorType> type =
        localType(func, arg.getType(), layout, mesh, what);
    if (failed(type))
      return failure();
    // The original ops keep their global operand types until they are
    // erased (the rules read them): the local arguments are new ones.
    argTypes.push_back(*type);
    placed[arg] = {body.addArgument(*type, arg.getLoc()), pool.intern(layout),
                   mesh};
  }

  for (Operation *op : ops)
    if (failed(partitionOp(op)))
      return failure();

  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Value> results;
  SmallVector<ShardingAttr> resultShardings;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto it = placed.find(value);
    if (it == placed.end())
      return ret.emitOpError("returns a value the partitioner has not placed");
    const Mesh *mesh = it->second.mesh;
    Layout layout = pool[it->second.layout];
    layout.partial.clear();
    if (auto sharding = func.getResultAttrOfType<ShardingAttr>(
            i, DistDialect::kShardingAttrName)) {
      FailureOr<Layout> resolved =
          resolve(func, sharding, mesh, "result " + std::to_string(i));
      if (failed(resolved))
        return failure();
      layout = *resolved;
    }
    if (failed(localType(func, value.getType(), layout, mesh,
                         "result " + std::to_string(i))))
      return failure();
    hintSource = value.getDefiningOp();
    FailureOr<Value> local = getAs(ret, value, layout, mesh);
    if (failed(local))
      return failure();
    results.push_back(*local);
    resultShardings.push_back(
        getShardingAttr(ctx, meshOp.getSymName(), *mesh, layout));
  }
  setSignatureShardings(func, {}, resultShardings);
  ret->setOperands(results);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  body.eraseArguments(0, originalArgs.size());
  func.setFunctionType(
      FunctionType::get(ctx, argTypes, ValueRange(results).getTypes()));
  func->setAttr(DistDialect::kMeshAttrName, FlatSymbolRefAttr::get(meshOp));
  return success();
}

LogicalResult mlir::dist::partitionFunction(func::FuncOp func,
                                            const PartitionOptions &options) {
  FailureOr<MeshOp> mesh = getFunctionMesh(func);
  if (failed(mesh))
    return failure();
  return *mesh ? Partitioner(func, *mesh, options).run() : success();
}

LogicalResult mlir::dist::annotateAndPartition(
    ModuleOp module, function_ref<LogicalResult(func::FuncOp)> annotate,
    bool annotateOnly) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (failed(annotate(func)))
      return failure();
    if (!annotateOnly &&
        (failed(propagateShardings(func)) || failed(partitionFunction(func))))
      return failure();
  }
  return success();
}

namespace {
struct PartitionPass
    : public mlir::dist::impl::DistPartitionBase<PartitionPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(partitionFunction(func)))
        return signalPassFailure();
  }
};
} // namespace
