//===- ExecutionInterfaceImpl.cpp - reference kernels of the dist ops -----===//
//
// ExecutableOpInterface for every compute op, as external models: reads the
// op's attributes and calls the matching DistKernels function on one
// device's local tensors. The semantics live in lib/Kernels; this file only
// translates attributes. The dialect does not link it (StableHLO keeps its
// interpreter apart from the dialect the same way): tools that execute
// register it with registerExecutionInterfaceExternalModels.
//
//===----------------------------------------------------------------------===//

#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Kernels/Kernels.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::dist;
namespace k = distir::kernels;
using distir::HostTensor;
using distir::Status;

namespace {

/// Turns a kernel's Status into a diagnostic on the op.
LogicalResult report(Operation *op, const Status &status) {
  if (status.ok())
    return success();
  return op->emitOpError() << status.message();
}

k::Shape toShape(ArrayRef<int64_t> values) {
  return k::Shape(values.begin(), values.end());
}

/// I64Attr getters return the two's-complement bits as uint64_t.
int64_t toSigned(uint64_t value) { return static_cast<int64_t>(value); }

k::GeluApproximation toKernel(GeluApproximation approximation) {
  return approximation == GeluApproximation::tanh ? k::GeluApproximation::Tanh
                                                  : k::GeluApproximation::None;
}

k::CrossEntropyOptions
getCrossEntropyOptions(uint64_t classAxis, LossReduction reduction,
                       std::optional<uint64_t> ignoreIndex) {
  k::CrossEntropyOptions options;
  options.classAxis = toSigned(classAxis);
  options.reduction = reduction == LossReduction::sum ? k::LossReduction::Sum
                      : reduction == LossReduction::none
                          ? k::LossReduction::None
                          : k::LossReduction::Mean;
  if (ignoreIndex)
    options.ignoreIndex = toSigned(*ignoreIndex);
  return options;
}

/// `pads` holds the begin pads of every spatial dim, then the end pads.
void splitPads(ArrayRef<int64_t> pads, k::Shape &begin, k::Shape &end) {
  size_t half = pads.size() / 2;
  begin.assign(pads.begin(), pads.begin() + half);
  end.assign(pads.begin() + half, pads.end());
}

template <typename ConvLikeOp> k::ConvOptions getConvOptions(ConvLikeOp op) {
  k::ConvOptions options;
  options.strides = toShape(op.getStrides());
  options.dilations = toShape(op.getDilations());
  splitPads(op.getPads(), options.padsBegin, options.padsEnd);
  options.group = toSigned(op.getGroup());
  return options;
}

template <typename PoolLikeOp>
k::PoolOptions getPoolOptions(PoolLikeOp op, ArrayRef<int64_t> dilations,
                              bool countIncludePad) {
  k::PoolOptions options;
  options.kernelShape = toShape(op.getKernelShape());
  options.strides = toShape(op.getStrides());
  options.dilations = toShape(dilations);
  splitPads(op.getPads(), options.padsBegin, options.padsEnd);
  options.ceilMode = op.getCeilMode();
  options.countIncludePad = countIncludePad;
  return options;
}

const HostTensor *optionalOperand(ArrayRef<const HostTensor *> operands,
                                  size_t index) {
  return operands.size() > index ? operands[index] : nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// Forward ops
//===----------------------------------------------------------------------===//

static LogicalResult runKernel(MatmulOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::matmul(*operands[0], *operands[1], op.getTransposeA(),
                              op.getTransposeB(), *results[0]));
}

static LogicalResult runKernel(WhereOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(
      op, k::where(*operands[0], *operands[1], *operands[2], *results[0]));
}

static LogicalResult runKernel(GeluOp op, ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(
      op, k::gelu(*operands[0], toKernel(op.getApproximate()), *results[0]));
}

static LogicalResult runKernel(SoftmaxOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::softmax(*operands[0], toSigned(op.getAxis()), op.getCausal(),
                           op.getScale().convertToDouble(), *results[0]));
}

static LogicalResult runKernel(LogSoftmaxOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(
      op, k::logSoftmax(*operands[0], toSigned(op.getAxis()), *results[0]));
}

static LogicalResult runKernel(LayerNormOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::layerNorm(*operands[0], *operands[1], operands[2],
                             toSigned(op.getAxis()),
                             op.getEpsilon().convertToDouble(), *results[0]));
}

