//===- DistInterfaces.td - what every dist op knows --------*- tablegen -*-===//

#ifndef DISTIR_DIALECT_DIST_DISTINTERFACES_TD
#define DISTIR_DIALECT_DIST_DISTINTERFACES_TD

include "mlir/IR/OpBase.td"

def Dist_OpInterface : OpInterface<"DistOpInterface"> {
  let cppNamespace = "::mlir::dist";
  let description = [{
    One place for everything an op of the dialect knows about itself: its
    cost (FLOPs and bytes moved, from its local types, in 64-bit arithmetic),
    its reference kernel (for the executor), its gradient (for autodiff) and
    how it may be split (for sharding propagation). Result types are inferred
    through InferTypeOpInterface. Components that need one of these facts ask
    this interface instead of switching over op types.
  }];
  let methods = [
    InterfaceMethod<
      "Floating-point operations executed by one device for this op. A double: "
      "summed over the unsplit step of a trillion-parameter model the count "
      "exceeds 2^63.",
      "double", "getFlops", (ins), [{}],
      [{ return 0.0; }]>,
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
    InterfaceMethod<
      "Runs the reference kernel of this op on one device's local operands, "
      "writing into results already allocated with the result types.",
      "::llvm::LogicalResult", "execute",
      (ins "::llvm::ArrayRef<const ::distir::HostTensor *>":$operands,
           "::llvm::ArrayRef<::distir::HostTensor *>":$results), [{}],
      [{ return $_op->emitOpError("has no reference kernel"); }]>,
    InterfaceMethod<
      "Builds the gradients of the operands from the gradients of the results "
      "(null where a result has no gradient). Sets a null Value for operands "
      "that have no gradient (integer indices, constants).",
      "::llvm::LogicalResult", "buildGradient",
      (ins "::mlir::OpBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::Value>":$resultGradients,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGradients), [{}],
      [{ return $_op->emitOpError("has no gradient rule"); }]>,
    InterfaceMethod<
      "Describes how the op may be split along its dimensions.",
      "::llvm::LogicalResult", "getShardingRule",
      (ins "::mlir::dist::ShardingRule &":$rule), [{}],
      [{ return $_op->emitOpError("has no sharding rule"); }]>,
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
