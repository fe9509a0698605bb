//===- Bindings.cpp - The distir Python module (_distir) ------------------===//
//
// pybind11 bindings over the libraries the tools use, so that Python gets
// the tools' numbers bit for bit: the generators (dist-gen), the ONNX
// importer (dist-translate), pass pipelines (dist-opt), simulateFunction
// (dist-sim), searchScenarios (dist-search) and runGlobal (dist-run). The
// pythonic layer (python/distir/*.py) builds on these few calls.
//
// LLVM compiles without exceptions; this file is compiled with them
// (python/CMakeLists.txt) and every error becomes a distir.Error carrying
// the tools' one-line diagnostic. Long calls release the GIL.
//
//===----------------------------------------------------------------------===//

#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Executor/GlobalView.h"
#include "distir/Executor/Inputs.h"
#include "distir/Executor/Results.h"
#include "distir/Import/OnnxImporter.h"
#include "distir/InitAll.h"
#include "distir/Kernels/Npy.h"
#include "distir/Models/Models.h"
#include "distir/Search/Command.h"
#include "distir/Simulator/Driver.h"
#include "distir/Simulator/Html.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Support/OneLineDiagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace py = pybind11;
using namespace mlir;

namespace {

/// distir.Error: a one-line diagnostic or a tool's error message.
struct DistirError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A context with everything the tools register, collecting the errors its
/// diagnostics report (one line each, as the tools print them).
class Session {
public:
  Session() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
    context.getDiagEngine().registerHandler([this](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() == DiagnosticSeverity::Error &&
          !diagnostic.str().empty())
        errors.push_back(formatter.format(diagnostic));
      return success();
    });
  }

  /// Throws the first error reported since the last call, else `fallback`.
  [[noreturn]] void raise(const std::string &fallback) {
    std::string message = errors.empty() ? fallback : errors.front();
    errors.clear();
    throw DistirError(message);
  }
  void clearErrors() { errors.clear(); }

  MLIRContext context;

private:
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    distir::registerAllDialects(registry);
    dist::registerExecutionInterfaceExternalModels(registry);
    return registry;
  }

  distir::OneLineDiagnostics formatter;
  std::vector<std::string> errors;
};

/// A module of the dist dialect with the session that owns its context
/// (declared first: destroyed after the module).
struct Program {
  std::shared_ptr<Session> session;
  OwningOpRef<ModuleOp> module;

  std::string print() const {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.get().print(os);
    os << "\n";
    return text;
  }
  /// The function to simulate or run: as dist-sim chooses it.
  func::FuncOp entry(const std::string &name) const {
    func::FuncOp func = distir::sim::findEntryFunction(module.get(), name);
    if (!func)
      session->raise("no function to use");
    return func;
  }
};
using ProgramPtr = std::shared_ptr<Program>;

ProgramPtr newProgram() {
  auto program = std::make_shared<Program>();
  program->session = std::make_shared<Session>();
  return program;
}

void check(const distir::Status &status) {
  if (!status.ok())
    throw DistirError(status.message());
}

/// Builds a generated model, verified.
template <typename Config, typename Build>
ProgramPtr generate(const Config &config, Build build) {
  if (std::optional<std::string> problem = distir::models::verifyConfig(config))
    throw DistirError(*problem);
  ProgramPtr program = newProgram();
  program->module =
      ModuleOp::create(UnknownLoc::get(&program->session->context));
  if (failed(build(*program->module, config)) ||
      failed(verify(*program->module)))
    program->session->raise("internal error: the generated program does not "
                            "verify");
  return program;
}

ProgramPtr makeGpt(int64_t layers, int64_t hidden, int64_t heads, int64_t seq,
                   int64_t vocab, int64_t batch, const std::string &dtype,
                   double dropout, bool tieEmbeddings, bool fusedAttention) {
  distir::models::GptConfig config;
  config.layers = layers;
  config.hidden = hidden;
  config.heads = heads;
  config.seq = seq;
  config.vocab = vocab;
  config.batch = batch;
  config.dtype = dtype;
  config.dropout = dropout;
  config.tieEmbeddings = tieEmbeddings;
  config.fusedAttention = fusedAttention;
  return generate(config, distir::models::buildGpt);
}

