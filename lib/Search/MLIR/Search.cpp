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
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
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
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <limits>
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
  // DistIR's MLP presets (f32, as DistIR simulates them) and GPT-3 175B in
  // bf16 (REFERENCE.md: microsoft/dist-ir's grid search; the 175B workload
  // of Brown et al. 2020, trained in 16-bit precision on tensor cores; the
  // generated program has one element type, so there is no f32 master
  // copy).
  return {
      {"mlp-xs", "mlp:layers=8,hidden=512"},
      {"mlp-small", "mlp:layers=16,hidden=8192"},
      {"mlp-medium", "mlp:layers=64,hidden=16384"},
      {"mlp-large", "mlp:layers=96,hidden=32768"},
      {"gpt3-175b",
       "gpt:layers=96,hidden=12288,heads=96,seq=2048,vocab=51200,dtype=bf16"}};
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

constexpr llvm::StringLiteral kRoleAttrName =
    ::mlir::dist::DistDialect::kRoleAttrName;
constexpr llvm::StringLiteral kPhaseAttrName =
    ::mlir::dist::DistDialect::kPhaseAttrName;
/// The unit attribute dist-recompute puts on its clones (docs/recompute.md).
constexpr llvm::StringLiteral kRecomputedAttrName =
    ::mlir::dist::DistDialect::kRecomputedAttrName;

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

/// The dist-opt pass that parallelizes the training step for `config`, as
/// dist-parallelize spells it (docs/parallelize.md: a pp x dp x tp mesh, tp
/// innermost, the layout Space.h describes).
PassStep getParallelizeStep(const Configuration &config) {
  std::string options = "dp=" + std::to_string(config.dp) +
                        " tp=" + std::to_string(config.tp) +
                        " pp=" + std::to_string(config.pp) +
                        " microbatches=" + std::to_string(config.microbatches);
  if (config.hasSchedule())
    options += " schedule=" + std::string(scheduleName(config.schedule));
  return {"dist-parallelize", options};
}

PassStep getAutodiffStep(const SearchOptions &options) {
  return {"dist-autodiff", "optimizer=" + options.optimizer};
}

PassStep getRecomputeStep(Recompute recompute) {
  return {"dist-recompute", "mode=" + std::string(recomputeName(recompute))};
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

int64_t getLayer(Operation *op) {
  if (auto layer =
          op->getAttrOfType<IntegerAttr>(dist::DistDialect::kLayerAttrName))
    return std::max<int64_t>(0, layer.getInt());
  return 0;
}

llvm::StringRef getPhase(Operation *op) {
  auto phase = op->getAttrOfType<StringAttr>(kPhaseAttrName);
  return phase ? phase.getValue() : llvm::StringRef();
}

/// Per layer, the bytes per sample of the forward results that backward ops
/// read (LayerFacts::stashBytesPerSample).
std::vector<double> getStashBytesPerSample(func::FuncOp func, int64_t numLayers,
                                           double samples) {
  std::vector<double> stash(numLayers, 0.0);
  func.walk([&](dist::DistOpInterface op) {
    if (getPhase(op) != "forward")
      return;
    int64_t layer = std::min(getLayer(op), numLayers - 1);
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return getPhase(user) == "backward";
          }))
        stash[layer] +=
            double(dist::detail::getTensorBytes(result.getType())) / samples;
  });
  return stash;
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

  /// The training step for a global batch of `batch` with `recompute`
  /// (cached: differentiated once per batch, recomputed once per batch and
  /// mode), or the error.
  FailureOr<ModuleOp> getTrainingStep(int64_t batch, Recompute recompute,
                                      std::string &error);
  /// Facts of the model read off the training step of `batch`.
  FailureOr<ModelFacts> extractFacts(int64_t batch, std::string &error);
  /// dist-parallelize's program of dp x tp x pp devices, microbatches of
  /// `microbatchSize` samples per replica, `numMicrobatches` of them (with
  /// `schedule`), lowered: a whole configuration or the template composition
  /// stretches (Compose.h).
  FailureOr<std::shared_ptr<const PipelineTemplate>>
  buildTemplate(int64_t dp, int64_t tp, int64_t pp, int64_t microbatchSize,
                int64_t numMicrobatches, Schedule schedule, Recompute recompute,
                std::string &error);
  /// dist-pipeline's stage of each layer for `pp` stages of the training
  /// step of `batch` samples (-1 for layer indices no op has).
  FailureOr<std::vector<int64_t>> getStageCut(int64_t batch, int64_t pp,
                                              Recompute recompute,
                                              std::string &error);

