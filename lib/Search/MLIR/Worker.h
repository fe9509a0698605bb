//===- Worker.h - One MLIRContext and what it builds ------------*- C++ -*-===//
//
// Everything MLIR of the search lives in the workers: each owns an
// MLIRContext (contexts are not shared, so no uniquing lock is contended and
// diagnostics stay with the worker that caused them) and caches the training
// steps it built by batch, so a step is differentiated once per worker and
// batch. Private to the search library.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_LIB_SEARCH_MLIR_WORKER_H
#define DISTIR_LIB_SEARCH_MLIR_WORKER_H

#include "distir/CostModel/CostModel.h"
#include "distir/Search/Compose.h"
#include "distir/Search/Search.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace distir {
namespace search {

/// A pass of a dist-opt pipeline: its name and its options as
/// `key=value key=value`.
struct PassStep {
  std::string name;
  std::string options;
};

/// The passes as the body of a module pipeline: `a{x=1},b`.
std::string renderPipeline(llvm::ArrayRef<PassStep> steps);
/// The passes as dist-opt options: ` --a="x=1 y=2" --b`.
std::string renderCommandLine(llvm::ArrayRef<PassStep> steps);

/// The dist-opt pass that parallelizes the training step for `config`, as
/// dist-parallelize spells it (docs/parallelize.md: a pp x dp x tp mesh, tp
/// innermost, the layout Space.h describes); the stage cut times the ops on
/// the search's cluster (named only when it is not the pass's default);
/// pipeline scatter/gather as SearchOptions::scatterGather says (named only
/// where it changes the program: tp > 1 and pp > 1).
PassStep getParallelizeStep(const Configuration &config,
                            const SearchOptions &options);
PassStep getAutodiffStep(const SearchOptions &options);
PassStep getRecomputeStep(Recompute recompute);

/// Collects the first error of the context as one line without location
/// (the reason configurations are counted by) and with it.
class ErrorCollector {
public:
  explicit ErrorCollector(mlir::MLIRContext &ctx);

  std::string take();
  std::string takeLocated();

private:
  std::string message, located;
  mlir::ScopedDiagnosticHandler handler;
};

/// The MLIR side of the search for one model. Its diagnostics become the
/// Status of the call (ErrorCollector): the MLIR-free search core counts
/// and reports configurations by those one-line messages.
class Worker {
public:
  Worker(const ModelSource &source, const SearchOptions &options);

  /// The batch a .mlir model is written for (dim 0 of its data).
  StatusOr<int64_t> getFileBatch();

