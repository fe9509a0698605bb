//===- DistShardingRules.cpp - how each dist op may be split -------------===//
//
// ShardingRuleOpInterface::buildShardingLoops of the compute ops that are not
// elementwise (those get the rule below from their Dist_Elementwise trait,
// as upstream's ElementwiseShardingInterface), and the rewrite of
// the attributes that hold global shapes once an op works on local shapes.
// Splits are only declared where running the op unchanged on each device's
// block (then summing, for reductions) gives the block of the global result.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/ShardingRule.h"
#include "distir/ShapeInference/ShapeRules.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dist;
namespace shapes = distir::shapes;

using Rule = ShardingRule;
static constexpr int64_t kNone = ShardingRule::kNoLoop;

//===----------------------------------------------------------------------===//
// ShardingRule
//===----------------------------------------------------------------------===//

SmallVector<int64_t> ShardingRule::addLoops(int64_t rank, bool splittable) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(addLoop(splittable));
  return dims;
}

bool ShardingRule::isInResult(int64_t loop, unsigned result) const {
  return llvm::is_contained(resultDims[result], loop);
}

bool ShardingRule::isUsed(int64_t loop) const {
  auto contains = [&](const SmallVector<int64_t> &dims) {
    return llvm::is_contained(dims, loop);
  };
  return llvm::any_of(operandDims, contains) ||
         llvm::any_of(resultDims, contains);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Maps a broadcast operand's dims onto the loops of the result dims
/// (aligned on the right): a dim of size 1 stretched to more maps to none.
static SmallVector<int64_t> broadcastDims(RankedTensorType operand,
                                          ArrayRef<int64_t> resultShape,
                                          ArrayRef<int64_t> resultLoops) {
  SmallVector<int64_t> dims;
  int64_t offset = resultShape.size() - operand.getRank();
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    int64_t size = operand.getDimSize(d), target = resultShape[d + offset];
    dims.push_back(size == 1 && target != 1 ? kNone : resultLoops[d + offset]);
  }
  return dims;
}

void mlir::dist::detail::buildElementwiseShardingLoops(Operation *op,
                                                       Rule &rule) {
  auto result = tensorType(op->getResult(0));
  SmallVector<int64_t> loops = rule.addLoops(result.getRank());
  for (Value operand : op->getOperands())
    rule.addOperand(
        broadcastDims(tensorType(operand), result.getShape(), loops));
  // Several results (dropout_train's value and mask) have the same shape.
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    rule.addResult(loops);
}

void mlir::dist::detail::setJointlyLinear(Operation *op, Rule &rule) {
  rule.linearity = Rule::Linearity::Joint;
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    rule.linearOperands.push_back(i);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult AdamUpdateOp::buildShardingLoops(ShardingRule &rule) {
  SmallVector<int64_t> loops = rule.addLoops(getParam().getType().getRank());
  for (Value operand : getOperation()->getOperands()) {
    if (operand == getStep()) {
      // One element shared by every device.
      rule.addOperand(
          SmallVector<int64_t>(getStep().getType().getRank(), kNone));
      continue;
    }
    rule.addOperand(loops);
  }
  for (unsigned i = 0; i < 3; ++i)
    rule.addResult(loops);
  return success();
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::buildShardingLoops(ShardingRule &rule) {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType();
  RankedTensorType result = getType();
  bool lhsVector = lhs.getRank() == 1, rhsVector = rhs.getRank() == 1;
  int64_t batchRank =
      result.getRank() - (lhsVector ? 0 : 1) - (rhsVector ? 0 : 1);
  SmallVector<int64_t> batchLoops = rule.addLoops(batchRank);
  ArrayRef<int64_t> batchShape = result.getShape().take_front(batchRank);
  int64_t m = lhsVector ? kNone : rule.addLoop();
  int64_t n = rhsVector ? kNone : rule.addLoop();
  int64_t k = rule.addLoop();

  // The batch dims of an operand broadcast against the result's.
  auto operandDims = [&](RankedTensorType type, int64_t rowLoop,
                         int64_t colLoop) -> SmallVector<int64_t> {
    if (type.getRank() == 1)
      return {k};
    auto batch = RankedTensorType::get(type.getShape().drop_back(2),
                                       type.getElementType());
    SmallVector<int64_t> dims = broadcastDims(batch, batchShape, batchLoops);
    dims.append({rowLoop, colLoop});
    return dims;
  };
  rule.addOperand(getTransposeA() ? operandDims(lhs, k, m)
                                  : operandDims(lhs, m, k));
  rule.addOperand(getTransposeB() ? operandDims(rhs, n, k)
                                  : operandDims(rhs, k, n));
  SmallVector<int64_t> resultDims(batchLoops);
  if (m != kNone)
    resultDims.push_back(m);
  if (n != kNone)
    resultDims.push_back(n);
  rule.addResult(resultDims);
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax and normalization
//===----------------------------------------------------------------------===//

/// One loop per dim; the dims in `whole` are needed whole on every device.
static SmallVector<int64_t> loopsExcept(Rule &rule, int64_t rank,
                                        ArrayRef<int64_t> whole) {
  SmallVector<int64_t> loops;
  for (int64_t d = 0; d < rank; ++d)
    loops.push_back(rule.addLoop(!llvm::is_contained(whole, d)));
  return loops;
}

LogicalResult SoftmaxOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getType().getRank();
  SmallVector<int64_t> whole{
      shapes::normalizeVerifiedAxis((int64_t)getAxis(), rank)};
  // The causal mask compares global row and column indices.
  if (getCausal())
    whole = {rank - 2, rank - 1};
  SmallVector<int64_t> loops = loopsExcept(rule, rank, whole);
  rule.addOperand(loops);
  rule.addResult(loops);
  return success();
}

/// Every operand and the result run over the same loops; `axis` whole.
static void buildAxisRule(Operation *op, int64_t rawAxis, Rule &rule) {
  int64_t rank = tensorType(op->getResult(0)).getRank();
  SmallVector<int64_t> loops =
      loopsExcept(rule, rank, {shapes::normalizeVerifiedAxis(rawAxis, rank)});
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    rule.addOperand(loops);
  rule.addResult(loops);
}

LogicalResult LogSoftmaxOp::buildShardingLoops(ShardingRule &rule) {
  buildAxisRule(*this, getAxis(), rule);
  return success();
}

LogicalResult SoftmaxGradOp::buildShardingLoops(ShardingRule &rule) {
  buildAxisRule(*this, getAxis(), rule);
  return success();
}

LogicalResult LogSoftmaxGradOp::buildShardingLoops(ShardingRule &rule) {
  buildAxisRule(*this, getAxis(), rule);
  return success();
}

/// Loops of a layer_norm input: the normalized dims [axis, rank) whole.
static SmallVector<int64_t>
layerNormLoops(Rule &rule, int64_t rank, int64_t axis,
               SmallVectorImpl<int64_t> &normalized) {
  SmallVector<int64_t> loops;
  for (int64_t d = 0; d < rank; ++d)
    loops.push_back(rule.addLoop(/*splittable=*/d < axis));
  normalized.assign(loops.begin() + axis, loops.end());
  return loops;
}

LogicalResult LayerNormOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getType().getRank();
  SmallVector<int64_t> normalized;
  SmallVector<int64_t> loops = layerNormLoops(
      rule, rank, shapes::normalizeVerifiedAxis((int64_t)getAxis(), rank),
      normalized);
  rule.addOperand(loops);
  rule.addOperand(normalized);
  rule.addOperand(normalized);
  rule.addResult(loops);
  return success();
}

LogicalResult LayerNormGradOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getInput().getType().getRank();
  SmallVector<int64_t> normalized;
  SmallVector<int64_t> loops = layerNormLoops(
      rule, rank, shapes::normalizeVerifiedAxis((int64_t)getAxis(), rank),
      normalized);
  rule.addOperand(loops);
  rule.addOperand(loops);
  rule.addOperand(normalized);
  // Scale and bias gradients sum over the leading dims.
  rule.addResult(loops);
  rule.addResult(normalized);
  rule.addResult(normalized);
  return success();
}

