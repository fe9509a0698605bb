//===- Compose.cpp - Pipelined programs composed from one stage template --===//

#include "distir/Search/Compose.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Simulator/Lowering.h"
#include "distir/Simulator/Simulator.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

using namespace mlir;

namespace distir {
namespace search {

//===----------------------------------------------------------------------===//
// Extraction
//===----------------------------------------------------------------------===//

static std::optional<Phase> parsePhase(Operation *op) {
  auto phase = op->getAttrOfType<StringAttr>("dist.phase");
  if (!phase)
    return std::nullopt;
  if (phase.getValue() == "forward")
    return Phase::Forward;
  if (phase.getValue() == "backward")
    return Phase::Backward;
  return Phase::Epilogue;
}

std::optional<std::shared_ptr<const StageTemplate>>
extractStageTemplate(func::FuncOp func, const cost::CostModel &model,
                     std::string &error) {
  auto stage = std::make_shared<StageTemplate>();
  FailureOr<sim::LoweringResult> lowered =
      sim::lowerToProgram(func, model, stage->program);
  if (failed(lowered))
    return std::nullopt; // the diagnostic is the error
  stage->numDevices = lowered->numDevicesUsed;
  const sim::Program &program = stage->program;

  std::vector<Operation *> opOfTask(program.numTasks(), nullptr);
  for (auto [op, id] : lowered->opTasks)
    opOfTask[id] = op;
  stage->tasks.resize(program.numTasks());
  std::vector<std::vector<uint32_t>> consumers(program.numTasks());
  for (sim::TaskId id = 0; id < program.numTasks(); ++id) {
    TemplateTask &t = stage->tasks[id];
    t.task = program.task(id);
    t.deps.assign(program.getDeps().begin() + t.task.depBegin,
                  program.getDeps().begin() + t.task.depEnd);
    for (uint32_t dep : t.deps)
      consumers[dep].push_back(id);
    Operation *op = opOfTask[id];
    if (t.task.kind == sim::TaskKind::Send) {
      error = "the stage template has a send (" +
              op->getName().getStringRef().str() + ")";
      return std::nullopt;
    }
    // Ops the transforms inserted without hints follow their first operand.
    auto layer = op->getAttrOfType<IntegerAttr>(dist::DistDialect::kLayerAttrName);
    std::optional<Phase> phase = parsePhase(op);
    const TemplateTask *first = t.deps.empty() ? nullptr : &stage->tasks[t.deps[0]];
    t.layer = layer ? std::max<int64_t>(0, layer.getInt())
                    : (first ? first->layer : 0);
    t.phase = phase ? *phase : (first ? first->phase : Phase::Forward);
    if (t.task.kind == sim::TaskKind::Collective) {
      auto collective = cast<dist::CollectiveOpInterface>(op);
      t.collective =
          *cost::parseCollectiveKind(op->getName().stripDialect());
      t.payloadBytes = collective.getPayloadBytes();
    }
  }

  // Collectives that only feed the epilogue (gradient reductions) or only
  // the function's results (the loss reduced over dp) run once per step on
  // the sum over the microbatches; the partitioner puts them right before
  // their consumer, i.e. in the epilogue or at the end.
  for (sim::TaskId id = program.numTasks(); id-- > 0;) {
    TemplateTask &t = stage->tasks[id];
    if (t.phase == Phase::Epilogue || t.task.kind != sim::TaskKind::Collective)
      continue;
    bool feedsEpilogue =
        !consumers[id].empty() &&
        llvm::all_of(consumers[id], [&](uint32_t user) {
          return stage->tasks[user].phase == Phase::Epilogue;
        });
    bool onlyReturned = consumers[id].empty() && t.task.liveOut;
    if (feedsEpilogue || onlyReturned)
      t.phase = Phase::Epilogue;
  }
  // What sums over the microbatches, and the cost of the dist.add that sums
  // it (asked of the op itself, built next to the value and erased).
  OpBuilder builder(func.getContext());
  for (sim::TaskId id = 0; id < program.numTasks(); ++id) {
    TemplateTask &t = stage->tasks[id];
    if (t.phase == Phase::Epilogue)
      continue;
    t.accumulated = t.task.liveOut ||
                    llvm::any_of(consumers[id], [&](uint32_t user) {
                      return stage->tasks[user].phase == Phase::Epilogue;
                    });
    Operation *op = opOfTask[id];
    if (!t.accumulated || op->getNumResults() != 1)
      continue;
    Value value = op->getResult(0);
    builder.setInsertionPointAfter(op);
    auto add = dist::AddOp::create(builder, op->getLoc(), value, value);
    t.accumulateDurationS = sim::estimateOpTime(add, model).value_or(0);
    t.accumulateFlops = cast<dist::DistOpInterface>(add.getOperation()).getFlops();
    add->erase();
  }

  const auto &residents = program.getResidents();
  for (BlockArgument arg : func.getArguments()) {
    TemplateResident resident;
    std::tie(resident.devices, resident.bytes) = residents[arg.getArgNumber()];
    auto role = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "dist.role");
    resident.isData = role && role.getValue() == "data";
    Operation *first = nullptr;
    for (Operation *user : arg.getUsers())
      if (!first || user->isBeforeInBlock(first))
        first = user;
    if (first)
      if (auto layer = first->getAttrOfType<IntegerAttr>(
              dist::DistDialect::kLayerAttrName))
        resident.layer = std::max<int64_t>(0, layer.getInt());
    stage->residents.push_back(resident);
  }
  return std::shared_ptr<const StageTemplate>(std::move(stage));
}

//===----------------------------------------------------------------------===//
// Composition
//===----------------------------------------------------------------------===//

namespace {

enum class UnitKind : uint8_t { Forward, Backward, Epilogue };

struct Unit {
  int64_t stage;
  UnitKind kind;
  int64_t microbatch; // -1 for the epilogue
};

class Composer {
public:
  Composer(const StageTemplate &stage, const ModelFacts &facts,
           const Configuration &config, const cost::CostModel &model,
           sim::Program &program)
      : tmpl(stage), config(config), model(model), program(program),
        numStages(config.pp), numMicrobatches(config.microbatches),
        stride(config.dp * config.tp), stages(cutStages(facts, config.pp)) {
    stageOfLayer.assign(facts.layers.size(), 0);
    for (int64_t s = 0; s < numStages; ++s)
      for (int64_t l = stages[s].first; l < stages[s].second; ++l)
        stageOfLayer[l] = s;
  }

