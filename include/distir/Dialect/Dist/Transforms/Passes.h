//===- Passes.h - dist dialect passes ---------------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_H

#include "distir/Dialect/Dist/IR/Dist.h"
#include "mlir/Pass/Pass.h"

namespace mlir::dist {

#define GEN_PASS_DECL
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"

} // namespace mlir::dist

#endif
