//===- Sharding.h - GSPMD-style propagation and partitioning ---*- C++ -*-===//
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
// The layers below, one header each: IR/Layout.h (shardings resolved against
// a mesh), Reshard.h (plans between layouts), LoopSharding.h (mesh axes per
// rule loop), FunctionSharding.h (a function's mesh and signature),
// Annotation.h (the annotators and layout maps).
//
// See docs/sharding.md for the policies.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_SHARDING_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_SHARDING_H

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Dialect/Dist/Transforms/FunctionSharding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <string>

namespace mlir::dist {

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
  /// A mesh axis (e.g. "tp"): a value that crosses meshes replicated over
  /// it is sent as slices, each device of the axis its own block, and
  /// all-gathered over the axis on arrival (Megatron-LM's pipeline
  /// scatter/gather, ScatterGather.h). Empty: values are sent whole.
  std::string scatterGatherAxis;
};

/// Rewrites a propagated, unplaced `func` into placed local ops plus
/// collectives; the signature keeps its order and attributes, with local
/// types placed on the devices of the mesh where each value is first used
/// (arguments) or produced (results). Errors at the op for a sharding that
/// does not divide a dimension.
LogicalResult partitionFunction(func::FuncOp func,
                                const PartitionOptions &options = {});

/// Groups the data-parallel gradient reductions of `func` (sum all-reduces
/// of the optimizer phase) into flat buckets of about `bucketBytes` in the
/// order their gradients are complete, one all-reduce per bucket, as PyTorch
/// DDP and Megatron-LM's DDP reduce them (GradientBuckets.cpp). Nothing for
/// `bucketBytes` <= 0. The program computes the same values.
void bucketGradientReductions(func::FuncOp func, int64_t bucketBytes);

/// ZeRO stage `stage` (1 to 3) over mesh axis `axis` of a placed
/// data-parallel `func` (Zero.cpp): gradients reduce-scattered in flat,
/// padded parts, the optimizer run on each rank's part, optimizer state
/// (stage 3: parameters too) kept as flat shards. Nothing for stage 0.
LogicalResult shardOptimizerOverDataParallel(func::FuncOp func, MeshOp mesh,
                                             llvm::StringRef axis,
                                             int64_t stage);

/// Checks a ZeRO stage option for a pipeline of `pp` stages: 0 to 3, and
/// stages 2 and 3 only without pipelining (one-line errors at `loc`).
LogicalResult checkZeroStage(Location loc, int64_t stage, int64_t pp);

/// Copies the dist hints (stage, phase, microbatch, layer) of `from` onto
/// `to`, not its shardings: for ops a rewrite adds in other shapes.
void copyDistHints(Operation *from, Operation *to);

/// The bytes of a bucket of `mebibytes` MiB (the passes' grad-bucket-mb).
inline int64_t getBucketBytes(double mebibytes) {
  return static_cast<int64_t>(mebibytes * 1024 * 1024);
}

/// The wrapper passes' body: `annotate` every function of `module` with a
/// body, then propagate and partition it unless `annotateOnly`.
LogicalResult
annotateAndPartition(ModuleOp module,
                     llvm::function_ref<LogicalResult(func::FuncOp)> annotate,
                     bool annotateOnly);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_SHARDING_H
