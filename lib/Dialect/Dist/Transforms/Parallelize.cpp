//===- Parallelize.cpp - dist-parallelize: dp x tp x pp on one mesh -------===//
//
// The composition of the three parallelisms on a training step. The mesh is
// ["pp", "dp", "tp"] in row-major order, tp innermost: device
// (p * dp + d) * tp + t sits at stage p, data-parallel rank d, tensor-parallel
// rank t, so a tp group is consecutive ids and stays inside a node (8 GPUs)
// whenever tp divides the node size; stage p is the slice of ids
// [p * dp * tp, (p + 1) * dp * tp). Each stage runs on its own dp x tp
// sub-mesh; op count does not grow with dp or tp because placement is a
// device set.
//
//===----------------------------------------------------------------------===//

#include "BucketOptions.h"

#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTPARALLELIZE
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

namespace {

struct ParallelizePass
    : public mlir::dist::impl::DistParallelizeBase<ParallelizePass> {
  using DistParallelizeBase::DistParallelizeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Location loc = module.getLoc();
    FailureOr<int64_t> bucketBytes = getCheckedBucketBytes(loc, gradBucketMb);
    if (failed(bucketBytes))
      return signalPassFailure();
    FailureOr<PipelineOptions> options = getPipelineOptions(
        loc, pp, microbatches, schedule, cluster, interleave);
    if (failed(options))
      return signalPassFailure();
    options->scatterGather = scatterGather;
    options->ends = {firstLayers, lastLayers};
    for (auto [name, value] :
         {std::pair<StringRef, int64_t>{"dp", dp}, {"tp", tp}})
      if (value < 1) {
        mlir::emitError(loc) << name << " must be at least 1, got " << value;
        return signalPassFailure();
      }
    if (sequenceParallel && tp < 2) {
      mlir::emitError(loc) << "sequence-parallel=true needs tp > 1, got tp="
                           << static_cast<int64_t>(tp);
      return signalPassFailure();
    }
    if (failed(checkZeroStage(loc, zero, pp)))
      return signalPassFailure();
    if (zero > 0 && gradBucketMb > 0) {
      mlir::emitError(loc) << "grad-bucket-mb cannot be combined with zero="
                           << zero.getValue()
                           << ": ZeRO reduce-scatters each gradient itself";
      return signalPassFailure();
    }
    std::optional<LayoutMap> layouts;
    if (!layoutMap.empty()) {
      FailureOr<LayoutMap> loaded =
          LayoutMap::load(layoutMap, [&] { return mlir::emitError(loc); });
      if (failed(loaded))
        return signalPassFailure();
      layouts = std::move(*loaded);
    }

    SmallVector<func::FuncOp> funcs = getFunctionsToPipeline(module);
    if (funcs.empty())
      return;
    FailureOr<MeshOp> meshOp =
        getOrCreateMesh(module, mesh, {{"pp", pp}, {"dp", dp}, {"tp", tp}});
    if (failed(meshOp))
      return signalPassFailure();

    // The wrappers each add their axis to the signature's shardings; the
    // flow propagates once and partitions every stage on its slice.
    auto annotate = [&](func::FuncOp func, MeshOp meshOp) {
      return annotateDataAndTensorParallel(
          func, meshOp, layouts ? &*layouts : nullptr, sequenceParallel);
    };
    for (func::FuncOp func : funcs)
      if (failed(checkBatchSplit(func, dp, microbatches)) ||
          failed(pipelineFunction(func, *meshOp, *options, annotate)))
        return signalPassFailure();
    for (func::FuncOp func : funcs) {
      if (failed(shardOptimizerOverDataParallel(func, *meshOp, "dp", zero)))
        return signalPassFailure();
      bucketGradientReductions(func, *bucketBytes);
    }
  }
};

} // namespace

LogicalResult
mlir::dist::annotateDataAndTensorParallel(func::FuncOp func, MeshOp meshOp,
                                          const LayoutMap *layouts,
                                          bool sequenceParallel) {
  Mesh mesh = Mesh::fromOp(meshOp);
  auto sizeOf = [&](StringRef axis) -> int64_t {
    std::optional<int64_t> index = mesh.getAxisIndex(axis);
    return index ? mesh.getAxisSize(*index) : 1;
  };
  if (sizeOf("dp") > 1 && failed(annotateDataParallel(func, meshOp, "dp")))
    return failure();
  if (layouts) {
    if (failed(annotateWithLayoutMap(func, meshOp, *layouts)))
      return failure();
  } else if (sizeOf("tp") > 1 && failed(annotateMegatron(func, meshOp, "tp"))) {
    return failure();
  }
  if (sequenceParallel)
    return annotateSequenceParallel(func, meshOp, "tp");
  return success();
}
