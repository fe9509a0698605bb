//===- Space.cpp - Enumeration, validity rules and the memory bound -------===//

#include "distir/Search/Space.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <tuple>

namespace distir {
namespace search {

std::string Configuration::getScheduleLabel() const {
  if (!hasSchedule())
    return "-";
  std::string label(scheduleName(schedule));
  if (interleave > 1)
    label += " v" + std::to_string(interleave);
  return label;
}

std::string Configuration::str() const {
  std::ostringstream os;
  os << "dp=" << dp << " tp=" << tp << " pp=" << pp << " mb=" << microbatches;
  if (hasSchedule())
    os << " " << scheduleName(schedule);
  os << " batch=" << globalBatch;
  if (recompute != Recompute::None)
    os << " recompute=" << recomputeName(recompute);
  if (interleave > 1)
    os << " interleave=" << interleave;
  if (sequenceParallel)
    os << " sp";
  if (zero > 0)
    os << " zero=" << zero;
  return os.str();
}

static auto key(const Configuration &c) {
  return std::make_tuple(c.devices, c.globalBatch, c.pp, c.tp, c.dp,
                         c.microbatches, c.schedule, c.recompute, c.interleave,
                         c.sequenceParallel, c.zero);
}

bool Configuration::operator<(const Configuration &other) const {
  return key(*this) < key(other);
}

bool Configuration::operator==(const Configuration &other) const {
  return key(*this) == key(other);
}

static std::vector<int64_t> divisorsOf(int64_t n) {
  std::vector<int64_t> small, large;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0)
      continue;
    small.push_back(d);
    if (d != n / d)
      large.push_back(n / d);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

static bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/// Why `interleave` chunks per stage cannot run (empty: they can), as
/// dist-parallelize refuses them.
static std::string getInterleaveRejection(int64_t numLayers, int64_t pp,
                                          int64_t microbatches,
                                          int64_t interleave) {
  if (interleave == 1)
    return "";
  if (microbatches % pp != 0)
    return "interleave needs microbatches a multiple of pp";
  if (pp * interleave > numLayers)
    return "more model chunks (pp x interleave) than layers";
  return "";
}

namespace {
struct MeshShape {
  int64_t dp, tp, pp;
};
} // namespace

/// The (dp, tp, pp) of one device count and batch: every factorization of
/// `devices`, or with `devicesAtMost` one per (tp, pp) (SpaceOptions).
static std::vector<MeshShape> getMeshShapes(const ModelFacts &model,
                                            const SpaceOptions &options,
                                            int64_t devices, int64_t batch) {
  std::vector<MeshShape> shapes;
  auto inSpace = [&](int64_t n) {
    return !options.powersOfTwo || isPowerOfTwo(n);
  };
  if (!options.devicesAtMost) {
    for (int64_t dp : divisorsOf(devices))
      for (int64_t tp : divisorsOf(devices / dp)) {
        int64_t pp = devices / dp / tp;
        if (inSpace(dp) && inSpace(tp) && inSpace(pp))
          shapes.push_back({dp, tp, pp});
      }
    return shapes;
  }
  // A tp that splits no tensor evenly, or more stages than layers, cannot
  // run at any device count: they are outside this space rather than
  // invalid configurations of it.
  const int64_t numLayers = std::max<int64_t>(1, model.layers.size());
  for (int64_t tp = 1; tp <= devices; ++tp) {
    if (!inSpace(tp) ||
        std::any_of(model.tpDivides.begin(), model.tpDivides.end(),
                    [&](const auto &rule) { return rule.second % tp != 0; }))
      continue;
    for (int64_t pp = 1; pp <= std::min(devices / tp, numLayers); ++pp) {
      if (!inSpace(pp))
        continue;
      for (int64_t dp = devices / (tp * pp); dp >= 1; --dp)
        if (batch % dp == 0 && inSpace(dp)) {
          shapes.push_back({dp, tp, pp});
          break;
        }
    }
  }
  return shapes;
}

std::vector<Configuration> enumerateSpace(const ModelFacts &model,
                                          const SpaceOptions &options,
                                          RejectionCounts &rejected) {
  std::vector<Configuration> space;
  const int64_t numLayers = model.layers.size();
  for (int64_t limit : options.deviceCounts) {
    for (int64_t batch : options.globalBatches) {
      for (auto [dp, tp, pp] : getMeshShapes(model, options, limit, batch)) {
        const int64_t devices = dp * tp * pp;
        // The first rule broken is the reason; every microbatch count
        // and schedule of the (dp, tp, pp) shares it.
        std::string reason;
        for (const auto &[what, size] : model.tpDivides)
          if (reason.empty() && size % tp != 0)
            reason = "tp does not divide the " + what;
        if (reason.empty() && pp > numLayers)
          reason = "more pipeline stages than layers";
        if (reason.empty() && batch % dp != 0)
          reason = "dp does not divide the global batch";
        std::vector<int64_t> counts = options.microbatches;
        bool pipelined = pp > 1 || options.accumulateWithoutPipeline;
        if (!pipelined)
          counts = {1};
        else if (counts.empty() && reason.empty())
          for (int64_t m : divisorsOf(batch / dp))
            if (m <= options.maxMicrobatches)
              counts.push_back(m);
        if (counts.empty())
          counts = {1};
        for (int64_t m : counts) {
          std::string why = reason;
          if (why.empty() && (batch / dp) < m)
            why = "more microbatches than samples per replica";
          else if (why.empty() && (batch / dp) % m != 0)
            why = "microbatches do not divide the samples per replica";
          std::vector<Schedule> schedules = options.schedules;
          if (m == 1)
            schedules.resize(std::min<size_t>(schedules.size(), 1));
          for (Schedule schedule : schedules) {
            for (Recompute mode : options.recomputeModes) {
              for (int64_t interleave : options.interleaves) {
                // Interleaving is a 1F1B pipeline's: other configurations
                // have nothing to interleave (outside the space).
                if (interleave > 1 &&
                    (pp == 1 || m == 1 || schedule != Schedule::OneFOneB))
                  continue;
                std::string whyNot =
                    why.empty()
                        ? getInterleaveRejection(numLayers, pp, m, interleave)
                        : why;
                if (whyNot.empty() && mode != Recompute::None &&
                    !model.recomputedStashBytesPerSample.count(mode))
                  whyNot = "recompute=" + std::string(recomputeName(mode)) +
                           " recomputes nothing in this model";
                for (bool sequenceParallel : options.sequenceParallels) {
                  // Sequence parallelism splits over tp: nothing to split
                  // without it (outside the space).
                  if (sequenceParallel && tp == 1)
                    continue;
                  std::string reason = whyNot;
                  if (reason.empty() && sequenceParallel &&
                      model.tokensPerSample % tp != 0)
                    reason = "sequence-parallel: tp does not divide the "
                             "sequence";
                  for (int64_t zero : options.zeroStages) {
                    // ZeRO shards over dp: nothing to shard without it
                    // (outside the space).
                    if (zero > 0 && dp == 1)
                      continue;
                    std::string whyNotZero = reason;
                    if (whyNotZero.empty() && zero >= 2 && pp > 1)
                      whyNotZero = "zero=2 and zero=3 need pp = 1 (as "
                                   "DeepSpeed)";
                    // Stage 3 programs are built whole (Search.cpp): with
                    // many microbatches that exhausts memory (GPT-3 175B
                    // failed past 12 GB). Until composition handles its
                    // prefetch, the search leaves them out, saying so.
                    if (whyNotZero.empty() && zero == 3 && m > 2)
                      whyNotZero = "zero=3 with more than 2 microbatches is "
                                   "not composed by the search yet";
                    if (!whyNotZero.empty()) {
                      ++rejected[whyNotZero];
                      continue;
                    }
                    space.push_back({devices, batch, dp, tp, pp, m, schedule,
                                     mode, interleave, sequenceParallel, zero});
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return space;
}

int64_t getMicrobatchesInFlight(const Configuration &config, int64_t stage) {
  if (config.schedule == Schedule::GPipe)
    return config.microbatches;
  // Interleaved, the stage's first backward waits for min(pp, 2 (pp -
  // stage) - 1) microbatches whose every chunk has run forward (its warm-up
  // (pp - stage - 1) 2 + (interleave - 1) pp forwards and one): at least
  // 1F1B's count, which stays a lower bound.
  return std::min(config.pp - stage, config.microbatches);
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t estimateMemoryLowerBound(const ModelFacts &model,
                                 const Configuration &config) {
  int64_t parameters = 0, state = 0;
  double stashPerSample = 0;
  for (const LayerFacts &layer : model.layers) {
    parameters += layer.parameterBytes;
    state += layer.optimizerStateBytes;
    stashPerSample += layer.stashBytesPerSample;
  }
  // Recomputation keeps only the checkpoints: the clones' results are
  // transient, so the recomputed step's stash is still a lower bound.
  if (auto it = model.recomputedStashBytesPerSample.find(config.recompute);
      it != model.recomputedStashBytesPerSample.end()) {
    stashPerSample = 0;
    for (double bytes : it->second)
      stashPerSample += bytes;
  }
  const int64_t devicesPerReplica = config.pp * config.tp;
  // Some stage holds at least the average share of the parameters, the
  // optimizer state (updated in place) and the gradient buffers (held for
  // the whole step, at least the parameters' bytes); ZeRO keeps a 1/dp
  // share of what its stage shards.
  int64_t gradients = parameters;
  if (config.zero >= 1)
    state /= config.dp;
  if (config.zero >= 2)
    gradients /= config.dp;
  if (config.zero >= 3)
    parameters /= config.dp;
  int64_t persistent =
      ceilDiv(parameters + gradients + state, devicesPerReplica);
  // Inputs and labels may sit on different stages; only with one stage are
  // they known to share a device.
  int64_t data = config.pp == 1 ? model.dataBytesPerSample *
                                      (config.globalBatch / config.dp)
                                : 0;
  // Stage s holds k_s microbatches of its stash x_s; with the x_s summing
  // to X, max_s k_s x_s >= X / sum_s (1 / k_s), whatever the cut.
  double inverseInFlight = 0;
  for (int64_t s = 0; s < config.pp; ++s)
    inverseInFlight += 1.0 / double(getMicrobatchesInFlight(config, s));
  double stash = stashPerSample * double(config.getMicrobatchSize()) /
                 double(config.tp) / inverseInFlight;
  return data + std::max(persistent, int64_t(std::floor(stash)));
}

} // namespace search
} // namespace distir
