//===- Passes.h - dist dialect passes ---------------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_H

#include "distir/Dialect/Dist/IR/Dist.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::dist {

/// One value of an enum pass option (Passes.td), spelled as DistEnums.td
/// spells it, so that the option parser, the IR and dist-search agree.
template <typename Enum>
llvm::cl::OptionEnumValue getEnumOptionValue(Enum value,
                                             llvm::StringRef description) {
  return {stringifyEnum(value), static_cast<int>(value), description};
}

#define GEN_PASS_DECL
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"

} // namespace mlir::dist

#endif