LogicalResult BatchNormOp::buildShardingLoops(ShardingRule &rule) {
  SmallVector<int64_t> loops = rule.addLoops(getType().getRank());
  rule.addOperand(loops);
  for (int i = 0; i < 4; ++i)
    rule.addOperand({loops[1]});
  rule.addResult(loops);
  return success();
}

LogicalResult BatchNormGradOp::buildShardingLoops(ShardingRule &rule) {
  SmallVector<int64_t> loops = rule.addLoops(getInput().getType().getRank());
  rule.addOperand(loops);
  rule.addOperand(loops);
  for (int i = 0; i < 3; ++i)
    rule.addOperand({loops[1]});
  rule.addResult(loops);
  rule.addResult({loops[1]});
  rule.addResult({loops[1]});
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::buildShardingLoops(ShardingRule &rule) {
  SmallVector<int64_t> loops = rule.addLoops(getInput().getType().getRank());
  rule.addOperand(loops);
  SmallVector<int64_t> resultDims;
  for (int64_t p : getPermutation())
    resultDims.push_back(loops[p]);
  rule.addResult(resultDims);
  return success();
}

LogicalResult ReshapeOp::buildShardingLoops(ShardingRule &rule) {
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> out = getType().getShape();
  SmallVector<int64_t> inDims(in.size(), kNone), outDims(out.size(), kNone);
  auto isPlain = [](ArrayRef<int64_t> shape) {
    return llvm::all_of(shape, [](int64_t d) { return d > 0; });
  };
  size_t i = 0, j = 0;
  if (isPlain(in) && isPlain(out)) {
    // Groups of consecutive dims with equal products (row-major
    // reassociation). Only the major non-unit factors of a group share a
    // loop: their blocks are the same contiguous ranges of elements.
    while (i < in.size() && j < out.size()) {
      size_t i0 = i, j0 = j;
      int64_t pi = in[i++], pj = out[j++];
      while (pi != pj) {
        if (pi < pj && i < in.size())
          pi *= in[i++];
        else if (pj < pi && j < out.size())
          pj *= out[j++];
        else
          break;
      }
      if (pi != pj)
        break;
      size_t iMajor = i0, jMajor = j0;
      while (iMajor + 1 < i && in[iMajor] == 1)
        ++iMajor;
      while (jMajor + 1 < j && out[jMajor] == 1)
        ++jMajor;
      int64_t shared = rule.addLoop();
      inDims[iMajor] = outDims[jMajor] = shared;
      for (size_t d = i0; d < i; ++d)
        if (d != iMajor)
          inDims[d] = rule.addLoop(/*splittable=*/false);
      for (size_t d = j0; d < j; ++d)
        if (d != jMajor)
          outDims[d] = rule.addLoop(/*splittable=*/false);
    }
  }
  // Whatever is left (unit dims, dynamic or empty shapes) stays whole.
  for (int64_t &dim : inDims)
    if (dim == kNone)
      dim = rule.addLoop(/*splittable=*/false);
  for (int64_t &dim : outDims)
    if (dim == kNone)
      dim = rule.addLoop(/*splittable=*/false);
  rule.addOperand(inDims);
  rule.addResult(outDims);
  return success();
}

LogicalResult ConcatOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getType().getRank();
  SmallVector<int64_t> loops = loopsExcept(
      rule, rank, {shapes::normalizeVerifiedAxis((int64_t)getAxis(), rank)});
  for (unsigned i = 0; i < getInputs().size(); ++i)
    rule.addOperand(loops);
  rule.addResult(loops);
  return success();
}

