//===- DistInterfaces.td - what dist ops know, one client each -*- tablegen -*-===//
//
// One narrow interface per client, as IREE's StreamInterfaces.td: the cost
// model, sharding propagation, autodiff and the executor each ask their own
// interface. Cost and sharding are implemented in the IR library (mostly by
// defaults that read the per-op facts below); gradients and execution are
// declared here but implemented as external models by their owners (the
// autodiff library and the executor), so the dialect links neither.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_DIALECT_DIST_DISTINTERFACES_TD
#define DISTIR_DIALECT_DIST_DISTINTERFACES_TD

include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Per-op facts, read by the interfaces' default implementations
//===----------------------------------------------------------------------===//

// Elementwise with NumPy broadcasting: every result element depends on the
// operand elements at the same (broadcast) position. Gives the op the
// elementwise sharding rule (one loop per result dimension).
def Dist_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::mlir::dist";
}

// f(a1 + a2, b1 + b2) = f(a1, b1) + f(a2, b2) over all operands: pending
// partial sums may flow through the op (ShardingRule::Linearity::Joint).
def Dist_JointlyLinear : NativeOpTrait<"JointlyLinear"> {
  let cppNamespace = "::mlir::dist";
}

// The op only moves or copies elements: zero FLOPs.
def Dist_DataMovement : NativeOpTrait<"DataMovement"> {
  let cppNamespace = "::mlir::dist";
}

// The op executes `perElement` FLOPs per element of the value that sets its
// work: its first result, or operand `ofOperand` when that is not negative.
class Dist_FlopsPerElement<int perElement, int ofOperand = -1>
    : ParamNativeOpTrait<"FlopsPerElement", perElement # ", " # ofOperand> {
  let cppNamespace = "::mlir::dist";
}

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

def Dist_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::mlir::dist";
  let description = [{
    The cost of an op on one device: FLOPs and bytes moved, from its local
    types, in 64-bit arithmetic, and a kind name for cost tables. FLOPs come
    from `Dist_DataMovement` or `Dist_FlopsPerElement` unless the op computes
    them itself (matmul, convolutions, pools).
  }];
  let methods = [
    InterfaceMethod<
      "Floating-point operations executed by one device for this op. A double: "
      "summed over the unsplit step of a trillion-parameter model the count "
      "exceeds 2^63.",
      "double", "getFlops", (ins), [{}],
      [{ return ::mlir::dist::detail::getDefaultFlops($_op); }]>,
    InterfaceMethod<
      "Bytes one device reads from memory for this op.",
      "int64_t", "getBytesRead", (ins), [{}],
      [{ return ::mlir::dist::detail::sumTensorBytes($_op->getOperandTypes()); }]>,
    InterfaceMethod<
      "Bytes one device writes to memory for this op.",
      "int64_t", "getBytesWritten", (ins), [{}],
      [{ return ::mlir::dist::detail::sumTensorBytes($_op->getResultTypes()); }]>,
    InterfaceMethod<
      "A short kind name for cost tables and profiles (e.g. \"matmul\").",
      "::llvm::StringRef", "getCostKind", (ins), [{}],
      [{ return $_op->getName().stripDialect(); }]>,
  ];
}

def Dist_ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::mlir::dist";
  let description = [{
    How an op may be split along its dimensions (see ShardingRule.h).
    `Dist_Elementwise` ops get the elementwise rule by default; the others
    build their own loops. `getShardingRule` adds what traits state
    (`Dist_JointlyLinear`) to the loops the op builds.
  }];
  let methods = [
    InterfaceMethod<
      "Adds the op's loops and the loops of its operand and result dimensions "
      "to `rule`.",
      "::llvm::LogicalResult", "buildShardingLoops",
      (ins "::mlir::dist::ShardingRule &":$rule), [{}],
      [{ return ::mlir::dist::detail::buildDefaultShardingLoops($_op, rule); }]>,
    InterfaceMethod<
      "Builds the local form of the op when loops its rule marks `expands` "
      "are split (a clone on local operands cannot express it): from the "
      "local `operands`, with the device groups of every split loop in "
      "`expansion`, returns values of `expansion.resultTypes` laid out as the "
      "loop sharding says (results partial over the split loops they do not "
      "have). May insert collectives and device-dependent ops.",
      "::llvm::FailureOr<::llvm::SmallVector<::mlir::Value>>",
      "buildLocalExpansion",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::ValueRange":$operands,
           "const ::mlir::dist::LocalExpansion &":$expansion), [{}],
      [{
        return $_op->emitOpError("has no local form for its split loops");
      }]>,
    InterfaceMethod<
      "Describes how the op may be split: its loops and the linearity its "
      "traits state.",
      "::llvm::LogicalResult", "getShardingRule",
      (ins "::mlir::dist::ShardingRule &":$rule),
      [{
        if (::mlir::failed($_op.buildShardingLoops(rule)))
          return ::mlir::failure();
        ::mlir::dist::detail::addTraitLinearity($_op, rule);
        return ::mlir::success();
      }]>,
  ];
}

def Dist_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::mlir::dist";
  let description = [{
    The vector-Jacobian product of an op, for `dist-autodiff`. Implemented as
    external models beside autodiff
    (`registerGradientInterfaceExternalModels`), not by the dialect.
  }];
  let methods = [
    InterfaceMethod<
      "Builds the gradients of the operands from the gradients of the results "
      "(null where a result has no gradient). Sets a null Value for operands "
      "that have no gradient (integer indices, constants).",
      "::llvm::LogicalResult", "buildGradient",
      (ins "::mlir::OpBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::Value>":$resultGradients,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGradients)>,
  ];
}

def Dist_ExecutableOpInterface : OpInterface<"ExecutableOpInterface"> {
  let cppNamespace = "::mlir::dist";
  let description = [{
    The reference kernel of an op, for the executor and the importer's
    constant folding. Implemented as external models in the executor library
    (`registerExecutionInterfaceExternalModels`), not by the dialect.
  }];
  let methods = [
    InterfaceMethod<
      "Runs the reference kernel of this op on one device's local operands, "
      "writing into results already allocated with the result types.",
      "::llvm::LogicalResult", "execute",
      (ins "::llvm::ArrayRef<const ::distir::HostTensor *>":$operands,
           "::llvm::ArrayRef<::distir::HostTensor *>":$results)>,
  ];
}

def Dist_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::mlir::dist";
  let description = [{
    Communication ops that run over groups of devices. Gives the simulator and
    the executor one way to read groups and payloads.
  }];
  let methods = [
    InterfaceMethod<"The groups the collective runs in.",
      "::mlir::dist::DeviceGroupsAttr", "getGroupsAttr">,
    InterfaceMethod<
      "Bytes of the full (per-group) payload S, as in NCCL's formulas: the "
      "operand of all_reduce/reduce/broadcast, the gathered result of "
      "all_gather/gather, the operand of reduce_scatter/scatter/all_to_all.",
      "int64_t", "getPayloadBytes">,
  ];
}

#endif // DISTIR_DIALECT_DIST_DISTINTERFACES_TD
