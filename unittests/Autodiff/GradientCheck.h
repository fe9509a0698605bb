//===- GradientCheck.h - autodiff against finite differences ----*- C++ -*-===//
//
// Runs `dist-autodiff{optimizer=none}` on a forward function, executes both
// with the reference executor on the same deterministic inputs, and compares
// every checked element of every parameter's gradient with the central
// difference (f(p + eps) - f(p - eps)) / 2 eps of the forward loss. Programs
// are in f64 so that eps = 1e-6 leaves a difference error near 1e-9
// relative; the tolerance below leaves a margin over that.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_UNITTESTS_AUTODIFF_GRADIENTCHECK_H
#define DISTIR_UNITTESTS_AUTODIFF_GRADIENTCHECK_H

#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Executor/Executor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace distir::testing {

struct GradientCheckOptions {
  double epsilon = 1e-6;
  /// |analytic - numeric| <= absTolerance + relTolerance * max(|a|, |n|).
  double absTolerance = 1e-7;
  double relTolerance = 1e-5;
  /// Elements checked per parameter (evenly spaced over all its local
  /// elements, always including the first and last); 0 checks all.
  int64_t maxElementsPerParameter = 0;
  uint64_t seed = 7;
};

struct GradientCheckResult {
  /// Empty when the program ran; otherwise what failed (diagnostics).
  std::string error;
  int64_t numParameters = 0;
  int64_t numElementsChecked = 0;
  /// One line per element outside the tolerance (parameter, index, values).
  std::vector<std::string> mismatches;
  double maxAbsError = 0;
  double loss = 0;
};

/// A context with the dialects distir's tools register.
std::unique_ptr<mlir::MLIRContext> makeContext();

/// A copy of `forward` run through dist-autodiff with `options` (its
/// diagnostics go to `error`); null on failure.
mlir::OwningOpRef<mlir::ModuleOp>
differentiate(mlir::ModuleOp forward,
              const mlir::dist::DistAutodiffOptions &options,
              std::string &error);

/// Deterministic inputs for every argument of `func`, laid out as its type
/// says (each device of a placed argument gets its own values).
mlir::LogicalResult makeArguments(mlir::func::FuncOp func, uint64_t seed,
                                  std::vector<PlacedValue> &arguments,
                                  std::string &error);

/// The first function of `module` with a body.
mlir::func::FuncOp getFirstFunction(mlir::ModuleOp module);

/// Checks the first function of `forward` (which is not modified).
GradientCheckResult checkGradients(mlir::ModuleOp forward,
                                   const GradientCheckOptions &options = {});

/// Parses `source` and checks it; parse errors end up in `error`.
GradientCheckResult checkGradients(mlir::MLIRContext &context,
                                   llvm::StringRef source,
                                   const GradientCheckOptions &options = {});

} // namespace distir::testing

#endif // DISTIR_UNITTESTS_AUTODIFF_GRADIENTCHECK_H
