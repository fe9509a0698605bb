//===- Search.cpp - Model sources, facts, evaluation and the driver -------===//
//
// Everything MLIR lives in the workers: each owns an MLIRContext (contexts
// are not shared, so no uniquing lock is contended and diagnostics stay with
// the worker that caused them) and caches the training steps it built by
// batch, so a step is differentiated once per worker and batch. The work list
// and the result slots are fixed before the workers start: the outcome does
// not depend on the number of threads.
//
//===----------------------------------------------------------------------===//

#include "distir/Search/Search.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"
#include "distir/InitAll.h"
#include "distir/Search/Compose.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace mlir;

namespace distir {
namespace search {

//===----------------------------------------------------------------------===//
// Model sources
//===----------------------------------------------------------------------===//

std::vector<std::pair<std::string, std::string>> ModelSource::presets() {
  // DistIR's MLP presets and GPT-3 175B (REFERENCE.md: microsoft/dist-ir's
  // grid search and the 175B workload).
  return {{"mlp-xs", "mlp:layers=8,hidden=512"},
          {"mlp-small", "mlp:layers=16,hidden=8192"},
          {"mlp-medium", "mlp:layers=64,hidden=16384"},
          {"mlp-large", "mlp:layers=96,hidden=32768"},
          {"gpt3-175b",
           "gpt:layers=96,hidden=12288,heads=96,seq=2048,vocab=51200"}};
}

std::optional<ModelSource> ModelSource::parse(const std::string &spec,
                                              std::string &error) {
  ModelSource source;
  source.spec = spec;
  std::string generator = spec;
  for (const auto &[name, expansion] : presets())
    if (spec == name || llvm::StringRef(spec).starts_with(name + ","))
      generator = expansion + spec.substr(name.size());

  llvm::StringRef text(generator);
  auto [kind, rest] = text.split(':');
  bool isGenerator = (kind == "mlp" || kind == "gpt") && text.contains(':');
  if (!isGenerator) {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(spec);
    if (!buffer) {
      error = "model '" + spec +
              "': not a preset, a generator spec (mlp:... or gpt:...) or a "
              "readable file (" +
              buffer.getError().message() + ")";
      return std::nullopt;
    }
    source.kind = Kind::File;
    source.path = spec;
    source.text = std::make_shared<std::string>((*buffer)->getBuffer().str());
    return source;
  }

  source.kind = kind == "mlp" ? Kind::Mlp : Kind::Gpt;
  std::set<std::string> seen;
  llvm::SmallVector<llvm::StringRef> items;
  rest.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [key, value] = item.split('=');
    std::string where = "model '" + spec + "': ";
    if (!seen.insert(key.str()).second) {
      error = where + "'" + key.str() + "' given twice";
      return std::nullopt;
    }
    if (key == "dtype") {
      (source.kind == Kind::Mlp ? source.mlp.dtype : source.gpt.dtype) =
          value.str();
      continue;
    }
    int64_t number = 0;
    int64_t *field = nullptr;
    if (source.kind == Kind::Mlp)
      field = llvm::StringSwitch<int64_t *>(key)
                  .Case("layers", &source.mlp.layers)
                  .Case("hidden", &source.mlp.hidden)
                  .Case("input", &source.mlp.inputDim)
                  .Default(nullptr);
    else
      field = llvm::StringSwitch<int64_t *>(key)
                  .Case("layers", &source.gpt.layers)
                  .Case("hidden", &source.gpt.hidden)
                  .Case("heads", &source.gpt.heads)
                  .Case("seq", &source.gpt.seq)
                  .Case("vocab", &source.gpt.vocab)
                  .Default(nullptr);
    if (!field) {
      error = where + "unknown key '" + key.str() + "' (" +
              (source.kind == Kind::Mlp ? "mlp: layers, hidden, input, dtype"
                                        : "gpt: layers, hidden, heads, seq, "
                                          "vocab, dtype") +
              "; the batch is --global-batch)";
      return std::nullopt;
    }
    if (value.getAsInteger(10, number) || number <= 0) {
      error = where + "'" + key.str() + "' must be a positive integer, got '" +
              value.str() + "'";
      return std::nullopt;
    }
    *field = number;
  }
  // The generators' own checks, with a batch of one (the batch is checked
  // per configuration).
  std::optional<std::string> problem;
  if (source.kind == Kind::Mlp) {
    source.mlp.batch = 1;
    problem = models::verifyConfig(source.mlp);
  } else {
    source.gpt.batch = 1;
    problem = models::verifyConfig(source.gpt);
  }
  if (problem) {
    // The generators word problems as dist-gen options ("--heads 5 does not
    // divide --hidden 64"); the spec spells them as keys.
    std::string text = *problem;
    for (size_t at; (at = text.find("--")) != std::string::npos;)
      text.erase(at, 2);
    error = "model '" + spec + "': " + text;
    return std::nullopt;
  }
  return source;
}

std::string ModelSource::getForwardCommand(int64_t batch) const {
  std::string command;
  llvm::raw_string_ostream os(command);
  if (kind == Kind::Mlp) {
    os << "dist-gen mlp --layers " << mlp.layers << " --hidden " << mlp.hidden;
    if (mlp.inputDim)
      os << " --input-dim " << mlp.inputDim;
    os << " --batch " << batch;
    if (mlp.dtype != "f32")
      os << " --dtype " << mlp.dtype;
  } else if (kind == Kind::Gpt) {
    os << "dist-gen gpt --layers " << gpt.layers << " --hidden " << gpt.hidden
       << " --heads " << gpt.heads << " --seq " << gpt.seq << " --vocab "
       << gpt.vocab << " --batch " << batch;
    if (gpt.dtype != "f32")
      os << " --dtype " << gpt.dtype;
  } else {
    os << "cat " << path;
  }
  return command;
}

//===----------------------------------------------------------------------===//
// Worker: one MLIRContext, its training steps, its templates
//===----------------------------------------------------------------------===//

namespace {

constexpr llvm::StringLiteral kRoleAttrName = "dist.role";
constexpr llvm::StringLiteral kPhaseAttrName = "dist.phase";

/// A pass of a dist-opt pipeline: its name and its options as
/// `key=value key=value`.
struct PassStep {
  std::string name;
  std::string options;
};

/// The passes as the body of a module pipeline: `a{x=1},b`.
std::string renderPipeline(llvm::ArrayRef<PassStep> steps) {
  std::string text;
  for (size_t i = 0; i < steps.size(); ++i) {
    text += (i ? "," : "") + steps[i].name;
    if (!steps[i].options.empty())
      text += "{" + steps[i].options + "}";
  }
  return text;
}

std::string renderCommandLine(llvm::ArrayRef<PassStep> steps) {
  std::string text;
  for (const PassStep &step : steps) {
    text += " --" + step.name;
    if (step.options.empty())
      continue;
    bool needsQuotes = step.options.find(' ') != std::string::npos;
    text += needsQuotes ? "=\"" + step.options + "\"" : "=" + step.options;
  }
  return text;
}

/// The dist-opt passes that parallelize the training step for `config`, or
/// nothing when dist-opt cannot express it yet (see Compose.h).
std::optional<std::vector<PassStep>>
getParallelizeSteps(const Configuration &config) {
  if (config.pp != 1 || config.microbatches != 1)
    return std::nullopt;
  if (config.dp > 1 && config.tp > 1)
    return std::nullopt;
  if (config.dp > 1)
    return std::vector<PassStep>{
        {"dist-data-parallel", "dp=" + std::to_string(config.dp)}};
  if (config.tp > 1)
    return std::vector<PassStep>{
        {"dist-tensor-parallel", "tp=" + std::to_string(config.tp)}};
  return std::vector<PassStep>{};
}

/// dist-parallelize's options for `config` (docs/parallelize.md): the
/// pp x dp x tp mesh, pp outermost, as Space.h lays configurations out.
std::string getParallelizeOptions(const Configuration &config) {
  std::string options = "mesh=pp:" + std::to_string(config.pp) +
                        ",dp:" + std::to_string(config.dp) +
                        ",tp:" + std::to_string(config.tp) +
                        " microbatches=" + std::to_string(config.microbatches);
  if (config.hasSchedule())
    options += " schedule=" + std::string(scheduleName(config.schedule));
  return options;
}

/// Collects the first error of the context as one line without location
/// (the reason configurations are counted by) and with it.
class ErrorCollector {
public:
  explicit ErrorCollector(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error &&
              message.empty()) {
            message = diag.str();
            std::string where;
            llvm::raw_string_ostream os(where);
            if (auto file = dyn_cast<FileLineColLoc>(diag.getLocation()))
              os << file.getFilename().getValue() << ":" << file.getLine()
                 << ":" << file.getColumn() << ": ";
            located = where + message;
          }
          return success();
        }) {}