LogicalResult SliceOp::buildShardingLoops(ShardingRule &rule) {
  RankedTensorType input = getInput().getType();
  SmallVector<int64_t> whole;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (getStarts()[d] != 0 || getStrides()[d] != 1 ||
        getLimits()[d] != input.getDimSize(d))
      whole.push_back(d);
  SmallVector<int64_t> loops = loopsExcept(rule, input.getRank(), whole);
  rule.addOperand(loops);
  rule.addResult(loops);
  return success();
}

LogicalResult SplitOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getInput().getType().getRank();
  SmallVector<int64_t> loops = loopsExcept(
      rule, rank, {shapes::normalizeVerifiedAxis((int64_t)getAxis(), rank)});
  rule.addOperand(loops);
  for (unsigned i = 0; i < getNumResults(); ++i)
    rule.addResult(loops);
  return success();
}

LogicalResult PadOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getInput().getType().getRank();
  SmallVector<int64_t> whole;
  for (int64_t d = 0; d < rank; ++d)
    if (getLow()[d] || getHigh()[d] || getInterior()[d])
      whole.push_back(d);
  SmallVector<int64_t> loops = loopsExcept(rule, rank, whole);
  rule.addOperand(loops);
  rule.addResult(loops);
  return success();
}

/// The loops of a take table's (or take_grad result's) dims: the gathered
/// axis splits only through the masked lookup of the local expansion, and
/// only for floats (the blocks' results are summed).
static SmallVector<int64_t> takeTableLoops(Rule &rule, RankedTensorType table,
                                           int64_t axis) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < table.getRank(); ++d)
    dims.push_back(d != axis ? rule.addLoop()
                   : isa<FloatType>(table.getElementType())
                       ? rule.addExpandingLoop()
                       : rule.addLoop(/*splittable=*/false));
  return dims;
}

LogicalResult TakeOp::buildShardingLoops(ShardingRule &rule) {
  RankedTensorType input = getInput().getType();
  int64_t axis =
      shapes::normalizeVerifiedAxis((int64_t)getAxis(), input.getRank());
  // Split along the gathered axis, each device looks up the rows of its
  // block (zeros elsewhere): the axis is a sum reduction of the result.
  SmallVector<int64_t> inputDims = takeTableLoops(rule, input, axis);
  SmallVector<int64_t> indexDims =
      rule.addLoops(getIndices().getType().getRank());
  rule.addOperand(inputDims);
  rule.addOperand(indexDims);
  if (getBlock())
    rule.addOperand({});
  SmallVector<int64_t> resultDims(
      ArrayRef<int64_t>(inputDims).take_front(axis));
  llvm::append_range(resultDims, indexDims);
  llvm::append_range(resultDims, ArrayRef(inputDims).drop_front(axis + 1));
  rule.addResult(resultDims);
  return success();
}

/// The block a device holds of a value split over `groups`: its rank in its
/// group.
static Value buildBlockIndex(OpBuilder &builder, Location loc,
                             DeviceGroupsAttr groups) {
  Type i64 = builder.getI64Type();
  return GroupRankOp::create(
      builder, loc, RankedTensorType::get({}, i64, groups.getUnion()), groups);
}

FailureOr<SmallVector<Value>>
TakeOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                            const LocalExpansion &expansion) {
  int64_t axis = shapes::normalizeVerifiedAxis((int64_t)getAxis(),
                                               getInput().getType().getRank());
  if (getBlock() || !expansion.isSplit(axis))
    return emitOpError("has no local form for this split");
  Value block = buildBlockIndex(builder, getLoc(), expansion.loopGroups[axis]);
  Value local =
      TakeOp::create(builder, getLoc(), operands[0], operands[1], axis, block);
  return SmallVector<Value>{local};
}

//===----------------------------------------------------------------------===//
// Training dropout
//===----------------------------------------------------------------------===//

/// Elementwise, but split, a device must draw the mask of its block of the
/// reference tensor: every loop expands (buildLocalExpansion adds the
/// device's block index along each split dimension).
LogicalResult DropoutTrainOp::buildShardingLoops(ShardingRule &rule) {
  SmallVector<int64_t> loops;
  for (int64_t d = 0, e = getResult().getType().getRank(); d < e; ++d)
    loops.push_back(rule.addExpandingLoop());
  rule.addOperand(loops);
  for (size_t i = 0, e = getBlocks().size(); i < e; ++i)
    rule.addOperand({});
  rule.addResult(loops);
  rule.addResult(loops);
  return success();
}

