//===- Driver.h - dist-sim: simulate a placed program file ------*- C++ -*-===//
//
// What dist-sim does, as a library call: read a placed program, lower it,
// simulate one step (`repeat` times, for benchmarking) and print the summary,
// the reports and the trace. The tool only parses its options.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_DRIVER_H
#define DISTIR_SIMULATOR_DRIVER_H

#include "distir/Simulator/Program.h"
#include "distir/Simulator/Simulator.h"
#include "distir/Support/Status.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>
#include <string>

namespace distir {
namespace sim {

struct DriverOptions {
  /// The .mlir file ("-": stdin).
  std::string inputFile = "-";
  /// dgx-a100[:nodes=N], dgx-h100[:nodes=N] or a JSON cluster file.
  std::string clusterSpec;
  /// What runs the program: megatron-sc21[:ddp=local], megatron-2022,
  /// megatron-core (Framework.h).
  std::string frameworkSpec = "megatron-core";
  /// Measured op times (JSON) overriding the cost formulas; empty: none.
  std::string profileFile;
  /// Function to simulate; empty: main, or the only function.
  std::string entry;
  /// Where to write the JSON report, the Chrome trace and the HTML page;
  /// empty: nowhere.
  std::string reportFile, traceFile, htmlFile;
  /// Keep every task's times and the memory curves (the trace and the page
  /// need them; on whenever one of them is written).
  bool recordTimeline = false;
  /// Communication on its own streams as the framework runs it; false puts
  /// everything on the compute stream, whatever the framework.
  bool overlap = true;
  /// Op kinds in the summary.
  unsigned topOps = 10;
  /// Samples per step for the throughput line; 0: inferred.
  double samplesPerStep = 0;
  /// Print the lowering and (mean) simulation times.
  bool timing = false;
  unsigned repeat = 1;
  /// Told each phase as it starts ("parsing prog.mlir", "lowering",
  /// "simulating", "writing"): dist-sim --progress. May be empty.
  std::function<void(const std::string &)> onPhase;
};

/// One simulated step of a function, with what its outputs need.
struct SimulatedStep {
  Program program;
  SimResult result;
  ReportContext context;
  /// Seconds spent lowering, and simulating once (the mean of the repeats).
  double loweringS = 0, simulationS = 0;
};

/// Lowers and simulates `func` as dist-sim does with `options` (its files
/// aside): the library call behind dist-sim and the Python package. A
/// lowering error is emitted as a diagnostic on `func`'s context first.
StatusOr<SimulatedStep> simulateFunction(mlir::func::FuncOp func,
                                         const DriverOptions &options);

/// Runs dist-sim: the summary goes to stdout; errors to stderr as
/// `dist-sim: error: ...` or as diagnostics. Returns the exit code: 1 on bad
/// input and when the program does not fit in device memory (after writing
/// the report, which then says "fits": false).
int runDriver(const DriverOptions &options);

/// The global batch of the step, for the throughput line: dimension 0 of the
/// first data argument's global shape (its local size times the shards of its
/// sharding along that dimension). 0 when the function has no data argument
/// or its batch is not static.
double inferSamplesPerStep(mlir::func::FuncOp func);

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_DRIVER_H
