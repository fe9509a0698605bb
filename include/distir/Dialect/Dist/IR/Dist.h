//===- Dist.h - everything of the dist dialect ------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_IR_DIST_H
#define DISTIR_DIALECT_DIST_IR_DIST_H

#include "distir/Dialect/Dist/IR/DistAttrs.h"
#include "distir/Dialect/Dist/IR/DistDialect.h"
#include "distir/Dialect/Dist/IR/DistInterfaces.h"
#include "distir/Dialect/Dist/IR/DistOps.h"

#endif
