//===- Search.cpp - The threaded search driver ----------------------------===//
//
// The driver reads each model's facts, enumerates and prunes its space, and
// then has the workers (Worker.h) build stage cuts and templates and evaluate
// the survivors, best bound first, in rounds. The work list and the result
// slots are fixed before the workers start: the outcome does not depend on
// the number of threads.
//
//===----------------------------------------------------------------------===//

#include "distir/Search/Search.h"

#include "Worker.h"

#include "distir/InitAll.h"
#include "distir/Search/Compose.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#define DEBUG_TYPE "dist-search-driver"

using namespace mlir;

namespace distir {
namespace search {

/// Runs `count` jobs, in the order of `order`, on `threads` threads; `job`
/// gets the thread's index. The calling thread works too, or only reports
/// progress when there is a `progress` callback and more than one thread.
/// Once `cancelled` (may be empty) says so, the remaining jobs are skipped.
static void runParallel(size_t count, unsigned threads,
                        const std::function<void(unsigned, size_t)> &job,
                        const std::function<void(size_t)> &progress,
                        const std::function<bool()> &cancelled) {
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex mutex;
  std::condition_variable changed;
  auto body = [&](unsigned thread) {
    for (size_t i; (i = next.fetch_add(1)) < count;) {
      // Skipped jobs still count as done: the progress loop waits for all.
      if (!cancelled || !cancelled())
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
static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The process's CPU seconds (all threads): what --timing compares across
/// loads, since wall time on a shared machine measures the other jobs.
static double getProcessCpuSeconds() {
  return double(std::clock()) / CLOCKS_PER_SEC;
}

/// Wall and CPU seconds spent in one kind of work.
struct PhaseTime {
  double wallS = 0, cpuS = 0;
  void print(llvm::raw_ostream &os) const {
    os << llvm::format("%.3f s (CPU %.3f s)", wallS, cpuS);
  }
};

/// Adds the time from its construction to its destruction to a PhaseTime.
class PhaseTimer {
public:
  explicit PhaseTimer(PhaseTime &total) : total(total) {}
  ~PhaseTimer() {
    total.wallS += secondsSince(wallStart);
    total.cpuS += getProcessCpuSeconds() - cpuStart;
  }
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  PhaseTime &total;
  std::chrono::steady_clock::time_point wallStart =
      std::chrono::steady_clock::now();
  double cpuStart = getProcessCpuSeconds();
};

namespace {

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
  /// Per survivor: over the capacity by its memory bound (counted in
  /// report.prunedByMemory).
  std::vector<bool> overMemory;
};

/// dist-opt's view of `config`: autodiff, recomputation, then the
/// parallelization.
std::vector<PassStep> getCommandSteps(const Configuration &config,
                                      const SearchOptions &options) {
  std::vector<PassStep> steps = {getAutodiffStep(options)};
  if (config.recompute != Recompute::None)
    steps.push_back(getRecomputeStep(config.recompute));
  steps.push_back(getParallelizeStep(config, options));
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
         (options.frameworkSpec == "megatron-core"
              ? ""
              : " --framework " + options.frameworkSpec) +
         " --samples-per-step " + std::to_string(config.globalBatch);
}

/// What changes the program of a (dp, tp, pp) shape besides its batch: the
/// recompute mode, sequence parallelism and the ZeRO stage, in one key field.
int getVariant(const Configuration &c) {
  return (int(c.recompute) * 2 + (c.sequenceParallel ? 1 : 0)) * 4 +
         int(c.zero);
}
Recompute getVariantRecompute(int variant) { return Recompute(variant / 8); }
bool getVariantSequenceParallel(int variant) { return variant / 4 % 2 != 0; }
int64_t getVariantZero(int variant) { return variant % 4; }
/// The variant a stage cut is timed on: ZeRO only changes the once-per-step
/// optimizer work, which the cut leaves out (and zero=2, 3 have one stage).
int getCutVariant(int variant) { return variant - variant % 4; }

/// A template: model, dp, tp, pp, microbatch size, microbatches, the
/// schedule when the template is the whole program of two microbatches, the
/// variant (getVariant) and the model chunks per stage.
using TemplateKey = std::tuple<size_t, int64_t, int64_t, int64_t, int64_t,
                               int64_t, int, int, int64_t>;
/// A stage cut: what its ops are timed on (model, microbatch size, the
/// template's microbatch count, variant (getVariant), dp: the step of one
/// batch; then tp), then pp x interleave (the chunks; stage = chunk mod pp). dp
/// is 1 but for a model pinned to its batch (a .mlir file): the times per
/// microbatch are those of one replica (data parallelism only adds the
/// once-per-step gradient reduction, which the cut leaves out), and one
/// replica's trial has dp times fewer devices.
using CutKey =
    std::tuple<size_t, int64_t, int64_t, int, int64_t, int64_t, int64_t>;

/// The microbatches of the template a configuration is composed from.
/// ZeRO stages 1 and 2 place step work inside the last microbatch (stage 1
/// flattens the complete gradient there): three, first, middle and last
/// (Compose.h). Stage 3 gathers each layer's parameters one layer early,
/// across the microbatches' boundary, which replaying microbatches does not
/// reproduce: built whole (the space keeps it to two microbatches).
/// Interleaved 1F1B takes the microbatches in groups of pp: its template is
/// the smallest group count with a middle microbatch when ZeRO needs one.
static int64_t getTemplateMicrobatches(const Configuration &c) {
  if (c.zero >= 3)
    return c.microbatches;
  int64_t count = c.zero > 0 ? 3 : 2;
  if (c.interleave > 1)
    count = llvm::divideCeil(count, c.pp) * c.pp;
  return std::min<int64_t>(c.microbatches, count);
}

/// The template a configuration is composed from (getTemplateMicrobatches),
/// or the whole program.
TemplateKey getTemplateKey(size_t model, const Configuration &c, bool whole) {
  int64_t count = whole ? c.microbatches : getTemplateMicrobatches(c);
  // A template of one group of an interleaved pipeline is built with its
  // (1F1B) schedule, which dist-parallelize requires for interleaving.
  int schedule = (count == c.microbatches && count > 1) || c.interleave > 1
                     ? int(c.schedule)
                     : 0;
  return TemplateKey{
      model, c.dp,     c.tp,          c.pp,        c.getMicrobatchSize(),
      count, schedule, getVariant(c), c.interleave};
}

/// One single-stage, single-microbatch build per (dp, tp, global batch)
/// bounds every microbatch count (Compose.h): it is also the whole program
/// of the configuration without pipeline and microbatches.
TemplateKey getReplicaKey(size_t model, const Configuration &c) {
  return TemplateKey{model, c.dp, c.tp,          1, c.globalBatch / c.dp,
                     1,     0,    getVariant(c), 1};
}

/// The cut of the configuration's template: the stage cut balances time per
/// microbatch (StageAssignmentCosts.cpp), the same for any microbatch count.
CutKey getCutKey(const std::vector<ModelSource> &models, size_t model,
                 const Configuration &c) {
  bool pinned = models[model].kind == ModelSource::Kind::File;
  return CutKey{model,
                c.getMicrobatchSize(),
                std::min<int64_t>(c.microbatches, 2),
                getCutVariant(getVariant(c)),
                pinned ? c.dp : 1,
                c.tp,
                c.pp * c.interleave};
}

/// The stage of each layer in `config` from its cut (getCutKey): chunk c
/// runs on stage c mod pp.
std::vector<int64_t> getStageOfLayer(const std::vector<int64_t> &cut,
                                     const Configuration &config) {
  std::vector<int64_t> stages = cut;
  for (int64_t &stage : stages)
    if (stage >= 0)
      stage %= config.pp;
  return stages;
}

/// The cut without its pp: one timing serves every stage count.
auto getTimingKey(const CutKey &key) {
  auto [model, size, count, recompute, dp, tp, pp] = key;
  return std::make_tuple(model, size, count, recompute, dp, tp);
}

/// The timing without its tp: the training step it is timed on.
auto getStepKey(const CutKey &key) {
  auto [model, size, count, recompute, dp, tp, pp] = key;
  return std::make_tuple(model, size, count, recompute, dp);
}

/// A survivor waiting for its evaluation, with its throughput bound.
struct Candidate {
  size_t scenario, config;
  double throughputBound;
};

/// The search of a list of models: one object per runSearch call, its
/// phases in the order run() calls them.
class SearchDriver {
public:
  SearchDriver(const std::vector<ModelSource> &models,
               const SearchOptions &options);

  StatusOr<std::vector<ScenarioReport>> run();

private:
  bool isCancelled() const { return options.cancelled && options.cancelled(); }
  // 1. Facts, enumeration and the memory bound.
  Status checkDeviceCounts() const;
  Status addScenarios(size_t model);
  Scenario enumerateScenario(size_t model, const SpaceOptions &space,
                             int64_t devices) const;
  // 2. Stage cuts and single-stage templates, built on the threads as they
  // are needed; each once (templates are shared by every device count).
  void buildStageCuts();
  void buildReplicaTemplates();
  void pruneBeforeStageCuts();
  void buildTemplates(std::vector<TemplateKey> keys, bool showProgress);
  // 3. Evaluation, best bound first, in rounds.
  std::vector<std::vector<Candidate>> boundCandidates();
  void evaluateInRounds(const std::vector<std::vector<Candidate>> &pending);
  std::vector<Candidate>
  takeRound(const std::vector<std::vector<Candidate>> &pending,
            std::vector<size_t> &cursor);
  double getThroughputThreshold(const Scenario &scenario) const;
  std::vector<bool> buildRoundTemplates(const std::vector<Candidate> &round);
  void evaluateRound(const std::vector<Candidate> &round,
                     const std::vector<bool> &whole);
  void confirmExtrapolated();
  /// Whether the evaluation's peak may be, or surely is, within the
  /// capacity: exact for a full simulation, within the extrapolation's
  /// error margin for an extrapolated one.
  bool mayFit(const Evaluation &evaluation) const;
  bool surelyFits(const Evaluation &evaluation) const;
  // 4. The reports.
  std::vector<ScenarioReport> makeReports();
  void completeEvaluation(Evaluation &evaluation, const Scenario &scenario,
                          size_t index) const;

  Worker &getWorker(unsigned thread, size_t model);
  /// Prints the time since the last phase under --timing.
  void reportPhase(const std::string &what);

  const std::vector<ModelSource> &models;
  const SearchOptions &options;
  const std::chrono::steady_clock::time_point started;
  std::chrono::steady_clock::time_point phaseStart;
  double phaseCpuStart = getProcessCpuSeconds();
  const unsigned threads;
  int64_t capacity = 0;
  std::optional<cost::CostModel> costModel;

  /// Each thread keeps one worker (one MLIRContext) per model; the calling
  /// thread's also reads the facts.
  std::vector<std::vector<std::unique_ptr<Worker>>> workers;
  std::vector<ModelFacts> facts;
  std::vector<Scenario> scenarios;
  std::map<TemplateKey, std::shared_ptr<const PipelineTemplate>> templates;
  std::map<TemplateKey, std::string> templateErrors;
  /// By replica key (getReplicaKey): what the bounds read, folded or whole
  /// (Worker::buildBoundsTemplate); failures in templateErrors.
  std::map<TemplateKey, std::shared_ptr<const PipelineTemplate>> boundTemplates;
  std::map<CutKey, std::vector<int64_t>> cuts;
  /// Per template shape (getTimingKey), the stage cut's op times.
  std::map<decltype(getTimingKey(CutKey())), std::vector<double>> cutTimes;
  std::map<CutKey, std::string> cutErrors;

  /// The progress bar runs twice: over the single-stage builds, then over
  /// the evaluations.
  std::function<void(size_t)> progress;
  int64_t progressDone = 0, progressTotal = 0;
  PhaseTime templateTime, evaluateTime;
  size_t pipelineTemplates = 0, evaluated = 0;
};

} // namespace

SearchDriver::SearchDriver(const std::vector<ModelSource> &models,
                           const SearchOptions &options)
    : models(models), options(options),
      started(std::chrono::steady_clock::now()), phaseStart(started),
      threads(options.threads
                  ? options.threads
                  : std::max(1u, std::thread::hardware_concurrency())),
      workers(threads), facts(models.size()) {
  for (auto &perModel : workers)
    perModel.resize(models.size());
  if (options.progress)
    progress = [this](size_t done) {
      this->options.progress(progressDone + int64_t(done), progressTotal);
    };
}

Worker &SearchDriver::getWorker(unsigned thread, size_t model) {
  std::unique_ptr<Worker> &worker = workers[thread][model];
  if (!worker)
    worker = std::make_unique<Worker>(models[model], options);
  return *worker;
}

void SearchDriver::reportPhase(const std::string &what) {
  if (options.timing)
    llvm::errs() << "dist-search: " << what << ": "
                 << llvm::format("%.3f s (CPU %.3f s)\n",
                                 secondsSince(phaseStart),
                                 getProcessCpuSeconds() - phaseCpuStart);
  phaseStart = std::chrono::steady_clock::now();
  phaseCpuStart = getProcessCpuSeconds();
}

StatusOr<std::vector<ScenarioReport>> SearchDriver::run() {
  DISTIR_RETURN_IF_ERROR(checkDeviceCounts());
  capacity = int64_t(double(options.cluster.device.memoryBytes) *
                     options.maxMemoryFraction);
  costModel.emplace(options.cluster);
  for (size_t m = 0; m < models.size(); ++m)
    DISTIR_RETURN_IF_ERROR(addScenarios(m));
  reportPhase("facts and enumeration");
  // A cancelled phase skips its remaining jobs; the next phases would read
  // their missing results, so the search ends there.
  const Status interrupted = Status::error("interrupted");
  buildReplicaTemplates();
  if (isCancelled())
    return interrupted;
  pruneBeforeStageCuts();
  buildStageCuts();
  if (isCancelled())
    return interrupted;
  evaluateInRounds(boundCandidates());
  confirmExtrapolated();
  if (isCancelled())
    return interrupted;
  if (options.timing) {
    llvm::errs() << "dist-search: pipeline templates (" << pipelineTemplates
                 << "): ";
    templateTime.print(llvm::errs());
    llvm::errs() << "\ndist-search: composition and simulation (" << evaluated
                 << "): ";
    evaluateTime.print(llvm::errs());
    llvm::errs() << "\n";
  }
  return makeReports();
}

//===----------------------------------------------------------------------===//
// 1. Facts, enumeration and the memory bound
//===----------------------------------------------------------------------===//

Status SearchDriver::checkDeviceCounts() const {
  for (int64_t devices : options.space.deviceCounts)
    if (devices > options.cluster.numDevices())
      return Status::error(
          (options.space.devicesAtMost ? "--max-devices " : "--devices ") +
          std::to_string(devices) + " exceeds the " +
          std::to_string(options.cluster.numDevices()) +
          " devices of cluster '" + options.cluster.name + "'");
  return Status::success();
}

Status SearchDriver::addScenarios(size_t m) {
  const ModelSource &source = models[m];
  Worker &worker = getWorker(0, m);
  SpaceOptions space = options.space;
  int64_t factsBatch = space.globalBatches.empty() ? 0 : space.globalBatches[0];
  if (source.kind == ModelSource::Kind::File) {
    DISTIR_ASSIGN_OR_RETURN(int64_t fileBatch, worker.getFileBatch());
    for (int64_t batch : space.globalBatches)
      if (batch != fileBatch)
        return Status::error("--global-batch " + std::to_string(batch) + ": " +
                             source.path + " is written for a batch of " +
                             std::to_string(fileBatch));
    space.globalBatches = {fileBatch};
    factsBatch = fileBatch;
  }
  if (factsBatch <= 0)
    return Status::error("--global-batch is required for a generated model");
  StatusOr<ModelFacts> modelFacts = worker.extractFacts(factsBatch);
  if (!modelFacts)
    return Status::error("model '" + source.spec +
                         "': " + modelFacts.message());
  facts[m] = std::move(*modelFacts);
  for (int64_t devices : space.deviceCounts)
    scenarios.push_back(enumerateScenario(m, space, devices));
  return Status::success();
}

Scenario SearchDriver::enumerateScenario(size_t m, const SpaceOptions &space,
                                         int64_t devices) const {
  Scenario scenario;
  scenario.model = m;
  ScenarioReport &report = scenario.report;
  report.model = models[m].spec;
  report.cluster = options.clusterSpec;
  report.devices = devices;
  report.devicesAtMost = space.devicesAtMost;
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
  scenario.overMemory.resize(scenario.survivors.size());
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << report.model << " on "
                          << devices << " devices: " << report.considered
                          << " considered, " << report.getNumInvalid()
                          << " invalid, " << report.prunedByMemory
                          << " over the memory bound, "
                          << scenario.survivors.size() << " survive\n");
  return scenario;
}

//===----------------------------------------------------------------------===//
// 2. Stage cuts and templates
//===----------------------------------------------------------------------===//

void SearchDriver::buildTemplates(std::vector<TemplateKey> keys,
                                  bool showProgress) {
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
        auto [model, dp, tp, pp, size, count, schedule, variant, interleave] =
            keys[i];
        bool pinned = models[model].kind == ModelSource::Kind::File;
        auto times = cutTimes.find(
            {model, size, count, getCutVariant(variant), pinned ? dp : 1, tp});
        StatusOr<std::shared_ptr<const PipelineTemplate>> stage =
            getWorker(thread, model)
                .buildTemplate(dp, tp, pp, size, count, Schedule(schedule),
                               getVariantRecompute(variant), interleave,
                               pp > 1 && times != cutTimes.end()
                                   ? llvm::ArrayRef<double>(times->second)
                                   : llvm::ArrayRef<double>(),
                               getVariantSequenceParallel(variant),
                               getVariantZero(variant));
        if (stage)
          built[i] = *stage;
        else
          errors[i] =
              stage.message().empty() ? "unknown error" : stage.message();
      },
      showProgress ? progress : nullptr, options.cancelled);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (built[i])
      templates[keys[i]] = built[i];
    else
      templateErrors[keys[i]] = errors[i];
  }
}

