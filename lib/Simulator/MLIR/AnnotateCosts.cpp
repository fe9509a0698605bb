//===- AnnotateCosts.cpp - dist.cost_s on every modeled op ----------------===//

#include "distir/Dialect/Dist/IR/DistDialect.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace distir::sim {
#define GEN_PASS_DEF_DISTANNOTATECOSTS
#include "distir/Simulator/Passes.h.inc"
} // namespace distir::sim

using namespace mlir;

namespace {

struct AnnotateCostsPass
    : public distir::sim::impl::DistAnnotateCostsBase<AnnotateCostsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    distir::StatusOr<distir::topology::Cluster> parsed =
        distir::topology::parseClusterSpec(cluster);
    if (!parsed) {
      module.emitError() << parsed.message();
      return signalPassFailure();
    }
    std::shared_ptr<distir::cost::ProfileTable> table;
    if (!profile.empty()) {
      distir::StatusOr<distir::cost::ProfileTable> loaded =
          distir::sim::loadProfile(profile, &getContext());
      if (!loaded) {
        module.emitError() << loaded.message();
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
