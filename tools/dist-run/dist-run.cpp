//===- dist-run.cpp - run a dist program on the CPU -----------------------===//
//
// Executes a function of a dist program with the reference interpreter, in
// the global view: inputs are global tensors (generated from a seed or read
// from .npy files) laid out over devices as the signature says, and results
// are reassembled into global tensors. With --reference, the original
// program runs on the same inputs and every result is compared.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Executor/Executor.h"
#include "distir/Executor/GlobalView.h"
#include "distir/Executor/Inputs.h"
#include "distir/Executor/Results.h"
#include "distir/Import/OnnxImporter.h"
#include "distir/MpiRuntime/Calibration.h"
#include "distir/MpiRuntime/MpiRuntime.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/OneLineDiagnostics.h"
#include "distir/Support/ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using namespace distir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("dist-run options");
// "-" (the default) reads the program from standard input, so dist-run ends
// a pipeline: dist-gen ... | dist-opt ... | dist-run --seed 1.
cl::opt<std::string> programFile(cl::Positional,
                                 cl::desc("<program.mlir, default: stdin>"),
                                 cl::init("-"), cl::cat(category));
cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: @main, or the "
                       "only public function)"),
              cl::value_desc("name"), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the generated inputs"),
                       cl::init(0), cl::cat(category));
cl::list<std::string>
    inputFiles("input", cl::desc("Global value of one argument: NAME=file.npy"),
               cl::value_desc("NAME=file.npy"), cl::cat(category));
cl::opt<std::string> weightsFile(
    "weights",
    cl::desc("ONNX model whose initializers are the arguments of the "
             "same dist.name (those without --input)"),
    cl::value_desc("model.onnx"), cl::cat(category));
cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Write each global result as <name>.npy here"),
              cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> referenceFile(
    "reference",
    cl::desc("Original program: run it on the same global inputs and compare"),
    cl::value_desc("orig.mlir"), cl::cat(category));
cl::opt<std::string> referenceEntryName(
    "reference-entry",
    cl::desc(
        "Function of --reference to compare with (default: the --entry name "
        "if the reference has it, else @main or its only public function)"),
    cl::value_desc("name"), cl::cat(category));
cl::opt<double> relativeTolerance("rtol",
                                  cl::desc("Relative tolerance of --reference"),
                                  cl::init(1e-4), cl::cat(category));
cl::opt<double> absoluteTolerance("atol",
                                  cl::desc("Absolute tolerance of --reference"),
                                  cl::init(1e-5), cl::cat(category));
cl::opt<bool> printValues("print-values",
                          cl::desc("Print every value of every result"),
                          cl::cat(category));
cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Execute the program this many times (for timing; "
                    "the results of the last run are reported)"),
           cl::init(1), cl::cat(category));
cl::opt<bool>
    printTime("time",
              cl::desc("Print the execution time of the program (not of "
                       "parsing or making inputs) to stderr"),
              cl::cat(category));

cl::opt<std::string> traceFile(
    "trace",
    cl::desc("Write the measured timeline of the (last) run as "
             "Chrome-trace/Perfetto JSON in dist-sim's format: a process per "
             "rank (with --mpi, on rank 0's clock), a thread per stream, a "
             "memory counter"),
    cl::value_desc("t.json"), cl::cat(category));
cl::opt<bool> mpiMode(
    "mpi",
    cl::desc("Run on MPI processes: under `mpirun -n N`, rank r runs devices "
             "[r*D/N, (r+1)*D/N) of the program's D devices (N = D, or a "
             "divisor of D for several devices per rank) and rank 0 prints "
             "the results; see docs/dist-run.md"),
    cl::cat(category));
cl::opt<bool> mpiDeterministic(
    "mpi-deterministic",
    cl::desc("With --mpi: reductions gather each group's tensors and sum "
             "them in the sequential order (results bitwise equal to "
             "dist-run without --mpi)"),
    cl::cat(category));

cl::opt<cl::boolOrDefault> progress(
    "progress",
    cl::desc("Show each phase (parsing, inputs, running, the reference) on "
             "stderr as it starts (default: when stderr is a terminal)"),
    cl::cat(category));

cl::opt<bool> calibrateMode(
    "calibrate",
    cl::desc("With --mpi, instead of a program: time the executor's kernels "
             "and MPI's collectives and sends between the N ranks, and write "
             "dist-sim's --cluster JSON of this machine (--cluster-out) and "
             "the kernels' --profile (--profile-out); --repeat runs of each "
             "kernel (default 5)"),
    cl::cat(category));