FailureOr<SmallVector<Value>>
DropoutTrainOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                                    const LocalExpansion &expansion) {
  SmallVector<Value> blocks(operands.drop_front());
  SmallVector<int64_t> dims(getBlockDims()), sizes(getBlockSizes());
  RankedTensorType local = expansion.resultTypes.front();
  // Loop d runs over dimension d (buildShardingLoops).
  for (int64_t d = 0; d < local.getRank(); ++d) {
    if (!expansion.isSplit(d))
      continue;
    blocks.push_back(
        buildBlockIndex(builder, getLoc(), expansion.loopGroups[d]));
    dims.push_back(d);
    sizes.push_back(local.getDimSize(d));
  }
  SmallVector<Type> resultTypes(expansion.resultTypes.begin(),
                                expansion.resultTypes.end());
  auto dropout = DropoutTrainOp::create(
      builder, getLoc(), resultTypes, operands.front(), blocks, getRatioAttr(),
      getIdAttr(), getSeedAttr(),
      builder.getDenseI64ArrayAttr(getReferenceShapeOrResultShape()),
      getReferenceOffsetAttr(), builder.getDenseI64ArrayAttr(dims),
      builder.getDenseI64ArrayAttr(sizes));
  return SmallVector<Value>{Value(dropout.getResult()),
                            Value(dropout.getKeep())};
}

//===----------------------------------------------------------------------===//
// Fused attention
//===----------------------------------------------------------------------===//

namespace {
/// The loops of a fused attention op: batch and heads split freely (through
/// the local expansion when the probabilities are dropped, so that each
/// device draws its block of the masks); the query and key sequences and
/// the head dims are needed whole.
struct AttentionLoops {
  int64_t batch, heads, queries, keys, headDim, valueDim;

  AttentionLoops(Rule &rule, bool dropout) {
    batch = dropout ? rule.addExpandingLoop() : rule.addLoop();
    heads = dropout ? rule.addExpandingLoop() : rule.addLoop();
    queries = rule.addLoop(/*splittable=*/false);
    keys = rule.addLoop(/*splittable=*/false);
    headDim = rule.addLoop(/*splittable=*/false);
    valueDim = rule.addLoop(/*splittable=*/false);
  }
  SmallVector<int64_t> query() const {
    return {batch, heads, queries, headDim};
  }
  SmallVector<int64_t> key() const { return {batch, heads, keys, headDim}; }
  SmallVector<int64_t> value() const { return {batch, heads, keys, valueDim}; }
  SmallVector<int64_t> output() const {
    return {batch, heads, queries, valueDim};
  }
  SmallVector<int64_t> logsumexp() const { return {batch, heads, queries}; }
};
} // namespace

LogicalResult AttentionOp::buildShardingLoops(ShardingRule &rule) {
  AttentionLoops loops(rule, getDropoutRatio().convertToDouble() > 0.0);
  for (const SmallVector<int64_t> &dims :
       {loops.query(), loops.key(), loops.value()})
    rule.addOperand(dims);
  for (size_t i = 0, e = getBlocks().size(); i < e; ++i)
    rule.addOperand({});
  rule.addResult(loops.output());
  rule.addResult(loops.logsumexp());
  return success();
}

LogicalResult AttentionGradOp::buildShardingLoops(ShardingRule &rule) {
  AttentionLoops loops(rule, getDropoutRatio().convertToDouble() > 0.0);
  for (const SmallVector<int64_t> &dims :
       {loops.query(), loops.key(), loops.value(), loops.output(),
        loops.logsumexp(), loops.output()})
    rule.addOperand(dims);
  for (size_t i = 0, e = getBlocks().size(); i < e; ++i)
    rule.addOperand({});
  rule.addResult(loops.query());
  rule.addResult(loops.key());
  rule.addResult(loops.value());
  return success();
}

/// The op on local operands whose dropout draws the device's block of the
/// reference probabilities: as dist.dropout_train's expansion, a block index
/// per split batch or head dimension (loops 0 and 1, dimensions 0 and 1 of
/// the probabilities and of every result).
template <typename OpTy>
static SmallVector<Value> expandAttention(OpTy op, OpBuilder &builder,
                                          ValueRange operands,
                                          const LocalExpansion &expansion) {
  SmallVector<Value> newOperands(operands.begin(), operands.end());
  SmallVector<int64_t> dims(op.getBlockDims()), sizes(op.getBlockSizes());
  RankedTensorType local = expansion.resultTypes.front();
  for (int64_t d = 0; d < 2; ++d) {
    if (!expansion.isSplit(d))
      continue;
    newOperands.push_back(
        buildBlockIndex(builder, op.getLoc(), expansion.loopGroups[d]));
    dims.push_back(d);
    sizes.push_back(local.getDimSize(d));
  }
  NamedAttrList attributes(op->getAttrs());
  attributes.set(
      op.getReferenceShapeAttrName(),
      builder.getDenseI64ArrayAttr(op.getReferenceShapeOrProbsShape()));
  attributes.set(op.getBlockDimsAttrName(), builder.getDenseI64ArrayAttr(dims));
  attributes.set(op.getBlockSizesAttrName(),
                 builder.getDenseI64ArrayAttr(sizes));
  OperationState state(op.getLoc(), op->getName());
  state.addOperands(newOperands);
  state.addTypes(SmallVector<Type>(expansion.resultTypes.begin(),
                                   expansion.resultTypes.end()));
  state.addAttributes(attributes);
  Operation *expanded = builder.create(state);
  return SmallVector<Value>(expanded->getResults());
}