  bool run(std::string &error);

private:
  int64_t stageOf(uint32_t task) const {
    int64_t layer = tmpl.tasks[task].layer;
    return layer < int64_t(stageOfLayer.size()) ? stageOfLayer[layer]
                                                : numStages - 1;
  }
  sim::DeviceSetId shiftedSet(sim::DeviceSetId set, int64_t stage);
  sim::GroupingId shiftedGrouping(sim::GroupingId grouping, int64_t stage);
  sim::LabelId label(sim::LabelId templateLabel);
  double collectiveDuration(const TemplateTask &t, int64_t stage);
  double sendDuration(sim::DeviceSetId from, sim::DeviceSetId to, int64_t bytes);

  bool emitUnit(const Unit &unit, std::string &error);
  bool emitTask(uint32_t id, int64_t microbatch, std::string &error);
  bool emitEpilogueTask(uint32_t id, std::string &error);
  void emitSends(uint32_t id, int64_t microbatch, sim::TaskId produced);
  bool resolveDep(uint32_t dep, int64_t consumerStage, int64_t microbatch,
                  bool forEpilogue, std::string &error);
  bool orderUnits(std::vector<Unit> &order, std::string &error);

  uint64_t instanceKey(uint32_t task, int64_t microbatch) const {
    return uint64_t(microbatch) * tmpl.tasks.size() + task;
  }

  const StageTemplate &tmpl;
  const Configuration &config;
  const cost::CostModel &model;
  sim::Program &program;
  const int64_t numStages, numMicrobatches, stride;
  std::vector<std::pair<int64_t, int64_t>> stages;
  std::vector<int64_t> stageOfLayer;

  /// Template tasks of each stage by phase, in template order.
  std::vector<std::array<std::vector<uint32_t>, 3>> tasksOf;
  /// Stages other than its own that read each task per microbatch.
  std::vector<std::vector<int64_t>> readers;

  std::vector<sim::TaskId> instances;  // [microbatch][task]
  std::unordered_map<uint64_t, sim::TaskId> sends; // (instance, stage)
  std::vector<sim::TaskId> accumulation; // running sum per task
  std::vector<sim::TaskId> epilogueInstance;
  std::vector<sim::TaskId> deps;