cl::opt<std::string> clusterOutFile(
    "cluster-out",
    cl::desc("With --calibrate: write the fitted cluster (dist-sim --cluster)"),
    cl::value_desc("cluster.json"), cl::cat(category));
cl::opt<std::string> profileOutFile(
    "profile-out",
    cl::desc("Write the measured time of each compute op (the fastest of the "
             "--repeat runs; the median over ops and ranks of one shape) as "
             "dist-sim's --profile"),
    cl::value_desc("profile.json"), cl::cat(category));

/// With --mpi: this process's transport (null before it exists), and the
/// diagnostics held back until the rank knows it failed.
mpi::MpiTransport *transport = nullptr;
std::string heldDiagnostics;
llvm::raw_string_ostream heldDiagnosticsStream(heldDiagnostics);
/// Set while the program runs: errors then name the rank.
bool namingRank = false;

bool isRoot() { return !mpiMode || mpi::getWorldRank() == 0; }

/// Exits after an error whose diagnostics were printed (or, with --mpi,
/// held back): with --mpi the whole job stops with one message.
[[noreturn]] void exitFailed() {
  if (!mpiMode)
    std::exit(1);
  std::string message;
  for (llvm::StringRef line : llvm::split(heldDiagnostics, '\n')) {
    if (line.empty())
      continue;
    if (namingRank)
      message += "rank " + std::to_string(mpi::getWorldRank()) + ": ";
    message += line.str() + "\n";
  }
  mpi::failAll(message);
}

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::raw_ostream &os =
      mpiMode ? static_cast<llvm::raw_ostream &>(heldDiagnosticsStream)
              : llvm::errs();
  os << "dist-run: error: " << message << "\n";
  exitFailed();
}

/// Ends the run: with --mpi every rank takes rank 0's `code`.
[[noreturn]] void finish(int code) {
  if (mpiMode)
    mpi::exitAll(code);
  std::exit(code);
}

/// Exits with the message of a failed Status.
void check(const Status &status) {
  if (!status.ok())
    fail(status.message());
}

/// The global inputs: --input files first, then --weights initializers, the
/// rest generated from the seed.
std::vector<HostTensor> makeInputs(func::FuncOp func,
                                   const std::vector<GlobalLayout> &layouts) {
  check(checkInputMemory(layouts, getHostMemoryLimit()));
  InputSources sources;
  check(parseInputSpecs(inputFiles, layouts, sources.npyFiles));
  if (!weightsFile.empty())
    check(loadOnnxInitializers(weightsFile, sources.weights));
  sources.weightsFile = weightsFile;
  sources.seed = seed;
  std::vector<HostTensor> inputs;
  check(distir::makeInputs(func, layouts, std::move(sources), inputs));
  return inputs;
}

OwningOpRef<ModuleOp> parseProgram(const std::string &path,
                                   MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr) {
  // Read whole: /dev/zero would never end.
  if (std::optional<std::string> notRegular = checkRegularFile(path))
    fail(*notRegular);
  std::string error;
  auto buffer = openInputFile(path, &error);
  if (!buffer)
    fail("cannot read " + path + ": " + error);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    exitFailed(); // The parser or verifier reported the error.
  return module;
}

/// The function to run: `name` if given, else @main, else the only public
/// function.
func::FuncOp selectEntry(ModuleOp module, const std::string &path,
                         const std::string &name) {
  auto withBody = [&](func::FuncOp func) {
    if (func.isExternal())
      fail(path + ": @" + func.getSymName() + " has no body to run");
    return func;
  };
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func)
      fail(path + ": no function @" + name);
    return withBody(func);
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return withBody(main);
  func::FuncOp only;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (only)
      fail(path +
           ": several public functions and no @main: choose one with --entry");
    only = func;
  }
  if (!only)
    fail(path + ": no function to run");
  return only;
}

