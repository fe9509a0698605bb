//===- TensorParallel.cpp - Megatron layouts or a layout map on tp -------===//
//
// Tensor parallelism is a sharding of the parameters: Megatron-LM's column /
// row split of each block's two matmuls, written as a layout map over
// dist-gen's parameter names, or the user's own map. Propagation carries the
// splits through the block (the attention by heads, since qkv columns are
// head-major), and partitioning inserts one all_reduce after each row-parallel
// matmul in forward and one for the input gradient of each column-parallel
// matmul in backward.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/LoopSharding.h"
#include "distir/Dialect/Dist/Transforms/Passes.h"
#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Regex.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTTENSORPARALLEL
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

/// The vocabulary-parallel parameters of Megatron-LM by dist-gen's names,
/// and the dimension of each that runs over the vocabulary: the word
/// embedding [V, h] (VocabParallelEmbedding) and the LM head [h, V]
/// (column-parallel, its cross entropy vocabulary-parallel).
static constexpr std::pair<StringLiteral, int64_t> kVocabParameters[] = {
    {"embed.tokens.weight", 0}, {"lm_head.weight", 1}};

/// Whether `size` shards divide the vocabulary of every vocabulary-parallel
/// parameter of `func` (Megatron pads the vocabulary to a multiple; a
/// vocabulary that does not divide stays replicated).
static bool vocabularyDivides(func::FuncOp func, int64_t size) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto name =
        func.getArgAttrOfType<StringAttr>(i, DistDialect::kNameAttrName);
    if (!name)
      continue;
    for (auto [parameter, dim] : kVocabParameters) {
      auto type = dyn_cast<RankedTensorType>(func.getArgument(i).getType());
      if (name.getValue() == parameter &&
          (!type || type.getRank() <= dim || type.isDynamicDim(dim) ||
           type.getDimSize(dim) % size != 0))
        return false;
    }
  }
  return true;
}

/// The layouts of Megatron-LM (Shoeybi et al. 2019, §3) by dist-gen's names:
/// MLP fc1 and attention qkv column-parallel, fc2 and proj row-parallel; the
/// layers of a plain MLP alternate, so that every pair needs one reduction.
/// With `splitVocabulary`, the word embedding and the LM head are split
/// along the vocabulary (their gradients and optimizer states follow by
/// name).
static LayoutMap buildMegatronMap(StringRef axis, bool splitVocabulary) {
  std::string a = axis.str();
  LayoutMap map;
  if (splitVocabulary)
    for (auto [parameter, dim] : kVocabParameters) {
      std::string pattern = "^" + llvm::Regex::escape(parameter);
      SmallVector<SmallVector<std::string, 1>> dims(2);
      dims[dim] = {a};
      map.addEntry(pattern, dims);
    }
  for (StringRef column : {"\\.attn\\.qkv\\.", "\\.mlp\\.fc1\\."}) {
    map.addEntry((column + "weight").str(), {{}, {a}});
    map.addEntry((column + "bias").str(), {{a}});
  }
  for (StringRef row : {"\\.attn\\.proj\\.", "\\.mlp\\.fc2\\."})
    map.addEntry((row + "weight").str(), {{a}, {}});
  map.addEntry("^layers\\.[0-9]*[02468]\\.weight", {{}, {a}});
  map.addEntry("^layers\\.[0-9]*[02468]\\.bias", {{a}});
  map.addEntry("^layers\\.[0-9]*[13579]\\.weight", {{a}, {}});
  return map;
}

/// The number of heads the output of a qkv projection is reshaped into: the
/// reshape dim that takes over the split of the projection's columns.
static std::optional<int64_t> findHeads(Value qkvWeight) {
  for (Operation *user : qkvWeight.getUsers()) {
    auto matmul = dyn_cast<MatmulOp>(user);
    if (!matmul || matmul.getRhs() != qkvWeight || matmul.getTransposeB())
      continue;
    Value value = matmul.getResult();
    // Through the bias add, to the reshape that splits the columns.
    for (int step = 0; step < 3; ++step) {
      if (!value.hasOneUse())
        break;
      Operation *next = *value.getUsers().begin();
      if (auto reshape = dyn_cast<ReshapeOp>(next)) {
        FailureOr<ShardingRule> rule = getShardingRule(reshape);
        if (failed(rule))
          return std::nullopt;
        int64_t columns = rule->operandDims[0].back();
        for (auto [dim, loop] : llvm::enumerate(rule->resultDims[0]))
          if (loop == columns)
            return reshape.getType().getDimSize(dim);
        return std::nullopt;
      }
      if (!isa<AddOp>(next))
        break;
      value = next->getResult(0);
    }
  }
  return std::nullopt;
}