  std::string take() {
    std::string result = message.empty() ? "unknown error" : message;
    message.clear();
    return result;
  }
  std::string takeLocated() {
    std::string result = located.empty() ? take() : located;
    message.clear();
    located.clear();
    return result;
  }

private:
  std::string message, located;
  ScopedDiagnosticHandler handler;
};

/// The one function with a body.
func::FuncOp getBodyFunction(ModuleOp module) {
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal()) {
      if (found)
        return nullptr;
      found = func;
    }
  return found;
}

int64_t getBatchOf(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttrName);
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (role && role.getValue() == "data" && type && type.getRank() > 0)
      return type.getDimSize(0);
  }
  return 0;
}

class Worker {
public:
  Worker(const ModelSource &source, const SearchOptions &options)
      : source(source), options(options), costModel(options.cluster),
        errors(ctx) {
    DialectRegistry registry;
    distir::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    ctx.printOpOnDiagnostic(false);
  }

  /// The batch a .mlir model is written for (dim 0 of its data).
  FailureOr<int64_t> getFileBatch(std::string &error);

  /// The training step for a global batch of `batch` (cached), or the error.
  FailureOr<ModuleOp> getTrainingStep(int64_t batch, std::string &error);
  /// Facts of the model read off the training step of `batch`.
  FailureOr<ModelFacts> extractFacts(int64_t batch, std::string &error);
  /// Builds `config` with the dist-opt passes and simulates it in full.
  FailureOr<Evaluation> evaluateExact(const Configuration &config,
                                      llvm::ArrayRef<PassStep> steps,
                                      std::string &error);
  /// The data-parallel x tensor-parallel training step of one microbatch
  /// (dp * microbatch size samples), lowered: the representative every
  /// configuration with these (dp, tp, microbatch size) is composed from.
  FailureOr<std::shared_ptr<const StageTemplate>>
  buildTemplate(int64_t dp, int64_t tp, int64_t microbatchSize,
                std::string &error);