/// The stage cuts say where the layers go: the ops are timed once per
/// template shape and cut for every pp (CutKey).
void SearchDriver::buildStageCuts() {
  std::vector<CutKey> cutKeys;
  for (const Scenario &scenario : scenarios)
    for (size_t i = 0; i < scenario.survivors.size(); ++i)
      if (!scenario.overMemory[i])
        cutKeys.push_back(
            getCutKey(models, scenario.model, scenario.survivors[i]));
  std::sort(cutKeys.begin(), cutKeys.end());
  cutKeys.erase(std::unique(cutKeys.begin(), cutKeys.end()), cutKeys.end());
  // Sorted, the keys of one step are adjacent, and in them those of one
  // timing: one job per step (a worker differentiates it once).
  std::vector<size_t> stepBegin;
  for (size_t i = 0; i < cutKeys.size(); ++i)
    if (i == 0 || getStepKey(cutKeys[i]) != getStepKey(cutKeys[i - 1]))
      stepBegin.push_back(i);
  stepBegin.push_back(cutKeys.size());
  std::vector<StatusOr<std::vector<int64_t>>> built(
      cutKeys.size(), Status::error("unknown error"));
  std::vector<std::vector<double>> times(cutKeys.size());
  runParallel(
      stepBegin.size() - 1, threads,
      [&](unsigned thread, size_t step) {
        for (size_t begin = stepBegin[step], end = begin;
             begin < stepBegin[step + 1]; begin = end) {
          while (end < stepBegin[step + 1] &&
                 getTimingKey(cutKeys[end]) == getTimingKey(cutKeys[begin]))
            ++end;
          auto [model, size, count, variant, dp, tp, pp] = cutKeys[begin];
          std::vector<int64_t> stageCounts;
          for (size_t i = begin; i < end; ++i)
            stageCounts.push_back(std::get<6>(cutKeys[i]));
          Worker::StageCuts stageCuts =
              getWorker(thread, model)
                  .getStageCuts(dp, tp, size, count,
                                getVariantRecompute(variant), stageCounts,
                                getVariantSequenceParallel(variant));
          times[begin] = std::move(stageCuts.times);
          for (size_t i = begin; i < end; ++i)
            built[i] = std::move(stageCuts.stageOfLayer[i - begin]);
        }
      },
      nullptr, options.cancelled);
  for (size_t i = 0; i < cutKeys.size(); ++i) {
    if (built[i])
      cuts[cutKeys[i]] = std::move(*built[i]);
    else
      cutErrors[cutKeys[i]] =
          built[i].message().empty() ? "unknown error" : built[i].message();
    if (!times[i].empty())
      cutTimes[getTimingKey(cutKeys[i])] = std::move(times[i]);
  }
  reportPhase("stage cuts (" + std::to_string(cutKeys.size()) + ")");
}