static LogicalResult runKernel(BatchNormOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::batchNorm(*operands[0], *operands[1], *operands[2],
                             *operands[3], *operands[4],
                             op.getEpsilon().convertToDouble(), *results[0]));
}

static LogicalResult runKernel(TransposeOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::transpose(*operands[0], toShape(op.getPermutation()),
                                 *results[0]));
}

static LogicalResult runKernel(ReshapeOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  // The result arrives allocated with its type, whose shape has the -1 of
  // the attribute resolved.
  k::Shape shape = results[0]->getShape();
  return report(op, k::reshape(*operands[0], shape, *results[0]));
}

static LogicalResult runKernel(ConcatOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::concat(k::TensorList(operands.begin(), operands.end()),
                              toSigned(op.getAxis()), *results[0]));
}

static LogicalResult runKernel(SliceOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::slice(*operands[0], toShape(op.getStarts()),
                             toShape(op.getLimits()), toShape(op.getStrides()),
                             *results[0]));
}

static LogicalResult runKernel(SplitOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::split(*operands[0], toSigned(op.getAxis()),
                             toShape(op.getSizes()),
                             k::ResultList(results.begin(), results.end())));
}

static LogicalResult runKernel(PadOp op, ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::pad(*operands[0], toShape(op.getLow()),
                           toShape(op.getHigh()), toShape(op.getInterior()),
                           *results[0]));
}

/// The block index of take and take_grad (a rank-0 integer tensor).
static FailureOr<int64_t> readBlockIndex(Operation *op,
                                         const HostTensor &block) {
  if (block.getNumElements() != 1)
    return op->emitOpError("block must hold one index");
  return block.getElementType() == distir::ElementType::I32
             ? block.getData<int32_t>()[0]
             : block.getData<int64_t>()[0];
}

static LogicalResult runKernel(TakeOp op, ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  if (!op.getBlock())
    return report(op, k::take(*operands[0], *operands[1],
                              toSigned(op.getAxis()), *results[0]));
  FailureOr<int64_t> block = readBlockIndex(op, *operands[2]);
  if (failed(block))
    return failure();
  return report(op, k::takeBlock(*operands[0], *operands[1],
                                 toSigned(op.getAxis()), *block, *results[0]));
}

static LogicalResult runKernel(ExpandOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::expand(*operands[0], toShape(op.getShape()), *results[0]));
}

static LogicalResult runKernel(ReduceSumOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::reduceSum(*operands[0], toShape(op.getAxes()),
                                 op.getKeepdims(), *results[0]));
}

static LogicalResult runKernel(ReduceMeanOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::reduceMean(*operands[0], toShape(op.getAxes()),
                                  op.getKeepdims(), *results[0]));
}

static LogicalResult runKernel(ReduceMaxOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::reduceMax(*operands[0], toShape(op.getAxes()),
                                 op.getKeepdims(), *results[0]));
}

static LogicalResult runKernel(OneHotOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  int64_t block = 0;
  if (op.getBlock()) {
    FailureOr<int64_t> index = readBlockIndex(op, *operands[1]);
    if (failed(index))
      return failure();
    block = *index;
  }
  // The result arrives allocated with its type: its element type is the op's.
  return report(op, k::oneHot(*operands[0], toSigned(op.getDepth()),
                              toSigned(op.getAxis()), block,
                              results[0]->getElementType(), *results[0]));
}

static LogicalResult runKernel(CrossEntropyOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::crossEntropy(*operands[0], *operands[1],
                                    optionalOperand(operands, 2),
                                    getCrossEntropyOptions(op.getClassAxis(),
                                                           op.getReduction(),
                                                           op.getIgnoreIndex()),
                                    *results[0]));
}

static LogicalResult runKernel(MseLossOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::mseLoss(*operands[0], *operands[1], *results[0]));
}

