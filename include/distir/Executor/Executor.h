//===- Executor.h - Reference interpreter of dist programs ------*- C++ -*-===//
//
// Interprets a func.func of the dist dialect on the CPU. A placed value holds
// one local tensor per device of its device set; every compute op runs its
// reference kernel (ExecutableOpInterface::execute) once per device, and every
// communication op performs its exact semantics over its groups. Unplaced
// values (the sequential program) hold a single tensor.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_EXECUTOR_EXECUTOR_H
#define DISTIR_EXECUTOR_EXECUTOR_H

#include "distir/Kernels/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace distir {

/// The runtime value of one SSA value. Local tensors are immutable once
/// made, so devices holding equal data (replicas, sends) share one buffer.
struct PlacedValue {
  /// Sorted device ids of the placement; empty for an unplaced value.
  std::vector<int64_t> devices;
  /// One tensor per device, aligned with `devices`; one for unplaced.
  std::vector<std::shared_ptr<const HostTensor>> locals;

  size_t size() const { return locals.size(); }
  /// Position of `device` in `devices`, or -1.
  int64_t indexOf(int64_t device) const;
  int64_t getByteSize() const;
};

/// The HostTensor element type of an MLIR element type (f64, f32, f16, bf16,
/// i64, i32, i1), or nullopt for any other.
std::optional<ElementType> getHostElementType(mlir::Type type);

/// Element type and (static) shape of a ranked tensor type as a HostTensor
/// would have them; fails with a message for dynamic or unsupported types.
Status getHostTensorType(mlir::Type type, ElementType &elementType,
                         std::vector<int64_t> &shape);

/// Materializes a constant's elements (dense elements of a supported type).
Status getConstantTensor(mlir::Attribute value, HostTensor &tensor);

/// The bytes of `count` host tensors of `type` and `shape`, or nullopt when
/// they overflow int64 (more than any host holds).
std::optional<int64_t>
getHostBytes(ElementType type, llvm::ArrayRef<int64_t> shape, int64_t count);

/// The default bound on the executor's host memory: three quarters of
/// physical memory.
int64_t getHostMemoryLimit();

/// Moves data between the devices of a program whose devices are spread over
/// several processes (dist-run --mpi). With one, the interpreter computes only
/// the devices of its process (the others' locals stay null) and hands every
/// communication op to it.
class DeviceTransport {
public:
  virtual ~DeviceTransport();
  /// Whether this process runs `device`.
  virtual bool isLocal(int64_t device) const = 0;
  /// Performs the send or collective `op` from `input` (whose local devices
  /// hold their tensors): sets the result locals of this process's devices.
  virtual mlir::LogicalResult communicate(mlir::Operation *op,
                                          const PlacedValue &input,
                                          PlacedValue &result) = 0;
  /// Around each run of a function (runGlobal): the processes start
  /// together, and a run ends when its last message is delivered.
  virtual void beginRun() {}
  virtual void endRun() {}
  /// Brings the locals of a result `value` of `type` that other processes
  /// hold to those that assemble the global results (every process calls it
  /// for the same values in the same order).
  virtual Status collectResult(PlacedValue &value, mlir::Type type) {
    return Status::success();
  }
  /// Whether this process assembles the global results.
  virtual bool holdsResults() const { return true; }
};

/// The sequential semantics of the collective `op` for the groups `select`
/// accepts: reads the input locals of their members (in group order, fixed
/// reduction order in f64) and sets their result locals.
mlir::LogicalResult
runCollectiveGroups(mlir::Operation *op, const PlacedValue &input,
                    PlacedValue &result,
                    llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> select);

struct InterpreterOptions {
  /// Upper bound on the bytes of live values; a program that needs more
  /// fails with an error instead of exhausting the host. 0: three quarters
  /// of physical memory.
  int64_t maxLiveBytes = 0;
  /// Runs only this process's devices and communicates through it; null:
  /// every device runs here.
  DeviceTransport *transport = nullptr;
  /// Told every op run (not calls and returns) with its start and end in
  /// seconds of std::chrono::steady_clock and the live bytes after it
  /// (dist-run --trace); may be empty.
  std::function<void(mlir::Operation *, double, double, int64_t)> onOp;
};

/// Runs dist programs with the reference kernels: the module's context must
/// have them registered (registerExecutionInterfaceExternalModels).
class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module, InterpreterOptions options = {});

  /// Runs `func` with one argument value per function argument (each laid
  /// out as its type says). Errors are emitted as diagnostics at the op that
  /// failed.
  mlir::LogicalResult run(mlir::func::FuncOp func,
                          std::vector<PlacedValue> arguments,
                          std::vector<PlacedValue> &results);

  /// The most bytes of live values held at once since the last reset.
  int64_t getPeakLiveBytes() const { return peakLiveBytes; }
  void resetPeakLiveBytes() { peakLiveBytes = liveBytes; }

private:
  using Environment = llvm::DenseMap<mlir::Value, PlacedValue>;

  mlir::LogicalResult runOp(mlir::Operation *op, Environment &values,
                            std::vector<PlacedValue> &returned);
  mlir::LogicalResult runCompute(mlir::Operation *op, Environment &values);
  mlir::LogicalResult runCommunication(mlir::Operation *op,
                                       Environment &values);
  /// dist.group_rank: each device's position in its group.
  mlir::LogicalResult runGroupRank(mlir::Operation *op, Environment &values);
  mlir::LogicalResult define(mlir::Operation *op, mlir::Value value,
                             PlacedValue placed, Environment &values);
  /// "the program needs more than N bytes of live values", at `op`.
  mlir::LogicalResult reportMemoryLimit(mlir::Operation *op) const;

  /// Whether `device` runs in this process.
  bool runsHere(int64_t device) const {
    return !transport || transport->isLocal(device);
  }
  /// Whether the device at `index` of `value` runs in this process.
  bool isLocal(const PlacedValue &value, size_t index) const {
    return value.devices.empty() || runsHere(value.devices[index]);
  }

  mlir::ModuleOp module;
  int64_t maxLiveBytes;
  DeviceTransport *transport;
  std::function<void(mlir::Operation *, double, double, int64_t)> onOp;
  int64_t liveBytes = 0;
  int64_t peakLiveBytes = 0;
  int callDepth = 0;
};

} // namespace distir

#endif // DISTIR_EXECUTOR_EXECUTOR_H