  /// The training step for a global batch of `batch` with `recompute`
  /// (cached: differentiated once per batch, recomputed once per batch and
  /// mode), or the error.
  StatusOr<mlir::ModuleOp> getTrainingStep(int64_t batch, Recompute recompute);
  /// Facts of the model read off the training step of `batch`.
  StatusOr<ModelFacts> extractFacts(int64_t batch);
  /// dist-parallelize's program of dp x tp x pp devices, microbatches of
  /// `microbatchSize` samples per replica, `numMicrobatches` of them (with
  /// `schedule`), lowered: a whole configuration or the template composition
  /// stretches (Compose.h). `cutTimes`: the stage cut's times of this
  /// shape (getStageCuts), which spares the pass measuring them again.
  /// `interleave` > 1: the template's stages are the pp x interleave chunks.
  /// `sequenceParallel`: dist-parallelize's sequence-parallel=true; `zero`:
  /// its zero=.
  StatusOr<std::shared_ptr<const PipelineTemplate>>
  buildTemplate(int64_t dp, int64_t tp, int64_t pp, int64_t microbatchSize,
                int64_t numMicrobatches, Schedule schedule, Recompute recompute,
                int64_t interleave = 1, llvm::ArrayRef<double> cutTimes = {},
                bool sequenceParallel = false, int64_t zero = 0);
  /// The single-stage, single-microbatch build of dp x tp devices with
  /// `batchPerReplica` samples whose per-layer facts give the search's bounds
  /// (getMemoryLowerBound, getStepTimeLowerBound). A generated model's layers
  /// between the first (embeddings) and the last (head, loss) are the same
  /// ops on the same shapes (getFoldableLayers), so a model of four or more
  /// layers is built with three, its middle layer's facts standing for every
  /// middle layer (unfoldLayers): the bounds of the whole build at a
  /// fraction of its cost.
  /// Such a template has its per-layer facts only (`folded` is set); any
  /// other is the whole build, usable as the configuration's program.
  StatusOr<std::shared_ptr<const PipelineTemplate>>
  buildBoundsTemplate(int64_t dp, int64_t tp, int64_t batchPerReplica,
                      Recompute recompute, bool sequenceParallel, int64_t zero,
                      bool &folded);
  /// dist-parallelize's stage cuts of one template shape: dp x tp devices,
  /// microbatches of `microbatchSize` samples per replica, `numMicrobatches`
  /// of them. The ops are timed once (the cut balances time per microbatch,
  /// so the times depend on neither the stage count nor, once-per-step work
  /// left out, the microbatch count) and cut for each of `stageCounts`
  /// (pp, or pp x interleave chunks: the cut is the same).
  struct StageCuts {
    /// measureMicrobatchTimes per op of the step's body, in order (empty:
    /// the cut balances FLOPs); buildTemplate's `cutTimes`.
    std::vector<double> times;
    /// Per stage count, the stage of each layer (-1 for layer indices no op
    /// has), or why it cannot be cut.
    std::vector<StatusOr<std::vector<int64_t>>> stageOfLayer;
  };
  StageCuts getStageCuts(int64_t dp, int64_t tp, int64_t microbatchSize,
                         int64_t numMicrobatches, Recompute recompute,
                         llvm::ArrayRef<int64_t> stageCounts,
                         bool sequenceParallel = false);

private:
  /// The .mlir model, checked to have one function with a body.
  StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parseFile();
  StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> buildForward(int64_t batch);
  /// A file's forward program with its data arguments given `batch`.
  Status rebatchFile(mlir::ModuleOp module, int64_t batch);
  Status runPasses(mlir::ModuleOp module, llvm::ArrayRef<PassStep> steps);
  /// What getParallelizeStep's pass does to `module`, with the stage cut's
  /// times given (PipelineOptions::measuredTimes).
  Status parallelize(mlir::ModuleOp module, const Configuration &config,
                     llvm::ArrayRef<double> cutTimes);

  const ModelSource &source;
  const SearchOptions &options;
  cost::CostModel costModel;
  // One worker, one thread: the context needs no pool of its own.
  mlir::MLIRContext ctx{mlir::MLIRContext::Threading::DISABLED};
  ErrorCollector errors;
  /// getStageCuts' op times of `whole` (a foldable model's training step)
  /// measured on the model built with kFoldedLayers layers, each of the
  /// whole step's ops given its folded counterpart's time (the same op of
  /// the same layer kind at the same position); nullopt when the model does
  /// not fold or an op has no counterpart.
  std::optional<std::vector<double>>
  measureFolded(mlir::func::FuncOp whole, int64_t dp, int64_t tp,
                int64_t microbatchSize, int64_t numMicrobatches,
                Recompute recompute, int64_t numStages, bool sequenceParallel);
  /// The layers of a model whose middle layers are all the same (a
  /// generated GPT), 0 for any other or under --build-all.
  int64_t getFoldableLayers() const;
  /// Layers buildForward gives a generated model (0: the model's own).
  int64_t layersBuilt = 0;
  /// By (global batch, recompute, layersBuilt).
  std::map<std::tuple<int64_t, Recompute, int64_t>,
           mlir::OwningOpRef<mlir::ModuleOp>>
      trainingSteps;
};

} // namespace search
} // namespace distir

#endif // DISTIR_LIB_SEARCH_MLIR_WORKER_H