/// The program's execution time and, with --mpi, where each rank spent it.
void printTimes(func::FuncOp func, unsigned run, double stepMs,
                int64_t peakBytes, bool distributed) {
  if (!distributed || !transport) {
    llvm::errs() << "time: @" << func.getSymName() << " run " << run << ": "
                 << llvm::format("%.3f", stepMs) << " ms\n";
    return;
  }
  const mpi::CommunicationStats &stats = transport->getStats();
  double rankMs = stats.runSeconds * 1e3, communicationMs = stats.seconds * 1e3;
  // Idle: waiting for the slowest rank at the end of the step.
  std::vector<double> mine = {
      rankMs - communicationMs, communicationMs, std::max(0.0, stepMs - rankMs),
      static_cast<double>(peakBytes), stats.cpuSeconds * 1e3};
  constexpr size_t kFigures = 5;
  std::vector<double> all = mpi::gatherToRoot(mine);
  if (!isRoot())
    return;
  llvm::errs() << "time: @" << func.getSymName() << " run " << run << ": "
               << llvm::format("%.3f", stepMs) << " ms\n";
  for (size_t rank = 0; rank * kFigures < all.size(); ++rank) {
    const double *figures = &all[rank * kFigures];
    llvm::errs() << "time: rank " << rank << ": compute "
                 << llvm::format("%.3f", figures[0]) << " ms, communication "
                 << llvm::format("%.3f", figures[1]) << " ms, idle "
                 << llvm::format("%.3f", figures[2]) << " ms, peak live bytes "
                 << static_cast<int64_t>(figures[3]) << ", cpu "
                 << llvm::format("%.3f", figures[4]) << " ms\n";
  }
}

/// One op as this process ran it (--trace).
struct MeasuredOp {
  Operation *op;
  int stream;
  double startS, endS;
  int64_t liveBytes;
};
std::vector<MeasuredOp> measuredOps;
/// --profile-out's measurements.
mpi::OpProfile measuredProfile;

/// Whether `type` is unplaced or placed on a device of this process.
bool isHere(Type type) {
  dist::DevicesAttr devices = dist::getPlacement(type);
  if (!devices || !transport)
    return true;
  return llvm::any_of(devices.getIds(),
                      [](int64_t id) { return transport->isLocal(id); });
}

/// Records the ops that did work here, on dist-sim's streams: compute 0,
/// collective 1, send 2, receive 3.
void recordOp(Operation *op, double startS, double endS, int64_t liveBytes) {
  bool sends = llvm::any_of(op->getOperandTypes(), isHere);
  bool receives = llvm::any_of(op->getResultTypes(), isHere);
  if (!sends && !receives)
    return;
  if (!profileOutFile.empty())
    measuredProfile.record(op, endS - startS);
  if (traceFile.empty())
    return;
  int stream = 0;
  if (isa<dist::SendOp>(op))
    stream = sends ? 2 : 3;
  else if (isa<dist::CollectiveOpInterface>(op))
    stream = 1;
  measuredOps.push_back({op, stream, startS, endS, liveBytes});
}

/// This process's part of the Chrome trace: its metadata, its ops and its
/// memory counter, with times in microseconds from `originS`.
std::string formatTraceEvents(int pid, const std::string &processName,
                              double originS) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << pid
     << ",\"tid\":0,\"args\":{\"name\":\"" << processName << "\"}},\n"
     << "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << pid
     << ",\"tid\":0,\"args\":{\"sort_index\":" << pid << "}}";
  const char *streams[] = {"compute", "collective", "send", "receive"};
  for (int tid = 0; tid < 4; ++tid)
    os << ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid
       << ",\"tid\":" << tid << ",\"args\":{\"name\":\"" << streams[tid]
       << "\"}}";
  auto micros = [&](double seconds) {
    return llvm::format("%.3f", (seconds - originS) * 1e6);
  };
  for (const MeasuredOp &op : measuredOps) {
    os << ",\n{\"ph\":\"X\",\"pid\":" << pid << ",\"tid\":" << op.stream
       << ",\"name\":\"" << op.op->getName().getStringRef()
       << "\",\"ts\":" << micros(op.startS)
       << ",\"dur\":" << llvm::format("%.3f", (op.endS - op.startS) * 1e6)
       << "}";
    os << ",\n{\"ph\":\"C\",\"name\":\"memory\",\"pid\":" << pid
       << ",\"ts\":" << micros(op.endS)
       << ",\"args\":{\"bytes\":" << op.liveBytes << "}}";
  }
  return text;
}

