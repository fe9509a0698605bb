//===- Calibration.h - dist-sim's cluster of the machine MPI runs on -*- C++
//-*-=//
//
// dist-run --calibrate: under `mpirun -n N`, runs small dist programs through
// the same interpreter, kernels and MPI transport as dist-run --mpi, times
// every op, and fits the parameters of dist-sim's cost model (the GEMM and
// memory-bound rates, the per-op overhead, the latency and bandwidth of the
// collectives and sends between the N ranks), so that dist-sim predicts
// dist-run --mpi on this machine. OpProfile turns the measured ops of any
// run into dist-sim's --profile format.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_MPIRUNTIME_CALIBRATION_H
#define DISTIR_MPIRUNTIME_CALIBRATION_H

#include "distir/Support/Status.h"
#include "distir/Topology/Cluster.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/MapVector.h"

#include <string>

namespace distir::mpi {

/// The measured compute ops of a run, as dist-sim's --profile: an entry per
/// kind, element type and local shapes (the simulator's lookup key), whose
/// time is the median over the ops and ranks sharing it of each op's
/// fastest run.
class OpProfile {
public:
  /// One op this process ran (the caller keeps the ops of other ranks'
  /// devices out); communication and ops without a cost are ignored.
  void record(mlir::Operation *op, double seconds);
  /// Every rank calls it (with --mpi); the profile JSON is returned where
  /// `gather` is false or on rank 0, "" on the other ranks.
  std::string toJson(bool gather) const;

private:
  /// The fastest run of each op, by its entry's key (without "seconds").
  llvm::MapVector<mlir::Operation *, std::pair<std::string, double>> fastest;
};

struct CalibrationOptions {
  /// Runs of each calibration program; each op's fastest run counts.
  unsigned repetitions = 5;
};

struct Calibration {
  topology::Cluster cluster;
  /// The calibration kernels' measured times (dist-sim's --profile).
  std::string profileJson;
  /// What was measured and fitted, one finding a line (rank 0 only).
  std::string summary;
};

/// Every rank calls it after mpi::initialize, with at least 2 ranks. The
/// cluster has one node of N devices, one per rank: dist-sim then times
/// programs of N devices as dist-run --mpi runs them on N ranks.
StatusOr<Calibration> calibrate(mlir::MLIRContext &context,
                                const CalibrationOptions &options);

} // namespace distir::mpi

#endif // DISTIR_MPIRUNTIME_CALIBRATION_H