ProgramPtr makeMlp(int64_t layers, int64_t hidden, int64_t batch,
                   int64_t inputDim, const std::string &dtype) {
  distir::models::MlpConfig config;
  config.layers = layers;
  config.hidden = hidden;
  config.batch = batch;
  config.inputDim = inputDim;
  config.dtype = dtype;
  return generate(config, distir::models::buildMlp);
}

ProgramPtr parseProgram(const std::string &text, const std::string &name) {
  ProgramPtr program = newProgram();
  ParserConfig config(&program->session->context);
  program->module = parseSourceString<ModuleOp>(text, config, name);
  if (!program->module)
    program->session->raise(name + ": cannot parse");
  return program;
}

ProgramPtr loadProgram(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw DistirError(path + ": " + buffer.getError().message());
  return parseProgram((*buffer)->getBuffer().str(), path);
}

ProgramPtr importOnnx(const std::string &path,
                      const std::map<std::string, std::vector<int64_t>> &shapes,
                      bool embedWeights, const std::string &functionName) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    throw DistirError(path + ": " + buffer.getError().message());
  distir::OnnxImportOptions options;
  options.inputShapes = shapes;
  options.embedWeights = embedWeights;
  options.functionName = functionName;
  ProgramPtr program = newProgram();
  distir::StatusOr<OwningOpRef<ModuleOp>> module =
      distir::Status::error("not imported");
  {
    py::gil_scoped_release release;
    module = distir::importOnnxModel((*buffer)->getBuffer(), path,
                                     program->session->context, options);
  }
  check(module.status());
  program->module = std::move(*module);
  return program;
}

/// A copy of `program` transformed by a dist-opt pipeline
/// ("dist-autodiff{optimizer=adam},dist-parallelize{dp=2}").
ProgramPtr applyPipeline(const Program &program, const std::string &pipeline) {
  auto result = std::make_shared<Program>();
  result->session = program.session;
  result->module = OwningOpRef<ModuleOp>(program.module.get().clone());
  Session &session = *program.session;
  session.clearErrors();
  PassManager manager(&session.context);
  std::string parseError;
  llvm::raw_string_ostream errorStream(parseError);
  if (failed(parsePassPipeline(pipeline, manager, errorStream)))
    session.raise(llvm::StringRef(parseError).trim().str());
  LogicalResult status = success();
  {
    py::gil_scoped_release release;
    status = manager.run(*result->module);
  }
  if (failed(status))
    session.raise("the pipeline '" + pipeline + "' failed");
  return result;
}

/// dist-sim's simulation: the --report JSON, the plot data and the summary.
py::dict simulate(const Program &program,
                  const distir::sim::DriverOptions &options) {
  func::FuncOp func = program.entry(options.entry);
  distir::StatusOr<distir::sim::SimulatedStep> step =
      distir::Status::error("not simulated");
  {
    py::gil_scoped_release release;
    step = distir::sim::simulateFunction(func, options);
  }
  if (!step)
    program.session->raise(step.message());
  std::ostringstream report, summary;
  distir::sim::writeReportJson(report, step->result, step->context);
  distir::sim::printSummary(summary, step->result, step->context);
  py::dict out;
  out["report"] = report.str();
  out["summary"] = summary.str();
  if (options.recordTimeline) {
    out["plot"] = distir::sim::getStepPlotJson(step->program, step->result,
                                               step->context);
    std::ostringstream html;
    distir::sim::writeReportHtml(html, step->program, step->result,
                                 step->context);
    out["html"] = html.str();
  }
  return out;
}

/// dist-search's search: the --json rows, the tables and the --html page.
/// Ctrl-C stops it: the calling thread polls Python's signal handlers
/// between jobs and from the progress hook, and the workers stop taking
/// jobs (SearchOptions::cancelled); KeyboardInterrupt is then raised.
py::dict search(const distir::search::SearchCommand &command) {
  distir::StatusOr<std::vector<distir::search::ScenarioReport>> reports =
      distir::Status::error("not searched");
  std::atomic<bool> interrupted{false};
  const std::thread::id caller = std::this_thread::get_id();
  auto pollSignals = [&] {
    if (interrupted || std::this_thread::get_id() != caller)
      return;
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) {
      interrupted = true;
      PyErr_Clear();
    }
  };
  {
    py::gil_scoped_release release;
    reports = distir::search::searchScenarios(
        command, [&](int64_t, int64_t) { pollSignals(); },
        [&] {
          pollSignals();
          return interrupted.load();
        });
  }
  if (interrupted) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  check(reports.status());
  std::ostringstream json, tables, html;
  distir::search::writeJson(json, *reports);
  for (const distir::search::ScenarioReport &report : *reports)
    distir::search::printReport(tables, report, command.top);
  distir::search::writeSearchHtml(html, *reports);
  py::dict out;
  out["json"] = json.str();
  out["tables"] = tables.str();
  out["html"] = html.str();
  return out;
}