/// Writes --trace: with --mpi every rank's part, on rank 0's clock (each
/// rank's offset estimated by ping-pong with rank 0 and removed).
void writeTrace() {
  double offsetS = 0;
  std::string name = "dist-run";
  int pid = 0;
  if (transport) {
    offsetS = mpi::estimateClockOffset();
    for (MeasuredOp &op : measuredOps) {
      op.startS -= offsetS;
      op.endS -= offsetS;
    }
    pid = transport->getRank();
    int64_t first = transport->getFirstDevice();
    int64_t count = transport->getNumLocalDevices();
    name = "rank " + std::to_string(pid) + ": devices " +
           std::to_string(first) +
           (count > 1 ? "-" + std::to_string(first + count - 1) : "");
  }
  // The first op of any rank starts the timeline.
  double originS = measuredOps.empty() ? std::numeric_limits<double>::max()
                                       : measuredOps.front().startS;
  if (transport)
    originS = mpi::getMinimumOverRanks(originS);
  std::string mine = formatTraceEvents(pid, name, originS);
  std::vector<std::string> parts = {mine};
  if (transport)
    parts = mpi::gatherToRoot(mine);
  if (!isRoot())
    return;
  std::string error;
  auto file = mlir::openOutputFile(traceFile, &error);
  if (!file)
    fail("cannot write " + traceFile + ": " + error);
  file->os() << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  for (size_t i = 0; i < parts.size(); ++i)
    file->os() << (i ? ",\n" : "") << parts[i];
  file->os() << "\n]}\n";
  file->keep();
}

/// Opens `path` for writing on rank 0 (null elsewhere and for no path),
/// before any work, so that an unwritable path fails at once.
std::unique_ptr<llvm::ToolOutputFile> openOutput(const std::string &path) {
  if (path.empty() || !isRoot())
    return nullptr;
  std::string error;
  auto file = mlir::openOutputFile(path, &error);
  if (!file)
    fail("cannot write " + path + ": " + error);
  return file;
}

/// Writes `text` into `file` (opened by openOutput; null: nothing to do).
void keepOutput(std::unique_ptr<llvm::ToolOutputFile> &file,
                const std::string &text) {
  if (!file)
    return;
  file->os() << text;
  file->keep();
  // finish() exits without running destructors.
  file.reset();
}

/// --calibrate: measures this machine and writes dist-sim's cluster (and
/// profile), instead of running a program.
[[noreturn]] void runCalibration(MLIRContext &context) {
  if (!mpiMode)
    fail("--calibrate needs --mpi (run it under mpirun -n N, N >= 2)");
  if (clusterOutFile.empty())
    fail("--calibrate needs --cluster-out FILE");
  if (programFile.getNumOccurrences())
    fail("--calibrate runs its own kernels: it takes no program");
  auto clusterFile = openOutput(clusterOutFile);
  auto profileFile = openOutput(profileOutFile);
  mpi::CalibrationOptions options;
  if (repeat.getNumOccurrences())
    options.repetitions = repeat;
  StatusOr<mpi::Calibration> calibration = mpi::calibrate(context, options);
  check(calibration.status());
  if (isRoot()) {
    llvm::outs() << calibration->summary;
    keepOutput(clusterFile, topology::clusterToJson(calibration->cluster));
    keepOutput(profileFile, calibration->profileJson);
  }
  finish(0);
}

