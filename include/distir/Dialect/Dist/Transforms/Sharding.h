//===- Sharding.h - GSPMD-style sharding: annotate, propagate, partition -*- C++
//-*-===//
//
// The C++ entry points behind dist-propagate-sharding, dist-partition,
// dist-data-parallel and dist-tensor-parallel, for passes that compose them
// (dist-pipeline, dist-parallelize). The flow on an unplaced function:
//
//   annotateDataParallel / annotateMegatron / annotateWithLayoutMap
//       put `dist.sharding` on some arguments and results (composable: each
//       adds its own mesh axis to what is already there);
//   propagateShardings
//       completes a `dist.sharding` on every op result (and on the
//       signature) from the per-op sharding rules;
//   partitionFunction
//       rewrites every op to its local shapes on its device set and inserts
//       the collectives that keep the meaning (the global-view contract).
//
// See docs/sharding.md for the policies.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_SHARDING_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_SHARDING_H

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Dialect/Dist/IR/ShardingRule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Regex;
} // namespace llvm

namespace mlir::dist {

//===----------------------------------------------------------------------===//
// Layouts: a ShardingAttr resolved against a Mesh
//===----------------------------------------------------------------------===//

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

/// Resolves axis names against `mesh`; fails with a message naming the axis.
FailureOr<Layout> getLayout(ShardingAttr sharding, const Mesh &mesh,
                            std::string &error);
ShardingAttr getShardingAttr(MLIRContext *ctx, llvm::StringRef meshName,
                             const Mesh &mesh, const Layout &layout);

/// One step of a resharding, on groups along `axes` (major to minor).
struct ReshardStep {
  enum class Kind {
    /// Sum the partial values over `axes`.
    AllReduce,
    /// Sum over `axes` and keep this device's block of `dim`.
    ReduceScatter,
    /// Concatenate the blocks of `dim` over `axes` (removes them from dim).
    AllGather,
    /// Move the split of `axes` from `concatDim` to `dim`.
    AllToAll,
    /// Keep this device's block of `dim` of a value replicated over `axes`
    /// (a reduce_scatter with `avg`: the dialect has no device-indexed slice).
    Slice,
    /// Make a replicated value partial over `axes` (scale by 1/size).
    MakePartial,
  };
  Kind kind;
  llvm::SmallVector<int64_t, 2> axes;
  int64_t dim = -1;
  int64_t concatDim = -1;
};

/// The steps from layout `from` to `to` (same rank), in order: partial sums
/// first (reduce_scatter where the target splits a dim by the partial axis,
/// else all_reduce), then gathers / all_to_all of splits the target does not
/// keep, then slices of new splits.
llvm::SmallVector<ReshardStep> planReshard(const Layout &from,
                                           const Layout &to);
/// Bytes each device sends for `steps` applied to a value of global `shape`
/// with `elementBytes` per element starting from `from` (NCCL ring volumes).
/// Used to rank propagation choices; Slice costs a little, so that an
/// already-split operand is preferred.
double estimateReshardBytes(llvm::ArrayRef<int64_t> shape, int64_t elementBytes,
                            const Layout &from, const Layout &to,
                            const Mesh &mesh);

//===----------------------------------------------------------------------===//
// Loop shardings: an op's ShardingRule with mesh axes per loop
//===----------------------------------------------------------------------===//

/// The mesh axes each loop of an op's ShardingRule is split over: what
/// propagation chooses and partitioning re-derives from the result shardings.
struct LoopSharding {
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> loops;
  /// Partial axes that flow from the linear operands to every result.
  llvm::SmallVector<int64_t, 2> passThrough;

