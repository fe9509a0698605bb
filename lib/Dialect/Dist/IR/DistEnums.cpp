//===- DistEnums.cpp - spelling of the dist dialect's vocabulary ---------===//
//
// Plain C++ (no MLIR library): stringify<Enum> and symbolize<Enum>, shared by
// the dialect and the MLIR-free search core.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/DistEnums.h"

#include "llvm/ADT/StringSwitch.h"

#include "distir/Dialect/Dist/IR/DistEnums.cpp.inc"