/// The replicas (one stage, one microbatch) give every bound.
void SearchDriver::buildReplicaTemplates() {
  std::vector<TemplateKey> replicaKeys;
  for (const Scenario &scenario : scenarios)
    for (const Configuration &c : scenario.survivors)
      replicaKeys.push_back(getReplicaKey(scenario.model, c));
  size_t templatesBefore = boundTemplates.size() + templateErrors.size();
  {
    std::vector<TemplateKey> unique = replicaKeys;
    std::sort(unique.begin(), unique.end());
    progressTotal = std::unique(unique.begin(), unique.end()) - unique.begin();
  }
  std::sort(replicaKeys.begin(), replicaKeys.end());
  replicaKeys.erase(std::unique(replicaKeys.begin(), replicaKeys.end()),
                    replicaKeys.end());
  std::vector<StatusOr<std::shared_ptr<const PipelineTemplate>>> built(
      replicaKeys.size(), Status::error("unknown error"));
  std::vector<char> folded(replicaKeys.size(), false);
  runParallel(
      replicaKeys.size(), threads,
      [&](unsigned thread, size_t i) {
        auto [model, dp, tp, pp, size, count, schedule, variant, interleave] =
            replicaKeys[i];
        bool isFolded = false;
        built[i] =
            getWorker(thread, model)
                .buildBoundsTemplate(dp, tp, size, getVariantRecompute(variant),
                                     getVariantSequenceParallel(variant),
                                     getVariantZero(variant), isFolded);
        folded[i] = isFolded;
      },
      progress, options.cancelled);
  for (size_t i = 0; i < replicaKeys.size(); ++i) {
    if (!built[i]) {
      templateErrors[replicaKeys[i]] =
          built[i].message().empty() ? "unknown error" : built[i].message();
      continue;
    }
    boundTemplates[replicaKeys[i]] = *built[i];
    // A whole build is also the program of the configuration without
    // pipeline and microbatches (getTemplateKey gives the same key).
    if (!folded[i])
      templates[replicaKeys[i]] = *built[i];
  }
  progressDone = progressTotal = 0;
  reportPhase("single-stage templates (" +
              std::to_string(boundTemplates.size() + templateErrors.size() -
                             templatesBefore) +
              ")");
}

