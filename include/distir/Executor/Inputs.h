//===- Inputs.h - Global inputs of a program: files or generated -*- C++
//-*-===//
//
// The inputs dist-run gives a program, in the global view: .npy files,
// initializers of an ONNX model, or values generated from a seed so that the
// program sees valid data (docs/dist-run.md): integers within the bound of
// what they index, non-negative variances, the first Adam step, matmul
// weights scaled as nn.Linear initializes them.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_EXECUTOR_INPUTS_H
#define DISTIR_EXECUTOR_INPUTS_H

#include "distir/Executor/GlobalView.h"
#include "distir/Kernels/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace distir {

/// Integer arguments without dist.bound and without a use that implies a
/// bound are drawn from [0, kDefaultIntegerBound): an arbitrary choice,
/// documented in docs/dist-run.md.
constexpr int64_t kDefaultIntegerBound = 100;

/// How to generate one argument so that the program sees valid data: a
/// bound for integers, non-negative values for variances, a step number.
struct GenerationRule {
  int64_t bound = 0;
  bool nonNegative = false;
  std::optional<double> fill;
  /// Multiplies the uniform [-1, 1) values (1: unscaled).
  double scale = 1.0;
};

/// The rule of argument `index` of `func`, read off its uses.
GenerationRule getGenerationRule(mlir::func::FuncOp func, unsigned index,
                                 const GlobalLayout &layout);

/// Argument `index` of `func`, generated from `seed` by its rule.
HostTensor generateInput(mlir::func::FuncOp func, unsigned index,
                         const GlobalLayout &layout, uint64_t seed);

/// Reads dist-run's --input specifications, `NAME=file.npy`, into `files`
/// by argument name; each must name an argument of `layouts`.
Status parseInputSpecs(const std::vector<std::string> &specs,
                       const std::vector<GlobalLayout> &layouts,
                       std::map<std::string, std::string> &files);

/// Where the inputs come from.
struct InputSources {
  /// .npy files by argument name (parseInputSpecs).
  std::map<std::string, std::string> npyFiles;
  /// Initializers by argument name, read from `weightsFile`.
  std::map<std::string, HostTensor> weights;
  std::string weightsFile;
  /// Seed of the generated inputs.
  uint64_t seed = 0;
};

/// Fails, before anything is read or generated, when the inputs of
/// `layouts` need more than `limit` bytes of host memory: dist-run holds each
/// global tensor and its blocks on the devices.
Status checkInputMemory(const std::vector<GlobalLayout> &layouts,
                        int64_t limit);

/// The global inputs of `func` (whose arguments are `layouts`): --input
/// files first, then initializers, the rest generated from the seed. The
/// error names the specification, the file or the argument.
Status makeInputs(mlir::func::FuncOp func,
                  const std::vector<GlobalLayout> &layouts,
                  InputSources sources, std::vector<HostTensor> &inputs);

/// `'name' f32 [2, 3]`.
std::string describe(const GlobalLayout &layout);

} // namespace distir

#endif // DISTIR_EXECUTOR_INPUTS_H