FailureOr<SmallVector<Value>>
AttentionOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                                 const LocalExpansion &expansion) {
  return expandAttention(*this, builder, operands, expansion);
}

FailureOr<SmallVector<Value>>
AttentionGradOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                                     const LocalExpansion &expansion) {
  return expandAttention(*this, builder, operands, expansion);
}

LogicalResult TakeGradOp::buildShardingLoops(ShardingRule &rule) {
  RankedTensorType result = getType();
  int64_t axis =
      shapes::normalizeVerifiedAxis((int64_t)getAxis(), result.getRank());
  int64_t indexRank = getIndices().getType().getRank();
  // Split along the take axis, each device scatters into its block only.
  SmallVector<int64_t> resultDims = takeTableLoops(rule, result, axis);
  SmallVector<int64_t> indexDims = rule.addLoops(indexRank);
  // The scatter-add sums over the index dims: split, they leave partials.
  SmallVector<int64_t> gradDims(ArrayRef<int64_t>(resultDims).take_front(axis));
  llvm::append_range(gradDims, indexDims);
  llvm::append_range(gradDims, ArrayRef(resultDims).drop_front(axis + 1));
  rule.addOperand(gradDims);
  rule.addOperand(indexDims);
  if (getBlock())
    rule.addOperand({});
  rule.addResult(resultDims);
  return success();
}

FailureOr<SmallVector<Value>>
TakeGradOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                                const LocalExpansion &expansion) {
  int64_t axis =
      shapes::normalizeVerifiedAxis((int64_t)getAxis(), getType().getRank());
  if (getBlock() || !expansion.isSplit(axis))
    return emitOpError("has no local form for this split");
  Value block = buildBlockIndex(builder, getLoc(), expansion.loopGroups[axis]);
  int64_t localSize = expansion.resultTypes[0].getDimSize(axis);
  Value local = TakeGradOp::create(builder, getLoc(), operands[0], operands[1],
                                   axis, localSize, block);
  return SmallVector<Value>{local};
}

LogicalResult ExpandOp::buildShardingLoops(ShardingRule &rule) {
  RankedTensorType result = getType();
  SmallVector<int64_t> loops = rule.addLoops(result.getRank());
  rule.addOperand(
      broadcastDims(getInput().getType(), result.getShape(), loops));
  rule.addResult(loops);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and losses
//===----------------------------------------------------------------------===//

/// Reduced dims are loops absent from the result (kept dims of size 1 map to
/// none); `mean` marks them normalized.
/// `max` keeps the reduced dims whole: a maximum of blocks is no sum.
static void buildReduceRule(Rule &rule, RankedTensorType input,
                            ArrayRef<int64_t> axes, bool keepdims, bool mean,
                            bool max = false) {
  int64_t rank = input.getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes)
    reduced[shapes::normalizeVerifiedAxis(axis, rank)] = true;
  SmallVector<int64_t> loops, resultDims;
  for (int64_t d = 0; d < rank; ++d) {
    loops.push_back(
        rule.addLoop(/*splittable=*/!(max && reduced[d]), mean && reduced[d]));
    if (!reduced[d])
      resultDims.push_back(loops.back());
    else if (keepdims)
      resultDims.push_back(kNone);
  }
  rule.addOperand(loops);
  rule.addResult(resultDims);
}

LogicalResult ReduceSumOp::buildShardingLoops(ShardingRule &rule) {
  buildReduceRule(rule, getInput().getType(), getAxes(), getKeepdims(),
                  /*mean=*/false);
  return success();
}

LogicalResult ReduceMeanOp::buildShardingLoops(ShardingRule &rule) {
  buildReduceRule(rule, getInput().getType(), getAxes(), getKeepdims(),
                  /*mean=*/true);
  return success();
}

LogicalResult ReduceMaxOp::buildShardingLoops(ShardingRule &rule) {
  buildReduceRule(rule, getInput().getType(), getAxes(), getKeepdims(),
                  /*mean=*/false, /*max=*/true);
  return success();
}

LogicalResult OneHotOp::buildShardingLoops(ShardingRule &rule) {
  RankedTensorType result = getType();
  int64_t axis =
      shapes::normalizeVerifiedAxis((int64_t)getAxis(), result.getRank());
  SmallVector<int64_t> indexDims =
      rule.addLoops(getIndices().getType().getRank());
  SmallVector<int64_t> resultDims(indexDims);
  resultDims.insert(resultDims.begin() + axis,
                    rule.addLoop(/*splittable=*/false));
  rule.addOperand(indexDims);
  if (getBlock())
    rule.addOperand({});
  rule.addResult(resultDims);
  return success();
}

/// Loops of cross_entropy's logits: the sample loops normalized for a mean.
/// A mean with weights or an ignore_index divides by a data-dependent count
/// that one device cannot know: samples stay whole. The class axis splits
/// through the local expansion (Megatron-LM's vocabulary-parallel cross
/// entropy), which handles neither weights nor ignored samples.
static SmallVector<int64_t>
crossEntropyLoops(Rule &rule, int64_t rank, int64_t classAxis,
                  LossReduction reduction, bool dataDependentMean,
                  SmallVectorImpl<int64_t> &samples) {
  bool mean = reduction == LossReduction::mean;
  SmallVector<int64_t> loops;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == classAxis) {
      loops.push_back(dataDependentMean ? rule.addLoop(/*splittable=*/false)
                                        : rule.addExpandingLoop());
      continue;
    }
    loops.push_back(rule.addLoop(/*splittable=*/!(mean && dataDependentMean),
                                 /*normalized=*/mean));
    samples.push_back(loops.back());
  }
  return loops;
}

