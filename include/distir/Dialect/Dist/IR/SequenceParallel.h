//===- SequenceParallel.h - the sequence-parallel request -------*- C++ -*-===//
//
// The function attribute by which the annotators ask propagation and
// partitioning for sequence parallelism (Korthikanti et al. 2022): its value
// names the mesh axis (a StringAttr, "tp" for dist-parallelize). Kept out of
// DistDialect.td's discardable attributes because only the sharding passes
// read it (docs/sharding.md, "Sequence parallelism").
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_SEQUENCEPARALLEL_H
#define DISTIR_DIALECT_DIST_IR_SEQUENCEPARALLEL_H

#include "llvm/ADT/StringRef.h"

namespace mlir::dist {

/// Every activation the other shardings leave replicated over the named axis
/// is split along its sequence dimension over it; backward gathers again what
/// forward gathered.
inline constexpr llvm::StringLiteral kSequenceParallelAttrName =
    "dist.sequence_parallel";

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_IR_SEQUENCEPARALLEL_H
