//===- DistDialect.h - the dist dialect -------------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTDIALECT_H
#define DISTIR_DIALECT_DIST_IR_DISTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "distir/Dialect/Dist/IR/DistDialect.h.inc"

#endif
