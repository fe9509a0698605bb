//===- DistOps.h - dist dialect operations ----------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTOPS_H
#define DISTIR_DIALECT_DIST_IR_DISTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "distir/Dialect/Dist/IR/DistAttrs.h"
#include "distir/Dialect/Dist/IR/DistDialect.h"
#include "distir/Dialect/Dist/IR/DistInterfaces.h"

namespace mlir::dist {

/// Result types are compatible when they are equal up to refinement: same
/// rank, element type and placement, and every dimension equal or dynamic in
/// one of them.
bool areRefinableTypes(TypeRange lhs, TypeRange rhs);

/// Checks a sharding against the mesh it names (found from `op`) and the type
/// it lays out: axes exist, ranks match, and for an unplaced (global) type
/// every split dimension divides evenly. `what` names the value in errors.
LogicalResult verifyShardingOfType(Operation *op, ShardingAttr sharding,
                                   Type type, llvm::StringRef what);

/// Verifies that all tensor operands and results of a compute op are on one
/// device set, or all unplaced.
LogicalResult verifySamePlacement(Operation *op);

template <typename ConcreteType>
class SamePlacement : public OpTrait::TraitBase<ConcreteType, SamePlacement> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifySamePlacement(op);
  }
};

/// Verifies that every ranked tensor operand and result with a static shape
/// has a byte size that fits in int64 (the dialect's limit on a tensor).
LogicalResult verifyRepresentableTensors(Operation *op);

template <typename ConcreteType>
class RepresentableTensors
    : public OpTrait::TraitBase<ConcreteType, RepresentableTensors> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyRepresentableTensors(op);
  }
};

/// Reports declared result types that the inferred ones cannot refine.
LogicalResult verifyInferredTypes(Operation *op, TypeRange inferred);

/// Runs the op's result-type inference during verification, before the
/// generic InferTypeOpInterface check, so that a bad op gets the rule's own
/// message at its location and nothing more.
template <typename ConcreteType>
class InferredResultTypes
    : public OpTrait::TraitBase<ConcreteType, InferredResultTypes> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    llvm::SmallVector<Type> inferred;
    if (failed(ConcreteType::inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), inferred)))
      return failure();
    return verifyInferredTypes(op, inferred);
  }
};

namespace detail {
// Result-type inference shared by the op classes of DistOps.td (called from
// their extraClassDefinition); errors name `opName` at `location`.
LogicalResult inferBroadcastReturnTypes(std::optional<Location> location,
                                        llvm::StringRef opName, Value lhs,
                                        Value rhs,
                                        llvm::SmallVectorImpl<Type> &types);
LogicalResult
inferActivationGradReturnTypes(std::optional<Location> location,
                               llvm::StringRef opName, Value grad, Value saved,
                               llvm::SmallVectorImpl<Type> &types);
LogicalResult inferSoftmaxGradReturnTypes(std::optional<Location> location,
                                          llvm::StringRef opName, Value grad,
                                          Value output, int64_t axis,
                                          llvm::SmallVectorImpl<Type> &types);
LogicalResult inferReduceReturnTypes(std::optional<Location> location,
                                     llvm::StringRef opName, Value input,
                                     llvm::ArrayRef<int64_t> axes,
                                     bool keepdims,
                                     llvm::SmallVectorImpl<Type> &types);
/// The fold of every collective: its operand when the groups hold one device
/// each (and the types agree), nothing otherwise.
OpFoldResult foldSingletonGroups(Operation *op, DeviceGroupsAttr groups,
                                 Value input);
} // namespace detail

// Custom directives of the op assembly formats.
ParseResult parseDeviceGroups(OpAsmParser &parser, DeviceGroupsAttr &groups);
void printDeviceGroups(OpAsmPrinter &printer, Operation *op,
                       DeviceGroupsAttr groups);
ParseResult parseDeviceSet(OpAsmParser &parser, DevicesAttr &devices);
void printDeviceSet(OpAsmPrinter &printer, Operation *op, DevicesAttr devices);

} // namespace mlir::dist

#define GET_OP_CLASSES
#include "distir/Dialect/Dist/IR/DistOps.h.inc"

#endif