/// Where an op's dropped tensor lies in its reference tensor: the fixed
/// offset plus, along each split dimension, the block this device holds
/// (the i64 block operands from `firstBlock` on).
template <typename OpTy>
static FailureOr<k::DropoutPosition>
getDropoutPosition(OpTy op, ArrayRef<int64_t> referenceShape,
                   ArrayRef<const HostTensor *> operands, size_t firstBlock) {
  k::DropoutPosition position;
  position.referenceShape = toShape(referenceShape);
  if (std::optional<ArrayRef<int64_t>> offset = op.getReferenceOffset())
    position.offset = toShape(*offset);
  else
    position.offset.assign(position.referenceShape.size(), 0);
  for (auto [i, dim, size] :
       llvm::enumerate(op.getBlockDims(), op.getBlockSizes())) {
    const HostTensor &block = *operands[firstBlock + i];
    if (block.getElementType() != distir::ElementType::I64 ||
        block.getNumElements() != 1)
      return op.emitOpError("block index ") << i << " must be one i64";
    position.offset[dim] += block.getData<int64_t>()[0] * size;
  }
  return position;
}

static LogicalResult runKernel(DropoutTrainOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  FailureOr<k::DropoutPosition> position = getDropoutPosition(
      op, op.getReferenceShapeOrResultShape(), operands, /*firstBlock=*/1);
  if (failed(position))
    return failure();
  return report(op,
                k::dropoutTrain(*operands[0], op.getRatio().convertToDouble(),
                                op.getSeed(), op.getId(), *position,
                                *results[0], *results[1]));
}

/// The kernel options of a fused attention op whose block operands start at
/// `firstBlock`.
template <typename OpTy>
static FailureOr<k::AttentionOptions>
getAttentionOptions(OpTy op, ArrayRef<const HostTensor *> operands,
                    size_t firstBlock) {
  FailureOr<k::DropoutPosition> position = getDropoutPosition(
      op, op.getReferenceShapeOrProbsShape(), operands, firstBlock);
  if (failed(position))
    return failure();
  k::AttentionOptions options;
  options.scale = op.getScale().convertToDouble();
  options.causal = op.getCausal();
  options.dropoutRatio = op.getDropoutRatio().convertToDouble();
  options.seed = op.getSeed();
  options.id = op.getDropoutId();
  options.position = std::move(*position);
  return options;
}

static LogicalResult runKernel(AttentionOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  FailureOr<k::AttentionOptions> options =
      getAttentionOptions(op, operands, /*firstBlock=*/3);
  if (failed(options))
    return failure();
  return report(op, k::attention(*operands[0], *operands[1], *operands[2],
                                 *options, *results[0], *results[1]));
}

static LogicalResult runKernel(AttentionGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  FailureOr<k::AttentionOptions> options =
      getAttentionOptions(op, operands, /*firstBlock=*/6);
  if (failed(options))
    return failure();
  // The reference recomputes the probabilities from q and k as the forward
  // did (output and logsumexp are what a FlashAttention kernel reads to do
  // the same with fewer FLOPs).
  return report(op, k::attentionGrad(*operands[0], *operands[1], *operands[2],
                                     *operands[5], *options, *results[0],
                                     *results[1], *results[2]));
}

static LogicalResult runKernel(DropoutGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::dropoutGrad(*operands[0], *operands[1],
                               op.getRatio().convertToDouble(), *results[0]));
}

static LogicalResult runKernel(CastOp op, ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  // The result arrives allocated with its type: its element type is `to`.
  distir::ElementType to = results[0]->getElementType();
  return report(op, k::cast(*operands[0], to, *results[0]));
}

static LogicalResult runKernel(ConvOp op, ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::conv(*operands[0], *operands[1],
                            optionalOperand(operands, 2), getConvOptions(op),
                            *results[0]));
}

static LogicalResult runKernel(MaxPoolOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::maxPool(*operands[0],
                               getPoolOptions(op, op.getDilations(), false),
                               *results[0]));
}

static LogicalResult runKernel(AvgPoolOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::avgPool(*operands[0],
                               getPoolOptions(op, {}, op.getCountIncludePad()),
                               *results[0]));
}

//===----------------------------------------------------------------------===//
// Backward helpers
//===----------------------------------------------------------------------===//

static LogicalResult runKernel(GeluGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::geluGrad(*operands[0], *operands[1],
                                toKernel(op.getApproximate()), *results[0]));
}

static LogicalResult runKernel(SoftmaxGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(
      op, k::softmaxGrad(*operands[0], *operands[1], toSigned(op.getAxis()),
                         op.getScale().convertToDouble(), *results[0]));
}

