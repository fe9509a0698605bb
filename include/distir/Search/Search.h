//===- Search.h - dist-search: the best configurations ----------*- C++ -*-===//
//
// The driver behind dist-search. For each model and device count:
//   1. the forward program is built (generator) or read (.mlir) and
//      differentiated once; its facts (per-layer parameters, optimizer state,
//      stashed activations, FLOPs) are read off the training step;
//   2. the space is enumerated (Space.h), invalid configurations counted by
//      reason, and those whose memory lower bound exceeds the capacity
//      pruned before anything is built;
//   3. the survivors are built in memory by the passes their command line
//      runs (dist-autodiff, dist-parallelize) and simulated, never through
//      text, on `threads` workers that each own an MLIRContext. A
//      configuration of more than two microbatches is composed from its
//      two-microbatch build (Compose.h), which gives the same program.
//      Survivors go best step-time bound first, in rounds; those whose
//      bound cannot reach the top are skipped. Results are ranked
//      deterministically (Report.h).
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SEARCH_SEARCH_H
#define DISTIR_SEARCH_SEARCH_H

#include "distir/Models/Models.h"
#include "distir/Search/Report.h"
#include "distir/Search/Space.h"
#include "distir/Simulator/Framework.h"
#include "distir/Support/Status.h"
#include "distir/Topology/Cluster.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distir {
namespace search {

/// A model as the user names it: a generator spec
/// (`gpt:layers=96,hidden=12288,heads=96,seq=2048,vocab=51200[,dtype=bf16]`,
/// `mlp:layers=16,hidden=8192[,input=D][,dtype=f32]`), a preset (`mlp-small`,
/// `mlp-medium`, `mlp-large`, `gpt3-175b`, ...) or a forward .mlir file.
struct ModelSource {
  enum class Kind { Mlp, Gpt, File };
  Kind kind = Kind::File;
  /// As given on the command line (the table's model name).
  std::string spec;
  models::MlpConfig mlp;
  models::GptConfig gpt;
  /// Kind::File: the path and its contents.
  std::string path;
  std::shared_ptr<const std::string> text;

  /// Parses `spec`; a file is read here. Errors name the spec or the key.
  static StatusOr<ModelSource> parse(const std::string &spec);
  /// Names of the presets with their generator specs, for --help.
  static std::vector<std::pair<std::string, std::string>> presets();
  /// The shell words that print the forward program for `batch`: a dist-gen
  /// command, or the file itself (`cat FILE`).
  std::string getForwardCommand(int64_t batch) const;
};

struct SearchOptions {
  SpaceOptions space;
  topology::Cluster cluster;
  /// As given (for the reproduction commands).
  std::string clusterSpec;
  /// What runs the configurations (dist-sim --framework) and its spec.
  sim::Framework framework;
  std::string frameworkSpec = "megatron-core";
  /// dist-parallelize's scatter-gather: pipeline activations and gradients
  /// sent as 1/tp slices and all-gathered over tp.
  bool scatterGather = false;
  /// dist-autodiff's optimizer: sgd or adam.
  ::mlir::dist::Optimizer optimizer = ::mlir::dist::Optimizer::Adam;
  /// dist-autodiff's precision: auto (mixed for f16/bf16 models), model or
  /// mixed.
  ::mlir::dist::Precision precision = ::mlir::dist::Precision::Auto;
  /// A configuration fits when its peak is at most this fraction of the
  /// device memory.
  double maxMemoryFraction = 1.0;
  /// Worker threads; 0: the hardware's.
  unsigned threads = 0;
  /// Configurations the table ranks: the time bound keeps what can be among
  /// them.
  size_t top = 10;
  /// Skip composed configurations whose throughput bound (Compose.h) cannot
  /// reach the `top`-th best that fits; off: simulate every survivor.
  bool pruneByTime = true;
  /// Build every configuration in full with dist-parallelize instead of
  /// composing it from its two-microbatch template, and the bounds' builds
  /// with all their layers (slow: time grows with layers x microbatches);
  /// the reference the composition and the folding are tested on.
  bool buildAll = false;
  /// Rank long pipelines by their extrapolated step time and peak
  /// (evaluateComposed), then simulate in full the ones that can reach the
  /// `top`: the shown rows stay exact. Off: simulate every evaluation in
  /// full.
  bool extrapolate = true;
  /// Print where the time goes (phases, builds, simulations) on stderr.
  bool timing = false;
  /// Called from the calling thread with (done, total) as work completes.
  std::function<void(int64_t, int64_t)> progress;
  /// Asked from every thread before each unit of work (may be empty): once
  /// true, the search stops and fails with "interrupted" (Ctrl-C in the
  /// Python package).
  std::function<bool()> cancelled;
};

/// Searches every (model, device count) scenario; one report each, in the
/// order of `models` then `options.space.deviceCounts`. Fails with a one-line
/// error for a model that cannot be read or differentiated (naming the
/// file:line:col or the spec) or a device count beyond the cluster.
StatusOr<std::vector<ScenarioReport>>
runSearch(const std::vector<ModelSource> &models, const SearchOptions &options);

} // namespace search
} // namespace distir

#endif // DISTIR_SEARCH_SEARCH_H
