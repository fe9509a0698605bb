//===- Compose.cpp - Programs from a two-microbatch template --------------===//

#include "distir/Search/Compose.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/Pipeline.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>

using namespace mlir;

namespace distir {
namespace search {

//===----------------------------------------------------------------------===//
// Extraction
//===----------------------------------------------------------------------===//

namespace {

std::optional<int64_t> getIntAttr(Operation *op, llvm::StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

/// The 1/microbatches factor dist-pipeline creates for ops that average over
/// the batch, as the split marks it.
bool isMicrobatchScale(Value value) {
  auto constant = value.getDefiningOp<dist::ConstantOp>();
  return constant &&
         constant->hasAttr(dist::DistDialect::kMicrobatchScaleAttrName);
}

/// Reads a PipelineTemplate off a lowered training step, one phase per
/// question: which unit each task belongs to, what runs outside the units,
/// the layer cut with its stream times, and the memory by layer.
class TemplateExtractor {
public:
  TemplateExtractor(PipelineTemplate &stage, const sim::LoweringResult &lowered)
      : stage(stage), n(stage.program.numTasks()), opOf(n, nullptr),
        layerOf(n, -1) {
    for (auto [op, id] : lowered.opTasks)
      opOf[id] = op;
    gradientBuffers = lowered.gradientBuffers;
  }

  /// The phases that can refuse the program say why on `func`.
  LogicalResult readTasks(func::FuncOp func);
  void settleSliceKinds();
  LogicalResult assignStepRoles(func::FuncOp func);
  void measureLayers();
  void measureStash();
  void measureResidents(func::FuncOp func);

private:
  /// A task of microbatch `t.microbatch`: its unit kind and whether it is
  /// counted (what dist-pipeline's split adds is not).
  void classifyUnitTask(TemplateTask &t, Operation *op);

  PipelineTemplate &stage;
  const size_t n;
  std::vector<Operation *> opOf;
  std::vector<int64_t> layerOf;
  int64_t numLayers = 0;
  std::vector<std::pair<sim::TaskId, int64_t>> gradientBuffers;
};

LogicalResult TemplateExtractor::readTasks(func::FuncOp func) {
  const sim::Program &program = stage.program;
  stage.tasks.resize(n);
  llvm::DenseSet<Operation *> costed;
  for (sim::TaskId id = 0; id < n; ++id) {
    TemplateTask &t = stage.tasks[id];
    Operation *op = opOf[id];
    t.task = program.task(id);
    t.gradientBufferBytes = 0;
    t.deps.assign(program.getDeps().begin() + t.task.depBegin,
                  program.getDeps().begin() + t.task.depEnd);
    t.microbatch = getIntAttr(op, mlir::dist::kMicrobatchAttrName).value_or(-1);
    std::optional<int64_t> stageAttr =
        getIntAttr(op, mlir::dist::kStageAttrName);
    t.stage = stageAttr ? *stageAttr
                        : (t.deps.empty() ? 0 : stage.tasks[t.deps[0]].stage);
    if (t.stage < 0 || t.stage >= stage.numStages)
      return func.emitError() << "the template has an op on stage " << t.stage;
    // An op's second task (a result held apart, sim::LoweringResult) has
    // no FLOPs of its own.
    auto flops = dyn_cast<dist::CostOpInterface>(op);
    if (flops && costed.insert(op).second)
      t.opFlops = flops.getFlops();
    layerOf[id] =
        getIntAttr(op, dist::DistDialect::kLayerAttrName).value_or(-1);
    numLayers = std::max(numLayers, layerOf[id] + 1);
    if (t.microbatch >= 0)
      classifyUnitTask(t, op);
  }
  for (auto [id, bytes] : gradientBuffers)
    stage.tasks[id].gradientBufferBytes = bytes;
  return success();
}

void TemplateExtractor::classifyUnitTask(TemplateTask &t, Operation *op) {
  std::optional<dist::Phase> phase = dist::getPhase(op);
  t.role = TaskRole::Unit;
  t.kind =
      phase == dist::Phase::Backward ? UnitKind::Backward : UnitKind::Forward;
  // What the split adds: the microbatch slices of the data (no hints),
  // the 1/microbatches products, the running sums (reading another
  // microbatch).
  bool isSlice = isa<dist::SliceOp>(op) && !phase;
  bool isScale = isa<dist::MulOp>(op) &&
                 llvm::any_of(op->getOperands(), isMicrobatchScale);
  bool isAccumulation =
      isa<dist::AddOp>(op) && llvm::any_of(t.deps, [&](uint32_t dep) {
        return stage.tasks[dep].microbatch >= 0 &&
               stage.tasks[dep].microbatch != t.microbatch;
      });
  t.counted = !isSlice && !isScale && !isAccumulation;
  if (!isSlice)
    return;
  t.kind = UnitKind::Forward; // settled below by its consumer's unit
  auto compute = cast<dist::CostOpInterface>(op);
  cost::OpWork work;
  work.kind = compute.getCostKind();
  std::string element;
  llvm::raw_string_ostream os(element);
  cast<ShapedType>(op->getResult(0).getType()).getElementType().print(os);
  work.dtype =
      topology::parseDataType(element).value_or(topology::DataType::F32);
  work.flops = compute.getFlops();
  work.bytesRead = compute.getBytesRead();
  work.bytesWritten = compute.getBytesWritten();
  t.sliceWork = work;
  t.sliceSourceBytes =
      dist::detail::getTensorBytes(op->getOperand(0).getType());
}

/// A slice is emitted right before the op that first reads it, in the same
/// unit: it takes that unit's kind.
void TemplateExtractor::settleSliceKinds() {
  for (sim::TaskId id = n; id-- > 0;) {
    TemplateTask &t = stage.tasks[id];
    if (t.role == TaskRole::Unit && !t.counted && id + 1 < n &&
        isa<dist::SliceOp>(opOf[id]) &&
        stage.tasks[id + 1].role == TaskRole::Unit)
      t.kind = stage.tasks[id + 1].kind;
  }
}

/// Tasks outside the microbatches: before the first unit they are the
/// prologue; later, before the stage's last unit task they are step values
/// built on demand, after it the stage's epilogue.
LogicalResult TemplateExtractor::assignStepRoles(func::FuncOp func) {
  std::vector<int64_t> lastUnitTask(stage.numStages, -1);
  int64_t firstUnitTask = -1;
  for (sim::TaskId id = 0; id < n; ++id) {
    const TemplateTask &t = stage.tasks[id];
    if (t.role != TaskRole::Unit)
      continue;
    lastUnitTask[t.stage] = id;
    if (firstUnitTask < 0)
      firstUnitTask = id;
  }
  // The unit of the last template microbatch each stage is in (-1: none).
  const int64_t last = stage.numMicrobatches - 1;
  std::vector<std::optional<UnitKind>> inLastUnit(stage.numStages);
  for (sim::TaskId id = 0; id < n; ++id) {
    TemplateTask &t = stage.tasks[id];
    if (t.role == TaskRole::Unit) {
      inLastUnit[t.stage] = t.microbatch == last && last >= 2
                                ? std::optional<UnitKind>(t.kind)
                                : std::nullopt;
      continue;
    }
    if (firstUnitTask < 0 || int64_t(id) < firstUnitTask)
      t.role = TaskRole::Prologue;
    else if (int64_t(id) < lastUnitTask[t.stage])
      t.role = TaskRole::Step;
    else
      t.role = TaskRole::Epilogue;
    // Step work placed inside the last microbatch, on its values (ZeRO's
    // reduce-scatter of the complete gradient, overlapping the rest of the
    // backward): with a template of three microbatches, part of the last
    // one's unit, replayed where it is.
    if (t.role == TaskRole::Step && inLastUnit[t.stage] &&
        llvm::any_of(t.deps, [&](uint32_t dep) {
          const TemplateTask &d = stage.tasks[dep];
          return d.role == TaskRole::Unit && d.microbatch == last;
        })) {
      t.role = TaskRole::Unit;
      t.microbatch = last;
      t.kind = *inLastUnit[t.stage];
      t.counted = false;
      continue;
    }
    if (t.role == TaskRole::Epilogue && isa<dist::ConcatOp>(opOf[id]) &&
        llvm::any_of(t.deps, [&](uint32_t dep) {
          return stage.tasks[dep].role == TaskRole::Unit;
        })) {
      // Values put back together from every microbatch: the op's size
      // depends on the microbatch count.
      return func.emitError()
             << "the program concatenates its microbatches (a per-sample "
                "result); it cannot be composed";
    }
  }
  return success();
}

/// The cut, and the per-layer stream times for the step-time bound.
void TemplateExtractor::measureLayers() {
  stage.stageOfLayer.assign(numLayers, -1);
  for (auto *v : {&stage.unitCompute, &stage.unitCollective, &stage.stepCompute,
                  &stage.stepCollective})
    v->assign(numLayers, 0);
  for (sim::TaskId id = 0; id < n; ++id) {
    const TemplateTask &t = stage.tasks[id];
    int64_t layer = layerOf[id];
    if (layer < 0)
      continue;
    if (t.role == TaskRole::Unit && t.counted)
      stage.stageOfLayer[layer] = t.stage;
    bool perMicrobatch = t.role == TaskRole::Unit && t.microbatch == 0;
    bool once = t.role != TaskRole::Unit;
    if (!perMicrobatch && !once)
      continue;
    // A collective the framework runs on the compute stream blocks it; one
    // on the gradient stream is in neither sum (the bound takes the busiest
    // of the two streams it sums).
    bool isCollective = t.task.kind == sim::TaskKind::Collective;
    bool compute = t.task.kind == sim::TaskKind::Compute ||
                   (isCollective && t.task.stream == sim::Stream::Compute);
    bool collective = isCollective && t.task.stream == sim::Stream::Collective;
    if (perMicrobatch && compute)
      stage.unitCompute[layer] += t.task.durationS;
    else if (perMicrobatch && collective)
      stage.unitCollective[layer] += t.task.durationS;
    else if (once && compute)
      stage.stepCompute[layer] += t.task.durationS;
    else if (once && collective)
      stage.stepCollective[layer] += t.task.durationS;
  }
}

/// Memory by layer: what the backward reads of the forward. A stashed value
/// is counted once, in the layer of its first backward reader: with a
/// pipeline the copy that waits for the backward is on the reader's stage
/// (the producer's may be freed once sent on).
void TemplateExtractor::measureStash() {
  for (auto *v : {&stage.parameterBytes, &stage.persistentBytes,
                  &stage.stashBytes, &stage.dataBytes})
    v->assign(numLayers, 0);
  std::vector<bool> stashed(n, false);
  for (sim::TaskId id = 0; id < n; ++id) {
    const TemplateTask &reader = stage.tasks[id];
    if (reader.role != TaskRole::Unit || reader.kind != UnitKind::Backward ||
        layerOf[id] < 0)
      continue;
    for (uint32_t dep : reader.deps) {
      const TemplateTask &t = stage.tasks[dep];
      if (t.role == TaskRole::Unit && t.kind == UnitKind::Forward &&
          t.microbatch == 0 && !stashed[dep]) {
        stashed[dep] = true;
        stage.stashBytes[layerOf[id]] += t.task.resultBytes;
      }
    }
  }
}

/// Memory by layer: the arguments by the layer of their first user.
void TemplateExtractor::measureResidents(func::FuncOp func) {
  const auto &residents = stage.program.getResidents();
  for (BlockArgument arg : func.getArguments()) {
    TemplateResident resident;
    std::tie(resident.devices, resident.bytes) = residents[arg.getArgNumber()];
    resident.kind = stage.program.getResidentKinds()[arg.getArgNumber()];
    std::optional<dist::Role> role = dist::getArgRole(func, arg.getArgNumber());
    resident.isData = role == dist::Role::Data;
    stage.residents.push_back(resident);
    Operation *first = nullptr;
    for (Operation *user : arg.getUsers())
      if (!first || user->isBeforeInBlock(first))
        first = user;
    std::optional<int64_t> layer =
        first ? getIntAttr(first, dist::DistDialect::kLayerAttrName)
              : std::nullopt;
    if (!layer || *layer < 0 || *layer >= numLayers || !role)
      continue;
    if (resident.isData)
      stage.dataBytes[*layer] += resident.bytes / stage.numMicrobatches;
    if (*role == dist::Role::Parameter)
      stage.parameterBytes[*layer] += resident.bytes;
    if (*role == dist::Role::Parameter || *role == dist::Role::OptimizerState)
      stage.persistentBytes[*layer] += resident.bytes;
  }
  // The lowering's gradient buffers, after the arguments: once per step.
  for (size_t r = func.getNumArguments(); r < residents.size(); ++r) {
    TemplateResident resident;
    std::tie(resident.devices, resident.bytes) = residents[r];
    resident.kind = stage.program.getResidentKinds()[r];
    stage.residents.push_back(resident);
  }
}

} // namespace

FailureOr<std::shared_ptr<const PipelineTemplate>>
extractPipelineTemplate(func::FuncOp func, const cost::CostModel &model,
                        int64_t numStages, int64_t numMicrobatches,
                        int64_t microbatchSize, const sim::Framework &framework,
                        int64_t interleave) {
  auto stage = std::make_shared<PipelineTemplate>();
  stage->numStages = numStages;
  stage->interleave = interleave;
  stage->numMicrobatches = numMicrobatches;
  stage->microbatchSize = microbatchSize;
  FailureOr<sim::LoweringResult> lowered =
      sim::lowerToProgram(func, model, stage->program, framework);
  if (failed(lowered))
    return failure(); // the diagnostic says why
  TemplateExtractor extractor(*stage, *lowered);
  if (failed(extractor.readTasks(func)))
    return failure();
  extractor.settleSliceKinds();
  if (failed(extractor.assignStepRoles(func)))
    return failure();
  extractor.measureLayers();
  extractor.measureStash();
  extractor.measureResidents(func);
  return std::shared_ptr<const PipelineTemplate>(std::move(stage));
}

std::shared_ptr<const PipelineTemplate>
unfoldLayers(const PipelineTemplate &folded, int64_t numLayers) {
  auto whole = std::make_shared<PipelineTemplate>();
  whole->numStages = folded.numStages;
  whole->interleave = folded.interleave;
  whole->numMicrobatches = folded.numMicrobatches;
  whole->microbatchSize = folded.microbatchSize;
  auto foldedLayer = [&](int64_t layer) -> size_t {
    if (layer == 0)
      return 0;
    return layer == numLayers - 1 ? kFoldedLayers - 1 : 1;
  };
  auto unfold = [&](const auto &perLayer, auto &out) {
    out.clear();
    if (perLayer.size() != size_t(kFoldedLayers))
      return; // a model without layer hints: nothing per layer
    for (int64_t layer = 0; layer < numLayers; ++layer)
      out.push_back(perLayer[foldedLayer(layer)]);
  };
  unfold(folded.stageOfLayer, whole->stageOfLayer);
  unfold(folded.unitCompute, whole->unitCompute);
  unfold(folded.unitCollective, whole->unitCollective);
  unfold(folded.stepCompute, whole->stepCompute);
  unfold(folded.stepCollective, whole->stepCollective);
  unfold(folded.parameterBytes, whole->parameterBytes);
  unfold(folded.persistentBytes, whole->persistentBytes);
  unfold(folded.stashBytes, whole->stashBytes);
  unfold(folded.dataBytes, whole->dataBytes);
  return whole;
}

//===----------------------------------------------------------------------===//
// The order of the units (dist-pipeline's, from its own definition)
//===----------------------------------------------------------------------===//

namespace {

using mlir::dist::PipelineUnit;

mlir::dist::PipelineSchedule getPipelineSchedule(Schedule schedule) {
  return schedule == Schedule::GPipe ? mlir::dist::PipelineSchedule::GPipe
                                     : mlir::dist::PipelineSchedule::OneFOneB;
}

/// The order dist-pipeline gives the units of `m` microbatches: the pass's
/// PipelineUnitGraph rebuilt from the template, merged by the pass's
/// mergePipelineUnits. Durations are the unsplit ops' FLOPs + 1, summed in
/// the pass's order (the template's) so that ties break the same way.
StatusOr<llvm::SmallVector<PipelineUnit>>
orderUnits(const PipelineTemplate &stage, int64_t m, Schedule schedule) {
  // The template's stages are the virtual stages (model chunks) when
  // interleaved: chunk c runs on stage c mod pp.
  const int64_t numStages = stage.numStages;
  const int64_t pp = numStages / stage.interleave;
  mlir::dist::PipelineUnitGraph graph;
  graph.numStages = pp;
  graph.interleave = stage.interleave;
  graph.numMicrobatches = m;
  graph.sequences.resize(pp);
  graph.inputs.resize(numStages);
  graph.durations.assign(numStages, {0, 0, 0});
  std::vector<std::array<bool, 3>> hasKind(numStages, {false, false, false});
  for (const TemplateTask &t : stage.tasks) {
    bool unit0 = t.role == TaskRole::Unit && t.microbatch == 0;
    bool epilogue = t.role == TaskRole::Epilogue;
    if (!unit0 && !epilogue)
      continue;
    int64_t s = t.stage;
    UnitKind kind = epilogue ? UnitKind::Epilogue : t.kind;
    hasKind[s][size_t(kind)] = true;
    if (!t.counted)
      continue;
    // The pass costs the op at the replica's whole batch: m microbatches.
    graph.durations[s][size_t(kind)] +=
        epilogue ? t.opFlops + 1 : t.opFlops * double(m) + 1;
    auto &inputs = graph.inputs[s][size_t(kind)];
    for (uint32_t dep : t.deps) {
      const TemplateTask &d = stage.tasks[dep];
      if (d.stage == s)
        continue;
      std::pair<int64_t, UnitKind> input;
      if (epilogue) {
        if (d.role != TaskRole::Epilogue && d.role != TaskRole::Unit)
          continue;
        input = {d.stage, UnitKind::Epilogue};
      } else if (d.role == TaskRole::Unit) {
        input = {d.stage, d.kind};
      } else {
        continue;
      }
      if (!llvm::is_contained(inputs, input))
        inputs.push_back(input);
    }
  }
  for (int64_t s = 0; s < numStages; ++s) {
    graph.durations[s][size_t(UnitKind::Forward)] /= double(m);
    graph.durations[s][size_t(UnitKind::Backward)] /= double(m);
  }
  for (int64_t s = 0; s < pp; ++s) {
    if (stage.interleave == 1) {
      graph.sequences[s] =
          mlir::dist::getStageUnits(getPipelineSchedule(schedule), pp, s, m,
                                    hasKind[s][size_t(UnitKind::Forward)],
                                    hasKind[s][size_t(UnitKind::Backward)],
                                    hasKind[s][size_t(UnitKind::Epilogue)]);
      continue;
    }
    graph.sequences[s] = mlir::dist::getStageUnits(
        getPipelineSchedule(schedule), pp, s, m, stage.interleave,
        [&](int64_t virtualStage, UnitKind kind) {
          return hasKind[virtualStage][size_t(kind)];
        });
  }

  FailureOr<llvm::SmallVector<PipelineUnit>> merged =
      mlir::dist::mergePipelineUnits(graph);
  if (failed(merged))
    return Status::error(
        "the " + std::string(scheduleName(schedule)) +
        " schedule cannot run this cut: a stage waits for a value that "
        "its own schedule produces later");
  return std::move(*merged);
}

//===----------------------------------------------------------------------===//
// Composition
//===----------------------------------------------------------------------===//

class Composer {
public:
  Composer(const PipelineTemplate &stage, int64_t m,
           const cost::CostModel &model, sim::Program &program)
      : tmpl(stage), m(m), m0(stage.numMicrobatches), model(model),
        program(program) {}