  const cost::CostModel &getCostModel() const { return costModel; }

private:
  FailureOr<OwningOpRef<ModuleOp>> buildForward(int64_t batch,
                                                std::string &error);
  LogicalResult runPasses(ModuleOp module, llvm::ArrayRef<PassStep> steps,
                          std::string &error);

  const ModelSource &source;
  const SearchOptions &options;
  cost::CostModel costModel;
  // One worker, one thread: the context needs no pool of its own.
  MLIRContext ctx{MLIRContext::Threading::DISABLED};
  ErrorCollector errors;
  std::map<int64_t, OwningOpRef<ModuleOp>> trainingSteps;
};

FailureOr<OwningOpRef<ModuleOp>> Worker::buildForward(int64_t batch,
                                                      std::string &error) {
  OwningOpRef<ModuleOp> module;
  if (source.kind == ModelSource::Kind::File) {
    module = parseSourceString<ModuleOp>(*source.text, ParserConfig(&ctx),
                                         source.path);
    if (!module) {
      error = errors.takeLocated();
      return failure();
    }
    func::FuncOp func = getBodyFunction(*module);
    if (!func) {
      error = source.path + ": expected exactly one function with a body";
      return failure();
    }
    int64_t fileBatch = getBatchOf(func);
    if (fileBatch != batch) {
      error = "the program's batch is " + std::to_string(fileBatch) +
              ", not " + std::to_string(batch) +
              " (a .mlir model runs the batch it was written for)";
      return failure();
    }
    return module;
  }
  module = ModuleOp::create(UnknownLoc::get(&ctx));
  FailureOr<func::FuncOp> func;
  if (source.kind == ModelSource::Kind::Mlp) {
    models::MlpConfig config = source.mlp;
    config.batch = batch;
    func = models::buildMlp(*module, config);
  } else {
    models::GptConfig config = source.gpt;
    config.batch = batch;
    func = models::buildGpt(*module, config);
  }
  if (failed(func)) {
    error = errors.take();
    return failure();
  }
  return module;
}

