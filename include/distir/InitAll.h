//===- InitAll.h - register everything distir tools use ---------*- C++ -*-===//
#ifndef DISTIR_INITALL_H
#define DISTIR_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace distir {
/// The dist and func dialects and their interface extensions (inlining,
/// gradients, the cost model's op timer); not execution (see
/// registerExecutionInterfaceExternalModels).
void registerAllDialects(mlir::DialectRegistry &registry);
/// distir's passes plus canonicalize, cse, inline and symbol-dce.
void registerAllPasses();
} // namespace distir

#endif