  std::map<std::pair<sim::DeviceSetId, int64_t>, sim::DeviceSetId> sets;
  std::map<std::pair<sim::GroupingId, int64_t>, sim::GroupingId> groupings;
  std::map<std::tuple<sim::GroupingId, int64_t, cost::CollectiveKind, int64_t>,
           double>
      collectiveTimes;
  std::map<std::tuple<sim::DeviceSetId, sim::DeviceSetId, int64_t>, double>
      sendTimes;
  std::vector<sim::LabelId> labels;
  sim::LabelId sendLabel = sim::kNoId, addLabel = sim::kNoId;
};

sim::DeviceSetId Composer::shiftedSet(sim::DeviceSetId set, int64_t stage) {
  auto [it, inserted] = sets.try_emplace({set, stage}, 0);
  if (inserted) {
    std::vector<int64_t> devices = tmpl.program.deviceSet(set);
    for (int64_t &device : devices)
      device += stage * stride;
    it->second = program.addDeviceSet(devices);
  }
  return it->second;
}

sim::GroupingId Composer::shiftedGrouping(sim::GroupingId grouping,
                                          int64_t stage) {
  auto [it, inserted] = groupings.try_emplace({grouping, stage}, 0);
  if (inserted) {
    std::vector<std::vector<int64_t>> groups = tmpl.program.grouping(grouping);
    for (auto &group : groups)
      for (int64_t &device : group)
        device += stage * stride;
    it->second = program.addGrouping(
        shiftedSet(tmpl.program.groupingSet(grouping), stage), groups);
  }
  return it->second;
}

sim::LabelId Composer::label(sim::LabelId templateLabel) {
  if (labels.empty())
    labels.assign(tmpl.program.numLabels(), sim::kNoId);
  if (labels[templateLabel] == sim::kNoId)
    labels[templateLabel] = program.addLabel(tmpl.program.label(templateLabel));
  return labels[templateLabel];
}

double Composer::collectiveDuration(const TemplateTask &t, int64_t stage) {
  auto key = std::make_tuple(t.task.grouping, stage, t.collective, t.payloadBytes);
  auto [it, inserted] = collectiveTimes.try_emplace(key, 0.0);
  if (inserted) {
    // As the lowering costs a collective: its slowest group.
    double duration = 0;
    for (std::vector<int64_t> group : tmpl.program.grouping(t.task.grouping)) {
      for (int64_t &device : group)
        device += stage * stride;
      duration = std::max(duration, model.collectiveTime(t.collective,
                                                         t.payloadBytes, group));
    }
    it->second = duration;
  }
  return it->second;
}

double Composer::sendDuration(sim::DeviceSetId from, sim::DeviceSetId to,
                              int64_t bytes) {
  auto [it, inserted] = sendTimes.try_emplace({from, to, bytes}, 0.0);
  if (inserted) {
    const std::vector<int64_t> &src = program.deviceSet(from);
    const std::vector<int64_t> &dst = program.deviceSet(to);
    double duration = 0;
    for (size_t i = 0; i < src.size() && i < dst.size(); ++i)
      duration = std::max(duration, model.sendTime(bytes, src[i], dst[i]));
    it->second = duration;
  }
  return it->second;
}

void Composer::emitSends(uint32_t id, int64_t microbatch, sim::TaskId produced) {
  const TemplateTask &t = tmpl.tasks[id];
  int64_t from = stageOf(id);
  for (int64_t to : readers[id]) {
    sim::DeviceSetId src = shiftedSet(t.task.resultSet(), from);
    sim::DeviceSetId dst = shiftedSet(t.task.resultSet(), to);
    sim::TaskId send = program.addSend(
        sendLabel, src, dst, sendDuration(src, dst, t.task.resultBytes),
        t.task.resultBytes, {produced});
    sends[instanceKey(id, microbatch) * numStages + to] = send;
  }
}

bool Composer::resolveDep(uint32_t dep, int64_t consumerStage,
                          int64_t microbatch, bool forEpilogue,
                          std::string &error) {
  const TemplateTask &d = tmpl.tasks[dep];
  sim::TaskId resolved = sim::kNoId;
  if (d.phase == Phase::Epilogue) {
    resolved = epilogueInstance[dep];
  } else if (forEpilogue) {
    // The epilogue reads the sum over the microbatches.
    resolved = d.accumulated ? accumulation[dep]
                             : instances[instanceKey(dep, numMicrobatches - 1)];
    if (resolved != sim::kNoId && stageOf(dep) != consumerStage) {
      // Rare (an epilogue reading another stage's value): sent on demand.
      sim::DeviceSetId src = shiftedSet(d.task.resultSet(), stageOf(dep));
      sim::DeviceSetId dst = shiftedSet(d.task.resultSet(), consumerStage);
      resolved = program.addSend(sendLabel, src, dst,
                                 sendDuration(src, dst, d.task.resultBytes),
                                 d.task.resultBytes, {resolved});
    }
  } else if (stageOf(dep) == consumerStage) {
    resolved = instances[instanceKey(dep, microbatch)];
  } else {
    auto it = sends.find(instanceKey(dep, microbatch) * numStages + consumerStage);
    if (it != sends.end())
      resolved = it->second;
  }
  if (resolved == sim::kNoId) {
    error = "cannot compose the pipeline: a task reads a value its stage "
            "does not have yet";
    return false;
  }
  deps.push_back(resolved);
  return true;
}

bool Composer::emitTask(uint32_t id, int64_t microbatch, std::string &error) {
  const TemplateTask &t = tmpl.tasks[id];
  int64_t stage = stageOf(id);
  deps.clear();
  for (uint32_t dep : t.deps)
    if (!resolveDep(dep, stage, microbatch, /*forEpilogue=*/false, error))
      return false;
  sim::DeviceSetId devices = shiftedSet(t.task.devices, stage);
  sim::TaskId produced;
  if (t.task.kind == sim::TaskKind::Collective)
    produced = program.addCollective(
        label(t.task.label), devices, shiftedGrouping(t.task.grouping, stage),
        collectiveDuration(t, stage), t.task.commBytes, t.task.resultBytes,
        deps,
        t.task.target != sim::kNoId ? shiftedSet(t.task.target, stage)
                                    : sim::kNoId);
  else
    produced = program.addCompute(label(t.task.label), devices,
                                  t.task.durationS, t.task.flops,
                                  t.task.resultBytes, deps);
  instances[instanceKey(id, microbatch)] = produced;
  emitSends(id, microbatch, produced);
  if (!t.accumulated)
    return true;
  if (accumulation[id] == sim::kNoId) {
    accumulation[id] = produced;
  } else {
    sim::DeviceSetId resultSet = shiftedSet(t.task.resultSet(), stage);
    accumulation[id] =
        program.addCompute(addLabel, resultSet, t.accumulateDurationS,
                           t.accumulateFlops, t.task.resultBytes,
                           {accumulation[id], produced});
  }
  return true;
}

bool Composer::emitEpilogueTask(uint32_t id, std::string &error) {
  const TemplateTask &t = tmpl.tasks[id];
  int64_t stage = stageOf(id);
  deps.clear();
  for (uint32_t dep : t.deps)
    if (!resolveDep(dep, stage, numMicrobatches - 1, /*forEpilogue=*/true, error))
      return false;
  sim::DeviceSetId devices = shiftedSet(t.task.devices, stage);
  sim::TaskId produced;
  if (t.task.kind == sim::TaskKind::Collective)
    produced = program.addCollective(
        label(t.task.label), devices, shiftedGrouping(t.task.grouping, stage),
        collectiveDuration(t, stage), t.task.commBytes, t.task.resultBytes,
        deps,
        t.task.target != sim::kNoId ? shiftedSet(t.task.target, stage)
                                    : sim::kNoId);
  else
    produced = program.addCompute(label(t.task.label), devices,
                                  t.task.durationS, t.task.flops,
                                  t.task.resultBytes, deps);
  if (t.task.liveOut)
    program.markLiveOut(produced);
  epilogueInstance[id] = produced;
  return true;
}

bool Composer::emitUnit(const Unit &unit, std::string &error) {
  if (unit.kind == UnitKind::Epilogue) {
    for (uint32_t id : tasksOf[unit.stage][size_t(Phase::Epilogue)])
      if (epilogueInstance[id] == sim::kNoId && !emitEpilogueTask(id, error))
        return false;
    return true;
  }
  Phase phase = unit.kind == UnitKind::Forward ? Phase::Forward : Phase::Backward;
  for (uint32_t id : tasksOf[unit.stage][size_t(phase)])
    if (!emitTask(id, unit.microbatch, error))
      return false;
  return true;
}

bool Composer::orderUnits(std::vector<Unit> &order, std::string &error) {
  std::vector<std::vector<Unit>> sequences(numStages);
  std::vector<std::array<double, 3>> cost(numStages, {0, 0, 0});
  for (int64_t s = 0; s < numStages; ++s)
    for (size_t p = 0; p < 3; ++p)
      for (uint32_t id : tasksOf[s][p])
        if (tmpl.tasks[id].task.kind == sim::TaskKind::Compute)
          cost[s][p] += tmpl.tasks[id].task.durationS;
  for (int64_t s = 0; s < numStages; ++s) {
    std::vector<Unit> &seq = sequences[s];
    bool hasForward = !tasksOf[s][size_t(Phase::Forward)].empty();
    bool hasBackward = !tasksOf[s][size_t(Phase::Backward)].empty();
    auto forward = [&](int64_t m) {
      if (hasForward)
        seq.push_back({s, UnitKind::Forward, m});
    };
    auto backward = [&](int64_t m) {
      if (hasBackward)
        seq.push_back({s, UnitKind::Backward, m});
    };
    if (config.schedule == Schedule::GPipe || !hasBackward) {
      for (int64_t m = 0; m < numMicrobatches; ++m)
        forward(m);
      for (int64_t m = 0; m < numMicrobatches; ++m)
        backward(m);
    } else {
      int64_t warmup = std::min(numStages - s - 1, numMicrobatches);
      for (int64_t m = 0; m < warmup; ++m)
        forward(m);
      for (int64_t m = 0; m + warmup < numMicrobatches; ++m) {
        forward(m + warmup);
        backward(m);
      }
      for (int64_t m = numMicrobatches - warmup; m < numMicrobatches; ++m)
        backward(m);
    }
    if (!tasksOf[s][size_t(Phase::Epilogue)].empty())
      seq.push_back({s, UnitKind::Epilogue, -1});
  }

  // The units of other stages each stage's forward / backward reads from.
  std::vector<std::array<std::vector<std::pair<int64_t, UnitKind>>, 2>> reads(
      numStages);
  for (uint32_t id = 0; id < tmpl.tasks.size(); ++id) {
    const TemplateTask &t = tmpl.tasks[id];
    if (t.phase == Phase::Epilogue)
      continue;
    for (uint32_t dep : t.deps) {
      const TemplateTask &d = tmpl.tasks[dep];
      if (d.phase == Phase::Epilogue || stageOf(dep) == stageOf(id))
        continue;
      auto &list = reads[stageOf(id)][size_t(t.phase)];
      std::pair<int64_t, UnitKind> source = {
          stageOf(dep),
          d.phase == Phase::Forward ? UnitKind::Forward : UnitKind::Backward};
      if (std::find(list.begin(), list.end(), source) == list.end())
        list.push_back(source);
    }
  }

  // List scheduling on the template's compute times, as dist-pipeline
  // merges its stages: among the stages whose next unit has its inputs,
  // the one that can start first (ties: the lowest stage).
  std::vector<size_t> next(numStages, 0);
  std::vector<double> freeAt(numStages, 0);
  std::vector<std::vector<double>> finishF(numStages,
                                           std::vector<double>(numMicrobatches, -1));
  std::vector<std::vector<double>> finishB = finishF;
  size_t total = 0;
  for (const auto &seq : sequences)
    total += seq.size();
  while (order.size() < total) {
    int64_t best = -1;
    double bestStart = 0;
    for (int64_t s = 0; s < numStages; ++s) {
      if (next[s] >= sequences[s].size())
        continue;
      const Unit &unit = sequences[s][next[s]];
      double start = freeAt[s];
      bool ready = true;
      if (unit.kind == UnitKind::Epilogue) {
        // Epilogues only read their own stage (and sends made on demand).
      } else {
        for (auto [from, kind] : reads[s][size_t(unit.kind)]) {
          double finished = (kind == UnitKind::Forward ? finishF : finishB)[from]
                                                                         [unit.microbatch];
          if (finished < 0) {
            ready = false;
            break;
          }
          start = std::max(start, finished);
        }
      }
      if (ready && (best < 0 || start < bestStart)) {
        best = s;
        bestStart = start;
      }
    }
    if (best < 0) {
      error = "the " + std::string(scheduleName(config.schedule)) +
              " schedule cannot run this cut: a stage waits for a value its "
              "own schedule produces later";
      return false;
    }
    const Unit &unit = sequences[best][next[best]++];
    freeAt[best] = bestStart + cost[best][size_t(unit.kind)];
    if (unit.kind == UnitKind::Forward)
      finishF[best][unit.microbatch] = freeAt[best];
    else if (unit.kind == UnitKind::Backward)
      finishB[best][unit.microbatch] = freeAt[best];
    order.push_back(unit);
  }
  return true;
}

bool Composer::run(std::string &error) {
  if (tmpl.numDevices > stride) {
    error = "the stage template uses more devices than dp x tp";
    return false;
  }
  const size_t n = tmpl.tasks.size();
  tasksOf.assign(numStages, {});
  readers.assign(n, {});
  for (uint32_t id = 0; id < n; ++id) {
    const TemplateTask &t = tmpl.tasks[id];
    tasksOf[stageOf(id)][size_t(t.phase)].push_back(id);
    for (uint32_t dep : t.deps) {
      if (t.phase == Phase::Epilogue)
        continue;
      int64_t reader = stageOf(id);
      if (reader != stageOf(dep) && tmpl.tasks[dep].phase != Phase::Epilogue &&
          std::find(readers[dep].begin(), readers[dep].end(), reader) ==
              readers[dep].end())
        readers[dep].push_back(reader);
    }
  }
  instances.assign(n * numMicrobatches, sim::kNoId);
  accumulation.assign(n, sim::kNoId);
  epilogueInstance.assign(n, sim::kNoId);
  sendLabel = program.addLabel("dist.send");
  addLabel = program.addLabel("dist.add");

  for (const TemplateResident &resident : tmpl.residents) {
    int64_t layer = std::min<int64_t>(resident.layer, stageOfLayer.size() - 1);
    int64_t bytes = resident.isData ? resident.bytes * numMicrobatches
                                    : resident.bytes;
    program.addResident(shiftedSet(resident.devices, stageOfLayer[layer]),
                        bytes);
  }

  std::vector<Unit> order;
  if (!orderUnits(order, error))
    return false;
  for (const Unit &unit : order)
    if (!emitUnit(unit, error))
      return false;
  for (uint32_t id = 0; id < n; ++id)
    if (tmpl.tasks[id].accumulated && tmpl.tasks[id].task.liveOut &&
        accumulation[id] != sim::kNoId)
      program.markLiveOut(accumulation[id]);
  return true;
}

} // namespace

double getStepTimeLowerBound(const StageTemplate &stage,
                             const ModelFacts &facts,
                             const Configuration &config) {
  std::vector<std::pair<int64_t, int64_t>> stages = cutStages(facts, config.pp);
  std::vector<int64_t> stageOfLayer(facts.layers.size(), 0);
  for (int64_t s = 0; s < config.pp; ++s)
    for (int64_t l = stages[s].first; l < stages[s].second; ++l)
      stageOfLayer[l] = s;
  std::vector<double> compute(config.pp, 0), collective(config.pp, 0);
  const double m = double(config.microbatches);
  for (const TemplateTask &t : stage.tasks) {
    int64_t s = t.layer < int64_t(stageOfLayer.size()) ? stageOfLayer[t.layer]
                                                       : config.pp - 1;
    double times = t.phase == Phase::Epilogue ? 1 : m;
    if (t.task.kind == sim::TaskKind::Compute)
      compute[s] += times * t.task.durationS +
                    (t.accumulated ? (m - 1) * t.accumulateDurationS : 0);
    else if (t.task.kind == sim::TaskKind::Collective)
      collective[s] += times * t.task.durationS;
  }
  double bound = 0;
  for (int64_t s = 0; s < config.pp; ++s)
    bound = std::max({bound, compute[s], collective[s]});
  return bound;
}

bool composeProgram(const StageTemplate &stage, const ModelFacts &facts,
                    const Configuration &config, const cost::CostModel &model,
                    sim::Program &program, std::string &error) {
  return Composer(stage, facts, config, model, program).run(error);
}

std::optional<Evaluation> evaluateComposed(const StageTemplate &stage,
                                           const ModelFacts &facts,
                                           const Configuration &config,
                                           const cost::CostModel &model,
                                           std::string &error) {
  sim::Program program;
  if (!composeProgram(stage, facts, config, model, program, error))
    return std::nullopt;
  sim::SimOptions options;
  options.topOps = 0;
  std::optional<sim::SimResult> result = sim::simulate(program, options, error);
  if (!result)
    return std::nullopt;
  Evaluation evaluation;
  evaluation.config = config;
  evaluation.method = Method::Composed;
  evaluation.stepTimeS = result->stepTimeS;
  evaluation.peakMemoryBytes = result->peakMemoryBytes;
  evaluation.numTasks = int64_t(program.numTasks());
  return evaluation;
}

} // namespace search
} // namespace distir