FailureOr<int64_t> Worker::getFileBatch(std::string &error) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(*source.text, ParserConfig(&ctx), source.path);
  if (!module) {
    error = errors.takeLocated();
    return failure();
  }
  func::FuncOp func = getBodyFunction(*module);
  if (!func) {
    error = source.path + ": expected exactly one function with a body";
    return failure();
  }
  int64_t batch = getBatchOf(func);
  if (batch <= 0) {
    error = source.path +
            ": no argument with dist.role = \"data\" and a batch dimension";
    return failure();
  }
  return batch;
}

LogicalResult Worker::runPasses(ModuleOp module, llvm::ArrayRef<PassStep> steps,
                                std::string &error) {
  if (steps.empty())
    return success();
  auto pm = PassManager::on<ModuleOp>(&ctx);
  std::string parseError;
  llvm::raw_string_ostream parseErrors(parseError);
  if (failed(parsePassPipeline(renderPipeline(steps), pm, parseErrors))) {
    error = "internal error: " + parseError;
    return failure();
  }
  if (failed(pm.run(module))) {
    error = errors.take();
    return failure();
  }
  return success();
}

FailureOr<ModuleOp> Worker::getTrainingStep(int64_t batch, std::string &error) {
  auto it = trainingSteps.find(batch);
  if (it != trainingSteps.end())
    return *it->second;
  FailureOr<OwningOpRef<ModuleOp>> module = buildForward(batch, error);
  if (failed(module))
    return failure();
  if (failed(runPasses(**module,
                       {{"dist-autodiff", "optimizer=" + options.optimizer}},
                       error)))
    return failure();
  ModuleOp step = **module;
  trainingSteps[batch] = std::move(*module);
  return step;
}

FailureOr<ModelFacts> Worker::extractFacts(int64_t batch, std::string &error) {
  FailureOr<ModuleOp> step = getTrainingStep(batch, error);
  if (failed(step))
    return failure();
  func::FuncOp func = getBodyFunction(*step);
  ModelFacts facts;
  facts.name = source.spec;
  auto layerOf = [](Operation *op) -> int64_t {
    if (auto layer = op->getAttrOfType<IntegerAttr>(dist::DistDialect::kLayerAttrName))
      return std::max<int64_t>(0, layer.getInt());
    return 0;
  };
  auto phaseOf = [](Operation *op) {
    auto phase = op->getAttrOfType<StringAttr>(kPhaseAttrName);
    return phase ? phase.getValue() : llvm::StringRef();
  };
  int64_t numLayers = 1;
  func.walk([&](Operation *op) {
    numLayers = std::max(numLayers, layerOf(op) + 1);
  });
  facts.layers.resize(numLayers);
  const double samples = double(batch);

  Type elementType;
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttrName);
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!role || !type)
      continue;
    int64_t bytes = dist::detail::getTensorBytes(type);
    int64_t layer = 0;
    if (!arg.use_empty()) {
      // Its first user in program order.
      Operation *first = nullptr;
      for (Operation *user : arg.getUsers())
        if (!first || user->isBeforeInBlock(first))
          first = user;
      layer = layerOf(first);
    }
    if (role.getValue() == "parameter") {
      facts.layers[layer].parameterBytes += bytes;
      if (!elementType)
        elementType = type.getElementType();
    } else if (role.getValue() == "optimizer_state") {
      facts.layers[layer].optimizerStateBytes += bytes;
    } else if (role.getValue() == "data") {
      facts.dataBytesPerSample += bytes / std::max<int64_t>(1, batch);
      auto bound = func.getArgAttr(i, "dist.bound");
      if (bound && facts.tokensPerSample == 0 && type.getRank() >= 2 &&
          type.getElementType().isInteger()) {
        int64_t tokens = 1;
        for (int64_t d = 1; d < type.getRank(); ++d)
          tokens *= type.getDimSize(d);
        facts.tokensPerSample = tokens;
      }
    }
  }
  double modelFlops = 0;
  func.walk([&](dist::DistOpInterface op) {
    llvm::StringRef phase = phaseOf(op);
    double flops = op.getFlops();
    if (phase == "forward") {
      facts.layers[layerOf(op)].forwardFlopsPerSample += flops / samples;
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return phaseOf(user) == "backward";
            }))
          facts.layers[layerOf(op)].stashBytesPerSample +=
              double(dist::detail::getTensorBytes(result.getType())) / samples;
    }
    if (phase == "forward" || phase == "backward")
      modelFlops += flops;
  });
  facts.modelFlopsPerSample = modelFlops / samples;
  if (source.kind == ModelSource::Kind::File)
    facts.fixedBatch = batch;
  if (source.kind == ModelSource::Kind::Gpt)
    facts.tpDivides = {{"attention heads (" + std::to_string(source.gpt.heads) + ")",
                        source.gpt.heads}};
  if (source.kind == ModelSource::Kind::Mlp)
    facts.tpDivides = {{"hidden size (" + std::to_string(source.mlp.hidden) + ")",
                        source.mlp.hidden}};
  topology::DataType dtype = topology::DataType::F32;
  if (elementType) {
    std::string name;
    llvm::raw_string_ostream os(name);
    elementType.print(os);
    dtype = topology::parseDataType(name).value_or(topology::DataType::F32);
  }
  facts.devicePeakFlops = options.cluster.device.matrixPeak(dtype);
  return facts;
}