private:
  /// The .mlir model, checked to have one function with a body.
  FailureOr<OwningOpRef<ModuleOp>> parseFile(std::string &error);
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
  std::map<std::pair<int64_t, Recompute>, OwningOpRef<ModuleOp>> trainingSteps;
};

FailureOr<OwningOpRef<ModuleOp>> Worker::buildForward(int64_t batch,
                                                      std::string &error) {
  OwningOpRef<ModuleOp> module;
  if (source.kind == ModelSource::Kind::File) {
    FailureOr<OwningOpRef<ModuleOp>> parsed = parseFile(error);
    if (failed(parsed))
      return failure();
    module = std::move(*parsed);
    func::FuncOp func = getBodyFunction(*module);
    if (getBatchOf(func) == batch)
      return module;
    // Microbatches and data-parallel shares of a file's batch: give the data
    // arguments the new batch and let dist-infer-shapes refine the rest (it
    // refuses programs whose shapes pin the batch, e.g. in a reshape).
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (BlockArgument arg : func.getArguments()) {
      auto role =
          func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kRoleAttrName);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!role || role.getValue() != "data" || !type || type.getRank() == 0)
        continue;
      SmallVector<int64_t> shape(type.getShape());
      shape[0] = batch;
      Type rebatched = type.clone(shape);
      arg.setType(rebatched);
      inputs[arg.getArgNumber()] = rebatched;
    }
    func.setFunctionType(
        FunctionType::get(&ctx, inputs, func.getFunctionType().getResults()));
    // Forget every static result shape so that nothing contradicts the new
    // batch; dist-infer-shapes derives them all again from the arguments.
    func.walk([](Operation *op) {
      for (Value result : op->getResults())
        if (auto type = dyn_cast<RankedTensorType>(result.getType()))
          result.setType(RankedTensorType::get(
              SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic),
              type.getElementType(), type.getEncoding()));
    });
    std::string why;
    if (failed(runPasses(*module, {{"dist-infer-shapes", ""}}, why))) {
      error = "cannot change the batch of " + source.path + " to " +
              std::to_string(batch) + ": " + why;
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

FailureOr<OwningOpRef<ModuleOp>> Worker::parseFile(std::string &error) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      *source.text, ParserConfig(&ctx), source.path);
  if (!module) {
    error = errors.takeLocated();
    return failure();
  }
  if (!getBodyFunction(*module)) {
    error = source.path + ": expected exactly one function with a body";
    return failure();
  }
  return module;
}