/// Timing the ops for a stage cut builds the whole step placed on a stage:
/// the configurations over the capacity by the bound of the best cut for
/// memory (below that of any cut) are pruned before.
void SearchDriver::pruneBeforeStageCuts() {
  for (Scenario &scenario : scenarios)
    for (size_t i = 0; i < scenario.survivors.size(); ++i) {
      const Configuration &c = scenario.survivors[i];
      // The bound minimizes over contiguous cuts into pp stages; an
      // interleaved stage runs pp-apart chunks, which no such cut bounds.
      if (c.interleave > 1)
        continue;
      auto replica = boundTemplates.find(getReplicaKey(scenario.model, c));
      if (replica == boundTemplates.end())
        continue; // its build failed: boundCandidates says why
      int64_t bound = getCutFreeMemoryLowerBound(*replica->second, c);
      scenario.bounds[i] = std::max(scenario.bounds[i], bound);
      if (bound > capacity) {
        scenario.overMemory[i] = true;
        ++scenario.report.prunedByMemory;
      }
    }
  reportPhase("memory bound of the best cut");
}

//===----------------------------------------------------------------------===//
// 3. Evaluation
//===----------------------------------------------------------------------===//

/// Per scenario, the survivors that fit by their exact memory bound, best
/// throughput bound first.
std::vector<std::vector<Candidate>> SearchDriver::boundCandidates() {
  std::vector<std::vector<Candidate>> pending(scenarios.size());
  for (size_t s = 0; s < scenarios.size(); ++s) {
    Scenario &scenario = scenarios[s];
    for (size_t i = 0; i < scenario.survivors.size(); ++i) {
      const Configuration &c = scenario.survivors[i];
      if (scenario.overMemory[i])
        continue;
      CutKey cutKey = getCutKey(models, scenario.model, c);
      if (auto it = cutErrors.find(cutKey); it != cutErrors.end()) {
        scenario.failures[i] = it->second;
        continue;
      }
      TemplateKey replica = getReplicaKey(scenario.model, c);
      assert(cuts.count(cutKey) && "every survivor's stage cut was built");
      if (auto it = templateErrors.find(replica); it != templateErrors.end()) {
        scenario.failures[i] = it->second;
        continue;
      }
      // With the exact local sizes the memory bound is much tighter.
      std::vector<int64_t> stageOfLayer = getStageOfLayer(cuts.at(cutKey), c);
      int64_t memoryBound =
          getMemoryLowerBound(*boundTemplates.at(replica), stageOfLayer, c);
      scenario.bounds[i] = std::max(scenario.bounds[i], memoryBound);
      if (memoryBound > capacity) {
        ++scenario.report.prunedByMemory;
        continue;
      }
      double bound =
          getStepTimeLowerBound(*boundTemplates.at(replica), stageOfLayer, c);
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
  return pending;
}

/// After each round, the configurations whose throughput bound cannot reach
/// the `top`-th best that fits are skipped. Rounds are fixed by the sorted
/// lists, not by the threads, so the outcome is the same for any thread
/// count.
void SearchDriver::evaluateInRounds(
    const std::vector<std::vector<Candidate>> &pending) {
  std::vector<size_t> cursor(scenarios.size(), 0);
  while (!isCancelled()) {
    std::vector<Candidate> round = takeRound(pending, cursor);
    if (round.empty())
      break;
    std::vector<bool> whole;
    {
      PhaseTimer timer(templateTime);
      size_t before = templates.size() + templateErrors.size();
      whole = buildRoundTemplates(round);
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] round of " << round.size()
                              << " candidates, " << llvm::count(whole, true)
                              << " built whole\n");
      pipelineTemplates += templates.size() + templateErrors.size() - before;
    }
    PhaseTimer timer(evaluateTime);
    evaluated += round.size();
    evaluateRound(round, whole);
    progressDone += int64_t(round.size());
  }
}