/// The layouts of `func`'s arguments or results: name, dtype, global shape.
py::list describeLayouts(const std::vector<distir::GlobalLayout> &layouts) {
  py::list list;
  for (const distir::GlobalLayout &layout : layouts)
    list.append(py::make_tuple(layout.name,
                               distir::getElementTypeName(layout.elementType),
                               layout.globalShape));
  return list;
}

std::vector<distir::GlobalLayout> getLayouts(const Program &program,
                                             func::FuncOp func, bool results) {
  std::vector<distir::GlobalLayout> layouts;
  if (failed(results ? distir::getResultLayouts(func, layouts)
                     : distir::getArgumentLayouts(func, layouts)))
    program.session->raise("cannot lay out @" + func.getSymName().str());
  return layouts;
}

/// The global inputs dist-run would make for `func`: `given` (.npy bytes by
/// argument name) first, the rest generated from `seed`.
std::vector<distir::HostTensor>
makeInputs(const Program &program, func::FuncOp func,
           const std::map<std::string, py::bytes> &given, uint64_t seed,
           const std::string &weightsFile) {
  std::vector<distir::GlobalLayout> layouts = getLayouts(program, func, false);
  check(distir::checkInputMemory(layouts, distir::getHostMemoryLimit()));
  distir::InputSources sources;
  if (!weightsFile.empty())
    check(distir::loadOnnxInitializers(weightsFile, sources.weights));
  for (const auto &[name, bytes] : given) {
    distir::HostTensor tensor;
    if (distir::Status status = distir::parseNpy(std::string(bytes), tensor);
        !status.ok())
      throw DistirError("input " + name + ": " + status.message());
    sources.weights[name] = std::move(tensor);
  }
  sources.weightsFile = weightsFile.empty() ? "inputs" : weightsFile;
  sources.seed = seed;
  std::vector<distir::HostTensor> inputs;
  check(distir::makeInputs(func, layouts, std::move(sources), inputs));
  return inputs;
}

/// Runs one function: its results as (name, .npy bytes) pairs.
std::vector<distir::HostTensor>
runFunction(const Program &program, func::FuncOp func,
            const std::vector<distir::HostTensor> &inputs, double rtol,
            double atol, std::vector<distir::GlobalLayout> &layouts) {
  distir::GlobalRunOptions options;
  options.rtol = rtol;
  options.atol = atol;
  std::vector<distir::HostTensor> outputs;
  distir::Status status = distir::Status::success();
  {
    py::gil_scoped_release release;
    status = distir::runGlobal(func, inputs, options, outputs, layouts);
  }
  if (!status.ok())
    program.session->raise(status.message());
  return outputs;
}

py::list toNpyList(const std::vector<distir::GlobalLayout> &layouts,
                   const std::vector<distir::HostTensor> &tensors) {
  py::list list;
  for (size_t i = 0; i < tensors.size(); ++i)
    list.append(py::make_tuple(layouts[i].name,
                               py::bytes(distir::serializeNpy(tensors[i]))));
  return list;
}

/// dist-run: the results, and with a reference the comparison dist-run
/// prints and whether it passed.
py::dict run(const Program &program, const std::string &entry,
             const Program *reference, const std::string &referenceEntry,
             const std::map<std::string, py::bytes> &given, uint64_t seed,
             const std::string &weightsFile, double rtol, double atol) {
  func::FuncOp func = program.entry(entry);
  func::FuncOp referenceFunc =
      reference ? reference->entry(referenceEntry) : func::FuncOp();
  // Inputs follow the original signature when there is one (dist-run).
  const Program &signatureOwner = reference ? *reference : program;
  func::FuncOp signature = reference ? referenceFunc : func;
  std::vector<distir::HostTensor> inputs =
      makeInputs(signatureOwner, signature, given, seed, weightsFile);
  std::vector<distir::GlobalLayout> layouts, referenceLayouts;
  std::vector<distir::HostTensor> outputs =
      runFunction(program, func, inputs, rtol, atol, layouts);
  py::dict out;
  out["outputs"] = toNpyList(layouts, outputs);
  out["arguments"] =
      describeLayouts(getLayouts(signatureOwner, signature, false));
  if (!reference)
    return out;
  std::vector<distir::HostTensor> expected = runFunction(
      *reference, referenceFunc, inputs, rtol, atol, referenceLayouts);
  std::string text;
  llvm::raw_string_ostream os(text);
  bool pass = false;
  check(
      distir::compareResults(os, layouts, outputs, expected, rtol, atol, pass));
  out["reference_outputs"] = toNpyList(referenceLayouts, expected);
  out["comparison"] = text;
  out["passed"] = pass;
  return out;
}