LogicalResult CrossEntropyOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getLogits().getType().getRank();
  int64_t classAxis =
      shapes::normalizeVerifiedAxis((int64_t)getClassAxis(), rank);
  SmallVector<int64_t> samples;
  SmallVector<int64_t> loops =
      crossEntropyLoops(rule, rank, classAxis, getReduction(),
                        getWeights() || getIgnoreIndex().has_value(), samples);
  rule.addOperand(loops);
  rule.addOperand(samples);
  if (getWeights())
    rule.addOperand({loops[classAxis]});
  if (getReduction() == LossReduction::none)
    rule.addResult(samples);
  else
    rule.addResult({});
  return success();
}

LogicalResult CrossEntropyGradOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getLogits().getType().getRank();
  int64_t classAxis =
      shapes::normalizeVerifiedAxis((int64_t)getClassAxis(), rank);
  SmallVector<int64_t> samples;
  SmallVector<int64_t> loops =
      crossEntropyLoops(rule, rank, classAxis, getReduction(),
                        getWeights() || getIgnoreIndex().has_value(), samples);
  if (getReduction() == LossReduction::none)
    rule.addOperand(samples);
  else
    rule.addOperand(SmallVector<int64_t>(getGrad().getType().getRank(), kNone));
  rule.addOperand(loops);
  rule.addOperand(samples);
  if (getWeights())
    rule.addOperand({loops[classAxis]});
  rule.addResult(loops);
  return success();
}

/// What the vocabulary-parallel cross entropy (Megatron-LM's
/// _VocabParallelCrossEntropy) derives from a device's block of logits: the
/// logits shifted by the global maximum of each sample, and the global sum of
/// their exponentials (both with the class axis kept as size 1).
struct ClassNormalizers {
  Value shifted, sumExp;
};

/// The normalizers of `logits` split along `classAxis` over `groups`: an
/// all_reduce max and an all_reduce sum. A gradient reuses those of its
/// loss (Megatron-LM keeps the softmax for backward) through
/// `expansion.shared`.
static ClassNormalizers getClassNormalizers(OpBuilder &builder, Location loc,
                                            Value logits, int64_t classAxis,
                                            DeviceGroupsAttr groups,
                                            const LocalExpansion &expansion) {
  std::pair<StringRef, Value> key{"cross_entropy.normalizers", logits};
  if (expansion.shared) {
    auto it = expansion.shared->find(key);
    if (it != expansion.shared->end())
      return {it->second[0], it->second[1]};
  }
  SmallVector<int64_t, 1> classAxes{classAxis};
  Value localMax = ReduceMaxOp::create(builder, loc, logits, classAxes,
                                       /*keepdims=*/true);
  Value max =
      AllReduceOp::create(builder, loc, localMax, groups, ReductionKind::max);
  Value shifted = SubOp::create(builder, loc, logits, max);
  Value exps = ExpOp::create(builder, loc, shifted);
  Value localSum = ReduceSumOp::create(builder, loc, exps, classAxes,
                                       /*keepdims=*/true);
  Value sumExp =
      AllReduceOp::create(builder, loc, localSum, groups, ReductionKind::sum);
  if (expansion.shared)
    (*expansion.shared)[key] = {shifted, sumExp};
  return {shifted, sumExp};
}

/// A scalar constant of `like`'s element type, placed like it.
static Value buildScalar(OpBuilder &builder, Location loc, Value like,
                         double value) {
  RankedTensorType type = tensorType(like);
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  auto attr = DenseElementsAttr::get(
      scalarType, FloatAttr::get(type.getElementType(), value));
  return ConstantOp::create(builder, loc, attr, getPlacement(type));
}

/// 1 at each sample's label within the device's block of classes.
static Value buildLabelMask(OpBuilder &builder, Location loc, Value labels,
                            Value logits, int64_t classAxis,
                            DeviceGroupsAttr groups) {
  RankedTensorType type = tensorType(logits);
  Value block = buildBlockIndex(builder, loc, groups);
  return OneHotOp::create(builder, loc, labels, block,
                          (uint64_t)type.getDimSize(classAxis),
                          (uint64_t)classAxis, type.getElementType());
}

/// What both expansions of a cross entropy split along its classes start
/// from: the normalizers and the label mask of the device's block.
struct ClassSplit {
  int64_t classAxis;
  DeviceGroupsAttr groups;
  ClassNormalizers normalizers;
  Value mask;
};

static FailureOr<ClassSplit> buildClassSplit(Operation *op, OpBuilder &builder,
                                             Value logits, Value labels,
                                             int64_t classAxis,
                                             const LocalExpansion &expansion) {
  ClassSplit split;
  split.classAxis =
      shapes::normalizeVerifiedAxis(classAxis, tensorType(logits).getRank());
  // The logits' loops are the rule's first, in dimension order.
  if (!expansion.isSplit(split.classAxis))
    return op->emitOpError("has no local form for this split");
  split.groups = expansion.loopGroups[split.classAxis];
  Location loc = op->getLoc();
  split.normalizers = getClassNormalizers(builder, loc, logits, split.classAxis,
                                          split.groups, expansion);
  split.mask = buildLabelMask(builder, loc, labels, logits, split.classAxis,
                              split.groups);
  return split;
}

