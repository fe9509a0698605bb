//===- DistInterfaces.h - what every dist op knows --------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTINTERFACES_H
#define DISTIR_DIALECT_DIST_IR_DISTINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "distir/Dialect/Dist/IR/DistAttrs.h"

namespace distir {
class HostTensor;
} // namespace distir

namespace mlir::dist {
struct ShardingRule;

namespace detail {
/// Bytes of a tensor type (element count times element size, 64-bit; i1 is a
/// byte). Zero for anything that is not a ranked tensor with a static shape.
int64_t getTensorBytes(Type type);
int64_t sumTensorBytes(TypeRange types);
} // namespace detail
} // namespace mlir::dist

#include "distir/Dialect/Dist/IR/DistInterfaces.h.inc"

#endif