static LogicalResult runKernel(LogSoftmaxGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::logSoftmaxGrad(*operands[0], *operands[1],
                                      toSigned(op.getAxis()), *results[0]));
}

static LogicalResult runKernel(LayerNormGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::layerNormGrad(*operands[0], *operands[1], *operands[2],
                                     toSigned(op.getAxis()),
                                     op.getEpsilon().convertToDouble(),
                                     *results[0], *results[1], *results[2]));
}

static LogicalResult runKernel(BatchNormGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::batchNormGrad(*operands[0], *operands[1], *operands[2],
                                     *operands[3], *operands[4],
                                     op.getEpsilon().convertToDouble(),
                                     *results[0], *results[1], *results[2]));
}

static LogicalResult runKernel(CrossEntropyGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::crossEntropyGrad(*operands[0], *operands[1], *operands[2],
                                    optionalOperand(operands, 3),
                                    getCrossEntropyOptions(op.getClassAxis(),
                                                           op.getReduction(),
                                                           op.getIgnoreIndex()),
                                    *results[0]));
}

static LogicalResult runKernel(MseLossGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::mseLossGrad(*operands[0], *operands[1], *operands[2],
                                   *results[0]));
}

static LogicalResult runKernel(TakeGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  if (!op.getBlock())
    return report(op, k::takeGrad(*operands[0], *operands[1],
                                  toSigned(op.getAxis()),
                                  toSigned(op.getDimSize()), *results[0]));
  FailureOr<int64_t> block = readBlockIndex(op, *operands[2]);
  if (failed(block))
    return failure();
  return report(
      op, k::takeGradBlock(*operands[0], *operands[1], toSigned(op.getAxis()),
                           toSigned(op.getDimSize()), *block, *results[0]));
}

static LogicalResult runKernel(ConvGradInputOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::convGradInput(*operands[0], *operands[1], getConvOptions(op),
                                 toShape(op.getInputShape()), *results[0]));
}

static LogicalResult runKernel(ConvGradFilterOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(
      op, k::convGradFilter(*operands[0], *operands[1], getConvOptions(op),
                            toShape(op.getFilterShape()), *results[0]));
}

static LogicalResult runKernel(MaxPoolGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::maxPoolGrad(*operands[0], *operands[1],
                                   getPoolOptions(op, op.getDilations(), false),
                                   *results[0]));
}

static LogicalResult runKernel(AvgPoolGradOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op,
                k::avgPoolGrad(*operands[0],
                               getPoolOptions(op, {}, op.getCountIncludePad()),
                               toShape(op.getInputShape()), *results[0]));
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

static LogicalResult runKernel(SgdUpdateOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(op, k::sgdUpdate(*operands[0], *operands[1],
                                 op.getLr().convertToDouble(), *results[0]));
}

static LogicalResult runKernel(AdamUpdateOp op,
                               ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  k::AdamOptions options;
  options.learningRate = op.getLr().convertToDouble();
  options.beta1 = op.getBeta1().convertToDouble();
  options.beta2 = op.getBeta2().convertToDouble();
  options.epsilon = op.getEpsilon().convertToDouble();
  return report(op, k::adamUpdate(*operands[0], *operands[1], *operands[2],
                                  *operands[3], *operands[4], options,
                                  *results[0], *results[1], *results[2]));
}

//===----------------------------------------------------------------------===//
// External models
//===----------------------------------------------------------------------===//