FailureOr<int64_t> Worker::getFileBatch(std::string &error) {
  FailureOr<OwningOpRef<ModuleOp>> module = parseFile(error);
  if (failed(module))
    return failure();
  int64_t batch = getBatchOf(getBodyFunction(**module));
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

FailureOr<ModuleOp> Worker::getTrainingStep(int64_t batch, Recompute recompute,
                                            std::string &error) {
  auto it = trainingSteps.find({batch, recompute});
  if (it != trainingSteps.end())
    return *it->second;
  OwningOpRef<ModuleOp> module;
  if (recompute == Recompute::None) {
    FailureOr<OwningOpRef<ModuleOp>> forward = buildForward(batch, error);
    if (failed(forward))
      return failure();
    module = std::move(*forward);
  } else {
    FailureOr<ModuleOp> plain = getTrainingStep(batch, Recompute::None, error);
    if (failed(plain))
      return failure();
    module = plain->clone();
  }
  PassStep pass = recompute == Recompute::None ? getAutodiffStep(options)
                                               : getRecomputeStep(recompute);
  if (failed(runPasses(*module, {pass}, error)))
    return failure();
  ModuleOp step = *module;
  trainingSteps[{batch, recompute}] = std::move(module);
  return step;
}

FailureOr<ModelFacts> Worker::extractFacts(int64_t batch, std::string &error) {
  FailureOr<ModuleOp> step = getTrainingStep(batch, Recompute::None, error);
  if (failed(step))
    return failure();
  func::FuncOp func = getBodyFunction(*step);
  ModelFacts facts;
  facts.name = source.spec;
  int64_t numLayers = 1;
  func.walk([&](Operation *op) {
    numLayers = std::max(numLayers, getLayer(op) + 1);
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
      layer = getLayer(first);
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
  std::vector<double> stash = getStashBytesPerSample(func, numLayers, samples);
  for (int64_t layer = 0; layer < numLayers; ++layer)
    facts.layers[layer].stashBytesPerSample = stash[layer];
  // Model FLOPs, as MFU counts them: recomputation is not useful work, so
  // they come from the plain step.
  double modelFlops = 0;
  func.walk([&](dist::DistOpInterface op) {
    llvm::StringRef phase = getPhase(op);
    if (phase == "forward" || phase == "backward")
      modelFlops += op.getFlops();
  });
  facts.modelFlopsPerSample = modelFlops / samples;
  for (Recompute mode : options.space.recomputeModes) {
    if (mode == Recompute::None)
      continue;
    FailureOr<ModuleOp> recomputed = getTrainingStep(batch, mode, error);
    if (failed(recomputed))
      return failure();
    func::FuncOp recomputedFunc = getBodyFunction(*recomputed);
    bool changed = false;
    recomputedFunc.walk([&](Operation *op) {
      if (op->hasAttr(kRecomputedAttrName))
        changed = true;
    });
    if (changed)
      facts.recomputedStashBytesPerSample[mode] =
          getStashBytesPerSample(recomputedFunc, numLayers, samples);
  }
  if (source.kind == ModelSource::Kind::Gpt)
    facts.tpDivides = {
        {"attention heads (" + std::to_string(source.gpt.heads) + ")",
         source.gpt.heads}};
  if (source.kind == ModelSource::Kind::Mlp)
    facts.tpDivides = {
        {"hidden size (" + std::to_string(source.mlp.hidden) + ")",
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

FailureOr<std::shared_ptr<const PipelineTemplate>>
Worker::buildTemplate(int64_t dp, int64_t tp, int64_t pp,
                      int64_t microbatchSize, int64_t numMicrobatches,
                      Schedule schedule, Recompute recompute,
                      std::string &error) {
  Configuration config{dp * tp * pp, dp * microbatchSize * numMicrobatches,
                       dp,           tp,
                       pp,           numMicrobatches,
                       schedule,     recompute};
  FailureOr<ModuleOp> step =
      getTrainingStep(config.globalBatch, recompute, error);
  if (failed(step))
    return failure();
  OwningOpRef<ModuleOp> module = step->clone();
  if (failed(runPasses(*module, {getParallelizeStep(config)}, error)))
    return failure();
  std::optional<std::shared_ptr<const PipelineTemplate>> stage =
      extractPipelineTemplate(getBodyFunction(*module), costModel, pp,
                              numMicrobatches, microbatchSize, error);
  if (!stage) {
    if (error.empty())
      error = errors.take();
    return failure();
  }
  return *stage;
}

FailureOr<std::vector<int64_t>> Worker::getStageCut(int64_t batch, int64_t pp,
                                                    Recompute recompute,
                                                    std::string &error) {
  FailureOr<ModuleOp> step = getTrainingStep(batch, recompute, error);
  if (failed(step))
    return failure();
  OwningOpRef<ModuleOp> module = step->clone();
  func::FuncOp func = getBodyFunction(*module);
  if (failed(dist::assignPipelineStages(func, pp))) {
    error = errors.take();
    return failure();
  }
  std::vector<int64_t> stageOfLayer;
  func.walk([&](Operation *op) {
    auto layer =
        op->getAttrOfType<IntegerAttr>(dist::DistDialect::kLayerAttrName);
    std::optional<int64_t> stage = dist::getPipelineStage(op);
    if (!layer || !stage || layer.getInt() < 0)
      return;
    if (int64_t(stageOfLayer.size()) <= layer.getInt())
      stageOfLayer.resize(layer.getInt() + 1, -1);
    // Constants are copied to every stage that uses them: the first op of
    // a layer tells its stage.
    int64_t &entry = stageOfLayer[layer.getInt()];
    if (entry < 0)
      entry = *stage;
  });
  return stageOfLayer;
}

} // namespace

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

namespace {

/// Runs `count` jobs, in the order of `order`, on `threads` threads; `job`
/// gets the thread's index. The calling thread works too, or only reports
/// progress when there is a `progress` callback and more than one thread.
void runParallel(size_t count, unsigned threads,
                 const std::function<void(unsigned, size_t)> &job,
                 const std::function<void(size_t)> &progress) {
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex mutex;
  std::condition_variable changed;
  auto body = [&](unsigned thread) {
    for (size_t i; (i = next.fetch_add(1)) < count;) {
      job(thread, i);
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++done;
      }
      changed.notify_one();
    }
  };
  unsigned numThreads =
      unsigned(std::max<size_t>(1, std::min<size_t>(threads, count)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < numThreads; ++t)
    pool.emplace_back(body, t);
  if (numThreads == 1 || !progress) {
    body(0);
  } else {
    pool.emplace_back(body, 0);
    std::unique_lock<std::mutex> lock(mutex);
    while (done < count) {
      changed.wait_for(lock, std::chrono::milliseconds(100));
      progress(done);
    }
  }
  for (std::thread &thread : pool)
    thread.join();
  if (progress)
    progress(count);
}

/// Seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// One device count of one model, while it is searched.
struct Scenario {
  size_t model;
  ScenarioReport report;
  std::vector<Configuration> survivors;
  std::vector<int64_t> bounds;
  std::vector<double> timeBounds;
  /// Per survivor: its evaluation or why the transforms refused it.
  std::vector<std::optional<Evaluation>> evaluations;
  std::vector<std::string> failures;
};

/// dist-opt's view of `config`: autodiff, recomputation, then the
/// parallelization.
std::vector<PassStep> getCommandSteps(const Configuration &config,
                                      const SearchOptions &options) {
  std::vector<PassStep> steps = {getAutodiffStep(options)};
  if (config.recompute != Recompute::None)
    steps.push_back(getRecomputeStep(config.recompute));
  steps.push_back(getParallelizeStep(config));
  return steps;
}

std::string getCommand(const ModelSource &source, const Configuration &config,
                       const SearchOptions &options) {
  std::string forward =
      source.kind == ModelSource::Kind::File
          ? "dist-opt " + source.path
          : source.getForwardCommand(config.globalBatch) + " | dist-opt";
  return forward + renderCommandLine(getCommandSteps(config, options)) +
         " | dist-sim --cluster " + options.clusterSpec +
         " --samples-per-step " + std::to_string(config.globalBatch);
}

/// A template: model, dp, tp, pp, microbatch size, microbatches, the
/// schedule when the template is the whole program of two microbatches, and
/// the recompute mode.
using TemplateKey =
    std::tuple<size_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int>;
/// A stage cut: model, global batch, pp, recompute mode.
using CutKey = std::tuple<size_t, int64_t, int64_t, int>;

} // namespace

std::optional<std::vector<ScenarioReport>>
runSearch(const std::vector<ModelSource> &models, const SearchOptions &options,
          std::string &error) {
  static std::once_flag registered;
  std::call_once(registered, [] { distir::registerAllPasses(); });
  auto started = std::chrono::steady_clock::now();
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
  const cost::CostModel costModel(options.cluster);

  // Each thread keeps one worker (one MLIRContext) per model; the calling
  // thread's also reads the facts.
  std::vector<std::vector<std::unique_ptr<Worker>>> workers(threads);
  for (auto &perModel : workers)
    perModel.resize(models.size());
  auto getWorker = [&](unsigned thread, size_t model) -> Worker & {
    std::unique_ptr<Worker> &worker = workers[thread][model];
    if (!worker)
      worker = std::make_unique<Worker>(models[model], options);
    return *worker;
  };

  // 1. Facts, enumeration and the memory bound.
  std::vector<ModelFacts> facts(models.size());
  std::vector<Scenario> scenarios;
  for (size_t m = 0; m < models.size(); ++m) {
    const ModelSource &source = models[m];
    Worker &worker = getWorker(0, m);
    SpaceOptions space = options.space;
    int64_t factsBatch =
        space.globalBatches.empty() ? 0 : space.globalBatches[0];
    if (source.kind == ModelSource::Kind::File) {
      FailureOr<int64_t> fileBatch = worker.getFileBatch(error);
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
    FailureOr<ModelFacts> modelFacts = worker.extractFacts(factsBatch, error);
    if (failed(modelFacts)) {
      error = "model '" + source.spec + "': " + error;
      return std::nullopt;
    }
    facts[m] = std::move(*modelFacts);

    for (int64_t devices : space.deviceCounts) {
      Scenario scenario;
      scenario.model = m;
      ScenarioReport &report = scenario.report;
      report.model = source.spec;
      report.cluster = options.clusterSpec;
      report.devices = devices;
      report.memoryCapacityBytes = options.cluster.device.memoryBytes;
      report.maxMemoryFraction = options.maxMemoryFraction;
      SpaceOptions scenarioSpace = space;
      scenarioSpace.deviceCounts = {devices};
      std::vector<Configuration> valid =
          enumerateSpace(facts[m], scenarioSpace, report.invalid);
      report.considered = int64_t(valid.size()) + report.getNumInvalid();
      for (const Configuration &config : valid) {
        int64_t bound = estimateMemoryLowerBound(facts[m], config);
        if (bound > capacity) {
          ++report.prunedByMemory;
          continue;
        }
        scenario.survivors.push_back(config);
        scenario.bounds.push_back(bound);
      }
      scenario.evaluations.resize(scenario.survivors.size());
      scenario.timeBounds.resize(scenario.survivors.size());
      scenario.failures.resize(scenario.survivors.size());
      scenarios.push_back(std::move(scenario));
    }
  }

  auto phaseStart = started;
  auto report = [&](const std::string &what) {
    if (options.timing)
      llvm::errs() << "dist-search: " << what << ": "
                   << llvm::format("%.3f", secondsSince(phaseStart)) << " s\n";
    phaseStart = std::chrono::steady_clock::now();
  };
  report("facts and enumeration");

  // 2. Templates and stage cuts, built on the threads as they are needed;
  // each once (templates are shared by every device count).
  std::map<TemplateKey, std::shared_ptr<const PipelineTemplate>> templates;
  std::map<TemplateKey, std::string> templateErrors;
  std::map<CutKey, std::vector<int64_t>> cuts;
  std::map<CutKey, std::string> cutErrors;
  std::function<void(size_t)> progress;
  int64_t progressDone = 0, progressTotal = 0;
  if (options.progress)
    progress = [&](size_t done) {
      options.progress(progressDone + int64_t(done), progressTotal);
    };
  auto buildTemplates = [&](std::vector<TemplateKey> keys, bool showProgress) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    llvm::erase_if(keys, [&](const TemplateKey &key) {
      return templates.count(key) || templateErrors.count(key);
    });
    std::vector<std::shared_ptr<const PipelineTemplate>> built(keys.size());
    std::vector<std::string> errors(keys.size());
    runParallel(
        keys.size(), threads,
        [&](unsigned thread, size_t i) {
          auto [model, dp, tp, pp, size, count, schedule, recompute] = keys[i];
          FailureOr<std::shared_ptr<const PipelineTemplate>> stage =
              getWorker(thread, model)
                  .buildTemplate(dp, tp, pp, size, count, Schedule(schedule),
                                 Recompute(recompute), errors[i]);
          if (succeeded(stage))
            built[i] = *stage;
          else if (errors[i].empty())
            errors[i] = "unknown error";
        },
        showProgress ? progress : nullptr);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (built[i])
        templates[keys[i]] = built[i];
      else
        templateErrors[keys[i]] = errors[i];
    }
  };
  // The template a configuration is composed from: two microbatches (or
  // its one), or the whole program.
  auto templateOf = [&](size_t model, const Configuration &c, bool whole) {
    int64_t count =
        whole ? c.microbatches : std::min<int64_t>(c.microbatches, 2);
    int schedule = count == c.microbatches && count > 1 ? int(c.schedule) : 0;
    return TemplateKey{model,
                       c.dp,
                       c.tp,
                       c.pp,
                       c.getMicrobatchSize(),
                       count,
                       schedule,
                       int(c.recompute)};
  };
  // One single-stage, single-microbatch build per (dp, tp, global batch)
  // bounds every microbatch count (Compose.h): it is also the whole program
  // of the configuration without pipeline and microbatches.
  auto replicaOf = [&](size_t model, const Configuration &c) {
    return TemplateKey{
        model, c.dp, c.tp, 1, c.globalBatch / c.dp, 1, 0, int(c.recompute)};
  };

  // The replicas (one stage, one microbatch) give every bound, and the
  // stage cuts at the global batch say where the layers go.
  std::vector<TemplateKey> replicaKeys;
  std::vector<CutKey> cutKeys;
  for (const Scenario &scenario : scenarios)
    for (const Configuration &c : scenario.survivors) {
      replicaKeys.push_back(replicaOf(scenario.model, c));
      cutKeys.push_back(
          {scenario.model, c.globalBatch, c.pp, int(c.recompute)});
    }
  std::sort(cutKeys.begin(), cutKeys.end());
  cutKeys.erase(std::unique(cutKeys.begin(), cutKeys.end()), cutKeys.end());
  {
    std::vector<std::vector<int64_t>> built(cutKeys.size());
    std::vector<std::string> errors(cutKeys.size());
    runParallel(
        cutKeys.size(), threads,
        [&](unsigned thread, size_t i) {
          auto [model, batch, pp, recompute] = cutKeys[i];
          FailureOr<std::vector<int64_t>> cut =
              getWorker(thread, model)
                  .getStageCut(batch, pp, Recompute(recompute), errors[i]);
          if (succeeded(cut))
            built[i] = std::move(*cut);
          else if (errors[i].empty())
            errors[i] = "unknown error";
        },
        nullptr);
    for (size_t i = 0; i < cutKeys.size(); ++i) {
      if (errors[i].empty())
        cuts[cutKeys[i]] = std::move(built[i]);
      else
        cutErrors[cutKeys[i]] = errors[i];
    }
  }
  report("stage cuts (" + std::to_string(cutKeys.size()) + ")");
  size_t templatesBefore = templates.size() + templateErrors.size();
  // The progress bar runs twice: over these builds, then over the
  // evaluations.
  {
    std::vector<TemplateKey> unique = replicaKeys;
    std::sort(unique.begin(), unique.end());
    progressTotal = std::unique(unique.begin(), unique.end()) - unique.begin();
  }
  buildTemplates(replicaKeys, /*showProgress=*/true);
  progressDone = progressTotal = 0;
  report("single-stage templates (" +
         std::to_string(templates.size() + templateErrors.size() -
                        templatesBefore) +
         ")");
  double templateSeconds = 0, evaluateSeconds = 0;
  size_t pipelineTemplates = 0, evaluated = 0;

  // 3. Evaluation, best bound first, in rounds: after each round, the
  // configurations whose throughput bound cannot reach the `top`-th best
  // that fits are skipped. Rounds are fixed by the sorted lists, not by the
  // threads, so the outcome is the same for any thread count.
  struct Candidate {
    size_t scenario, config;
    double throughputBound;
  };
  std::vector<std::vector<Candidate>> pending(scenarios.size());
  for (size_t s = 0; s < scenarios.size(); ++s) {
    Scenario &scenario = scenarios[s];
    for (size_t i = 0; i < scenario.survivors.size(); ++i) {
      const Configuration &c = scenario.survivors[i];
      CutKey cutKey{scenario.model, c.globalBatch, c.pp, int(c.recompute)};
      if (auto it = cutErrors.find(cutKey); it != cutErrors.end()) {
        scenario.failures[i] = it->second;
        continue;
      }
      TemplateKey replica = replicaOf(scenario.model, c);
      if (auto it = templateErrors.find(replica); it != templateErrors.end()) {
        scenario.failures[i] = it->second;
        continue;
      }
      // With the exact local sizes the memory bound is much tighter.
      int64_t memoryBound =
          getMemoryLowerBound(*templates.at(replica), cuts.at(cutKey), c);
      scenario.bounds[i] = std::max(scenario.bounds[i], memoryBound);
      if (memoryBound > capacity) {
        ++scenario.report.prunedByMemory;
        continue;
      }
      double bound =
          getStepTimeLowerBound(*templates.at(replica), cuts.at(cutKey), c);
      scenario.timeBounds[i] = bound;
      pending[s].push_back({s, i,
                            bound > 0
                                ? double(c.globalBatch) / bound
                                : std::numeric_limits<double>::infinity()});
    }
    std::stable_sort(pending[s].begin(), pending[s].end(),
                     [&](const Candidate &a, const Candidate &b) {
                       if (a.throughputBound != b.throughputBound)
                         return a.throughputBound > b.throughputBound;
                       return scenario.survivors[a.config] <
                              scenario.survivors[b.config];
                     });
    progressTotal += int64_t(pending[s].size());
  }
  const size_t roundSize = std::max<size_t>(16, 2 * options.top);
  std::vector<size_t> cursor(scenarios.size(), 0);
  while (true) {
    std::vector<Candidate> round;
    for (size_t s = 0; s < scenarios.size(); ++s) {
      Scenario &scenario = scenarios[s];
      // The `top`-th best throughput that fits so far.
      std::vector<double> fitting;
      for (const auto &evaluation : scenario.evaluations)
        if (evaluation && evaluation->peakMemoryBytes <= capacity)
          fitting.push_back(double(evaluation->config.globalBatch) /
                            evaluation->stepTimeS);
      double threshold = 0;
      if (options.pruneByTime && options.top > 0 &&
          fitting.size() >= options.top) {
        std::nth_element(fitting.begin(), fitting.begin() + (options.top - 1),
                         fitting.end(), std::greater<double>());
        threshold = fitting[options.top - 1];
      }
      size_t taken = 0;
      for (size_t &i = cursor[s]; i < pending[s].size() && taken < roundSize;
           ++i) {
        const Candidate &candidate = pending[s][i];
        if (candidate.throughputBound < threshold) {
          ++scenario.report.prunedByTime;
          ++progressDone;
          continue;
        }
        round.push_back(candidate);
        ++taken;
      }
    }
    if (round.empty())
      break;
    // Templates, then whole programs where the template's cut (at its
    // smaller batch) is not the global batch's: composing would move layers.
    std::vector<bool> whole(round.size(), options.buildAll);
    auto keysOf = [&] {
      std::vector<TemplateKey> keys;
      for (size_t r = 0; r < round.size(); ++r) {
        const Scenario &scenario = scenarios[round[r].scenario];
        keys.push_back(templateOf(
            scenario.model, scenario.survivors[round[r].config], whole[r]));
      }
      return keys;
    };
    auto roundStart = std::chrono::steady_clock::now();
    size_t before = templates.size() + templateErrors.size();
    buildTemplates(keysOf(), /*showProgress=*/false);
    for (size_t r = 0; r < round.size(); ++r) {
      const Scenario &scenario = scenarios[round[r].scenario];
      const Configuration &c = scenario.survivors[round[r].config];
      auto it = templates.find(templateOf(scenario.model, c, whole[r]));
      if (it == templates.end() || whole[r])
        continue;
      const std::vector<int64_t> &cut =
          cuts.at({scenario.model, c.globalBatch, c.pp, int(c.recompute)});
      for (size_t layer = 0; layer < cut.size(); ++layer)
        if (layer < it->second->stageOfLayer.size() &&
            it->second->stageOfLayer[layer] >= 0 && cut[layer] >= 0 &&
            it->second->stageOfLayer[layer] != cut[layer])
          whole[r] = true;
    }
    buildTemplates(keysOf(), /*showProgress=*/false);
    pipelineTemplates += templates.size() + templateErrors.size() - before;
    templateSeconds += secondsSince(roundStart);
    roundStart = std::chrono::steady_clock::now();
    evaluated += round.size();
    runParallel(
        round.size(), threads,
        [&](unsigned, size_t r) {
          Scenario &scenario = scenarios[round[r].scenario];
          size_t index = round[r].config;
          const Configuration &c = scenario.survivors[index];
          TemplateKey key = templateOf(scenario.model, c, whole[r]);
          auto it = templates.find(key);
          if (it == templates.end()) {
            scenario.failures[index] = templateErrors.at(key);
            return;
          }
          std::string why;
          std::optional<Evaluation> evaluation =
              evaluateComposed(*it->second, c, costModel, why);
          if (!evaluation)
            scenario.failures[index] = why;
          else
            scenario.evaluations[index] = std::move(*evaluation);
        },
        progress);
    progressDone += int64_t(round.size());
    evaluateSeconds += secondsSince(roundStart);
  }
  if (options.timing)
    llvm::errs() << "dist-search: pipeline templates (" << pipelineTemplates
                 << "): " << llvm::format("%.3f", templateSeconds)
                 << " s\ndist-search: composition and simulation (" << evaluated
                 << "): " << llvm::format("%.3f", evaluateSeconds) << " s\n";

  // 4. The reports.
  double wallTimeS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  std::vector<ScenarioReport> reports;
  for (Scenario &scenario : scenarios) {
    ScenarioReport &report = scenario.report;
    const ModelFacts &modelFacts = facts[scenario.model];
    for (size_t i = 0; i < scenario.survivors.size(); ++i) {
      if (!scenario.failures[i].empty()) {
        ++report.buildFailures[scenario.failures[i]];
        continue;
      }
      if (!scenario.evaluations[i])
        continue;
      Evaluation evaluation = std::move(*scenario.evaluations[i]);
      const Configuration &c = scenario.survivors[i];
      evaluation.config = c;
      evaluation.memoryBoundBytes = scenario.bounds[i];
      evaluation.stepTimeBoundS = scenario.timeBounds[i];
      evaluation.fits = evaluation.peakMemoryBytes <= capacity;
      double samples = double(c.globalBatch);
      evaluation.samplesPerS =
          evaluation.stepTimeS > 0 ? samples / evaluation.stepTimeS : 0;
      evaluation.tokensPerS =
          evaluation.samplesPerS * double(modelFacts.tokensPerSample);
      double peak = modelFacts.devicePeakFlops * double(c.devices);
      evaluation.mfu = peak > 0 && evaluation.stepTimeS > 0
                           ? modelFacts.modelFlopsPerSample * samples /
                                 evaluation.stepTimeS / peak
                           : 0;
      evaluation.command = getCommand(models[scenario.model], c, options);
      report.evaluations.push_back(std::move(evaluation));
    }
    rankEvaluations(report.evaluations);
    report.wallTimeS = wallTimeS;
    reports.push_back(std::move(report));
  }
  return reports;
}

} // namespace search
} // namespace distir
