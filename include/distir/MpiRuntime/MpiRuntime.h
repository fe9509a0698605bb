//===- MpiRuntime.h - dist programs on MPI processes ------------*- C++ -*-===//
//
// dist-run --mpi: under `mpirun -n N`, rank r runs devices
// [r * D/N, (r+1) * D/N) of a program on D devices with the reference
// interpreter, and MpiTransport performs its communication over MPI:
// dist.send as nonblocking point-to-point messages, collectives as MPI
// collectives on one communicator per distinct group set (MPI_Comm_split),
// or, where a group has several devices on one rank or a rank in several
// groups, by fetching the group's tensors and applying the sequential
// executor's semantics. Only this library (and dist-run) links MPI; this
// header does not include mpi.h.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_MPIRUNTIME_MPIRUNTIME_H
#define DISTIR_MPIRUNTIME_MPIRUNTIME_H

#include "distir/Executor/Executor.h"
#include "distir/Support/Status.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <string>
#include <vector>

namespace distir::mpi {

/// MPI_Init; the rank and size of MPI_COMM_WORLD.
void initialize(int *argc, char ***argv);
int getWorldRank();
int getWorldSize();
void barrier();
/// Rank 0 receives every rank's `values` (all of one length), rank by rank;
/// the others receive nothing.
std::vector<double> gatherToRoot(const std::vector<double> &values);

/// This rank's steady_clock minus rank 0's, in seconds (0 on rank 0):
/// Cristian's algorithm, the shortest of a few ping-pongs with rank 0.
/// Every rank calls it.
double estimateClockOffset();
/// The smallest of every rank's `value`, on every rank.
double getMinimumOverRanks(double value);
/// Rank 0 receives every rank's `text`, rank by rank; the others nothing.
std::vector<std::string> gatherToRoot(const std::string &text);

/// Every rank calls it at the end: rank 0's `code` becomes every rank's,
/// rank 0's output is flushed before any rank exits (mpirun would drop it
/// when another rank exits non-zero first), and MPI is finalized.
[[noreturn]] void exitAll(int code);

/// A rank that failed, while others may wait for it in a message: prints
/// `message` (lines) and aborts the job with status 1. Rank r waits r/2
/// seconds first (at most 4), so that when several ranks fail the same way
/// the lowest one's message is the only one (its abort ends the others).
[[noreturn]] void failAll(const llvm::Twine &message);

/// A rank that dies (killed, crashed) makes mpirun terminate the others
/// (SIGTERM): after this, each of them then prints one line to stderr,
/// "<tool>: error: rank R: stopped while waiting in 'dist.send': another
/// rank failed or was killed" (the op when it was communicating), and
/// exits with status 1, rather than vanishing silently.
void installTerminationHandler(const char *tool);

/// The devices a program's placed types name: the largest id + 1 (0 when
/// nothing is placed).
int64_t getNumDevices(mlir::ModuleOp module);

struct TransportOptions {
  /// Reductions gather each group's tensors and sum them in the sequential
  /// executor's order, so results are bitwise equal to it.
  bool deterministic = false;
};

/// What the transport spent, since the last reset.
struct CommunicationStats {
  /// Inside communication ops (waits for messages and collectives).
  double seconds = 0;
  /// From the start of the last run to this rank's end of it (before the
  /// other ranks are done).
  double runSeconds = 0;
  /// CPU time this process used over the same span: on a machine shared
  /// with other work, what the rank's work costs on a core of its own (its
  /// kernels, and its polling while it waits and is scheduled).
  double cpuSeconds = 0;
  int64_t messagesSent = 0;
  int64_t bytesSent = 0;
};

class MpiTransport final : public DeviceTransport {
public:
  /// Fails with the same message on every rank when the world size does not
  /// divide `numDevices`.
  static StatusOr<std::unique_ptr<MpiTransport>>
  create(int64_t numDevices, TransportOptions options);
  ~MpiTransport() override;

  bool isLocal(int64_t device) const override;
  mlir::LogicalResult communicate(mlir::Operation *op, const PlacedValue &input,
                                  PlacedValue &result) override;

  /// A barrier, then the statistics restart.
  void beginRun() override;
  /// Waits for every send still in flight, then for the other ranks.
  void endRun() override;
  /// Rank 0 receives every local of `value` that other ranks hold.
  Status collectResult(PlacedValue &value, mlir::Type type) override;
  bool holdsResults() const override;

  /// Drops the locals of other ranks' devices.
  void dropRemote(PlacedValue &value) const;
  /// Waits for every send still in flight.
  void completeSends();

  int getRank() const;
  /// This rank's devices: [getFirstDevice(), + getNumLocalDevices()).
  int64_t getFirstDevice() const;
  int64_t getNumLocalDevices() const;
  int getSize() const;
  const CommunicationStats &getStats() const;
  void resetStats();

private:
  struct Impl;
  explicit MpiTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace distir::mpi

#endif // DISTIR_MPIRUNTIME_MPIRUNTIME_H
