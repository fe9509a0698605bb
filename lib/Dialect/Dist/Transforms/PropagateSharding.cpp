//===- PropagateSharding.cpp - complete sharding annotations -------------===//
//
// Layouts (shardings resolved against a mesh), resharding plans and their
// cost, loop shardings over the ops' ShardingRules, and the propagation that
// completes a function's shardings from a few annotations (GSPMD-style).
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace mlir::dist {
#define GEN_PASS_DEF_DISTPROPAGATESHARDING
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

static constexpr int64_t kNone = ShardingRule::kNoLoop;
static constexpr StringLiteral kShardingsAttrName = "dist.shardings";

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

Layout Layout::replicated(int64_t rank) {
  Layout layout;
  layout.dims.resize(rank);
  return layout;
}

bool Layout::isReplicated() const {
  return partial.empty() &&
         llvm::all_of(dims, [](const auto &axes) { return axes.empty(); });
}

bool Layout::usesAxis(int64_t axis) const {
  if (llvm::is_contained(partial, axis))
    return true;
  return llvm::any_of(
      dims, [&](const auto &axes) { return llvm::is_contained(axes, axis); });
}

static int64_t productOfAxes(ArrayRef<int64_t> axes, const Mesh &mesh) {
  int64_t product = 1;
  for (int64_t axis : axes)
    product *= mesh.getAxisSize(axis);
  return product;
}

int64_t Layout::getShards(int64_t dim, const Mesh &mesh) const {
  return productOfAxes(dims[dim], mesh);
}

std::optional<SmallVector<int64_t>>
Layout::getLocalShape(ArrayRef<int64_t> shape, const Mesh &mesh) const {
  SmallVector<int64_t> local(shape);
  for (auto [dim, size] : llvm::enumerate(local)) {
    int64_t shards = getShards(dim, mesh);
    if (shards == 1)
      continue;
    if (ShapedType::isDynamic(size) || size % shards != 0)
      return std::nullopt;
    size /= shards;
  }
  return local;
}

unsigned LayoutPool::intern(const Layout &layout) {
  // Rank, then per dim its axis count and axes, then the partial axes.
  std::vector<int64_t> key{layout.getRank()};
  for (const auto &axes : layout.dims) {
    key.push_back(axes.size());
    key.insert(key.end(), axes.begin(), axes.end());
  }
  key.insert(key.end(), layout.partial.begin(), layout.partial.end());
  auto [it, inserted] = ids.try_emplace(std::move(key), layouts.size());
  if (inserted)
    layouts.push_back(layout);
  return it->second;
}

FailureOr<Layout> mlir::dist::getLayout(ShardingAttr sharding, const Mesh &mesh,
                                        std::string &error) {
  Layout layout;
  auto resolve = [&](StringRef name) -> std::optional<int64_t> {
    std::optional<int64_t> axis = mesh.getAxisIndex(name);
    if (!axis)
      error = ("mesh @" + sharding.getMesh().getValue() + " has no axis \"" +
               name + "\"")
                  .str();
    return axis;
  };
  for (int64_t dim = 0; dim < sharding.getRank(); ++dim) {
    layout.dims.emplace_back();
    for (StringRef name : sharding.getAxesOfDim(dim)) {
      std::optional<int64_t> axis = resolve(name);
      if (!axis)
        return failure();
      layout.dims.back().push_back(*axis);
    }
  }
  for (StringRef name : sharding.getPartial()) {
    std::optional<int64_t> axis = resolve(name);
    if (!axis)
      return failure();
    layout.partial.push_back(*axis);
  }
  llvm::sort(layout.partial);
  return layout;
}

ShardingAttr mlir::dist::getShardingAttr(MLIRContext *ctx, StringRef meshName,
                                         const Mesh &mesh,
                                         const Layout &layout) {
  SmallVector<SmallVector<StringRef>> dims;
  for (const auto &axes : layout.dims) {
    dims.emplace_back();
    for (int64_t axis : axes)
      dims.back().push_back(mesh.getAxes()[axis]);
  }
  SmallVector<StringRef> partial;
  for (int64_t axis : layout.partial)
    partial.push_back(mesh.getAxes()[axis]);
  return ShardingAttr::get(ctx, meshName, dims, partial);
}

//===----------------------------------------------------------------------===//
// Resharding plans
//===----------------------------------------------------------------------===//

/// Whether `axis` may be appended to dim `dim` of `current` on the way to
/// `target`: the current split is a prefix of the target's, whose next axis
/// is `axis`.
static bool isNextAxis(const Layout &current, const Layout &target, int64_t dim,
                       int64_t axis) {
  ArrayRef<int64_t> have = current.dims[dim], want = target.dims[dim];
  return have.size() < want.size() && want.take_front(have.size()) == have &&
         want[have.size()] == axis;
}

SmallVector<ReshardStep> mlir::dist::planReshard(const Layout &from,
                                                 const Layout &to) {
  using Kind = ReshardStep::Kind;
  SmallVector<ReshardStep> steps;
  Layout current = from;
  int64_t rank = current.getRank();

  // Pending sums: reduce-scatter straight into a split the target wants.
  SmallVector<int64_t, 2> reduce;
  for (int64_t axis : current.partial) {
    if (llvm::is_contained(to.partial, axis))
      continue;
    bool scattered = false;
    for (int64_t dim = 0; dim < rank && !scattered; ++dim) {
      if (!isNextAxis(current, to, dim, axis))
        continue;
      steps.push_back({Kind::ReduceScatter, {axis}, dim});
      current.dims[dim].push_back(axis);
      scattered = true;
    }
    if (!scattered)
      reduce.push_back(axis);
  }
  if (!reduce.empty())
    steps.push_back({Kind::AllReduce, reduce});
  llvm::erase_if(current.partial, [&](int64_t axis) {
    return !llvm::is_contained(to.partial, axis);
  });

  // Splits the target does not keep: move one axis with all_to_all where the
  // target wants it next on another dim, gather the rest.
  for (int64_t dim = 0; dim < rank; ++dim) {
    ArrayRef<int64_t> want = to.dims[dim];
    size_t keep = 0;
    while (keep < current.dims[dim].size() && keep < want.size() &&
           current.dims[dim][keep] == want[keep])
      ++keep;
    if (keep == current.dims[dim].size())
      continue;
    if (current.dims[dim].size() - keep == 1) {
      int64_t axis = current.dims[dim].back();
      bool moved = false;
      for (int64_t other = 0; other < rank && !moved; ++other) {
        if (other == dim || !isNextAxis(current, to, other, axis))
          continue;
        steps.push_back({Kind::AllToAll, {axis}, other, dim});
        current.dims[dim].pop_back();
        current.dims[other].push_back(axis);
        moved = true;
      }
      if (moved)
        continue;
    }
    SmallVector<int64_t, 2> gathered(current.dims[dim].begin() + keep,
                                     current.dims[dim].end());
    steps.push_back({Kind::AllGather, gathered, dim});
    current.dims[dim].resize(keep);
  }

  // New splits of replicated data.
  for (int64_t dim = 0; dim < rank; ++dim) {
    ArrayRef<int64_t> want = to.dims[dim];
    if (current.dims[dim].size() == want.size())
      continue;
    SmallVector<int64_t, 2> added(want.begin() + current.dims[dim].size(),
                                  want.end());
    steps.push_back({Kind::Slice, added, dim});
    current.dims[dim].assign(want.begin(), want.end());
  }

  SmallVector<int64_t, 2> made;
  for (int64_t axis : to.partial)
    if (!llvm::is_contained(from.partial, axis))
      made.push_back(axis);
  if (!made.empty())
    steps.push_back({Kind::MakePartial, made});
  return steps;
}

double mlir::dist::estimateReshardBytes(ArrayRef<int64_t> shape,
                                        int64_t elementBytes,
                                        const Layout &from, const Layout &to,
                                        const Mesh &mesh) {
  if (from == to)
    return 0;
  double globalBytes = elementBytes;
  for (int64_t size : shape)
    globalBytes *= ShapedType::isDynamic(size) ? 1 : size;
  Layout current = from;
  auto localBytes = [&]() {
    double bytes = globalBytes;
    for (int64_t dim = 0; dim < current.getRank(); ++dim)
      bytes /= current.getShards(dim, mesh);
    return bytes;
  };
  double total = 0;
  for (const ReshardStep &step : planReshard(from, to)) {
    double n = productOfAxes(step.axes, mesh);
    double local = localBytes();
    switch (step.kind) {
    case ReshardStep::Kind::AllReduce:
      total += 2 * (n - 1) / n * local;
      break;
    case ReshardStep::Kind::ReduceScatter:
    case ReshardStep::Kind::Slice:
    case ReshardStep::Kind::AllToAll:
      total += (n - 1) / n * local;
      break;
    case ReshardStep::Kind::AllGather:
      total += (n - 1) * local;
      break;
    case ReshardStep::Kind::MakePartial:
      break;
    }
    switch (step.kind) {
    case ReshardStep::Kind::ReduceScatter:
    case ReshardStep::Kind::Slice:
      llvm::append_range(current.dims[step.dim], step.axes);
      break;
    case ReshardStep::Kind::AllGather:
      current.dims[step.dim].resize(current.dims[step.dim].size() -
                                    step.axes.size());
      break;
    case ReshardStep::Kind::AllToAll:
      current.dims[step.concatDim].pop_back();
      current.dims[step.dim].push_back(step.axes.front());
      break;
    default:
      break;
    }
  }
  return total;
}

//===----------------------------------------------------------------------===//
// Loop shardings
//===----------------------------------------------------------------------===//

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
      factor *= productOfAxes(axes, mesh);
  return factor;
}

