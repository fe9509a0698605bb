//===- GradientInterfaceImpl.h - gradient rules as models -------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_GRADIENTINTERFACEIMPL_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_GRADIENTINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::dist {
/// Attaches GradientOpInterface (the vector-Jacobian products dist-autodiff
/// drives) to every dist compute and communication op when the dist dialect
/// is loaded. Part of the compiler's registration
/// (distir::registerAllDialects).
void registerGradientInterfaceExternalModels(DialectRegistry &registry);
} // namespace mlir::dist

#endif
