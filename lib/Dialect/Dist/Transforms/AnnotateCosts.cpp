//===- AnnotateCosts.cpp - dist.cost_s on every modeled op ----------------===//

#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Simulator/Lowering.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTANNOTATECOSTS
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;

namespace {

struct AnnotateCostsPass
    : public dist::impl::DistAnnotateCostsBase<AnnotateCostsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::optional<distir::topology::Cluster> parsed =
        distir::topology::parseClusterSpec(cluster, error);
    if (!parsed) {
      module.emitError() << error;
      return signalPassFailure();
    }
    std::shared_ptr<distir::cost::ProfileTable> table;
    if (!profile.empty()) {
      std::optional<distir::cost::ProfileTable> loaded =
          distir::cost::ProfileTable::load(profile, error);
      if (!loaded) {
        module.emitError() << error;
        return signalPassFailure();
      }
      table = std::make_shared<distir::cost::ProfileTable>(std::move(*loaded));
    }
    distir::cost::CostModel model(*parsed, table);
    Builder builder(&getContext());
    module.walk([&](Operation *op) {
      if (std::optional<double> seconds =
              distir::sim::estimateOpTime(op, model))
        op->setAttr(dist::DistDialect::kCostAttrName,
                    builder.getF64FloatAttr(*seconds));
    });
  }
};

} // namespace