FailureOr<Evaluation> Worker::evaluateExact(const Configuration &config,
                                            llvm::ArrayRef<PassStep> steps,
                                            std::string &error) {
  FailureOr<ModuleOp> step = getTrainingStep(config.globalBatch, error);
  if (failed(step))
    return failure();
  OwningOpRef<ModuleOp> module = step->clone();
  if (failed(runPasses(*module, steps, error)))
    return failure();
  func::FuncOp func = getBodyFunction(*module);
  sim::Program program;
  if (failed(sim::lowerToProgram(func, costModel, program))) {
    error = errors.take();
    return failure();
  }
  sim::SimOptions simOptions;
  simOptions.topOps = 0;
  std::optional<sim::SimResult> result =
      sim::simulate(program, simOptions, error);
  if (!result)
    return failure();
  Evaluation evaluation;
  evaluation.config = config;
  evaluation.method = Method::Exact;
  evaluation.stepTimeS = result->stepTimeS;
  evaluation.peakMemoryBytes = result->peakMemoryBytes;
  evaluation.numTasks = program.numTasks();
  return evaluation;
}

FailureOr<std::shared_ptr<const StageTemplate>>
Worker::buildTemplate(int64_t dp, int64_t tp, int64_t microbatchSize,
                      std::string &error) {
  FailureOr<ModuleOp> step = getTrainingStep(dp * microbatchSize, error);
  if (failed(step))
    return failure();
  OwningOpRef<ModuleOp> module = step->clone();
  func::FuncOp func = getBodyFunction(*module);
  if (dp > 1 || tp > 1) {
    // What dist-data-parallel and dist-tensor-parallel do, on one mesh with
    // both axes (dp major, as in the pp x dp x tp mesh of a configuration).
    FailureOr<dist::MeshOp> mesh =
        dist::getOrCreateMesh(*module, "world", {{"dp", dp}, {"tp", tp}});
    if (failed(mesh) ||
        (dp > 1 && failed(dist::annotateDataParallel(func, *mesh, "dp"))) ||
        (tp > 1 && failed(dist::annotateMegatron(func, *mesh, "tp"))) ||
        failed(dist::propagateShardings(func)) ||
        failed(dist::partitionFunction(func))) {
      error = errors.take();
      return failure();
    }
  }
  std::optional<std::shared_ptr<const StageTemplate>> stage =
      extractStageTemplate(func, costModel, error);
  if (!stage) {
    if (error.empty())
      error = errors.take();
    return failure();
  }
  return *stage;
}

} // namespace

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

namespace {

/// Runs `count` jobs on `threads` workers (each built by `makeWorker`),
/// reporting progress from the calling thread.
template <typename WorkerT, typename MakeWorker, typename Job>
void runJobs(size_t count, unsigned threads, MakeWorker makeWorker, Job job,
             const std::function<void(int64_t, int64_t)> &progress,
             int64_t progressBase, int64_t progressTotal) {
  std::atomic<size_t> next{0}, done{0};
  std::mutex mutex;
  std::condition_variable changed;
  auto body = [&] {
    std::unique_ptr<WorkerT> worker = makeWorker();
    for (size_t i; (i = next.fetch_add(1)) < count;) {
      job(*worker, i);
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++done;
      }
      changed.notify_one();
    }
  };
  unsigned numThreads = std::max(1u, std::min<unsigned>(threads, count));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < numThreads; ++t)
    pool.emplace_back(body);
  if (numThreads == 1 || !progress) {
    body();
  } else {
    // The calling thread only reports; the workers do the work.
    pool.emplace_back(body);
    std::unique_lock<std::mutex> lock(mutex);
    while (done < count) {
      changed.wait_for(lock, std::chrono::milliseconds(100));
      progress(progressBase + int64_t(done), progressTotal);
    }
  }
  for (std::thread &thread : pool)
    thread.join();
  if (progress)
    progress(progressBase + int64_t(count), progressTotal);
}