namespace {

using UnaryKernel = Status (*)(const HostTensor &, HostTensor &);
using BinaryKernel = Status (*)(const HostTensor &, const HostTensor &,
                                HostTensor &);

/// An op whose kernel maps its only operand to its only result.
template <typename OpT, UnaryKernel Kernel>
struct UnaryKernelModel
    : ExecutableOpInterface::ExternalModel<UnaryKernelModel<OpT, Kernel>, OpT> {
  LogicalResult execute(Operation *op, ArrayRef<const HostTensor *> operands,
                        ArrayRef<HostTensor *> results) const {
    return report(op, Kernel(*operands[0], *results[0]));
  }
};

/// An op whose kernel maps its two operands to its only result.
template <typename OpT, BinaryKernel Kernel>
struct BinaryKernelModel
    : ExecutableOpInterface::ExternalModel<BinaryKernelModel<OpT, Kernel>,
                                           OpT> {
  LogicalResult execute(Operation *op, ArrayRef<const HostTensor *> operands,
                        ArrayRef<HostTensor *> results) const {
    return report(op, Kernel(*operands[0], *operands[1], *results[0]));
  }
};

/// An op whose kernel reads attributes: its runKernel above.
template <typename OpT>
struct KernelModel
    : ExecutableOpInterface::ExternalModel<KernelModel<OpT>, OpT> {
  LogicalResult execute(Operation *op, ArrayRef<const HostTensor *> operands,
                        ArrayRef<HostTensor *> results) const {
    return runKernel(cast<OpT>(op), operands, results);
  }
};

template <typename OpT, UnaryKernel Kernel> void attachUnary(MLIRContext *ctx) {
  OpT::template attachInterface<UnaryKernelModel<OpT, Kernel>>(*ctx);
}

template <typename OpT, BinaryKernel Kernel>
void attachBinary(MLIRContext *ctx) {
  OpT::template attachInterface<BinaryKernelModel<OpT, Kernel>>(*ctx);
}

template <typename... OpTs> void attachKernelModels(MLIRContext *ctx) {
  (OpTs::template attachInterface<KernelModel<OpTs>>(*ctx), ...);
}

} // namespace

void mlir::dist::registerExecutionInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, DistDialect *) {
    attachUnary<NegOp, k::neg>(ctx);
    attachUnary<ExpOp, k::exp>(ctx);
    attachUnary<LogOp, k::log>(ctx);
    attachUnary<SqrtOp, k::sqrt>(ctx);
    attachUnary<RsqrtOp, k::rsqrt>(ctx);
    attachUnary<ErfOp, k::erf>(ctx);
    attachUnary<ReluOp, k::relu>(ctx);
    attachUnary<TanhOp, k::tanh>(ctx);
    attachUnary<SigmoidOp, k::sigmoid>(ctx);
    attachUnary<DropoutOp, k::dropout>(ctx);
    attachUnary<GlobalAvgPoolOp, k::globalAvgPool>(ctx);
    attachBinary<AddOp, k::add>(ctx);
    attachBinary<SubOp, k::sub>(ctx);
    attachBinary<MulOp, k::mul>(ctx);
    attachBinary<DivOp, k::div>(ctx);
    attachBinary<PowOp, k::pow>(ctx);
    attachBinary<ReluGradOp, k::reluGrad>(ctx);
    attachBinary<TanhGradOp, k::tanhGrad>(ctx);
    attachBinary<SigmoidGradOp, k::sigmoidGrad>(ctx);
    attachKernelModels<
        MatmulOp, WhereOp, GeluOp, SoftmaxOp, LogSoftmaxOp, LayerNormOp,
        BatchNormOp, TransposeOp, ReshapeOp, ConcatOp, SliceOp, SplitOp, PadOp,
        TakeOp, ExpandOp, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, OneHotOp,
        CrossEntropyOp, MseLossOp, CastOp, DropoutTrainOp, DropoutGradOp,
        AttentionOp, AttentionGradOp, ConvOp, MaxPoolOp, AvgPoolOp, GeluGradOp,
        SoftmaxGradOp, LogSoftmaxGradOp, LayerNormGradOp, BatchNormGradOp,
        CrossEntropyGradOp, MseLossGradOp, TakeGradOp, ConvGradInputOp,
        ConvGradFilterOp, MaxPoolGradOp, AvgPoolGradOp, SgdUpdateOp,
        AdamUpdateOp>(ctx);
  });
}

void mlir::dist::registerExecutionInterfaceExternalModels(
    MLIRContext &context) {
  DialectRegistry registry;
  registerExecutionInterfaceExternalModels(registry);
  context.appendDialectRegistry(registry);
}

bool mlir::dist::isMissingExecutionModel(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect && dialect_extension_detail::hasPromisedInterface(
                        *dialect, op->getName().getTypeID(),
                        ExecutableOpInterface::getInterfaceID());
}

const char *mlir::dist::getMissingExecutionModelMessage() {
  return "has no kernel registered (the tool must call "
         "mlir::dist::registerExecutionInterfaceExternalModels)";
}
