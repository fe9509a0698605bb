//===- DistEnums.h - the dist dialect's vocabulary enums --------*- C++ -*-===//
//
// Role, Phase, PipelineSchedule, RecomputeMode and Optimizer, generated from
// DistEnums.td: one definition for the passes, the tools and the search.
// Plain C++ over llvm/ADT headers: the MLIR-free search core includes this
// header and links DistEnums (lib/Dialect/Dist/IR/DistEnums.cpp), never
// libMLIR. The generated FieldParser specializations are templates that only
// name mlir::FailureOr, which LogicalResult.h declares without linking.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTENUMS_H
#define DISTIR_DIALECT_DIST_IR_DISTENUMS_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

#include "distir/Dialect/Dist/IR/DistEnums.h.inc"

#endif
