//===- Worker.cpp - One MLIRContext, its training steps, its templates ----===//
//
// A worker builds, in its own context, what the driver asks for: the training
// step of a batch, the facts read off it, a stage cut, a lowered template.
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/FunctionSharding.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"
#include "distir/InitAll.h"
#include "distir/Simulator/Lowering.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;

namespace distir {
namespace search {

namespace {

/// The unit attribute dist-recompute puts on its clones (docs/recompute.md).
constexpr llvm::StringLiteral kRecomputedAttrName =
    ::mlir::dist::DistDialect::kRecomputedAttrName;

/// dist-parallelize's `cluster` when the option is not given (Passes.td).
constexpr llvm::StringLiteral kDefaultCutCluster = "dgx-a100";

} // namespace

//===----------------------------------------------------------------------===//
// Pass pipelines
//===----------------------------------------------------------------------===//

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
PassStep getParallelizeStep(const Configuration &config,
                            const SearchOptions &searchOptions) {
  const std::string &clusterSpec = searchOptions.clusterSpec;
  std::string options = "dp=" + std::to_string(config.dp) +
                        " tp=" + std::to_string(config.tp) +
                        " pp=" + std::to_string(config.pp) +
                        " microbatches=" + std::to_string(config.microbatches);
  if (config.hasSchedule())
    options += " schedule=" + std::string(scheduleName(config.schedule));
  if (config.interleave > 1)
    options += " interleave=" + std::to_string(config.interleave);
  // Only a pipeline is cut, by the times of the search's cluster.
  if (config.pp > 1 && clusterSpec != kDefaultCutCluster)
    options += " cluster=" + clusterSpec;
  if (searchOptions.scatterGather && config.tp > 1 && config.pp > 1)
    options += " scatter-gather=true";
  if (config.sequenceParallel)
    options += " sequence-parallel=true";
  if (config.zero > 0)
    options += " zero=" + std::to_string(config.zero);
  return {"dist-parallelize", options};
}

PassStep getAutodiffStep(const SearchOptions &options) {
  std::string autodiff =
      "optimizer=" + mlir::dist::stringifyOptimizer(options.optimizer).str();
  // auto is dist-autodiff's default: the reproduction commands keep their
  // spelling.
  if (options.precision != mlir::dist::Precision::Auto)
    autodiff +=
        " precision=" + mlir::dist::stringifyPrecision(options.precision).str();
  return {"dist-autodiff", autodiff};
}

PassStep getRecomputeStep(Recompute recompute) {
  return {"dist-recompute", "mode=" + std::string(recomputeName(recompute))};
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

ErrorCollector::ErrorCollector(MLIRContext &ctx)
    : handler(&ctx, [this](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error &&
            message.empty()) {
          message = diag.str();
          std::string where;
          llvm::raw_string_ostream os(where);
          if (auto file = dyn_cast<FileLineColLoc>(diag.getLocation()))
            os << file.getFilename().getValue() << ":" << file.getLine() << ":"
               << file.getColumn() << ": ";
          located = where + message;
        }
        return success();
      }) {}

std::string ErrorCollector::take() {
  std::string result = message.empty() ? "unknown error" : message;
  message.clear();
  return result;
}

std::string ErrorCollector::takeLocated() {
  std::string result = located.empty() ? take() : located;
  message.clear();
  located.clear();
  return result;
}

//===----------------------------------------------------------------------===//
// Reading the training step
//===----------------------------------------------------------------------===//

/// The one function with a body.
static func::FuncOp getBodyFunction(ModuleOp module) {
  func::FuncOp found;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal()) {
      if (found)
        return nullptr;
      found = func;
    }
  return found;
}

static int64_t getBatchOf(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (dist::getArgRole(func, i) == dist::Role::Data && type &&
        type.getRank() > 0)
      return type.getDimSize(0);
  }
  return 0;
}

/// The layer of an op, 0 for ops outside any layer.
static int64_t getLayerOrZero(Operation *op) {
  return std::max<int64_t>(0, dist::getLayer(op).value_or(0));
}

/// Per layer, the bytes per sample of the forward results that backward ops
/// read (LayerFacts::stashBytesPerSample).
static std::vector<double>
getStashBytesPerSample(func::FuncOp func, int64_t numLayers, double samples) {
  std::vector<double> stash(numLayers, 0.0);
  func.walk([&](dist::CostOpInterface op) {
    if (dist::getPhase(op) != dist::Phase::Forward)
      return;
    int64_t layer = std::min(getLayerOrZero(op), numLayers - 1);
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return dist::getPhase(user) == dist::Phase::Backward;
          }))
        stash[layer] +=
            double(dist::detail::getTensorBytes(result.getType())) / samples;
  });
  return stash;
}