  Status run(Schedule schedule);
  Status checkResolved() const;

private:
  sim::DeviceSetId set(sim::DeviceSetId id);
  sim::GroupingId grouping(sim::GroupingId id);
  sim::LabelId label(sim::LabelId id);
  /// The composed task of template task `id` read by `consumer` in composed
  /// microbatch `k`, which replays template microbatch `templateK` (-1: a
  /// once-per-step consumer).
  sim::TaskId resolve(uint32_t id, uint32_t consumer, int64_t k,
                      int64_t templateK);
  sim::TaskId emit(uint32_t id, int64_t k, int64_t templateK);
  /// The template microbatch composed microbatch `k` replays: the first
  /// replays the first, the last the last (with ZeRO's once-per-step work
  /// inside it when the template has three or more), the others the second.
  int64_t getTemplateMicrobatch(int64_t k) const {
    if (m == m0 || k == 0)
      return k;
    return k == m - 1 ? m0 - 1 : 1;
  }
  /// The composed task of template task `id` (of template microbatch j) in
  /// composed microbatch `source`, read by `consumer` of composed microbatch
  /// `k` replaying `templateK`; kNoId when no replayed task is it.
  sim::TaskId getInstance(uint32_t id, int64_t source, uint32_t consumer,
                          int64_t k, int64_t templateK) const;
  /// The task at `id`'s place in its unit of template microbatch `mb`, when
  /// the two units are alike (same length, same label there); else kNoId.
  uint32_t getCounterpart(uint32_t id, int64_t mb) const;

