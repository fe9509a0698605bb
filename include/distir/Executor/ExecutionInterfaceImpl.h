//===- ExecutionInterfaceImpl.h - reference kernels as models ---*- C++ -*-===//
#ifndef DISTIR_EXECUTOR_EXECUTIONINTERFACEIMPL_H
#define DISTIR_EXECUTOR_EXECUTIONINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::dist {
/// Attaches ExecutableOpInterface (the reference kernels) to every dist
/// compute op when the dist dialect is loaded. Only tools that execute ops
/// register it (dist-run, and dist-translate whose importer folds constant
/// subgraphs), so that the compiler does not link the kernels.
void registerExecutionInterfaceExternalModels(DialectRegistry &registry);
/// The same for a context built by someone else: the executor's and the
/// importer's entry points call it, since they cannot run ops without it.
void registerExecutionInterfaceExternalModels(MLIRContext &context);
} // namespace mlir::dist

#endif