/// One unit of work: an exact build, or a template and every configuration
/// composed from it.
struct Job {
  bool exact = false;
  std::vector<PassStep> steps;
  int64_t dp = 1, tp = 1, microbatchSize = 1;
  /// Indices into the scenario's survivors.
  std::vector<size_t> configs;
};

struct JobOutcome {
  std::vector<std::pair<size_t, Evaluation>> evaluations;
  std::vector<std::pair<size_t, std::string>> failures;
};

} // namespace

std::optional<std::vector<ScenarioReport>>
runSearch(const std::vector<ModelSource> &models, const SearchOptions &options,
          std::string &error) {
  static std::once_flag registered;
  std::call_once(registered, [] { distir::registerAllPasses(); });
  unsigned threads = options.threads
                         ? options.threads
                         : std::max(1u, std::thread::hardware_concurrency());
  for (int64_t devices : options.space.deviceCounts)
    if (devices > options.cluster.numDevices()) {
      error = "--devices " + std::to_string(devices) + " exceeds the " +
              std::to_string(options.cluster.numDevices()) +
              " devices of cluster '" + options.cluster.name + "'";
      return std::nullopt;
    }
  const int64_t capacity = int64_t(double(options.cluster.device.memoryBytes) *
                                   options.maxMemoryFraction);

  std::vector<ScenarioReport> reports;
  for (const ModelSource &source : models) {
    auto started = std::chrono::steady_clock::now();
    // Facts from the training step of the first batch (they are per sample).
    SpaceOptions space = options.space;
    Worker facts(source, options);
    int64_t factsBatch = space.globalBatches.empty() ? 0 : space.globalBatches[0];
    if (source.kind == ModelSource::Kind::File) {
      FailureOr<int64_t> fileBatch = facts.getFileBatch(error);
      if (failed(fileBatch))
        return std::nullopt;
      for (int64_t batch : space.globalBatches)
        if (batch != *fileBatch) {
          error = "--global-batch " + std::to_string(batch) + ": " +
                  source.path + " is written for a batch of " +
                  std::to_string(*fileBatch);
          return std::nullopt;
        }
      space.globalBatches = {*fileBatch};
      factsBatch = *fileBatch;
    }
    if (factsBatch <= 0) {
      error = "--global-batch is required for a generated model";
      return std::nullopt;
    }
    FailureOr<ModelFacts> modelFacts = facts.extractFacts(factsBatch, error);
    if (failed(modelFacts)) {
      error = "model '" + source.spec + "': " + error;
      return std::nullopt;
    }

    for (int64_t devices : space.deviceCounts) {
      ScenarioReport report;
      report.model = source.spec;
      report.cluster = options.clusterSpec;
      report.devices = devices;
      report.memoryCapacityBytes = options.cluster.device.memoryBytes;
      report.maxMemoryFraction = options.maxMemoryFraction;
      SpaceOptions scenarioSpace = space;
      scenarioSpace.deviceCounts = {devices};
      std::vector<Configuration> valid =
          enumerateSpace(*modelFacts, scenarioSpace, report.invalid);
      report.considered = int64_t(valid.size()) + report.getNumInvalid();

      std::vector<Configuration> survivors;
      std::vector<int64_t> bounds;
      for (const Configuration &config : valid) {
        int64_t bound = estimateMemoryLowerBound(*modelFacts, config);
        if (bound > capacity) {
          ++report.prunedByMemory;
          continue;
        }
        survivors.push_back(config);
        bounds.push_back(bound);
      }

      // The work list: exact builds one by one, the rest grouped by their
      // template; in a fixed order.
      std::vector<Job> jobs;
      std::map<std::tuple<int64_t, int64_t, int64_t>, size_t> templateJobs;
      for (size_t i = 0; i < survivors.size(); ++i) {
        const Configuration &c = survivors[i];
        if (std::optional<std::vector<PassStep>> steps = getParallelizeSteps(c)) {
          Job job;
          job.exact = true;
          job.steps = {{"dist-autodiff", "optimizer=" + options.optimizer}};
          job.steps.insert(job.steps.end(), steps->begin(), steps->end());
          job.configs = {i};
          jobs.push_back(std::move(job));
          continue;
        }
        auto key = std::make_tuple(c.dp, c.tp, c.getMicrobatchSize());
        auto [it, inserted] = templateJobs.try_emplace(key, jobs.size());
        if (inserted) {
          Job job;
          job.dp = c.dp;
          job.tp = c.tp;
          job.microbatchSize = c.getMicrobatchSize();
          jobs.push_back(std::move(job));
        }
        jobs[it->second].configs.push_back(i);
      }

      std::vector<JobOutcome> outcomes(jobs.size());
      runJobs<Worker>(
          jobs.size(), threads,
          [&] { return std::make_unique<Worker>(source, options); },
          [&](Worker &worker, size_t index) {
            const Job &job = jobs[index];
            JobOutcome &outcome = outcomes[index];
            std::string why;
            if (job.exact) {
              const Configuration &config = survivors[job.configs[0]];
              // The autodiff step is cached: only the parallelization runs.
              llvm::ArrayRef<PassStep> steps = job.steps;
              FailureOr<Evaluation> evaluation =
                  worker.evaluateExact(config, steps.drop_front(), why);
              if (failed(evaluation))
                outcome.failures.push_back({job.configs[0], why});
              else
                outcome.evaluations.push_back({job.configs[0], *evaluation});
              return;
            }
            FailureOr<std::shared_ptr<const StageTemplate>> stage =
                worker.buildTemplate(job.dp, job.tp, job.microbatchSize, why);
            for (size_t i : job.configs) {
              if (failed(stage)) {
                outcome.failures.push_back({i, why});
                continue;
              }
              std::string composeError;
              std::optional<Evaluation> evaluation = evaluateComposed(
                  **stage, *modelFacts, survivors[i], worker.getCostModel(),
                  composeError);
              if (!evaluation)
                outcome.failures.push_back({i, composeError});
              else
                outcome.evaluations.push_back({i, *evaluation});
            }
          },
          options.progress, 0, int64_t(jobs.size()));

      for (const JobOutcome &outcome : outcomes) {
        for (const auto &[index, reason] : outcome.failures)
          ++report.buildFailures[reason];
        for (auto [index, evaluation] : outcome.evaluations) {
          const Configuration &c = survivors[index];
          evaluation.config = c;
          evaluation.memoryBoundBytes = bounds[index];
          evaluation.fits = evaluation.peakMemoryBytes <= capacity;
          double samples = double(c.globalBatch);
          evaluation.samplesPerS =
              evaluation.stepTimeS > 0 ? samples / evaluation.stepTimeS : 0;
          evaluation.tokensPerS =
              evaluation.samplesPerS * double(modelFacts->tokensPerSample);
          double peak = modelFacts->devicePeakFlops * double(c.devices);
          evaluation.mfu = peak > 0 && evaluation.stepTimeS > 0
                               ? modelFacts->modelFlopsPerSample * samples /
                                     evaluation.stepTimeS / peak
                               : 0;
          std::vector<PassStep> steps = {
              {"dist-autodiff", "optimizer=" + options.optimizer}};
          std::optional<std::vector<PassStep>> parallelize =
              getParallelizeSteps(c);
          if (parallelize)
            steps.insert(steps.end(), parallelize->begin(), parallelize->end());
          else
            steps.push_back({"dist-parallelize", getParallelizeOptions(c)});
          std::string forward = source.getForwardCommand(c.globalBatch);
          bool fromFile = source.kind == ModelSource::Kind::File;
          evaluation.command =
              (fromFile ? "dist-opt " + source.path : forward + " | dist-opt") +
              renderCommandLine(steps) + " | dist-sim --cluster " +
              options.clusterSpec + " --samples-per-step " +
              std::to_string(c.globalBatch);
          report.evaluations.push_back(std::move(evaluation));
        }
      }
      rankEvaluations(report.evaluations);
      report.wallTimeS = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - started)
                             .count();
      started = std::chrono::steady_clock::now();
      reports.push_back(std::move(report));
    }
  }
  return reports;
}

} // namespace search
} // namespace distir