LogicalResult mlir::dist::annotateSequenceParallel(func::FuncOp func,
                                                   MeshOp meshOp,
                                                   StringRef axisName) {
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> axis = mesh.getAxisIndex(axisName);
  if (!axis || mesh.getAxisSize(*axis) < 2)
    return func.emitError() << "sequence-parallel=true needs a \"" << axisName
                            << "\" axis of more than one device on mesh @"
                            << meshOp.getSymName();
  // The activations are found from the data arguments' batch.
  bool hasData = llvm::any_of(
      llvm::seq<unsigned>(0, func.getNumArguments()),
      [&](unsigned i) { return getArgRole(func, i) == Role::Data; });
  if (!hasData)
    return func.emitError() << "sequence-parallel=true needs the data "
                               "arguments marked with dist.role = \"data\"";
  func->setAttr(kSequenceParallelAttrName,
                StringAttr::get(func.getContext(), axisName));
  return success();
}

LogicalResult mlir::dist::annotateMegatron(func::FuncOp func, MeshOp meshOp,
                                           StringRef axisName) {
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> axis = mesh.getAxisIndex(axisName);
  if (!axis)
    return func.emitError() << "mesh @" << meshOp.getSymName()
                            << " has no axis \"" << axisName << "\"";
  int64_t size = mesh.getAxisSize(*axis);
  LayoutMap map =
      buildMegatronMap(axisName, size > 1 && vocabularyDivides(func, size));
  bool matched = false;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto name =
        func.getArgAttrOfType<StringAttr>(i, DistDialect::kNameAttrName);
    if (!name || !map.lookup(name.getValue()))
      continue;
    matched = true;
    if (!name.getValue().ends_with(".attn.qkv.weight"))
      continue;
    // Each device computes whole heads: the split must not cut one.
    std::optional<int64_t> heads = findHeads(func.getArgument(i));
    if (heads && *heads % size != 0)
      return func.emitError()
             << axisName << "=" << size << " does not divide the " << *heads
             << " attention heads of " << name.getValue();
  }
  if (matched)
    return annotateWithLayoutMap(func, meshOp, map);
  // An imported model: the pairs by structure.
  LayoutMap structural = findMegatronPairs(func, axisName, size);
  if (structural.getEntries().empty())
    return func.emitError()
           << "no parameter has a name Megatron layouts know (layers.N.weight, "
              "*.attn.qkv.*, *.attn.proj.*, *.mlp.fc1.*, *.mlp.fc2.*) and no "
              "column / row pair of parameter matmuls was found: give a "
              "layout map";
  return annotateWithLayoutMap(func, meshOp, structural);
}

namespace {
struct TensorParallelPass
    : public mlir::dist::impl::DistTensorParallelBase<TensorParallelPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<LayoutMap> map;
    if (!layoutMap.empty()) {
      FailureOr<LayoutMap> loaded =
          LayoutMap::load(layoutMap, [&] { return module.emitError(); });
      if (failed(loaded))
        return signalPassFailure();
      map = std::move(*loaded);
    }
    FailureOr<MeshOp> meshOp = getOrCreateMesh(
        module, mesh.getValue(), {{axis.getValue(), tp.getValue()}});
    if (failed(meshOp) ||
        failed(annotateAndPartition(
            module,
            [&](func::FuncOp func) {
              if (failed(
                      map ? annotateWithLayoutMap(func, *meshOp, *map)
                          : annotateMegatron(func, *meshOp, axis.getValue())))
                return failure();
              return sequenceParallel ? annotateSequenceParallel(
                                            func, *meshOp, axis.getValue())
                                      : success();
            },
            annotateOnly)))
      return signalPassFailure();
  }
};
} // namespace