  const PipelineTemplate &tmpl;
  const int64_t m, m0;
  const cost::CostModel &model;
  sim::Program &program;
  std::vector<sim::DeviceSetId> sets;
  std::vector<sim::GroupingId> groupings;
  std::vector<sim::LabelId> labels;
  /// Once-per-step tasks by template task; unit tasks by (microbatch, task).
  std::vector<sim::TaskId> once;
  std::vector<sim::TaskId> perMicrobatch;
  /// A deque: a deeper emit's emplace_back must not move the lists of the
  /// emits still filling theirs.
  std::deque<std::vector<sim::TaskId>> depScratch;
  size_t emitDepth = 0;
  /// A read composition cannot place (run fails): replaying the template
  /// microbatches would not give the program dist-parallelize builds.
  bool unresolved = false;
  /// The template's tasks of each unit (stage, kind, microbatch; epilogues
  /// with microbatch -1), in the template's order, and each task's place in
  /// its unit.
  std::map<std::tuple<int64_t, UnitKind, int64_t>, std::vector<uint32_t>> units;
  std::vector<uint32_t> placeInUnit;
  std::vector<uint32_t> epilogue;
};

sim::DeviceSetId Composer::set(sim::DeviceSetId id) {
  if (id == sim::kNoId)
    return id;
  if (sets[id] == sim::kNoId)
    sets[id] = program.addDeviceSet(tmpl.program.deviceSet(id));
  return sets[id];
}

sim::GroupingId Composer::grouping(sim::GroupingId id) {
  if (groupings[id] == sim::kNoId)
    groupings[id] = program.addGrouping(set(tmpl.program.groupingSet(id)),
                                        tmpl.program.grouping(id));
  return groupings[id];
}

sim::LabelId Composer::label(sim::LabelId id) {
  if (labels[id] == sim::kNoId)
    labels[id] = program.addLabel(tmpl.program.label(id));
  return labels[id];
}

sim::TaskId Composer::resolve(uint32_t id, uint32_t consumer, int64_t k,
                              int64_t templateK) {
  const TemplateTask &t = tmpl.tasks[id];
  if (t.role != TaskRole::Unit) {
    if (once[id] == sim::kNoId)
      once[id] = emit(id, -1, -1); // a step value, built before its first user
    return once[id];
  }
  if (m == m0) // the template itself
    return perMicrobatch[size_t(t.microbatch) * tmpl.tasks.size() + id];
  // Template microbatch j read from template microbatch templateK: composed
  // microbatch k - (templateK - j); the epilogue reads the last ones.
  int64_t source =
      templateK < 0 ? m - (m0 - t.microbatch) : k - (templateK - t.microbatch);
  return getInstance(id, source, consumer, k, templateK);
}

sim::TaskId Composer::getInstance(uint32_t id, int64_t source,
                                  uint32_t consumer, int64_t k,
                                  int64_t templateK) const {
  const size_t n = tmpl.tasks.size();
  const int64_t j = tmpl.tasks[id].microbatch;
  const int64_t replayed = getTemplateMicrobatch(source);
  if (replayed == j)
    return perMicrobatch[size_t(source) * n + id];
  // The middle microbatches of the template are alike: the one replayed
  // holds the same task at the same place.
  auto isMiddle = [&](int64_t mb) { return mb >= 1 && mb <= m0 - 2; };
  if (isMiddle(j) && isMiddle(replayed)) {
    uint32_t twin = getCounterpart(id, replayed);
    return twin == sim::kNoId ? sim::kNoId
                              : perMicrobatch[size_t(source) * n + twin];
  }
  // An accumulation of a middle microbatch reads the first microbatch's
  // value in the template; composed after more than one, it reads the same
  // accumulation's result of the previous microbatch (the running sum).
  // Composition checks that no other read lands here (unresolved).
  if (j == 0 && templateK == 1 && source == k - 1)
    return perMicrobatch[size_t(source) * n + consumer];
  return sim::kNoId;
}

uint32_t Composer::getCounterpart(uint32_t id, int64_t mb) const {
  const TemplateTask &t = tmpl.tasks[id];
  auto own = units.find({t.stage, t.kind, t.microbatch});
  auto other = units.find({t.stage, t.kind, mb});
  if (own == units.end() || other == units.end() ||
      own->second.size() != other->second.size())
    return sim::kNoId;
  uint32_t twin = other->second[placeInUnit[id]];
  return tmpl.tasks[twin].task.label == t.task.label ? twin : sim::kNoId;
}

sim::TaskId Composer::emit(uint32_t id, int64_t k, int64_t templateK) {
  const TemplateTask &t = tmpl.tasks[id];
  // One dependency list per depth of emit (resolve emits a step value
  // before its first user), reused: not an allocation per task.
  if (emitDepth == depScratch.size())
    depScratch.emplace_back();
  std::vector<sim::TaskId> &taskDeps = depScratch[emitDepth++];
  taskDeps.clear();
  for (uint32_t dep : t.deps)
    if (sim::TaskId source = resolve(dep, id, k, templateK);
        source != sim::kNoId)
      taskDeps.push_back(source);
    else
      unresolved = true;
  --emitDepth;
  const sim::Task &task = t.task;
  // A unit's function result (the loss) is returned from the last
  // microbatch only; its gradient buffers are the template's residents.
  bool lastInstance = t.role != TaskRole::Unit ||
                      (templateK == m0 - 1 && k == m - 1) ||
                      (templateK < m0 - 1 && k == templateK && m == m0);
  int64_t resultBytes =
      task.resultBytes + (lastInstance ? 0 : t.gradientBufferBytes);
  sim::TaskId emitted = sim::kNoId;
  switch (task.kind) {
  case sim::TaskKind::Compute: {
    double duration = task.durationS;
    if (t.sliceWork && m != m0) {
      // The slice reads the whole data argument: m microbatches, not m0.
      cost::OpWork work = *t.sliceWork;
      work.bytesRead += t.sliceSourceBytes / m0 * m - t.sliceSourceBytes;
      duration = model.computeTime(work);
    }
    emitted = program.addCompute(label(task.label), set(task.devices), duration,
                                 task.flops, resultBytes, taskDeps);
    break;
  }
  case sim::TaskKind::Collective:
    emitted = program.addCollective(label(task.label), set(task.devices),
                                    grouping(task.grouping), task.durationS,
                                    task.commBytes, resultBytes, taskDeps,
                                    set(task.target));
    program.setStream(emitted, task.stream);
    break;
  case sim::TaskKind::Send:
    emitted =
        program.addSend(label(task.label), set(task.devices), set(task.target),
                        task.durationS, resultBytes, taskDeps);
    break;
  }
  if (task.liveOut && lastInstance)
    program.markLiveOut(emitted);
  program.setMemoryKind(emitted, task.memoryKind);
  return emitted;
}

Status Composer::run(Schedule schedule) {
  const size_t n = tmpl.tasks.size();
  sets.assign(tmpl.program.numDeviceSets(), sim::kNoId);
  groupings.assign(tmpl.program.numGroupings(), sim::kNoId);
  labels.assign(tmpl.program.numLabels(), sim::kNoId);
  once.assign(n, sim::kNoId);
  perMicrobatch.assign(n * size_t(m), sim::kNoId);
  size_t unitTasks = 0, unitDeps = 0, onceDeps = 0;
  for (const TemplateTask &t : tmpl.tasks) {
    bool unit = t.role == TaskRole::Unit;
    unitTasks += unit;
    (unit ? unitDeps : onceDeps) += t.deps.size();
  }
  program.reserve(n - unitTasks + unitTasks / size_t(m0) * size_t(m),
                  onceDeps + unitDeps / size_t(m0) * size_t(m));

  for (const TemplateResident &resident : tmpl.residents)
    program.addResident(set(resident.devices),
                        resident.isData ? resident.bytes / m0 * m
                                        : resident.bytes,
                        resident.kind);
  if (m == m0) {
    // The template is the whole program: replay it as it is.
    for (uint32_t id = 0; id < n; ++id) {
      const TemplateTask &t = tmpl.tasks[id];
      if (t.role != TaskRole::Unit) {
        if (once[id] == sim::kNoId)
          once[id] = emit(id, -1, -1);
        continue;
      }
      perMicrobatch[size_t(t.microbatch) * n + id] =
          emit(id, t.microbatch, t.microbatch);
    }
    return checkResolved();
  }
  DISTIR_ASSIGN_OR_RETURN(llvm::SmallVector<PipelineUnit> order,
                          orderUnits(tmpl, m, schedule));

  placeInUnit.assign(n, 0);
  for (uint32_t id = 0; id < n; ++id) {
    const TemplateTask &t = tmpl.tasks[id];
    if (t.role == TaskRole::Unit) {
      std::vector<uint32_t> &unit = units[{t.stage, t.kind, t.microbatch}];
      placeInUnit[id] = uint32_t(unit.size());
      unit.push_back(id);
    } else if (t.role == TaskRole::Epilogue) {
      units[{t.stage, UnitKind::Epilogue, -1}].push_back(id);
    }
  }
  for (uint32_t id = 0; id < n; ++id)
    if (tmpl.tasks[id].role == TaskRole::Prologue)
      once[id] = emit(id, -1, -1);
  for (const PipelineUnit &unit : order) {
    if (unit.stage == mlir::dist::kAllStages) {
      // Every stage's epilogue, in the template's order.
      for (uint32_t id = 0; id < n; ++id)
        if (tmpl.tasks[id].role == TaskRole::Epilogue && once[id] == sim::kNoId)
          once[id] = emit(id, -1, -1);
      continue;
    }
    if (unit.kind == UnitKind::Epilogue) {
      // Interleaved, the chunks of a stage share its devices and the
      // partitioner interleaves their epilogues (each chunk's gradient
      // reductions first): the first chunk epilogue of a stage emits every
      // chunk's of that stage, in the template's order.
      const int64_t pp = tmpl.numStages / tmpl.interleave;
      for (int64_t chunk = unit.stage % pp; chunk < tmpl.numStages;
           chunk += pp) {
        for (uint32_t id : units[{chunk, UnitKind::Epilogue, -1}])
          if (once[id] == sim::kNoId)
            epilogue.push_back(id);
      }
      llvm::sort(epilogue);
      for (uint32_t id : epilogue)
        if (once[id] == sim::kNoId)
          once[id] = emit(id, -1, -1);
      epilogue.clear();
      continue;
    }
    // The first microbatch has no running sum to add to, the later ones
    // all do; with three template microbatches the last one also does the
    // step work placed in it.
    int64_t templateK = getTemplateMicrobatch(unit.microbatch);
    for (uint32_t id : units[{unit.stage, unit.kind, templateK}])
      perMicrobatch[size_t(unit.microbatch) * n + id] =
          emit(id, unit.microbatch, templateK);
  }
  return checkResolved();
}

Status Composer::checkResolved() const {
  if (!unresolved)
    return Status::success();
  return Status::error(
      "internal error: composing " + std::to_string(m) +
      " microbatches from a template of " + std::to_string(m0) +
      " reads a value no replayed microbatch computes (build it whole with "
      "--build-all)");
}

} // namespace

Status composeProgram(const PipelineTemplate &stage, int64_t microbatches,
                      Schedule schedule, const cost::CostModel &model,
                      sim::Program &program) {
  // A template of two or more microbatches (first, middle ones, last)
  // composes any larger count; one of one microbatch only itself.
  if (stage.numMicrobatches > microbatches ||
      (stage.numMicrobatches < 2 && microbatches != stage.numMicrobatches))
    return Status::error(
        "a template of " + std::to_string(stage.numMicrobatches) +
        " microbatches cannot give " + std::to_string(microbatches));
  return Composer(stage, microbatches, model, program).run(schedule);
}

/// The microbatch counts a long pipeline is simulated at: past the warm-up
/// (P - 1 microbatches), one whole round of P microbatches apart so that a
/// period spanning several microbatches (stages of unequal speed) is
/// measured whole, three of them so that the growth is seen to be linear.
static std::array<int64_t, 3>
getExtrapolationPoints(const PipelineTemplate &stage) {
  const int64_t p = stage.numStages;
  return {2 * p, 3 * p, 4 * p};
}

bool isExtrapolated(const PipelineTemplate &stage,
                    const Configuration &config) {
  std::array<int64_t, 3> points = getExtrapolationPoints(stage);
  return stage.numMicrobatches < config.microbatches &&
         stage.numMicrobatches <= points[0] &&
         points[0] + points[1] + points[2] < config.microbatches;
}

/// The simulation of the composed program of `microbatches` microbatches.
static StatusOr<sim::SimResult> simulateComposed(const PipelineTemplate &stage,
                                                 int64_t microbatches,
                                                 Schedule schedule,
                                                 const cost::CostModel &model,
                                                 int64_t &numTasks) {
  sim::Program program;
  DISTIR_RETURN_IF_ERROR(
      composeProgram(stage, microbatches, schedule, model, program));
  sim::SimOptions options;
  options.topOps = 0;
  numTasks += int64_t(program.numTasks());
  return sim::simulate(program, options);
}

/// How far from a line three values at equally spaced microbatch counts
/// may be (second difference over the last value) to be extrapolated: on
/// the searches of test/Search/extrapolate.test and GPT-3 175B the error at
/// m stayed within 60 times it (GPT-3 175B: at most 2e-6, error 2.4e-4 at
/// most); past it the pipeline has not settled and is simulated in full.
static constexpr double kLinearityTolerance = 1e-5;

static bool isLinear(double a, double b, double c) {
  return std::abs(c - 2 * b + a) <= kLinearityTolerance * std::abs(c);
}

/// The step time and peak at `config.microbatches` from simulations at three
/// shorter counts, when step time and every device class's peak grow
/// linearly over them (the schedule has reached its period); nullopt
/// otherwise. Per device class, since the class at the peak may change.
static StatusOr<std::optional<Evaluation>>
extrapolate(const PipelineTemplate &stage, const Configuration &config,
            const cost::CostModel &model) {
  std::array<int64_t, 3> points = getExtrapolationPoints(stage);
  Evaluation evaluation;
  evaluation.config = config;
  evaluation.method = Method::Extrapolated;
  std::array<sim::SimResult, 3> results;
  for (size_t i = 0; i < points.size(); ++i) {
    StatusOr<sim::SimResult> result = simulateComposed(
        stage, points[i], config.schedule, model, evaluation.numTasks);
    if (!result)
      return result.status();
    results[i] = std::move(*result);
  }
  const double along =
      double(config.microbatches - points[2]) / double(points[2] - points[1]);
  auto at = [&](double b, double c) { return c + (c - b) * along; };
  if (!isLinear(results[0].stepTimeS, results[1].stepTimeS,
                results[2].stepTimeS))
    return std::optional<Evaluation>();
  evaluation.stepTimeS = at(results[1].stepTimeS, results[2].stepTimeS);
  for (size_t c = 0; c < results[0].classes.size(); ++c) {
    std::array<double, 3> peaks;
    for (size_t i = 0; i < points.size(); ++i) {
      if (results[i].classes.size() != results[0].classes.size() ||
          results[i].classes[c].devices != results[0].classes[c].devices)
        return std::optional<Evaluation>();
      peaks[i] = double(results[i].classes[c].peakMemoryBytes);
    }
    if (!isLinear(peaks[0], peaks[1], peaks[2]))
      return std::optional<Evaluation>();
    evaluation.peakMemoryBytes =
        std::max(evaluation.peakMemoryBytes,
                 int64_t(std::llround(at(peaks[1], peaks[2]))));
  }
  return std::optional<Evaluation>(std::move(evaluation));
}

StatusOr<Evaluation> evaluateComposed(const PipelineTemplate &stage,
                                      const Configuration &config,
                                      const cost::CostModel &model,
                                      bool extrapolateLong) {
  if (extrapolateLong && isExtrapolated(stage, config)) {
    StatusOr<std::optional<Evaluation>> estimate =
        extrapolate(stage, config, model);
    if (!estimate)
      return estimate.status();
    if (*estimate)
      return std::move(**estimate);
  }
  Evaluation evaluation;
  evaluation.config = config;
  evaluation.method = stage.numMicrobatches == config.microbatches
                          ? Method::Exact
                          : Method::Composed;
  StatusOr<sim::SimResult> result = simulateComposed(
      stage, config.microbatches, config.schedule, model, evaluation.numTasks);
  if (!result)
    return result.status();
  evaluation.stepTimeS = result->stepTimeS;
  evaluation.peakMemoryBytes = result->peakMemoryBytes;
  return evaluation;
}

double getStepTimeLowerBound(const PipelineTemplate &replica,
                             llvm::ArrayRef<int64_t> stageOfLayer,
                             const Configuration &config) {
  std::vector<double> compute(config.pp, 0), collective(config.pp, 0);
  const double m = double(config.microbatches) *
                   double(config.getMicrobatchSize()) /
                   double(replica.microbatchSize);
  for (size_t layer = 0; layer < replica.unitCompute.size(); ++layer) {
    if (layer >= stageOfLayer.size() || stageOfLayer[layer] < 0 ||
        stageOfLayer[layer] >= config.pp)
      continue; // a layer the bound cannot place adds nothing to it
    int64_t s = stageOfLayer[layer];
    compute[s] += m * replica.unitCompute[layer] + replica.stepCompute[layer];
    collective[s] +=
        m * replica.unitCollective[layer] + replica.stepCollective[layer];
  }
  double bound = 0;
  for (int64_t s = 0; s < config.pp; ++s)
    bound = std::max({bound, compute[s], collective[s]});
  return bound;
}

/// A layer's share of getMemoryLowerBound's terms, at the configuration's
/// microbatch size (rounded down per layer: at most the rounded sums).
struct LayerMemory {
  int64_t resident; // parameters, persistent state, data of every microbatch
  int64_t stash;    // per microbatch in flight
};

static std::vector<LayerMemory> getLayerMemory(const PipelineTemplate &replica,
                                               const Configuration &config) {
  // Per microbatch of the configuration: the template's per-sample sizes.
  auto scale = [&](int64_t bytes) {
    return int64_t(double(bytes) * double(config.getMicrobatchSize()) /
                   double(replica.microbatchSize));
  };
  std::vector<LayerMemory> layers;
  for (size_t layer = 0; layer < replica.stashBytes.size(); ++layer)
    layers.push_back({replica.persistentBytes[layer] +
                          replica.parameterBytes[layer] +
                          scale(replica.dataBytes[layer]) * config.microbatches,
                      scale(replica.stashBytes[layer])});
  return layers;
}

int64_t getMemoryLowerBound(const PipelineTemplate &replica,
                            llvm::ArrayRef<int64_t> stageOfLayer,
                            const Configuration &config) {
  std::vector<int64_t> parameters(config.pp, 0), persistent(config.pp, 0),
      stash(config.pp, 0), data(config.pp, 0);
  for (size_t layer = 0; layer < replica.stashBytes.size(); ++layer) {
    if (layer >= stageOfLayer.size() || stageOfLayer[layer] < 0 ||
        stageOfLayer[layer] >= config.pp)
      continue;
    int64_t s = stageOfLayer[layer];
    parameters[s] += replica.parameterBytes[layer];
    persistent[s] += replica.persistentBytes[layer];
    stash[s] += replica.stashBytes[layer];
    data[s] += replica.dataBytes[layer];
  }
  // Per microbatch of the configuration: the template's per-sample sizes.
  auto scale = [&](int64_t bytes) {
    return int64_t(double(bytes) * double(config.getMicrobatchSize()) /
                   double(replica.microbatchSize));
  };
  int64_t bound = 0;
  for (int64_t s = 0; s < config.pp; ++s) {
    int64_t inFlight = getMicrobatchesInFlight(config, s);
    int64_t microbatchStash = scale(stash[s]);
    // Parameters and optimizer state are updated in place; the gradient
    // buffers (at least the parameters' bytes) are held for the whole step,
    // also while the stage's first backward waits with its microbatches'
    // stashes.
    bound = std::max(bound, persistent[s] + parameters[s] +
                                scale(data[s]) * config.microbatches +
                                inFlight * microbatchStash);
  }
  return bound;
}

int64_t getCutFreeMemoryLowerBound(const PipelineTemplate &replica,
                                   const Configuration &config) {
  std::vector<LayerMemory> layers = getLayerMemory(replica, config);
  // Whether every layer fits in order within `limit` per stage: each stage
  // takes as many layers as fit (optimal, since a stage's bound only grows
  // with its layers, so ending a stage later never hurts the next ones).
  auto fits = [&](int64_t limit) {
    size_t layer = 0;
    for (int64_t s = 0; s < config.pp && layer < layers.size(); ++s) {
      int64_t inFlight = getMicrobatchesInFlight(config, s);
      int64_t resident = 0, stash = 0;
      for (; layer < layers.size(); ++layer) {
        int64_t nextResident = resident + layers[layer].resident;
        int64_t nextStash = stash + layers[layer].stash;
        if (nextResident + inFlight * nextStash > limit)
          break;
        resident = nextResident;
        stash = nextStash;
      }
    }
    return layer == layers.size();
  };
  int64_t low = 0, high = 0; // fits(high); not fits(low - 1)
  for (const LayerMemory &layer : layers)
    high += layer.resident +
            getMicrobatchesInFlight(config, /*stage=*/0) * layer.stash;
  while (low < high) {
    int64_t mid = low + (high - low) / 2;
    if (fits(mid))
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

} // namespace search
} // namespace distir
