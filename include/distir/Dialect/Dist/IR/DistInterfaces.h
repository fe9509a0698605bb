//===- DistInterfaces.h - what dist ops know, one client each ---*- C++ -*-===//
//
// The op interfaces of the dialect (cost, sharding rule, gradient,
// execution, collective), the traits that state per-op facts in ODS, and the
// default implementations that read those traits.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTINTERFACES_H
#define DISTIR_DIALECT_DIST_IR_DISTINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/STLExtras.h"

#include "distir/Dialect/Dist/IR/DistAttrs.h"
#include "distir/Dialect/Dist/IR/ShardingRule.h"

namespace distir {
class HostTensor;
} // namespace distir

namespace mlir::dist {

namespace detail {
/// Bytes of a tensor type (element count times element size, 64-bit; i1 is a
/// byte). Zero for anything that is not a ranked tensor with a static shape.
int64_t getTensorBytes(Type type);
int64_t sumTensorBytes(TypeRange types);
/// Elements of a ranked tensor type as a double; zero for a dynamic shape.
double getElementCount(Type type);
} // namespace detail

//===----------------------------------------------------------------------===//
// Traits (see DistInterfaces.td)
//===----------------------------------------------------------------------===//

/// Elementwise with NumPy broadcasting.
template <typename ConcreteType>
class Elementwise : public OpTrait::TraitBase<ConcreteType, Elementwise> {};

/// Linear in all operands jointly: partial sums pass through.
template <typename ConcreteType>
class JointlyLinear : public OpTrait::TraitBase<ConcreteType, JointlyLinear> {};

/// Moves or copies elements only: zero FLOPs.
template <typename ConcreteType>
class DataMovement : public OpTrait::TraitBase<ConcreteType, DataMovement> {};

/// `PerElement` FLOPs per element of the first result, or of operand
/// `OfOperand` when it is not negative.
template <int64_t PerElement, int64_t OfOperand> struct FlopsPerElement {
  template <typename ConcreteType>
  class Impl : public OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    double getFlopsFromTrait() {
      Operation *op = this->getOperation();
      Value counted =
          OfOperand < 0 ? op->getResult(0) : op->getOperand(OfOperand);
      return PerElement * detail::getElementCount(counted.getType());
    }
  };
};

//===----------------------------------------------------------------------===//
// Defaults of the interfaces, reading the traits
//===----------------------------------------------------------------------===//

namespace detail {
template <typename OpT>
using FlopsFromTrait = decltype(std::declval<OpT &>().getFlopsFromTrait());

/// CostOpInterface::getFlops of an op that does not compute its own.
template <typename OpT> double getDefaultFlops(OpT op) {
  if constexpr (OpT::template hasTrait<DataMovement>()) {
    return 0.0;
  } else {
    static_assert(llvm::is_detected<FlopsFromTrait, OpT>::value,
                  "a dist op states its FLOPs in ODS (Dist_DataMovement or "
                  "Dist_FlopsPerElement) or declares getFlops");
    return op.getFlopsFromTrait();
  }
}

/// The elementwise rule: one loop per result dimension; an operand dimension
/// of size 1 broadcast to more runs over no loop.
void buildElementwiseShardingLoops(Operation *op, ShardingRule &rule);

/// ShardingRuleOpInterface::buildShardingLoops of an op without its own.
template <typename OpT>
LogicalResult buildDefaultShardingLoops(OpT op, ShardingRule &rule) {
  static_assert(OpT::template hasTrait<Elementwise>(),
                "a dist op is Dist_Elementwise or builds its sharding loops");
  buildElementwiseShardingLoops(op, rule);
  return success();
}

/// Marks every operand linear when the op is Dist_JointlyLinear.
void setJointlyLinear(Operation *op, ShardingRule &rule);
template <typename OpT> void addTraitLinearity(OpT op, ShardingRule &rule) {
  if constexpr (OpT::template hasTrait<JointlyLinear>())
    setJointlyLinear(op, rule);
}
} // namespace detail
} // namespace mlir::dist

#include "distir/Dialect/Dist/IR/DistInterfaces.h.inc"

#endif