std::string mlir::dist::checkLoopSplit(Operation *op, const ShardingRule &rule,
                                       int64_t loop, ArrayRef<int64_t> axes,
                                       const Mesh &mesh) {
  if (axes.empty())
    return {};
  if (!rule.loops[loop].splittable)
    return "the op needs this dimension whole on every device";
  int64_t shards = productOfAxes(axes, mesh);
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
  auto iface = dyn_cast<DistOpInterface>(op);
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
  if (rule.linearity == ShardingRule::Linearity::Joint &&
      !rule.linearOperands.empty()) {
    const Layout *first = operandLayouts[rule.linearOperands.front()];
    bool same = first && !first->partial.empty();
    for (unsigned i : rule.linearOperands)
      same = same && operandLayouts[i] &&
             operandLayouts[i]->partial == first->partial;
    for (const Layout &result : resultLayouts)
      same = same && llvm::all_of(first->partial, [&](int64_t axis) {
               return llvm::is_contained(result.partial, axis);
             });
    if (same)
      sharding.passThrough.assign(first->partial.begin(), first->partial.end());
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

//===----------------------------------------------------------------------===//
// Meshes
//===----------------------------------------------------------------------===//

FailureOr<MeshOp>
mlir::dist::getOrCreateMesh(ModuleOp module, StringRef name,
                            ArrayRef<std::pair<std::string, int64_t>> axes) {
  if (auto mesh = module.lookupSymbol<MeshOp>(name)) {
    Mesh resolved = Mesh::fromOp(mesh);
    for (const auto &[axis, size] : axes) {
      std::optional<int64_t> index = resolved.getAxisIndex(axis);
      if (!index)
        return mesh.emitError()
               << "mesh @" << name << " has no axis \"" << axis << "\"";
      if (size > 0 && resolved.getAxisSize(*index) != size)
        return mesh.emitError()
               << "mesh @" << name << " has " << resolved.getAxisSize(*index)
               << " devices along \"" << axis << "\", not " << size;
    }
    return mesh;
  }
  if (module.lookupSymbol(name))
    return module.emitError() << "symbol @" << name << " is not a dist.mesh";
  SmallVector<int64_t> shape;
  SmallVector<std::string> names;
  SmallVector<StringRef> nameRefs;
  for (const auto &[axis, size] : axes) {
    if (size <= 0)
      return module.emitError()
             << "no mesh @" << name << ": give the size of \"" << axis << "\"";
    shape.push_back(size);
    names.push_back(axis);
  }
  if (std::optional<std::string> problem = Mesh::verify(shape, names, {}))
    return module.emitError() << *problem;
  for (const std::string &axis : names)
    nameRefs.push_back(axis);
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return MeshOp::create(builder, module.getLoc(), builder.getStringAttr(name),
                        builder.getDenseI64ArrayAttr(shape),
                        builder.getStrArrayAttr(nameRefs), DenseI64ArrayAttr());
}

void mlir::dist::setSignatureShardings(func::FuncOp func,
                                       ArrayRef<ShardingAttr> args,
                                       ArrayRef<ShardingAttr> results) {
  MLIRContext *ctx = func.getContext();
  auto update = [&](unsigned count, function_ref<DictionaryAttr(unsigned)> get,
                    ArrayRef<ShardingAttr> shardings) {
    SmallVector<DictionaryAttr> dicts;
    for (unsigned i = 0; i < count; ++i) {
      NamedAttrList attrs(get(i));
      if (i < shardings.size() && shardings[i])
        attrs.set(DistDialect::kShardingAttrName, shardings[i]);
      dicts.push_back(attrs.getDictionary(ctx));
    }
    return dicts;
  };
  if (!args.empty())
    func.setAllArgAttrs(update(
        func.getNumArguments(),
        [&](unsigned i) { return func.getArgAttrDict(i); }, args));
  if (!results.empty())
    func.setAllResultAttrs(update(
        func.getNumResults(),
        [&](unsigned i) { return func.getResultAttrDict(i); }, results));
}

/// Every sharding attribute a function mentions, with the op to report at.
static void forEachSharding(func::FuncOp func,
                            function_ref<void(Operation *, ShardingAttr)> fn) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto s = func.getArgAttrOfType<ShardingAttr>(
            i, DistDialect::kShardingAttrName))
      fn(func, s);
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (auto s = func.getResultAttrOfType<ShardingAttr>(
            i, DistDialect::kShardingAttrName))
      fn(func, s);
  func.walk([&](Operation *op) {
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
      fn(op, constraint.getSharding());
    if (auto s =
            op->getAttrOfType<ShardingAttr>(DistDialect::kShardingAttrName))
      fn(op, s);
    if (auto array = op->getAttrOfType<ArrayAttr>(kShardingsAttrName))
      for (Attribute attr : array)
        if (auto s = dyn_cast<ShardingAttr>(attr))
          fn(op, s);
  });
}

