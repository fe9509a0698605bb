//===- Dist.td - umbrella for the dist dialect --------------*- tablegen -*-===//
#ifndef DISTIR_DIALECT_DIST_DIST_TD
#define DISTIR_DIALECT_DIST_DIST_TD
include "distir/Dialect/Dist/IR/DistDialect.td"
include "distir/Dialect/Dist/IR/DistEnums.td"
include "distir/Dialect/Dist/IR/DistAttrs.td"
include "distir/Dialect/Dist/IR/DistInterfaces.td"
include "distir/Dialect/Dist/IR/DistOps.td"
#endif