FailureOr<SmallVector<Value>>
CrossEntropyOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                                    const LocalExpansion &expansion) {
  Value logits = operands[0], labels = operands[1];
  FailureOr<ClassSplit> split = buildClassSplit(
      *this, builder, logits, labels, (int64_t)getClassAxis(), expansion);
  if (failed(split))
    return failure();
  Location loc = getLoc();
  // The label's shifted logit on the device that holds it, 0 elsewhere.
  Value picked =
      MulOp::create(builder, loc, split->normalizers.shifted, split->mask);
  Value target = ReduceSumOp::create(builder, loc, picked,
                                     ArrayRef<int64_t>{split->classAxis},
                                     /*keepdims=*/false);
  // Each device adds its share of log(sum): the devices' losses sum to
  // log(sum) - target, the sample's loss.
  Value logSum = ReshapeOp::create(
      builder, loc, LogOp::create(builder, loc, split->normalizers.sumExp),
      tensorType(labels).getShape());
  Value share = MulOp::create(
      builder, loc, logSum,
      buildScalar(builder, loc, logSum, 1.0 / split->groups.getGroupSize()));
  Value loss = SubOp::create(builder, loc, share, target);
  SmallVector<int64_t> samples =
      llvm::to_vector(llvm::seq<int64_t>(tensorType(labels).getRank()));
  switch (getReduction()) {
  case LossReduction::mean:
    loss = ReduceMeanOp::create(builder, loc, loss, samples, false);
    break;
  case LossReduction::sum:
    loss = ReduceSumOp::create(builder, loc, loss, samples, false);
    break;
  case LossReduction::none:
    break;
  }
  return SmallVector<Value>{loss};
}

FailureOr<SmallVector<Value>>
CrossEntropyGradOp::buildLocalExpansion(OpBuilder &builder, ValueRange operands,
                                        const LocalExpansion &expansion) {
  Value grad = operands[0], logits = operands[1], labels = operands[2];
  FailureOr<ClassSplit> split = buildClassSplit(
      *this, builder, logits, labels, (int64_t)getClassAxis(), expansion);
  if (failed(split))
    return failure();
  Location loc = getLoc();
  ClassNormalizers normalizers = split->normalizers;
  Value probs = DivOp::create(builder, loc,
                              ExpOp::create(builder, loc, normalizers.shifted),
                              normalizers.sumExp);
  Value diff = SubOp::create(builder, loc, probs, split->mask);
  // The loss gradient per sample: a scalar over the local samples' count
  // for a mean (the partitioner normalizes split samples), per sample for
  // none.
  Value scale = grad;
  if (getReduction() == LossReduction::mean) {
    int64_t count = tensorType(labels).getNumElements();
    scale = MulOp::create(builder, loc, grad,
                          buildScalar(builder, loc, grad, 1.0 / count));
  } else if (getReduction() == LossReduction::none) {
    SmallVector<int64_t> kept(tensorType(logits).getShape());
    kept[split->classAxis] = 1;
    scale = ReshapeOp::create(builder, loc, grad, kept);
  }
  return SmallVector<Value>{MulOp::create(builder, loc, diff, scale)};
}

LogicalResult MseLossOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getPrediction().getType().getRank();
  SmallVector<int64_t> loops;
  for (int64_t d = 0; d < rank; ++d)
    loops.push_back(rule.addLoop(/*splittable=*/true, /*normalized=*/true));
  rule.addOperand(loops);
  rule.addOperand(loops);
  rule.addResult({});
  return success();
}

LogicalResult MseLossGradOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getPrediction().getType().getRank();
  SmallVector<int64_t> loops;
  for (int64_t d = 0; d < rank; ++d)
    loops.push_back(rule.addLoop(/*splittable=*/true, /*normalized=*/true));
  rule.addOperand(SmallVector<int64_t>(getGrad().getType().getRank(), kNone));
  rule.addOperand(loops);
  rule.addOperand(loops);
  rule.addResult(loops);
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling: windows slide over spatial dims, kept whole
//===----------------------------------------------------------------------===//

namespace {
/// The loops of a convolution and its gradients: batch, filters (M),
/// channels (C), the spatial positions the window slides over and the kernel
/// taps; spatial loops stay whole (a split would cut windows).
struct ConvLoops {
  ConvLoops(Rule &rule, int64_t spatial, bool filtersSplit, bool channelsSplit)
      : batch(rule.addLoop()), filters(rule.addLoop(filtersSplit)),
        channels(rule.addLoop(channelsSplit)),
        window(rule.addLoops(spatial, false)),
        kernel(rule.addLoops(spatial, false)) {}

  /// `lead` loops, then the window (or kernel) loops.
  SmallVector<int64_t> dims(std::initializer_list<int64_t> lead,
                            bool overKernel = false) const {
    SmallVector<int64_t> result(lead);
    llvm::append_range(result, overKernel ? kernel : window);
    return result;
  }

  int64_t batch, filters, channels;
  SmallVector<int64_t> window, kernel;
};
} // namespace

