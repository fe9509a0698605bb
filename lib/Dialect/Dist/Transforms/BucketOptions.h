//===- BucketOptions.h - grad-bucket-mb of the wrapper passes ---*- C++ -*-===//
//
// dist-data-parallel and dist-parallelize take the bucket size in MiB as a
// double: NaN, infinities, negatives and sizes whose bytes overflow int64 are
// refused before the pass changes anything.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_LIB_DIALECT_DIST_TRANSFORMS_BUCKETOPTIONS_H
#define DISTIR_LIB_DIALECT_DIST_TRANSFORMS_BUCKETOPTIONS_H

#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir::dist {

/// getBucketBytes(mebibytes), or an error at `loc` unless `mebibytes` is a
/// finite non-negative number below 2^43 (whose bytes fit int64).
inline FailureOr<int64_t> getCheckedBucketBytes(Location loc,
                                                double mebibytes) {
  // NaN fails every comparison: "!(x >= 0)" refuses it with the negatives.
  if (!(mebibytes >= 0) || mebibytes >= 0x1p43)
    return emitError(loc) << "grad-bucket-mb must be a finite non-negative "
                             "number of MiB below 2^43, got "
                          << mebibytes;
  return getBucketBytes(mebibytes);
}

} // namespace mlir::dist

#endif // DISTIR_LIB_DIALECT_DIST_TRANSFORMS_BUCKETOPTIONS_H
