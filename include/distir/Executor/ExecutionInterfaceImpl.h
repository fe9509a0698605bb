//===- ExecutionInterfaceImpl.h - reference kernels as models ---*- C++ -*-===//
#ifndef DISTIR_EXECUTOR_EXECUTIONINTERFACEIMPL_H
#define DISTIR_EXECUTOR_EXECUTIONINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
class Operation;
} // namespace mlir

namespace mlir::dist {
/// Attaches ExecutableOpInterface (the reference kernels) to every dist
/// compute op when the dist dialect is loaded. Only tools that execute ops
/// register it (dist-run, and dist-translate whose importer folds constant
/// subgraphs), so that the compiler does not link the kernels.
void registerExecutionInterfaceExternalModels(DialectRegistry &registry);
/// The same for a context that already exists (tests).
void registerExecutionInterfaceExternalModels(MLIRContext &context);
/// Whether the dialect promised `op` a kernel that nobody registered: the tool
/// did not call registerExecutionInterfaceExternalModels.
bool isMissingExecutionModel(Operation *op);
/// The error to report then.
const char *getMissingExecutionModelMessage();
} // namespace mlir::dist

#endif