//===----------------------------------------------------------------------===//
// Worker
//===----------------------------------------------------------------------===//

Worker::Worker(const ModelSource &source, const SearchOptions &options)
    : source(source), options(options), costModel(options.cluster),
      errors(ctx) {
  DialectRegistry registry;
  distir::registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);
}

StatusOr<OwningOpRef<ModuleOp>> Worker::buildForward(int64_t batch) {
  OwningOpRef<ModuleOp> module;
  if (source.kind == ModelSource::Kind::File) {
    DISTIR_ASSIGN_OR_RETURN(module, parseFile());
    DISTIR_RETURN_IF_ERROR(rebatchFile(*module, batch));
    return std::move(module);
  }
  module = ModuleOp::create(UnknownLoc::get(&ctx));
  FailureOr<func::FuncOp> func;
  if (source.kind == ModelSource::Kind::Mlp) {
    models::MlpConfig config = source.mlp;
    config.batch = batch;
    if (layersBuilt > 0)
      config.layers = layersBuilt;
    func = models::buildMlp(*module, config);
  } else {
    models::GptConfig config = source.gpt;
    config.batch = batch;
    if (layersBuilt > 0)
      config.layers = layersBuilt;
    func = models::buildGpt(*module, config);
  }
  if (failed(func))
    return Status::error(errors.take());
  return std::move(module);
}

Status Worker::rebatchFile(ModuleOp module, int64_t batch) {
  func::FuncOp func = getBodyFunction(module);
  if (getBatchOf(func) == batch)
    return Status::success();
  // Microbatches and data-parallel shares of a file's batch: give the data
  // arguments the new batch and let dist-infer-shapes refine the rest (it
  // refuses programs whose shapes pin the batch, e.g. in a reshape).
  SmallVector<Type> inputs(func.getArgumentTypes());
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (dist::getArgRole(func, arg.getArgNumber()) != dist::Role::Data ||
        !type || type.getRank() == 0)
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
  Status inferred = runPasses(module, {{"dist-infer-shapes", ""}});
  if (!inferred.ok())
    return Status::error("cannot change the batch of " + source.path + " to " +
                         std::to_string(batch) + ": " + inferred.message());
  return Status::success();
}

StatusOr<OwningOpRef<ModuleOp>> Worker::parseFile() {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      *source.text, ParserConfig(&ctx), source.path);
  if (!module)
    return Status::error(errors.takeLocated());
  if (!getBodyFunction(*module))
    return Status::error(source.path +
                         ": expected exactly one function with a body");
  return std::move(module);
}

StatusOr<int64_t> Worker::getFileBatch() {
  DISTIR_ASSIGN_OR_RETURN(OwningOpRef<ModuleOp> module, parseFile());
  int64_t batch = getBatchOf(getBodyFunction(*module));
  if (batch <= 0)
    return Status::error(
        source.path +
        ": no argument with dist.role = \"data\" and a batch dimension");
  return batch;
}

Status Worker::runPasses(ModuleOp module, llvm::ArrayRef<PassStep> steps) {
  if (steps.empty())
    return Status::success();
  auto pm = PassManager::on<ModuleOp>(&ctx);
  std::string parseError;
  llvm::raw_string_ostream parseErrors(parseError);
  if (failed(parsePassPipeline(renderPipeline(steps), pm, parseErrors)))
    return Status::error("internal error: " + parseError);
  if (failed(pm.run(module)))
    return Status::error(errors.take());
  return Status::success();
}

StatusOr<ModuleOp> Worker::getTrainingStep(int64_t batch, Recompute recompute) {
  auto it = trainingSteps.find({batch, recompute, layersBuilt});
  if (it != trainingSteps.end())
    return *it->second;
  OwningOpRef<ModuleOp> module;
  if (recompute == Recompute::None) {
    DISTIR_ASSIGN_OR_RETURN(module, buildForward(batch));
  } else {
    DISTIR_ASSIGN_OR_RETURN(ModuleOp plain,
                            getTrainingStep(batch, Recompute::None));
    module = plain.clone();
  }
  PassStep pass = recompute == Recompute::None ? getAutodiffStep(options)
                                               : getRecomputeStep(recompute);
  DISTIR_RETURN_IF_ERROR(runPasses(*module, {pass}));
  ModuleOp step = *module;
  trainingSteps[{batch, recompute, layersBuilt}] = std::move(module);
  return step;
}

