//===- Layout.cpp - shardings resolved against a mesh ---------------------===//

#include "distir/Dialect/Dist/IR/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dist;

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

void mlir::dist::printAxisLists(raw_ostream &os,
                                ArrayRef<SmallVector<int64_t, 2>> lists) {
  os << "[";
  llvm::interleaveComma(lists, os, [&](const auto &axes) {
    os << "[";
    llvm::interleaveComma(axes, os);
    os << "]";
  });
  os << "]";
}

raw_ostream &mlir::dist::operator<<(raw_ostream &os, const Layout &layout) {
  printAxisLists(os, layout.dims);
  if (!layout.partial.empty()) {
    os << " partial [";
    llvm::interleaveComma(layout.partial, os);
    os << "]";
  }
  return os;
}

int64_t mlir::dist::getNumShards(ArrayRef<int64_t> axes, const Mesh &mesh) {
  int64_t product = 1;
  for (int64_t axis : axes)
    product *= mesh.getAxisSize(axis);
  return product;
}

int64_t Layout::getShards(int64_t dim, const Mesh &mesh) const {
  assert(dim >= 0 && dim < getRank() && "dimension out of range");
  return getNumShards(dims[dim], mesh);
}

std::optional<SmallVector<int64_t>>
Layout::getLocalShape(ArrayRef<int64_t> shape, const Mesh &mesh) const {
  assert((int64_t)shape.size() == getRank() && "layout and shape ranks differ");
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

FailureOr<Layout>
mlir::dist::getLayout(ShardingAttr sharding, const Mesh &mesh,
                      function_ref<InFlightDiagnostic()> emitError) {
  Layout layout;
  auto resolve = [&](StringRef name) -> std::optional<int64_t> {
    std::optional<int64_t> axis = mesh.getAxisIndex(name);
    if (!axis)
      emitError() << "mesh @" << sharding.getMesh().getValue()
                  << " has no axis \"" << name << "\"";
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

FailureOr<std::optional<FlatShard>>
mlir::dist::getFlatShard(DictionaryAttr attrs,
                         function_ref<InFlightDiagnostic()> emitError) {
  Attribute value = attrs ? attrs.get(kFlatShardAttrName) : Attribute();
  if (!value)
    return std::optional<FlatShard>();
  auto dict = dyn_cast<DictionaryAttr>(value);
  auto axis = dict ? dict.getAs<StringAttr>("axis") : StringAttr();
  auto shape =
      dict ? dict.getAs<DenseI64ArrayAttr>("shape") : DenseI64ArrayAttr();
  Attribute sharding = dict ? dict.get("sharding") : Attribute();
  if (!axis || !shape || (sharding && !isa<ShardingAttr>(sharding)) ||
      llvm::any_of(shape.asArrayRef(), [](int64_t size) { return size < 0; })) {
    emitError() << "'" << kFlatShardAttrName
                << "' must be {axis = \"<mesh axis>\", shape = array<i64: "
                   "...>, sharding = #dist.sharding<...> (optional)}";
    return failure();
  }
  FlatShard shard{axis.getValue().str(), llvm::to_vector(shape.asArrayRef()),
                  dyn_cast_or_null<ShardingAttr>(sharding)};
  return std::optional<FlatShard>(std::move(shard));
}

DictionaryAttr mlir::dist::getFlatShardAttr(MLIRContext *ctx,
                                            const FlatShard &shard) {
  Builder builder(ctx);
  SmallVector<NamedAttribute> entries{
      builder.getNamedAttr("axis", builder.getStringAttr(shard.axis)),
      builder.getNamedAttr("shape",
                           builder.getDenseI64ArrayAttr(shard.blockShape))};
  if (shard.sharding)
    entries.push_back(builder.getNamedAttr("sharding", shard.sharding));
  return builder.getDictionaryAttr(entries);
}