/// The relative error an extrapolated step time or peak is trusted to:
/// 40 times the worst measured (2.4e-4, Compose.cpp).
static constexpr double kExtrapolationMargin = 0.01;

static double getThroughput(const Evaluation &evaluation) {
  return double(evaluation.config.globalBatch) / evaluation.stepTimeS;
}

bool SearchDriver::surelyFits(const Evaluation &evaluation) const {
  if (evaluation.method != Method::Extrapolated)
    return evaluation.peakMemoryBytes <= capacity;
  return double(evaluation.peakMemoryBytes) * (1 + kExtrapolationMargin) <=
         double(capacity);
}

bool SearchDriver::mayFit(const Evaluation &evaluation) const {
  if (evaluation.method != Method::Extrapolated)
    return evaluation.peakMemoryBytes <= capacity;
  return double(evaluation.peakMemoryBytes) * (1 - kExtrapolationMargin) <=
         double(capacity);
}

/// The `top`-th best throughput that surely fits so far (0: none to beat),
/// an extrapolated one counted at its lowest.
double SearchDriver::getThroughputThreshold(const Scenario &scenario) const {
  std::vector<double> fitting;
  for (const auto &evaluation : scenario.evaluations)
    if (evaluation && surelyFits(*evaluation))
      fitting.push_back(getThroughput(*evaluation) *
                        (evaluation->method == Method::Extrapolated
                             ? 1 - kExtrapolationMargin
                             : 1));
  if (!options.pruneByTime || options.top == 0 || fitting.size() < options.top)
    return 0;
  std::nth_element(fitting.begin(), fitting.begin() + (options.top - 1),
                   fitting.end(), std::greater<double>());
  return fitting[options.top - 1];
}