/// One more than the largest dist.layer hint: the facts hold one entry per
/// layer, so a hint is refused unless it is below the number of ops (layers
/// are numbered from 0; a hint of 2^62 would allocate 2^62 entries).
static StatusOr<int64_t> countLayers(func::FuncOp func) {
  int64_t numOps = 0;
  func.walk([&](Operation *) { ++numOps; });
  int64_t numLayers = 1;
  Operation *outOfRange = nullptr;
  func.walk([&](Operation *op) {
    int64_t layer = getLayerOrZero(op);
    if (layer >= numOps) {
      outOfRange = outOfRange ? outOfRange : op;
      return;
    }
    numLayers = std::max(numLayers, layer + 1);
  });
  if (!outOfRange)
    return numLayers;
  std::string where;
  if (auto loc = outOfRange->getLoc()->findInstanceOf<FileLineColLoc>())
    where = (loc.getFilename().getValue() + ":" + Twine(loc.getLine()) + ":" +
             Twine(loc.getColumn()) + ": ")
                .str();
  return Status::error(where + dist::DistDialect::kLayerAttrName.str() +
                       " hint " + std::to_string(getLayerOrZero(outOfRange)) +
                       " is not below the number of ops of @" +
                       func.getSymName().str() + " (" + std::to_string(numOps) +
                       "): layers count from 0");
}

