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

    Limits, checked by the parser and the verifiers before anything is
    expanded or allocated, so that sizes, counts and ids never wrap:
    - a tensor of a dist op holds at most 2^63-1 bytes (its element count
      times the element's bytes fits in int64); every size, offset and count
      a shape rule computes fits in int64, or the op is an error;
    - a mesh, a device set and the groups of a collective hold at most 2^20
      (1048576) devices (`kMaxDevices` in `Mesh.h`);
    - a device id is any integer from 0 to 2^63-1.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  // The discardable attributes the dialect understands, with their storage.
  // Role and phase print as strings; getRole/getPhase (DistDialect.h) parse
  // them to the enums of DistEnums.td. The generated <Name>AttrHelper gives
  // each its name and typed access on ops.
  let discardableAttrs = (ins
    // On function arguments and results.
    "::mlir::StringAttr":$role,
    "::mlir::StringAttr":$name,
    "::mlir::IntegerAttr":$bound,
    "::mlir::dist::ShardingAttr":$sharding,
    // On functions.
    "::mlir::FlatSymbolRefAttr":$mesh,
    // On ops.
    "::mlir::StringAttr":$phase,
    "::mlir::IntegerAttr":$layer,
    "::mlir::IntegerAttr":$stage,
    "::mlir::IntegerAttr":$microbatch,
    "::mlir::UnitAttr":$recomputed,
    // Outside the model's recomputable layers (embedding, final norm, head,
    // loss): dist-recompute never re-runs the op (docs/recompute.md).
    "::mlir::UnitAttr":$no_recompute,
    // On the 1/microbatches constant dist-pipeline's split creates.
    "::mlir::UnitAttr":$microbatch_scale,
    "::mlir::ArrayAttr":$shardings,
    "::mlir::FloatAttr":$cost_s
  );
  let extraClassDeclaration = [{
    /// Names of the discardable attributes, for dictionaries of function
    /// arguments and results (the helpers above only reach op attributes).
    /// DistDialect.cpp checks that they equal the helpers' names.
    static constexpr ::llvm::StringLiteral kRoleAttrName = "dist.role";
    static constexpr ::llvm::StringLiteral kNameAttrName = "dist.name";
    static constexpr ::llvm::StringLiteral kBoundAttrName = "dist.bound";
    static constexpr ::llvm::StringLiteral kShardingAttrName = "dist.sharding";
    static constexpr ::llvm::StringLiteral kMeshAttrName = "dist.mesh";
    static constexpr ::llvm::StringLiteral kPhaseAttrName = "dist.phase";
    static constexpr ::llvm::StringLiteral kLayerAttrName = "dist.layer";
    static constexpr ::llvm::StringLiteral kStageAttrName = "dist.stage";
    static constexpr ::llvm::StringLiteral kMicrobatchAttrName =
        "dist.microbatch";
    static constexpr ::llvm::StringLiteral kRecomputedAttrName =
        "dist.recomputed";
    static constexpr ::llvm::StringLiteral kNoRecomputeAttrName =
        "dist.no_recompute";
    static constexpr ::llvm::StringLiteral kMicrobatchScaleAttrName =
        "dist.microbatch_scale";
    static constexpr ::llvm::StringLiteral kShardingsAttrName =
        "dist.shardings";
    static constexpr ::llvm::StringLiteral kCostAttrName = "dist.cost_s";
  }];
}

// Every tensor of a dist op has a byte size that fits in int64, so that sizes,
// byte and FLOP counts computed from it cannot wrap. Last, so that an op's own
// shape rule reports a wrap in its terms first.
def Dist_RepresentableTensors : NativeOpTrait<"RepresentableTensors"> {
  let cppNamespace = "::mlir::dist";
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic,
         !listconcat(traits, [Dist_RepresentableTensors])>;

#endif // DISTIR_DIALECT_DIST_DISTDIALECT_TD
