//===- Layout.h - shardings resolved against a mesh -------------*- C++ -*-===//
//
// A `#dist.sharding` names mesh axes; a Layout holds their indices in a Mesh,
// the form every transform and the executor compute with. Resolving a
// sharding is the only place that checks its axis names against the mesh.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_LAYOUT_H
#define DISTIR_DIALECT_DIST_IR_LAYOUT_H

#include "distir/Dialect/Dist/IR/DistAttrs.h"
#include "distir/Dialect/Dist/IR/Mesh.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace mlir::dist {

/// Per tensor dimension, the indices of the mesh axes that split it (major to
/// minor), and the sorted axes over which local values are partial sums.
struct Layout {
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>, 4> dims;
  llvm::SmallVector<int64_t, 2> partial;

  static Layout replicated(int64_t rank);
  int64_t getRank() const { return dims.size(); }
  bool isReplicated() const;
  /// Whether `axis` splits some dimension or is partial.
  bool usesAxis(int64_t axis) const;
  /// Number of shards of dimension `dim`.
  int64_t getShards(int64_t dim, const Mesh &mesh) const;
  /// The local shape of a global `shape`; nullopt if a split does not divide.
  std::optional<llvm::SmallVector<int64_t>>
  getLocalShape(llvm::ArrayRef<int64_t> shape, const Mesh &mesh) const;

  bool operator==(const Layout &other) const {
    return dims == other.dims && partial == other.partial;
  }
  bool operator!=(const Layout &other) const { return !(*this == other); }
};

/// Prints mesh axis indices per dim and the partial axes, for debug output:
/// "[[0], []] partial [1]".
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Layout &layout);
/// Prints lists of mesh axis indices: "[[0], [], [1, 2]]".
void printAxisLists(llvm::raw_ostream &os,
                    llvm::ArrayRef<llvm::SmallVector<int64_t, 2>> lists);

/// The number of shards mesh axes `axes` split into: the product of their
/// sizes.
int64_t getNumShards(llvm::ArrayRef<int64_t> axes, const Mesh &mesh);

/// Interns layouts: a large program has few distinct ones, so values refer
/// to them by index (a fraction of the memory and no copies per value).
class LayoutPool {
public:
  unsigned intern(const Layout &layout);
  const Layout &operator[](unsigned id) const { return layouts[id]; }

private:
  std::deque<Layout> layouts;
  std::map<std::vector<int64_t>, unsigned> ids;
};

/// Resolves the axis names of `sharding` against `mesh`. An unknown axis is
/// reported on the diagnostic `emitError` opens (callers put their context
/// first, e.g. "argument 0: "), naming the axis.
FailureOr<Layout> getLayout(ShardingAttr sharding, const Mesh &mesh,
                            llvm::function_ref<InFlightDiagnostic()> emitError);
/// The attribute that prints `layout` on mesh `meshName`.
ShardingAttr getShardingAttr(MLIRContext *ctx, llvm::StringRef meshName,
                             const Mesh &mesh, const Layout &layout);

/// ZeRO's flat shards (dist-zero): a function argument or result whose
/// devices each hold one equal part, along mesh axis `axis`, of the row-major
/// flattening of a block of `blockShape`, zero-padded to a multiple of the
/// axis size (Megatron-LM's distributed optimizer and DeepSpeed shard flat,
/// padded buffers so that any data-parallel degree works). The block is the
/// one `sharding` gives the device (replicated when null). The function's
/// type holds the part: `tensor<ceil(N / size)>`, N the block's elements.
struct FlatShard {
  std::string axis;
  llvm::SmallVector<int64_t> blockShape;
  ShardingAttr sharding;
};

/// Name of the argument/result attribute that marks a flat shard:
/// `{axis = "dp", shape = array<i64: ...>, sharding = #dist.sharding<...>}`.
inline constexpr llvm::StringLiteral kFlatShardAttrName = "dist.flat_shard";

/// The flat shard an argument or result attribute dictionary declares, if
/// any; an ill-formed `dist.flat_shard` is reported through `emitError`.
FailureOr<std::optional<FlatShard>>
getFlatShard(DictionaryAttr attrs,
             llvm::function_ref<InFlightDiagnostic()> emitError);
/// The `dist.flat_shard` value for `shard`.
DictionaryAttr getFlatShardAttr(MLIRContext *ctx, const FlatShard &shard);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_IR_LAYOUT_H
