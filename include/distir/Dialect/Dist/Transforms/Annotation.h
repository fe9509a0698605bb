//===- Annotation.h - first shardings of a function -------------*- C++ -*-===//
//
// The annotators behind dist-data-parallel, dist-tensor-parallel and
// dist-parallelize: each puts `dist.sharding` on some arguments and results
// of an unplaced function, adding its own mesh axis to what is already there
// (so they compose). Propagation (Sharding.h) completes the rest.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_ANNOTATION_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_ANNOTATION_H

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/SequenceParallel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Regex;
} // namespace llvm

namespace mlir::dist {

/// Data parallelism: arguments with `dist.role = "data"` are split on dim 0
/// over `axis`; every other argument and every result gets (at least) a
/// replicated annotation over it, so gradients end as partial sums over
/// `axis` that partitioning all-reduces over the `axis` groups only.
/// Fails (at the argument) when the batch is not divisible by the axis size.
LogicalResult annotateDataParallel(func::FuncOp func, MeshOp mesh,
                                   llvm::StringRef axis);

/// dist-data-parallel's body: gets or creates mesh `meshName` with `axis` of
/// `dp` devices (0: the existing mesh's size), annotates every function
/// with a body, then propagates and partitions unless `annotateOnly`.
/// Returns the mesh.
FailureOr<MeshOp> applyDataParallel(ModuleOp module, llvm::StringRef meshName,
                                    llvm::StringRef axis, int64_t dp,
                                    bool annotateOnly);

/// A user layout map (Keras LayoutMap): ordered (regex, layout) pairs; the
/// first regex found in a parameter's `dist.name` (search, not full match)
/// gives its layout, a list with one entry per dim: null, an axis name or a
/// list of axis names.
class LayoutMap {
public:
  struct Entry {
    std::string pattern;
    /// Per dimension, axis names (major to minor).
    llvm::SmallVector<llvm::SmallVector<std::string, 1>> dims;
    /// `pattern` compiled once (shared: entries are copied with the map).
    std::shared_ptr<llvm::Regex> regex;
    /// Strings every match contains (getRequiredLiterals): a name without
    /// one of them is not matched without running the regex.
    std::vector<std::string> requiredLiterals;
  };
  /// Literal strings that any text in which the POSIX extended regex
  /// `pattern` is found must contain: the runs of literal characters, each
  /// cut before a quantified character. Empty for patterns with alternation
  /// or groups, where no run is certain to be needed.
  static std::vector<std::string> getRequiredLiterals(llvm::StringRef pattern);
  /// Parses JSON `text`; errors, reported on the diagnostic `emitError`
  /// opens, read "<sourceName>:<line>:<col>: ..." or name the offending key.
  static FailureOr<LayoutMap>
  parse(llvm::StringRef text, llvm::StringRef sourceName,
        llvm::function_ref<InFlightDiagnostic()> emitError);
  static FailureOr<LayoutMap>
  load(llvm::StringRef path,
       llvm::function_ref<InFlightDiagnostic()> emitError);

  /// Appends an entry; `pattern` must be a valid POSIX extended regex.
  void addEntry(std::string pattern,
                llvm::SmallVector<llvm::SmallVector<std::string, 1>> dims);
  llvm::ArrayRef<Entry> getEntries() const { return entries; }
  /// The first entry whose pattern is found in `name`, or null.
  const Entry *lookup(llvm::StringRef name) const;

private:
  llvm::SmallVector<Entry> entries;
};

/// Applies `map` to the parameters (`dist.role` "parameter" or
/// "optimizer_state") and to the results that carry parameter-like values
/// ("updated_parameter", "updated_optimizer_state", "gradient"), by their
/// `dist.name`; unmatched ones are replicated. Errors name the pattern or the
/// parameter: an axis the mesh does not have, a rank mismatch, a split that
/// does not divide.
LogicalResult annotateWithLayoutMap(func::FuncOp func, MeshOp mesh,
                                    const LayoutMap &map);

/// Megatron-LM tensor parallelism over `axis` by the parameter names of
/// dist-gen's models: column-parallel `*.attn.qkv.*` and `*.mlp.fc1.*`
/// (weights split on their output columns, biases split), row-parallel
/// `*.attn.proj.*` and `*.mlp.fc2.*` (weights split on their input rows,
/// biases replicated); plain MLPs (`layers.N.weight`) alternate column / row
/// by layer. Fails when the axis does not divide the attention heads or a
/// split dimension.
LogicalResult annotateMegatron(func::FuncOp func, MeshOp mesh,
                               llvm::StringRef axis);

/// Megatron-LM's column / row pairs of `func` found by structure, for a
/// program whose parameter names the layouts above do not know: a matmul
/// with a parameter weight split on its columns, followed through the ops
/// that keep the split (bias adds, activations, the reshape into heads and
/// per-head attention, with the q, k, v projections that attention pairs
/// with it) to the parameter matmuls that contract it, split on their rows.
/// Each parameter by name, split over `axis` of `size` devices; groups that
/// reach anything else stay replicated (StructuralTensorParallel.cpp).
LayoutMap findMegatronPairs(func::FuncOp func, llvm::StringRef axis,
                            int64_t size);

/// Asks for sequence parallelism over `axis` (kSequenceParallelAttrName,
/// IR/SequenceParallel.h): every activation the other shardings leave
/// replicated over the axis is split along its sequence dimension over it
/// instead, and partitioning re-gathers in backward what forward gathered
/// (docs/sharding.md).
/// Fails, naming the option, when the mesh has no such axis or it has one
/// device.
LogicalResult annotateSequenceParallel(func::FuncOp func, MeshOp mesh,
                                       llvm::StringRef axis);

/// dist-parallelize's annotation on a mesh with "dp" and "tp" axes: data
/// parallelism over "dp" when it has more than one device, then `layouts`
/// when given, else Megatron-LM's over "tp" when it has more than one device;
/// with `sequenceParallel`, sequence parallelism over "tp".
/// The search times its stage cuts with the same annotation.
LogicalResult annotateDataAndTensorParallel(func::FuncOp func, MeshOp mesh,
                                            const LayoutMap *layouts = nullptr,
                                            bool sequenceParallel = false);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_ANNOTATION_H