std::vector<Candidate>
SearchDriver::takeRound(const std::vector<std::vector<Candidate>> &pending,
                        std::vector<size_t> &cursor) {
  const size_t roundSize = std::max<size_t>(16, 2 * options.top);
  assert(cursor.size() == scenarios.size() && pending.size() == cursor.size());
  std::vector<Candidate> round;
  for (size_t s = 0; s < scenarios.size(); ++s) {
    Scenario &scenario = scenarios[s];
    double threshold = getThroughputThreshold(scenario);
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
  return round;
}

/// Templates, then whole programs where the template's cut (at its smaller
/// batch) is not the global batch's: composing would move layers. Returns
/// which candidates are built whole.
std::vector<bool>
SearchDriver::buildRoundTemplates(const std::vector<Candidate> &round) {
  std::vector<bool> whole(round.size(), options.buildAll);
  auto keysOf = [&] {
    std::vector<TemplateKey> keys;
    for (size_t r = 0; r < round.size(); ++r) {
      const Scenario &scenario = scenarios[round[r].scenario];
      keys.push_back(getTemplateKey(
          scenario.model, scenario.survivors[round[r].config], whole[r]));
    }
    return keys;
  };
  buildTemplates(keysOf(), /*showProgress=*/false);
  for (size_t r = 0; r < round.size(); ++r) {
    const Scenario &scenario = scenarios[round[r].scenario];
    const Configuration &c = scenario.survivors[round[r].config];
    auto it = templates.find(getTemplateKey(scenario.model, c, whole[r]));
    if (it == templates.end() || whole[r])
      continue;
    const std::vector<int64_t> &cut =
        cuts.at(getCutKey(models, scenario.model, c));
    for (size_t layer = 0; layer < cut.size(); ++layer)
      if (layer < it->second->stageOfLayer.size() &&
          it->second->stageOfLayer[layer] >= 0 && cut[layer] >= 0 &&
          it->second->stageOfLayer[layer] != cut[layer])
        whole[r] = true;
  }
  buildTemplates(keysOf(), /*showProgress=*/false);
  return whole;
}

void SearchDriver::evaluateRound(const std::vector<Candidate> &round,
                                 const std::vector<bool> &whole) {
  runParallel(
      round.size(), threads,
      [&](unsigned, size_t r) {
        Scenario &scenario = scenarios[round[r].scenario];
        size_t index = round[r].config;
        const Configuration &c = scenario.survivors[index];
        TemplateKey key = getTemplateKey(scenario.model, c, whole[r]);
        auto it = templates.find(key);
        if (it == templates.end()) {
          scenario.failures[index] = templateErrors.at(key);
          return;
        }
        // --simulate-all simulates every survivor in full anyway. An
        // interleaved pipeline is simulated in full: its period spans the
        // groups of pp microbatches, which the extrapolation points (2P,
        // 3P, 4P chunks) have not been checked to capture.
        StatusOr<Evaluation> evaluation = evaluateComposed(
            *it->second, c, *costModel,
            options.extrapolate && options.pruneByTime && c.interleave == 1);
        if (!evaluation)
          scenario.failures[index] = evaluation.message();
        else
          scenario.evaluations[index] = std::move(*evaluation);
      },
      progress, options.cancelled);
}

/// The extrapolated evaluations that may rank among the `top` (at their
/// best, against the threshold of those that surely do) are simulated in
/// full, until none is left: the table shows exact figures, and the ranks
/// are those of the full simulations.
void SearchDriver::confirmExtrapolated() {
  PhaseTimer timer(evaluateTime);
  size_t confirmed = 0;
  while (!isCancelled()) {
    std::vector<std::pair<size_t, size_t>> pending; // (scenario, config)
    for (size_t s = 0; s < scenarios.size(); ++s) {
      const Scenario &scenario = scenarios[s];
      double threshold = getThroughputThreshold(scenario);
      for (size_t i = 0; i < scenario.evaluations.size(); ++i) {
        const auto &evaluation = scenario.evaluations[i];
        if (evaluation && evaluation->method == Method::Extrapolated &&
            mayFit(*evaluation) &&
            getThroughput(*evaluation) * (1 + kExtrapolationMargin) >=
                threshold)
          pending.push_back({s, i});
      }
    }
    if (pending.empty())
      break;
    runParallel(
        pending.size(), threads,
        [&](unsigned, size_t p) {
          auto [s, index] = pending[p];
          Scenario &scenario = scenarios[s];
          const Configuration &c = scenario.survivors[index];
          const PipelineTemplate &stage =
              *templates.at(getTemplateKey(scenario.model, c, false));
          StatusOr<Evaluation> evaluation =
              evaluateComposed(stage, c, *costModel, /*extrapolate=*/false);
          if (!evaluation) {
            scenario.failures[index] = evaluation.message();
            scenario.evaluations[index].reset();
          } else {
            scenario.evaluations[index] = std::move(*evaluation);
          }
        },
        nullptr, options.cancelled);
    confirmed += pending.size();
  }
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << confirmed
                          << " extrapolated evaluations simulated in full\n");
}

