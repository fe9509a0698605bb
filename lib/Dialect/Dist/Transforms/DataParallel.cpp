//===- DataParallel.cpp - split the batch over the dp axis ---------------===//
//
// Data parallelism is a sharding: data arguments split on their batch dim,
// everything else replicated over dp. Propagation then finds the batch in
// every activation, the weight gradients become partial sums over dp (their
// matmuls contract the batch), and partitioning all-reduces them over the dp
// groups before the optimizer, because the updated parameters are annotated
// replicated.
//
//===----------------------------------------------------------------------===//

#include "BucketOptions.h"

#include "distir/Dialect/Dist/IR/Layout.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/FunctionSharding.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTDATAPARALLEL
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

/// Results whose layout the wrapper fixes: what every replica must agree on.
/// Per-sample outputs keep the batch split that propagation gives them.
static bool isReplicatedResult(std::optional<Role> role) {
  return role &&
         llvm::is_contained({Role::Loss, Role::Gradient, Role::UpdatedParameter,
                             Role::UpdatedOptimizerState},
                            *role);
}

LogicalResult mlir::dist::annotateDataParallel(func::FuncOp func, MeshOp meshOp,
                                               StringRef axisName) {
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> axis = mesh.getAxisIndex(axisName);
  if (!axis)
    return func.emitError() << "mesh @" << meshOp.getSymName()
                            << " has no axis \"" << axisName << "\"";
  int64_t size = mesh.getAxisSize(*axis);
  MLIRContext *ctx = func.getContext();
  StringRef meshName = meshOp.getSymName();

  auto existingLayout = [&](DictionaryAttr attrs,
                            Type type) -> FailureOr<Layout> {
    auto sharding =
        attrs ? attrs.getAs<ShardingAttr>(DistDialect::kShardingAttrName)
              : ShardingAttr();
    if (!sharding)
      return Layout::replicated(cast<RankedTensorType>(type).getRank());
    return getLayout(sharding, mesh, [&] { return func.emitError(); });
  };

  bool anyRole = false;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    anyRole |= getArgRole(func, i).has_value();
  if (!anyRole)
    return func.emitError()
           << "data parallelism needs `dist.role` on the arguments to tell the "
              "data (split on the batch) from the parameters (replicated)";

  SmallVector<ShardingAttr> argShardings;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = cast<RankedTensorType>(func.getArgumentTypes()[i]);
    FailureOr<Layout> layout = existingLayout(func.getArgAttrDict(i), type);
    if (failed(layout))
      return failure();
    if (getArgRole(func, i) == Role::Data && !layout->usesAxis(*axis)) {
      auto name =
          func.getArgAttrOfType<StringAttr>(i, DistDialect::kNameAttrName);
      std::string what = "argument " + std::to_string(i);
      if (name)
        what += " (" + name.getValue().str() + ")";
      if (type.getRank() == 0)
        return func.emitError() << what << ": a scalar has no batch to split";
      // The batch is split by dp first, then by whatever split it before.
      layout->dims[0].insert(layout->dims[0].begin(), *axis);
      int64_t shards = layout->getShards(0, mesh);
      int64_t batch = type.getDimSize(0);
      if (ShapedType::isDynamic(batch) || batch % shards != 0)
        return func.emitError()
               << what << ": batch of " << batch << " is not divisible by "
               << axisName << "=" << size
               << (shards != size ? " times its other splits" : "");
    }
    argShardings.push_back(getShardingAttr(ctx, meshName, mesh, *layout));
  }
  SmallVector<ShardingAttr> resultShardings;
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    resultShardings.emplace_back();
    if (!isReplicatedResult(getResultRole(func, i)) ||
        func.getResultAttr(i, DistDialect::kShardingAttrName))
      continue;
    resultShardings.back() = getShardingAttr(
        ctx, meshName, mesh,
        Layout::replicated(
            cast<RankedTensorType>(func.getResultTypes()[i]).getRank()));
  }
  setSignatureShardings(func, argShardings, resultShardings);
  func->setAttr(DistDialect::kMeshAttrName, FlatSymbolRefAttr::get(meshOp));
  return success();
}

FailureOr<MeshOp> mlir::dist::applyDataParallel(ModuleOp module,
                                                StringRef meshName,
                                                StringRef axis, int64_t dp,
                                                bool annotateOnly) {
  FailureOr<MeshOp> meshOp =
      getOrCreateMesh(module, meshName, {{axis.str(), dp}});
  if (failed(meshOp) || failed(annotateAndPartition(
                            module,
                            [&](func::FuncOp func) {
                              return annotateDataParallel(func, *meshOp, axis);
                            },
                            annotateOnly)))
    return failure();
  return meshOp;
}

namespace {
struct DataParallelPass
    : public mlir::dist::impl::DistDataParallelBase<DataParallelPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<int64_t> bucketBytes =
        getCheckedBucketBytes(module.getLoc(), gradBucketMb);
    if (failed(bucketBytes))
      return signalPassFailure();
    if (gradBucketMb > 0 && annotateOnly) {
      mlir::emitError(module.getLoc())
          << "grad-bucket-mb needs the partitioned program: it cannot be "
             "combined with annotate-only";
      return signalPassFailure();
    }
    if (failed(applyDataParallel(module, mesh, axis, dp, annotateOnly)))
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        bucketGradientReductions(func, *bucketBytes);
  }
};
} // namespace
