//===- DistDialect.td - the dist dialect -------------------*- tablegen -*-===//

#ifndef DISTIR_DIALECT_DIST_DISTDIALECT_TD
#define DISTIR_DIALECT_DIST_DISTDIALECT_TD

include "mlir/IR/OpBase.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::mlir::dist";
  let summary = "Distributed deep-learning programs: placement, collectives, meshes";
  let description = [{
    The `dist` dialect describes deep-learning programs before and after they
    are split over many accelerators. Placement lives in the tensor type: a
    ranked tensor whose encoding is `#dist.devices<...>` is held by every
    device of that set, each with its own local tensor of the printed (local)
    shape. Tensors without an encoding belong to the sequential program the
    user started with. Compute ops run on every device of their operands' set;
    communication ops move data between devices, over groups that partition a
    device set. A `dist.mesh` names a logical device mesh and
    `#dist.sharding<...>` says how a global tensor is laid out over its axes.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Names of the discardable attributes the dialect understands.
    static constexpr ::llvm::StringLiteral kShardingAttrName = "dist.sharding";
    static constexpr ::llvm::StringLiteral kNameAttrName = "dist.name";
    static constexpr ::llvm::StringLiteral kLayerAttrName = "dist.layer";
    static constexpr ::llvm::StringLiteral kMeshAttrName = "dist.mesh";
    static constexpr ::llvm::StringLiteral kRoleAttrName = "dist.role";
    static constexpr ::llvm::StringLiteral kPhaseAttrName = "dist.phase";
    static constexpr ::llvm::StringLiteral kBoundAttrName = "dist.bound";
    static constexpr ::llvm::StringLiteral kRecomputedAttrName = "dist.recomputed";
  }];
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

#endif // DISTIR_DIALECT_DIST_DISTDIALECT_TD