void bindOptions(py::module_ &m) {
  using distir::sim::DriverOptions;
  py::class_<DriverOptions>(m, "SimulateOptions")
      .def(py::init<>())
      .def_readwrite("cluster", &DriverOptions::clusterSpec)
      .def_readwrite("framework", &DriverOptions::frameworkSpec)
      .def_readwrite("profile", &DriverOptions::profileFile)
      .def_readwrite("entry", &DriverOptions::entry)
      .def_readwrite("overlap", &DriverOptions::overlap)
      .def_readwrite("top", &DriverOptions::topOps)
      .def_readwrite("samples_per_step", &DriverOptions::samplesPerStep)
      .def_readwrite("timeline", &DriverOptions::recordTimeline);
  using distir::search::SearchCommand;
  py::class_<SearchCommand>(m, "SearchOptions")
      .def(py::init<>())
      .def_readwrite("models", &SearchCommand::modelSpecs)
      .def_readwrite("cluster", &SearchCommand::clusterSpec)
      .def_readwrite("framework", &SearchCommand::frameworkSpec)
      .def_readwrite("scatter_gather", &SearchCommand::scatterGather)
      .def_readwrite("devices", &SearchCommand::deviceCounts)
      .def_readwrite("global_batch", &SearchCommand::globalBatches)
      .def_readwrite("microbatches", &SearchCommand::microbatches)
      .def_readwrite("max_devices", &SearchCommand::maxDevices)
      .def_readwrite("max_microbatches", &SearchCommand::maxMicrobatches)
      .def_readwrite("schedules", &SearchCommand::schedules)
      .def_readwrite("recompute", &SearchCommand::recomputeModes)
      .def_readwrite("interleave", &SearchCommand::interleaves)
      .def_readwrite("sequence_parallel", &SearchCommand::sequenceParallels)
      .def_readwrite("zero", &SearchCommand::zeroStages)
      .def_readwrite("power_of_two", &SearchCommand::powersOfTwo)
      .def_readwrite("accumulate", &SearchCommand::accumulateWithoutPipeline)
      .def_readwrite("max_memory_fraction", &SearchCommand::maxMemoryFraction)
      .def_readwrite("optimizer", &SearchCommand::optimizer)
      .def_readwrite("precision", &SearchCommand::precision)
      .def_readwrite("top", &SearchCommand::top)
      .def_readwrite("simulate_all", &SearchCommand::simulateAll)
      .def_readwrite("build_all", &SearchCommand::buildAll)
      .def_readwrite("extrapolate", &SearchCommand::extrapolate)
      .def_readwrite("threads", &SearchCommand::threads);
}

} // namespace

PYBIND11_MODULE(_distir, m) {
  m.doc() = "distir's C++ libraries (use the distir package, not this module)";
  distir::registerAllPasses();
  py::register_exception<DistirError>(m, "Error", PyExc_RuntimeError);
  bindOptions(m);
  py::class_<Program, ProgramPtr>(m, "Program")
      .def("__str__", &Program::print)
      .def("apply", &applyPipeline, py::arg("pipeline"))
      .def("functions", [](const Program &program) {
        std::vector<std::string> names;
        for (auto func : program.module.get().getOps<func::FuncOp>())
          names.push_back(func.getSymName().str());
        return names;
      });
  m.def("gpt", &makeGpt);
  m.def("mlp", &makeMlp);
  m.def("parse", &parseProgram, py::arg("text"), py::arg("name") = "<string>");
  m.def("load", &loadProgram);
  m.def("import_onnx", &importOnnx);
  m.def("simulate", &simulate);
  m.def("search", &search);
  m.def("run", &run);
}