StatusOr<ModelFacts> Worker::extractFacts(int64_t batch) {
  DISTIR_ASSIGN_OR_RETURN(ModuleOp step,
                          getTrainingStep(batch, Recompute::None));
  func::FuncOp func = getBodyFunction(step);
  ModelFacts facts;
  facts.name = source.spec;
  DISTIR_ASSIGN_OR_RETURN(int64_t numLayers, countLayers(func));
  facts.layers.resize(numLayers);
  const double samples = double(batch);

  Type elementType;
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    std::optional<dist::Role> role = dist::getArgRole(func, i);
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
      layer = getLayerOrZero(first);
    }
    if (*role == dist::Role::Parameter) {
      facts.layers[layer].parameterBytes += bytes;
      if (!elementType)
        elementType = type.getElementType();
    } else if (*role == dist::Role::OptimizerState) {
      facts.layers[layer].optimizerStateBytes += bytes;
    } else if (*role == dist::Role::Data) {
      facts.dataBytesPerSample += bytes / std::max<int64_t>(1, batch);
      auto bound = func.getArgAttr(i, dist::DistDialect::kBoundAttrName);
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
  func.walk([&](dist::CostOpInterface op) {
    std::optional<dist::Phase> phase = dist::getPhase(op);
    if (phase == dist::Phase::Forward || phase == dist::Phase::Backward)
      modelFlops += op.getFlops();
  });
  facts.modelFlopsPerSample = modelFlops / samples;
  for (Recompute mode : options.space.recomputeModes) {
    if (mode == Recompute::None)
      continue;
    DISTIR_ASSIGN_OR_RETURN(ModuleOp recomputed, getTrainingStep(batch, mode));
    func::FuncOp recomputedFunc = getBodyFunction(recomputed);
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

/// dist-parallelize's annotation of its mesh, without a layout map.
static auto annotateAsParallelize(bool sequenceParallel) {
  return [sequenceParallel](func::FuncOp func, dist::MeshOp mesh) {
    return dist::annotateDataAndTensorParallel(func, mesh, nullptr,
                                               sequenceParallel);
  };
}

Status Worker::parallelize(ModuleOp module, const Configuration &config,
                           llvm::ArrayRef<double> cutTimes) {
  func::FuncOp func = getBodyFunction(module);
  FailureOr<dist::PipelineOptions> pipelineOptions = dist::getPipelineOptions(
      func.getLoc(), config.pp, config.microbatches,
      config.hasSchedule() ? config.schedule : Schedule::OneFOneB,
      options.clusterSpec, config.interleave);
  FailureOr<dist::MeshOp> mesh = dist::getOrCreateMesh(
      module, "world",
      {{"pp", config.pp}, {"dp", config.dp}, {"tp", config.tp}});
  if (failed(pipelineOptions) || failed(mesh))
    return Status::error(errors.take());
  pipelineOptions->measuredTimes.assign(cutTimes.begin(), cutTimes.end());
  pipelineOptions->scatterGather = options.scatterGather;
  if (failed(dist::checkBatchSplit(func, config.dp, config.microbatches)) ||
      failed(dist::pipelineFunction(
          func, *mesh, *pipelineOptions,
          annotateAsParallelize(config.sequenceParallel))) ||
      failed(
          dist::shardOptimizerOverDataParallel(func, *mesh, "dp", config.zero)))
    return Status::error(errors.take());
  return Status::success();
}

StatusOr<std::shared_ptr<const PipelineTemplate>>
Worker::buildTemplate(int64_t dp, int64_t tp, int64_t pp,
                      int64_t microbatchSize, int64_t numMicrobatches,
                      Schedule schedule, Recompute recompute,
                      int64_t interleave, llvm::ArrayRef<double> cutTimes,
                      bool sequenceParallel, int64_t zero) {
  Configuration config{dp * tp * pp, dp * microbatchSize * numMicrobatches,
                       dp,           tp,
                       pp,           numMicrobatches,
                       schedule,     recompute,
                       interleave,   sequenceParallel,
                       zero};
  DISTIR_ASSIGN_OR_RETURN(ModuleOp step,
                          getTrainingStep(config.globalBatch, recompute));
  OwningOpRef<ModuleOp> module = step.clone();
  if (cutTimes.empty())
    DISTIR_RETURN_IF_ERROR(
        runPasses(*module, {getParallelizeStep(config, options)}));
  else
    DISTIR_RETURN_IF_ERROR(parallelize(*module, config, cutTimes));
  // Interleaved, the template's stages are the chunks (virtual stages).
  FailureOr<std::shared_ptr<const PipelineTemplate>> stage =
      extractPipelineTemplate(getBodyFunction(*module), costModel,
                              pp * interleave, numMicrobatches, microbatchSize,
                              options.framework, interleave);
  if (failed(stage))
    return Status::error(errors.take());
  return *stage;
}

int64_t Worker::getFoldableLayers() const {
  // A GPT layer is a whole transformer block. An MLP's layers alternate
  // (Megatron's column- then row-parallel pairs), so its middle layers are
  // not all the same; a .mlir model has no such promise.
  if (source.kind != ModelSource::Kind::Gpt || options.buildAll)
    return 0;
  return source.gpt.layers;
}

StatusOr<std::shared_ptr<const PipelineTemplate>>
Worker::buildBoundsTemplate(int64_t dp, int64_t tp, int64_t batchPerReplica,
                            Recompute recompute, bool sequenceParallel,
                            int64_t zero, bool &folded) {
  const int64_t numLayers = getFoldableLayers();
  folded = numLayers > kFoldedLayers;
  if (!folded)
    return buildTemplate(dp, tp, /*pp=*/1, batchPerReplica,
                         /*numMicrobatches=*/1, Schedule::OneFOneB, recompute,
                         /*interleave=*/1, {}, sequenceParallel, zero);
  layersBuilt = kFoldedLayers;
  llvm::scope_exit restore([&] { layersBuilt = 0; });
  DISTIR_ASSIGN_OR_RETURN(
      std::shared_ptr<const PipelineTemplate> small,
      buildTemplate(dp, tp, /*pp=*/1, batchPerReplica, /*numMicrobatches=*/1,
                    Schedule::OneFOneB, recompute, /*interleave=*/1, {},
                    sequenceParallel, zero));
  return unfoldLayers(*small, numLayers);
}

/// Per op of a body, (layer, index among the ops of that layer); layer -1
/// for the ops outside the layers.
static std::vector<std::pair<int64_t, size_t>> getLayerPositions(Block &body) {
  std::map<int64_t, size_t> seen;
  std::vector<std::pair<int64_t, size_t>> positions;
  for (Operation &op : body.without_terminator()) {
    int64_t layer = getLayerOrZero(&op);
    if (!op.hasAttr(dist::DistDialect::kLayerAttrName))
      layer = -1;
    positions.push_back({layer, seen[layer]++});
  }
  return positions;
}

std::optional<std::vector<double>>
Worker::measureFolded(func::FuncOp whole, int64_t dp, int64_t tp,
                      int64_t microbatchSize, int64_t numMicrobatches,
                      Recompute recompute, int64_t numStages,
                      bool sequenceParallel) {
  const int64_t numLayers = getFoldableLayers();
  if (numLayers <= kFoldedLayers)
    return std::nullopt;
  OwningOpRef<ModuleOp> module;
  {
    layersBuilt = kFoldedLayers;
    llvm::scope_exit restore([&] { layersBuilt = 0; });
    StatusOr<ModuleOp> step =
        getTrainingStep(dp * microbatchSize * numMicrobatches, recompute);
    if (!step)
      return std::nullopt;
    module = step->clone();
  }
  func::FuncOp func = getBodyFunction(*module);
  FailureOr<dist::PipelineOptions> options = dist::getPipelineOptions(
      func.getLoc(), numStages, numMicrobatches,
      dist::PipelineSchedule::OneFOneB, this->options.clusterSpec);
  FailureOr<dist::MeshOp> mesh = dist::getOrCreateMesh(
      *module, "world", {{"pp", numStages}, {"dp", dp}, {"tp", tp}});
  if (failed(options) || failed(mesh) || !options->opTimer) {
    errors.take();
    return std::nullopt;
  }
  FailureOr<llvm::DenseMap<Operation *, double>> measured =
      dist::measureMicrobatchTimes(func, *mesh, *options,
                                   annotateAsParallelize(sequenceParallel));
  if (failed(measured)) {
    errors.take();
    return std::nullopt;
  }
  // The folded step's ops by (layer, position in the layer): the whole
  // step's op at (layer, i) is the folded one at (its folded layer, i), the
  // same op (checked by name; any mismatch measures the whole step).
  Block &foldedBody = func.getBody().front();
  std::map<std::pair<int64_t, size_t>, Operation *> foldedOps;
  auto foldedPositions = getLayerPositions(foldedBody);
  for (auto [op, position] :
       llvm::zip_equal(foldedBody.without_terminator(), foldedPositions))
    foldedOps[position] = &op;
  std::vector<double> times;
  Block &wholeBody = whole.getBody().front();
  for (auto [op, position] : llvm::zip_equal(wholeBody.without_terminator(),
                                             getLayerPositions(wholeBody))) {
    auto [layer, index] = position;
    int64_t foldedLayer = layer <= 0               ? layer
                          : layer == numLayers - 1 ? kFoldedLayers - 1
                                                   : 1;
    auto it = foldedOps.find({foldedLayer, index});
    if (it == foldedOps.end() || it->second->getName() != op.getName())
      return std::nullopt;
    times.push_back(measured->lookup(it->second));
  }
  return times;
}

Worker::StageCuts Worker::getStageCuts(int64_t dp, int64_t tp,
                                       int64_t microbatchSize,
                                       int64_t numMicrobatches,
                                       Recompute recompute,
                                       llvm::ArrayRef<int64_t> stageCounts,
                                       bool sequenceParallel) {
  StageCuts result;
  auto failAll = [&](Status status) {
    result.stageOfLayer.assign(stageCounts.size(), status);
    return result;
  };
  // The step of the template's batch.
  StatusOr<ModuleOp> step =
      getTrainingStep(dp * microbatchSize * numMicrobatches, recompute);
  if (!step)
    return failAll(step.status());
  OwningOpRef<ModuleOp> module = step->clone();
  func::FuncOp func = getBodyFunction(*module);
  int64_t mostStages = *llvm::max_element(stageCounts);
  FailureOr<dist::PipelineOptions> cutOptions = dist::getPipelineOptions(
      func.getLoc(), mostStages, numMicrobatches,
      dist::PipelineSchedule::OneFOneB, options.clusterSpec);
  FailureOr<dist::MeshOp> mesh = dist::getOrCreateMesh(
      *module, "world", {{"pp", mostStages}, {"dp", dp}, {"tp", tp}});
  if (failed(cutOptions) || failed(mesh))
    return failAll(Status::error(errors.take()));
  if (cutOptions->opTimer && mostStages > 1) {
    // The times depend on no stage count (getStageCuts): the folded model
    // of three layers is timed as two stages.
    std::optional<std::vector<double>> folded =
        measureFolded(func, dp, tp, microbatchSize, numMicrobatches, recompute,
                      /*numStages=*/2, sequenceParallel);
    if (folded) {
      result.times = std::move(*folded);
    } else {
      FailureOr<llvm::DenseMap<Operation *, double>> measured =
          dist::measureMicrobatchTimes(func, *mesh, *cutOptions,
                                       annotateAsParallelize(sequenceParallel));
      if (failed(measured))
        return failAll(Status::error(errors.take()));
      for (Operation &op : func.getBody().front().without_terminator())
        result.times.push_back(measured->lookup(&op));
    }
  }
  llvm::DenseMap<Operation *, double> times;
  if (!result.times.empty())
    for (auto [op, seconds] : llvm::zip_equal(
             func.getBody().front().without_terminator(), result.times))
      times[&op] = seconds;
  for (int64_t pp : stageCounts) {
    // As cutPipelineStages: by time when there is a timer and a pipeline.
    FailureOr<std::vector<int64_t>> cut =
        times.empty() || pp == 1
            ? dist::cutPipelineLayers(func, pp)
            : dist::cutPipelineLayers(
                  func, pp, [&](Operation *op) { return times.lookup(op); });
    if (succeeded(cut))
      result.stageOfLayer.push_back(std::move(*cut));
    else
      result.stageOfLayer.push_back(Status::error(errors.take()));
  }
  return result;
}

} // namespace search
} // namespace distir