LogicalResult ConvOp::buildShardingLoops(ShardingRule &rule) {
  // Grouped channels pair input and filter blocks; a bias would be added to
  // every partial sum: then channels stay whole.
  bool ungrouped = getGroup() == 1;
  ConvLoops l(rule, getInput().getType().getRank() - 2, ungrouped,
              ungrouped && !getBias());
  rule.addOperand(l.dims({l.batch, l.channels}));
  rule.addOperand(l.dims({l.filters, l.channels}, /*overKernel=*/true));
  if (getBias())
    rule.addOperand({l.filters});
  rule.addResult(l.dims({l.batch, l.filters}));
  return success();
}

LogicalResult ConvGradInputOp::buildShardingLoops(ShardingRule &rule) {
  bool ungrouped = getGroup() == 1;
  ConvLoops l(rule, getType().getRank() - 2, ungrouped, ungrouped);
  rule.addOperand(l.dims({l.batch, l.filters}));
  rule.addOperand(l.dims({l.filters, l.channels}, /*overKernel=*/true));
  rule.addResult(l.dims({l.batch, l.channels}));
  return success();
}

LogicalResult ConvGradFilterOp::buildShardingLoops(ShardingRule &rule) {
  bool ungrouped = getGroup() == 1;
  ConvLoops l(rule, getType().getRank() - 2, ungrouped, ungrouped);
  rule.addOperand(l.dims({l.batch, l.filters}));
  rule.addOperand(l.dims({l.batch, l.channels}));
  rule.addResult(l.dims({l.filters, l.channels}, /*overKernel=*/true));
  return success();
}

/// Batch and channels split; spatial dims whole. Every operand and the
/// result have the (batch, channels) leading dims.
static void buildPoolRule(Operation *op, Rule &rule) {
  int64_t spatial = tensorType(op->getResult(0)).getRank() - 2;
  SmallVector<int64_t> lead = rule.addLoops(2);
  SmallVector<int64_t> window = rule.addLoops(spatial, false);
  SmallVector<int64_t> dims(lead);
  llvm::append_range(dims, window);
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    rule.addOperand(dims);
  rule.addResult(dims);
}

LogicalResult MaxPoolOp::buildShardingLoops(ShardingRule &rule) {
  buildPoolRule(*this, rule);
  return success();
}

LogicalResult AvgPoolOp::buildShardingLoops(ShardingRule &rule) {
  buildPoolRule(*this, rule);
  return success();
}

LogicalResult MaxPoolGradOp::buildShardingLoops(ShardingRule &rule) {
  buildPoolRule(*this, rule);
  return success();
}

LogicalResult AvgPoolGradOp::buildShardingLoops(ShardingRule &rule) {
  buildPoolRule(*this, rule);
  return success();
}

LogicalResult GlobalAvgPoolOp::buildShardingLoops(ShardingRule &rule) {
  int64_t rank = getInput().getType().getRank();
  SmallVector<int64_t> lead = rule.addLoops(2);
  SmallVector<int64_t> inputDims(lead), resultDims(lead);
  for (int64_t d = 2; d < rank; ++d) {
    inputDims.push_back(rule.addLoop(/*splittable=*/true, /*normalized=*/true));
    resultDims.push_back(kNone);
  }
  rule.addOperand(inputDims);
  rule.addResult(resultDims);
  return success();
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::buildShardingLoops(ShardingRule &rule) {
  // A splat has the same value in every block; other values would need a
  // per-device slice of the data.
  auto dense = dyn_cast<DenseElementsAttr>(getValue());
  rule.addResult(rule.addLoops(getType().getRank(), dense && dense.isSplat()));
  return success();
}

//===----------------------------------------------------------------------===//
// Global shapes in attributes
//===----------------------------------------------------------------------===//

LogicalResult mlir::dist::localizeShapeAttributes(
    Operation *op, ArrayRef<RankedTensorType> localResultTypes) {
  if (localResultTypes.empty())
    return success();
  ArrayRef<int64_t> local = localResultTypes.front().getShape();
  MLIRContext *ctx = op->getContext();
  auto shapeAttr = [&](ArrayRef<int64_t> shape) {
    return DenseI64ArrayAttr::get(ctx, shape);
  };
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    reshape.setShapeAttr(shapeAttr(local));
  } else if (auto expand = dyn_cast<ExpandOp>(op)) {
    expand.setShapeAttr(shapeAttr(local));
  } else if (auto slice = dyn_cast<SliceOp>(op)) {
    // Only full-extent slices are split (see its rule): the limit follows.
    SmallVector<int64_t> limits(slice.getLimits());
    for (auto [d, size] : llvm::enumerate(local))
      if (slice.getStarts()[d] == 0 && slice.getStrides()[d] == 1)
        limits[d] = size;
    slice.setLimitsAttr(shapeAttr(limits));
  } else if (auto grad = dyn_cast<ConvGradInputOp>(op)) {
    grad.setInputShapeAttr(shapeAttr(local));
  } else if (auto grad = dyn_cast<ConvGradFilterOp>(op)) {
    grad.setFilterShapeAttr(shapeAttr(local));
  } else if (auto grad = dyn_cast<AvgPoolGradOp>(op)) {
    grad.setInputShapeAttr(shapeAttr(local));
  } else if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    auto valueType =
        RankedTensorType::get(local, localResultTypes.front().getElementType());
    if (valueType != constant.getValue().getType()) {
      if (!dense || !dense.isSplat())
        return op->emitOpError("cannot split a non-splat constant");
      constant.setValueAttr(
          DenseElementsAttr::get(valueType, dense.getSplatValue<Attribute>()));
    }
    constant.setDevicesAttr(getPlacement(localResultTypes.front()));
  }
  return success();
}
