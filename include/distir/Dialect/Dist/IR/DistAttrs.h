//===- DistAttrs.h - dist dialect attributes --------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTATTRS_H
#define DISTIR_DIALECT_DIST_IR_DISTATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"

#include "distir/Dialect/Dist/IR/DistAttrEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "distir/Dialect/Dist/IR/DistAttrs.h.inc"

namespace mlir::dist {

/// The placement of a value: the devices attribute in the encoding of its
/// ranked tensor type, or null for an unplaced value.
DevicesAttr getPlacement(Type type);
inline DevicesAttr getPlacement(Value value) {
  return getPlacement(value.getType());
}

/// `type` with its placement replaced by `devices` (null: unplaced).
RankedTensorType withPlacement(RankedTensorType type, DevicesAttr devices);

/// Prints ids compactly as runs `start:end[:step]` and single ids, without
/// brackets; parses the same, with brackets. Parsing refuses negative ids and
/// a list that would make `ids` longer than `maxIds` before expanding it.
void printDeviceIdList(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> ids);
ParseResult parseDeviceIdList(AsmParser &parser,
                              llvm::SmallVectorImpl<int64_t> &ids,
                              int64_t maxIds);

} // namespace mlir::dist

#endif