//===----------------------------------------------------------------------===//
// 4. The reports
//===----------------------------------------------------------------------===//

void SearchDriver::completeEvaluation(Evaluation &evaluation,
                                      const Scenario &scenario,
                                      size_t i) const {
  const ModelFacts &modelFacts = facts[scenario.model];
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
}

std::vector<ScenarioReport> SearchDriver::makeReports() {
  double wallTimeS = secondsSince(started);
  std::vector<ScenarioReport> reports;
  for (Scenario &scenario : scenarios) {
    ScenarioReport &report = scenario.report;
    for (size_t i = 0; i < scenario.survivors.size(); ++i) {
      if (!scenario.failures[i].empty()) {
        ++report.buildFailures[scenario.failures[i]];
        continue;
      }
      if (!scenario.evaluations[i])
        continue;
      Evaluation evaluation = std::move(*scenario.evaluations[i]);
      completeEvaluation(evaluation, scenario, i);
      report.evaluations.push_back(std::move(evaluation));
    }
    rankEvaluations(report.evaluations);
    report.wallTimeS = wallTimeS;
    reports.push_back(std::move(report));
  }
  return reports;
}

StatusOr<std::vector<ScenarioReport>>
runSearch(const std::vector<ModelSource> &models,
          const SearchOptions &options) {
  static std::once_flag registered;
  std::call_once(registered, [] { distir::registerAllPasses(); });
  return SearchDriver(models, options).run();
}

} // namespace search
} // namespace distir