FailureOr<MeshOp> mlir::dist::getFunctionMesh(func::FuncOp func) {
  if (func.isExternal())
    return MeshOp();
  FlatSymbolRefAttr name =
      func->getAttrOfType<FlatSymbolRefAttr>(DistDialect::kMeshAttrName);
  Operation *at = func;
  bool conflict = false;
  forEachSharding(func, [&](Operation *op, ShardingAttr sharding) {
    if (!name) {
      name = sharding.getMesh();
      at = op;
    } else if (name != sharding.getMesh() && !conflict) {
      conflict = true;
      op->emitError() << "sharding names mesh " << sharding.getMesh()
                      << " but the function works on " << name;
    }
  });
  if (conflict)
    return failure();
  if (!name)
    return MeshOp();
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(func, name);
  if (!mesh)
    return at->emitError() << "unknown mesh " << name;
  return mesh;
}

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
  /// Decides the loop sharding of `op` if anything about it is known.
  FailureOr<bool> tryDecide(Operation *op, bool force);
  LogicalResult writeBack();
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
};

} // namespace

FailureOr<Layout> Propagator::resolve(Operation *at, ShardingAttr sharding,
                                      Type type, StringRef what) {
  std::string error;
  FailureOr<Layout> layout = getLayout(sharding, mesh, error);
  if (failed(layout))
    return at->emitError() << what << ": " << error;
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
    if (!isa<DistOpInterface>(op))
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

FailureOr<bool> Propagator::tryDecide(Operation *op, bool force) {
  FailureOr<ShardingRule> ruleOr = getShardingRule(op);
  if (failed(ruleOr))
    return failure();
  const ShardingRule &rule = *ruleOr;
  auto annotated = annotatedResults.find(op);
  bool hasAnnotation = annotated != annotatedResults.end();

  // What is known: operand layouts, wished result layouts.
  SmallVector<Source> operandSources, resultSources;
  SmallVector<const Layout *> operandLayouts;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    operandLayouts.push_back(findLayout(operand));
    if (operandLayouts.back())
      operandSources.push_back({rule.operandDims[i], operandLayouts.back()});
  }
  SmallVector<const Layout *> resultHints;
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    resultHints.push_back(hasAnnotation ? &annotated->second[r]
                                        : findHint(result));
    if (resultHints.back())
      resultSources.push_back({rule.resultDims[r], resultHints.back()});
  }
  if (!force && operandSources.empty() && resultSources.empty())
    return false;

  // Pending sums flow through jointly linear ops when every linear operand
  // carries the same ones; otherwise they are reduced before the op.
  SmallVector<int64_t, 2> passThrough;
  if (rule.linearity == ShardingRule::Linearity::Joint &&
      !rule.linearOperands.empty()) {
    const Layout *first = operandLayouts[rule.linearOperands.front()];
    bool same = first && !first->partial.empty();
    for (unsigned i : rule.linearOperands)
      same = same && operandLayouts[i] &&
             operandLayouts[i]->partial == first->partial;
    if (same)
      passThrough.assign(first->partial.begin(), first->partial.end());
  }

  SmallVector<bool> inResult(rule.loops.size(), false);
  for (const auto &dims : rule.resultDims)
    for (int64_t loop : dims)
      if (loop != kNone)
        inResult[loop] = true;
  // Whether `axes` may split `loop` (memoized: the check walks every dim).
  struct SplitCheck {
    int64_t loop;
    SmallVector<int64_t, 2> axes;
    bool ok;
  };
  SmallVector<SplitCheck, 8> splitCache;
  auto canSplit = [&](int64_t loop, ArrayRef<int64_t> axes) {
    for (const SplitCheck &check : splitCache)
      if (check.loop == loop && ArrayRef<int64_t>(check.axes) == axes)
        return check.ok;
    bool ok = checkLoopSplit(op, rule, loop, axes, mesh).empty();
    splitCache.push_back({loop, SmallVector<int64_t, 2>(axes), ok});
    return ok;
  };

  auto greedy = [&](ArrayRef<Source> order, bool resultLoopsFirst) {
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
              llvm::any_of(axes,
                           [&](int64_t axis) { return usedAxes[axis]; }) ||
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
  };

  auto bytesOf = [](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return std::max<int64_t>(
        1, mlir::dist::detail::getTensorBytes(
               RankedTensorType::get({}, type.getElementType())));
  };
  auto costOf = [&](const LoopSharding &candidate) {
    double cost = 0;
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (operandLayouts[i])
        cost += estimateReshardBytes(
            cast<RankedTensorType>(operand.getType()).getShape(),
            bytesOf(operand), *operandLayouts[i],
            candidate.getOperandLayout(rule, i), mesh);
    for (auto [r, result] : llvm::enumerate(op->getResults()))
      if (resultHints[r])
        cost += estimateReshardBytes(
            cast<RankedTensorType>(result.getType()).getShape(),
            bytesOf(result), candidate.getResultLayout(rule, r),
            *resultHints[r], mesh);
    return cost;
  };

  // Results the user fixed leave one choice, the one partitioning makes.
  std::optional<LoopSharding> best;
  if (hasAnnotation) {
    FailureOr<LoopSharding> fromAnnotation =
        deriveLoopSharding(op, rule, operandLayouts, annotated->second, mesh);
    if (failed(fromAnnotation))
      return failure();
    best = std::move(*fromAnnotation);
  } else {
    // Candidates: greedy from each known value first (operands, then wished
    // results), in two loop orders; then nothing split. The cheapest wins,
    // the earliest among equals; nothing beats a free one, so the search
    // stops there (most ops of a consistently annotated program).
    SmallVector<Source> all(operandSources);
    llvm::append_range(all, resultSources);
    SmallVector<SmallVector<SmallVector<int64_t, 2>>> seen;
    double bestCost = 0;
    auto consider = [&](LoopSharding candidate) {
      if (llvm::is_contained(seen, candidate.loops))
        return false;
      seen.push_back(candidate.loops);
      double cost = costOf(candidate);
      if (!best || cost < bestCost) {
        best = std::move(candidate);
        bestCost = cost;
      }
      return bestCost == 0;
    };
    bool done = false;
    SmallVector<Source> order;
    for (size_t first = 0; first < all.size() && !done; ++first) {
      order.assign({all[first]});
      for (size_t i = 0; i < all.size(); ++i)
        if (i != first)
          order.push_back(all[i]);
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
  }

  for (auto [r, result] : llvm::enumerate(op->getResults()))
    layouts[result] = pool.intern(best->getResultLayout(rule, r));
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (operandLayouts[i])
      continue;
    unsigned needed = pool.intern(best->getOperandLayout(rule, i));
    if (isa<BlockArgument>(operand))
      layouts[operand] = needed;
    else
      hints.try_emplace(operand, needed);
  }
  decided[opIndex[op]] = true;
  return true;
}

LogicalResult Propagator::run() {
  if (func.getBody().getBlocks().size() != 1)
    return func.emitOpError("sharding needs a function with one block");
  if (failed(seed()))
    return failure();
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
