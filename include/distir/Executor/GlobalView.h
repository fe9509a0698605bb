//===- GlobalView.h - Global values of placed signatures --------*- C++ -*-===//
//
// The contract every transform keeps: a transformed function means what the
// original meant. Each placed argument or result stands for a global tensor:
// with a `dist.sharding` attribute each device holds the block given by its
// mesh coordinates along the axes that split each dim (replicated over the
// other axes; summed over `partial` axes), without one the value is
// replicated on its device set. A `dist.flat_shard` (ZeRO) splits each
// device's block further, flattened and padded, over one mesh axis. Unplaced
// values are global as they are.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_EXECUTOR_GLOBALVIEW_H
#define DISTIR_EXECUTOR_GLOBALVIEW_H

#include "distir/Executor/Executor.h"

#include <functional>
#include <string>
#include <vector>

namespace distir {

/// How one argument or result lays its global tensor over devices.
struct GlobalLayout {
  /// `dist.name`, else "arg<i>" / "result<i>".
  std::string name;
  ElementType elementType = ElementType::F32;
  std::vector<int64_t> localShape;
  std::vector<int64_t> globalShape;
  /// Sorted device ids; empty for an unplaced value.
  std::vector<int64_t> devices;
  /// Per device: offsets of its block in the global tensor.
  std::vector<std::vector<int64_t>> blockOffsets;
  /// Per device: its rank along the partial-sum axes (0 without any).
  std::vector<int64_t> partialRanks;
  /// Blocks the global tensor splits into.
  int64_t numBlocks = 1;
  /// An upper bound for generated integer values (dist.bound), or 0.
  int64_t bound = 0;
  /// ZeRO flat shards (`dist.flat_shard`, Layout.h): each device holds part
  /// `flatRanks[i]` of the `flatParts` equal parts of its block flattened
  /// and zero-padded; `localShape` is then the block's shape. 0: not flat.
  int64_t flatParts = 0;
  std::vector<int64_t> flatRanks;
};

/// Layouts of `func`'s arguments and results. Problems (dynamic shapes,
/// unknown mesh, devices outside it) are emitted as errors on `func`.
mlir::LogicalResult getArgumentLayouts(mlir::func::FuncOp func,
                                       std::vector<GlobalLayout> &layouts);
mlir::LogicalResult getResultLayouts(mlir::func::FuncOp func,
                                     std::vector<GlobalLayout> &layouts);

/// Lays a global tensor out over the layout's devices. A partial value puts
/// the whole block on the lowest partial rank holding it and zeros on the
/// others (their sum is the global value).
Status distributeGlobal(const HostTensor &global, const GlobalLayout &layout,
                        PlacedValue &value);

/// Rebuilds the global tensor: concatenates blocks, sums partials, and
/// checks that replicas agree within numpy.allclose(rtol, atol).
Status assembleGlobal(const PlacedValue &value, const GlobalLayout &layout,
                      double rtol, double atol, HostTensor &global);

/// How runGlobal runs a function.
struct GlobalRunOptions {
  /// Runs of the function; the results are the last run's.
  unsigned repeat = 1;
  /// Tolerances of the check that replicas of a result agree.
  double rtol = 1e-4, atol = 1e-5;
  /// Told each run's index, milliseconds and peak of live bytes in this
  /// process (dist-run --time); may be empty.
  std::function<void(unsigned, double, int64_t)> onRun;
  /// With one (dist-run --mpi), this process runs only its devices and the
  /// global results are assembled where `transport->holdsResults()`
  /// (elsewhere `outputs` stays empty).
  DeviceTransport *transport = nullptr;
  /// Passed to the interpreter (InterpreterOptions::onOp).
  std::function<void(mlir::Operation *, double, double, int64_t)> onOp;
};

/// dist-run's execution in the global view, shared with the Python package:
/// lays the global `inputs` out over `func`'s devices as its signature says,
/// runs it with the interpreter and reassembles each result into a global
/// tensor (`resultLayouts` say how). An error emitted as a diagnostic (a
/// layout the function cannot have, an op that fails) comes back as
/// "@func failed", after the diagnostic.
Status runGlobal(mlir::func::FuncOp func, const std::vector<HostTensor> &inputs,
                 const GlobalRunOptions &options,
                 std::vector<HostTensor> &outputs,
                 std::vector<GlobalLayout> &resultLayouts);

} // namespace distir

#endif // DISTIR_EXECUTOR_GLOBALVIEW_H