  /// What the op needs of operand `operand` / makes of result `result`:
  /// dims split like their loops; results are partial over the axes of the
  /// split loops they do not have (sum reductions) and over `passThrough`.
  Layout getOperandLayout(const ShardingRule &rule, unsigned operand) const;
  Layout getResultLayout(const ShardingRule &rule, unsigned result) const;
  /// The product of the shards of the split normalized loops (means): every
  /// local result is scaled by its inverse.
  int64_t getNormalization(const ShardingRule &rule, const Mesh &mesh) const;
};

/// Why `axes` cannot split loop `loop` of `op` (global types): the loop is
/// not splittable, or a dimension running over it is not divisible. Empty
/// when they can.
std::string checkLoopSplit(Operation *op, const ShardingRule &rule,
                           int64_t loop, llvm::ArrayRef<int64_t> axes,
                           const Mesh &mesh);

/// Re-derives the loop sharding that produces `resultLayouts` from operands
/// laid out as `operandLayouts` (null: unknown); reduction loops take the
/// result's partial axes, preferring the loop whose operand dims already
/// carry them. Fails at `op` when the result layouts are inconsistent or
/// impossible for the rule.
FailureOr<LoopSharding>
deriveLoopSharding(Operation *op, const ShardingRule &rule,
                   llvm::ArrayRef<const Layout *> operandLayouts,
                   llvm::ArrayRef<Layout> resultLayouts, const Mesh &mesh);

/// The rule of a dist op (DistOpInterface::getShardingRule), checked against
/// the op's operand and result ranks; fails at the op for other ops.
FailureOr<ShardingRule> getShardingRule(Operation *op);

//===----------------------------------------------------------------------===//
// Meshes
//===----------------------------------------------------------------------===//

/// The mesh `name` of `module`, created at the top of the module with the
/// given axes when it does not exist; an existing mesh must have every axis
/// of `axes` with that size (size 0: any size).
FailureOr<MeshOp>
getOrCreateMesh(ModuleOp module, llvm::StringRef name,
                llvm::ArrayRef<std::pair<std::string, int64_t>> axes);

/// The mesh a function works on: its `dist.mesh`, or the one named by the
/// `dist.sharding` attributes of its signature and ops (which must agree).
/// Null (and no error) when the function names none or has no body.
FailureOr<MeshOp> getFunctionMesh(func::FuncOp func);

/// Sets `dist.sharding` on the arguments and results of `func` whose entry
/// is non-null (`args` and `results` may be empty: unchanged), rewriting the
/// signature's attributes once: one by one, each call would copy the whole
/// list (quadratic in the thousands of arguments of a large model).
void setSignatureShardings(func::FuncOp func, llvm::ArrayRef<ShardingAttr> args,
                           llvm::ArrayRef<ShardingAttr> results);

//===----------------------------------------------------------------------===//
// Annotation (the wrappers)
//===----------------------------------------------------------------------===//

/// Data parallelism: arguments with `dist.role = "data"` are split on dim 0
/// over `axis`; every other argument and every result gets (at least) a
/// replicated annotation over it, so gradients end as partial sums over
/// `axis` that partitioning all-reduces over the `axis` groups only.
/// Fails (at the argument) when the batch is not divisible by the axis size.
LogicalResult annotateDataParallel(func::FuncOp func, MeshOp mesh,
                                   llvm::StringRef axis);

/// A user layout map (Keras LayoutMap): ordered (regex, layout) pairs; the
/// first regex found in a parameter's `dist.name` (search, not full match)
/// gives its layout, a list with one entry per dim: null, an axis name or a
/// list of axis names.
class LayoutMap {
public:
  struct Entry {
    std::string pattern;
    /// Per dimension, axis names (major to minor).
    llvm::SmallVector<llvm::SmallVector<std::string, 1>> dims;
    /// `pattern` compiled once (shared: entries are copied with the map).
    std::shared_ptr<llvm::Regex> regex;
  };
  /// Parses JSON `text`; errors read "<sourceName>:<line>:<col>: ..." or name
  /// the offending key.
  static FailureOr<LayoutMap>
  parse(llvm::StringRef text, llvm::StringRef sourceName, std::string &error);
  static FailureOr<LayoutMap> load(llvm::StringRef path, std::string &error);

  /// Appends an entry; `pattern` must be a valid POSIX extended regex.
  void addEntry(std::string pattern,
                llvm::SmallVector<llvm::SmallVector<std::string, 1>> dims);
  llvm::ArrayRef<Entry> getEntries() const { return entries; }
  /// The first entry whose pattern is found in `name`, or null.
  const Entry *lookup(llvm::StringRef name) const;

private:
  llvm::SmallVector<Entry> entries;
};

/// Applies `map` to the parameters (`dist.role` "parameter" or
/// "optimizer_state") and to the results that carry parameter-like values
/// ("updated_parameter", "updated_optimizer_state", "gradient"), by their
/// `dist.name`; unmatched ones are replicated. Errors name the pattern or the
/// parameter: an axis the mesh does not have, a rank mismatch, a split that
/// does not divide.
LogicalResult annotateWithLayoutMap(func::FuncOp func, MeshOp mesh,
                                    const LayoutMap &map);

/// Megatron-LM tensor parallelism over `axis` by the parameter names of
/// dist-gen's models: column-parallel `*.attn.qkv.*` and `*.mlp.fc1.*`
/// (weights split on their output columns, biases split), row-parallel
/// `*.attn.proj.*` and `*.mlp.fc2.*` (weights split on their input rows,
/// biases replicated); plain MLPs (`layers.N.weight`) alternate column / row
/// by layer. Fails when the axis does not divide the attention heads or a
/// split dimension.
LogicalResult annotateMegatron(func::FuncOp func, MeshOp mesh,
                               llvm::StringRef axis);

//===----------------------------------------------------------------------===//
// Propagation and partitioning
//===----------------------------------------------------------------------===//

/// Completes the shardings of `func`: every tensor op result gets
/// `dist.sharding` (`dist.shardings`, an array, for ops with several
/// results), every argument and result of the signature too. User
/// annotations win (arguments, results, `dist.sharding_constraint`, op
/// results annotated before); other choices minimise the estimated bytes of
/// resharding, ties broken in operand order. Does nothing when the function
/// names no mesh.
LogicalResult propagateShardings(func::FuncOp func);

struct PartitionOptions {
  /// The (sub-)mesh each op runs on, e.g. a pipeline stage's dp x tp slice
  /// (Mesh::getSlice); null or returning null: the function's mesh. Values
  /// that cross meshes are resharded on the producer's mesh and sent with
  /// `dist.send` (the meshes must have the same shape and axis names). The
  /// meshes must stay alive and unchanged while partitionFunction runs.
  std::function<const Mesh *(Operation *)> meshOf;
};

/// Rewrites a propagated, unplaced `func` into placed local ops plus
/// collectives; the signature keeps its order and attributes, with local
/// types placed on the devices of the mesh where each value is first used
/// (arguments) or produced (results). Errors at the op for a sharding that
/// does not divide a dimension.
LogicalResult partitionFunction(func::FuncOp func,
                                const PartitionOptions &options = {});

/// The wrapper passes' body: `annotate` every function of `module` with a
/// body, then propagate and partition it unless `annotateOnly`.
LogicalResult
annotateAndPartition(ModuleOp module,
                     llvm::function_ref<LogicalResult(func::FuncOp)> annotate,
                     bool annotateOnly);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_SHARDING_H
