//===- DistDialect.h - the dist dialect -------------------------*- C++ -*-===//
//
// The dialect, its vocabulary enums (DistEnums.h) and typed access to its
// discardable attributes. `dist.role` and `dist.phase` print as strings; the
// functions below are the one place that parses them to Role and Phase.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTDIALECT_H
#define DISTIR_DIALECT_DIST_IR_DISTDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "distir/Dialect/Dist/IR/DistAttrs.h"
#include "distir/Dialect/Dist/IR/DistEnums.h"

#include "distir/Dialect/Dist/IR/DistDialect.h.inc"

namespace mlir::dist {

//===----------------------------------------------------------------------===//
// dist.role: what a function argument or result is
//===----------------------------------------------------------------------===//

/// The role in an argument's or result's attribute dictionary; nullopt when
/// it has none (the verifier rejects unknown strings).
std::optional<Role> getRole(DictionaryAttr attrs);
std::optional<Role> getArgRole(FunctionOpInterface func, unsigned index);
std::optional<Role> getResultRole(FunctionOpInterface func, unsigned index);

/// The stored form of a role: its string.
StringAttr getRoleAttr(MLIRContext *ctx, Role role);
/// `dist.role = "<role>"`, for building attribute dictionaries.
NamedAttribute getRoleNamedAttr(MLIRContext *ctx, Role role);
void setArgRole(FunctionOpInterface func, unsigned index, Role role);
void setResultRole(FunctionOpInterface func, unsigned index, Role role);

//===----------------------------------------------------------------------===//
// dist.phase: the part of a training step an op belongs to
//===----------------------------------------------------------------------===//

std::optional<Phase> getPhase(Operation *op);
StringAttr getPhaseAttr(MLIRContext *ctx, Phase phase);
void setPhase(Operation *op, Phase phase);

//===----------------------------------------------------------------------===//
// Integer op attributes: dist.layer, dist.stage, dist.microbatch
//===----------------------------------------------------------------------===//

/// The layer (dist.layer) an op belongs to, if it has one.
std::optional<int64_t> getLayer(Operation *op);
/// The pipeline stage (dist.stage) an op runs on, if assigned.
std::optional<int64_t> getStage(Operation *op);
/// The microbatch (dist.microbatch) an op works on; absent on ops that run
/// once per step (optimizer updates, accumulation results).
std::optional<int64_t> getMicrobatch(Operation *op);

} // namespace mlir::dist

#endif