/// Runs `func` on global inputs and returns global results (false after a
/// diagnostic); `distributed`: on the MPI ranks with --mpi (the global
/// results are then on rank 0 only).
bool runOrReport(func::FuncOp func, const std::vector<HostTensor> &inputs,
                 std::vector<HostTensor> &outputs,
                 std::vector<GlobalLayout> &resultLayouts,
                 const OneLineDiagnostics &diagnostics, bool distributed) {
  GlobalRunOptions options;
  options.repeat = repeat;
  options.rtol = relativeTolerance;
  options.atol = absoluteTolerance;
  if (distributed)
    options.transport = transport;
  options.onRun = [&](unsigned run, double milliseconds, int64_t peakBytes) {
    if (printTime)
      printTimes(func, run, milliseconds, peakBytes, distributed);
    // The trace shows the last run.
    if (run + 1 < repeat)
      measuredOps.clear();
  };
  if (distributed && (!traceFile.empty() || !profileOutFile.empty()))
    options.onOp = recordOp;
  namingRank = distributed && transport;
  Status status =
      distir::runGlobal(func, inputs, options, outputs, resultLayouts);
  if (!status.ok() && !diagnostics.hasPrintedError())
    fail(status.message());
  if (status.ok())
    namingRank = false;
  return status.ok();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  distir::installOutOfMemoryHandler("dist-run");
  distir::registerDebugOptions();
  cl::HideUnrelatedOptions(category);
  distir::parseCommandLine(argc, argv,
                           "dist-run: execute a dist program on the CPU "
                           "with the reference kernels\n");
  distir::rejectRepeatedOptions("dist-run");
  if (mpiDeterministic && !mpiMode)
    fail("--mpi-deterministic needs --mpi");
  if (!clusterOutFile.empty() && !calibrateMode)
    fail("--cluster-out needs --calibrate");
  if (mpiMode) {
    mpi::initialize(&argc, &argv);
    mpi::installTerminationHandler("dist-run");
  }
  // NaN compares false with everything, so "< 0" alone lets it through and
  // then every comparison passes.
  for (const cl::opt<double> *tolerance :
       {&relativeTolerance, &absoluteTolerance})
    if (!std::isfinite(*tolerance) || *tolerance < 0)
      fail("--" + tolerance->ArgStr +
           " must be a finite non-negative number, got " +
           llvm::formatv("{0}", llvm::format("%g", double(*tolerance))));

  // Only the dialects a program is written in: no passes run here.
  distir::OneLineDiagnostics diagnostics("dist-run");
  DialectRegistry registry;
  registry.insert<dist::DistDialect, func::FuncDialect>();
  dist::registerExecutionInterfaceExternalModels(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  diagnostics.install(context);
  if (mpiMode)
    diagnostics.redirect(heldDiagnosticsStream);

  if (calibrateMode)
    runCalibration(context);

  // Under --mpi every rank would print: no progress lines there.
  PhaseProgress phases("dist-run", isProgressOn(progress) && !mpiMode);
  phases.start("parsing " + programFile);
  llvm::SourceMgr programSources, referenceSources;
  OwningOpRef<ModuleOp> program =
      parseProgram(programFile, context, programSources);
  func::FuncOp programEntry = selectEntry(*program, programFile, entryName);
  OwningOpRef<ModuleOp> reference;
  func::FuncOp referenceEntry;
  if (!referenceFile.empty()) {
    reference = parseProgram(referenceFile, context, referenceSources);
    std::string name = referenceEntryName;
    if (name.empty() && !entryName.empty() &&
        reference->lookupSymbol<func::FuncOp>(entryName))
      name = entryName;
    referenceEntry = selectEntry(*reference, referenceFile, name);
  }

  // Inputs follow the original signature when there is one: its shapes are
  // global and its uses give integer bounds that are not per-shard sizes.
  func::FuncOp signature = referenceEntry ? referenceEntry : programEntry;
  std::vector<GlobalLayout> argumentLayouts, resultLayouts;
  if (failed(getArgumentLayouts(signature, argumentLayouts)) ||
      failed(getResultLayouts(signature, resultLayouts)))
    exitFailed();
  if (referenceEntry) {
    std::vector<GlobalLayout> programArguments, programResults;
    if (failed(getArgumentLayouts(programEntry, programArguments)) ||
        failed(getResultLayouts(programEntry, programResults)))
      exitFailed();
    check(checkSameSignature(programArguments, argumentLayouts, "argument",
                             programFile, referenceFile));
    check(checkSameSignature(programResults, resultLayouts, "result",
                             programFile, referenceFile));
  }
  phases.start("making the inputs");
  std::vector<HostTensor> inputs = makeInputs(signature, argumentLayouts);
  auto profileFile = openOutput(profileOutFile);
  std::unique_ptr<mpi::MpiTransport> ranks;
  if (mpiMode) {
    mpi::TransportOptions options;
    options.deterministic = mpiDeterministic;
    auto created =
        mpi::MpiTransport::create(mpi::getNumDevices(*program), options);
    check(created.status());
    ranks = std::move(*created);
    transport = ranks.get();
  }
  phases.start("running @" + programEntry.getSymName().str());

  std::vector<HostTensor> outputs, expected;
  std::vector<GlobalLayout> outputLayouts, expectedLayouts;
  if (!runOrReport(programEntry, inputs, outputs, outputLayouts, diagnostics,
                   /*distributed=*/true))
    exitFailed();
  if (!traceFile.empty())
    writeTrace();
  if (!profileOutFile.empty()) {
    std::string profile = measuredProfile.toJson(/*gather=*/transport);
    keepOutput(profileFile, profile);
  }
  // Only rank 0 holds the global results.
  if (!isRoot())
    finish(0);
  if (printValues || !referenceEntry)
    for (size_t i = 0; i < outputs.size(); ++i)
      printResult(llvm::outs(), outputLayouts[i], outputs[i], printValues);
  if (!outputDir.empty())
    check(writeResultFiles(outputDir, outputLayouts, outputs));
  if (!referenceEntry)
    finish(0);
  phases.start("running the reference @" + referenceEntry.getSymName().str());
  if (!runOrReport(referenceEntry, inputs, expected, expectedLayouts,
                   diagnostics, /*distributed=*/false))
    exitFailed();
  bool pass = false;
  check(compareResults(llvm::outs(), outputLayouts, outputs, expected,
                       relativeTolerance, absoluteTolerance, pass));
  finish(pass ? 0 : 1);
}
