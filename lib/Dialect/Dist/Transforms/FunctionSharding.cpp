//===- FunctionSharding.cpp - the mesh of a function and its signature ----===//
//
// Helpers every sharding transform shares: finding or creating the mesh a
// function works on, and setting the shardings of its signature at once.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/FunctionSharding.h"
#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::dist;

static constexpr StringLiteral kShardingsAttrName =
    DistDialect::kShardingsAttrName;

FailureOr<MeshOp>
mlir::dist::getOrCreateMesh(ModuleOp module, StringRef name,
                            ArrayRef<std::pair<std::string, int64_t>> axes) {
  // An empty name would be printed as the unparsable @<<INVALID EMPTY
  // SYMBOL>>.
  if (name.empty())
    return module.emitError() << "mesh= must name a mesh symbol, got ''";
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
