//===- DistKernels.cpp - Reference kernels of the dist compute ops --------===//
//
// ExecutableOpInterface::execute for every compute op: reads the op's
// attributes and calls the matching DistKernels function on one device's local
// tensors. The semantics live in lib/Kernels; this file only translates
// attributes.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Kernels/Kernels.h"

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

LogicalResult MatmulOp::execute(ArrayRef<const HostTensor *> operands,
                                ArrayRef<HostTensor *> results) {
  return report(*this, k::matmul(*operands[0], *operands[1], getTransposeA(),
                                 getTransposeB(), *results[0]));
}

#define DIST_BINARY_EXECUTE(OP, KERNEL)                                        \
  LogicalResult OP::execute(ArrayRef<const HostTensor *> operands,             \
                            ArrayRef<HostTensor *> results) {                  \
    return report(*this, KERNEL(*operands[0], *operands[1], *results[0]));     \
  }
DIST_BINARY_EXECUTE(AddOp, k::add)
DIST_BINARY_EXECUTE(SubOp, k::sub)
DIST_BINARY_EXECUTE(MulOp, k::mul)
DIST_BINARY_EXECUTE(DivOp, k::div)
DIST_BINARY_EXECUTE(PowOp, k::pow)
DIST_BINARY_EXECUTE(ReluGradOp, k::reluGrad)
DIST_BINARY_EXECUTE(TanhGradOp, k::tanhGrad)
DIST_BINARY_EXECUTE(SigmoidGradOp, k::sigmoidGrad)
#undef DIST_BINARY_EXECUTE

LogicalResult WhereOp::execute(ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(
      *this, k::where(*operands[0], *operands[1], *operands[2], *results[0]));
}

#define DIST_UNARY_EXECUTE(OP, KERNEL)                                         \
  LogicalResult OP::execute(ArrayRef<const HostTensor *> operands,             \
                            ArrayRef<HostTensor *> results) {                  \
    return report(*this, KERNEL(*operands[0], *results[0]));                   \
  }
DIST_UNARY_EXECUTE(NegOp, k::neg)
DIST_UNARY_EXECUTE(ExpOp, k::exp)
DIST_UNARY_EXECUTE(LogOp, k::log)
DIST_UNARY_EXECUTE(SqrtOp, k::sqrt)
DIST_UNARY_EXECUTE(RsqrtOp, k::rsqrt)
DIST_UNARY_EXECUTE(ErfOp, k::erf)
DIST_UNARY_EXECUTE(ReluOp, k::relu)
DIST_UNARY_EXECUTE(TanhOp, k::tanh)
DIST_UNARY_EXECUTE(SigmoidOp, k::sigmoid)
DIST_UNARY_EXECUTE(DropoutOp, k::dropout)
DIST_UNARY_EXECUTE(GlobalAvgPoolOp, k::globalAvgPool)
#undef DIST_UNARY_EXECUTE

LogicalResult GeluOp::execute(ArrayRef<const HostTensor *> operands,
                              ArrayRef<HostTensor *> results) {
  return report(*this,
                k::gelu(*operands[0], toKernel(getApproximate()), *results[0]));
}

LogicalResult SoftmaxOp::execute(ArrayRef<const HostTensor *> operands,
                                 ArrayRef<HostTensor *> results) {
  return report(*this,
                k::softmax(*operands[0], toSigned(getAxis()), getCausal(),
                           getScale().convertToDouble(), *results[0]));
}

LogicalResult LogSoftmaxOp::execute(ArrayRef<const HostTensor *> operands,
                                    ArrayRef<HostTensor *> results) {
  return report(*this,
                k::logSoftmax(*operands[0], toSigned(getAxis()), *results[0]));
}

LogicalResult LayerNormOp::execute(ArrayRef<const HostTensor *> operands,
                                   ArrayRef<HostTensor *> results) {
  return report(*this,
                k::layerNorm(*operands[0], *operands[1], operands[2],
                             toSigned(getAxis()),
                             getEpsilon().convertToDouble(), *results[0]));
}

LogicalResult BatchNormOp::execute(ArrayRef<const HostTensor *> operands,
                                   ArrayRef<HostTensor *> results) {
  return report(*this,
                k::batchNorm(*operands[0], *operands[1], *operands[2],
                             *operands[3], *operands[4],
                             getEpsilon().convertToDouble(), *results[0]));
}

LogicalResult TransposeOp::execute(ArrayRef<const HostTensor *> operands,
                                   ArrayRef<HostTensor *> results) {
  return report(*this, k::transpose(*operands[0], toShape(getPermutation()),
                                    *results[0]));
}

LogicalResult ReshapeOp::execute(ArrayRef<const HostTensor *> operands,
                                 ArrayRef<HostTensor *> results) {
  // The result arrives allocated with its type, whose shape has the -1 of
  // the attribute resolved.
  k::Shape shape = results[0]->getShape();
  return report(*this, k::reshape(*operands[0], shape, *results[0]));
}

LogicalResult ConcatOp::execute(ArrayRef<const HostTensor *> operands,
                                ArrayRef<HostTensor *> results) {
  return report(*this,
                k::concat(k::TensorList(operands.begin(), operands.end()),
                          toSigned(getAxis()), *results[0]));
}

LogicalResult SliceOp::execute(ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(*this, k::slice(*operands[0], toShape(getStarts()),
                                toShape(getLimits()), toShape(getStrides()),
                                *results[0]));
}

LogicalResult SplitOp::execute(ArrayRef<const HostTensor *> operands,
                               ArrayRef<HostTensor *> results) {
  return report(*this,
                k::split(*operands[0], toSigned(getAxis()), toShape(getSizes()),
                         k::ResultList(results.begin(), results.end())));
}

LogicalResult PadOp::execute(ArrayRef<const HostTensor *> operands,
                             ArrayRef<HostTensor *> results) {
  return report(*this,
                k::pad(*operands[0], toShape(getLow()), toShape(getHigh()),
                       toShape(getInterior()), *results[0]));
}

LogicalResult TakeOp::execute(ArrayRef<const HostTensor *> operands,
                              ArrayRef<HostTensor *> results) {
  return report(*this, k::take(*operands[0], *operands[1], toSigned(getAxis()),
                               *results[0]));
}

LogicalResult ExpandOp::execute(ArrayRef<const HostTensor *> operands,
                                ArrayRef<HostTensor *> results) {
  return report(*this,
                k::expand(*operands[0], toShape(getShape()), *results[0]));
}

LogicalResult ReduceSumOp::execute(ArrayRef<const HostTensor *> operands,
                                   ArrayRef<HostTensor *> results) {
  return report(*this, k::reduceSum(*operands[0], toShape(getAxes()),
                                    getKeepdims(), *results[0]));
}

LogicalResult ReduceMeanOp::execute(ArrayRef<const HostTensor *> operands,
                                    ArrayRef<HostTensor *> results) {
  return report(*this, k::reduceMean(*operands[0], toShape(getAxes()),
                                     getKeepdims(), *results[0]));
}

LogicalResult CrossEntropyOp::execute(ArrayRef<const HostTensor *> operands,
                                      ArrayRef<HostTensor *> results) {
  return report(
      *this,
      k::crossEntropy(*operands[0], *operands[1], optionalOperand(operands, 2),
                      getCrossEntropyOptions(getClassAxis(), getReduction(),
                                             getIgnoreIndex()),
                      *results[0]));
}

LogicalResult MseLossOp::execute(ArrayRef<const HostTensor *> operands,
                                 ArrayRef<HostTensor *> results) {
  return report(*this, k::mseLoss(*operands[0], *operands[1], *results[0]));
}

LogicalResult CastOp::execute(ArrayRef<const HostTensor *> operands,
                              ArrayRef<HostTensor *> results) {
  // The result arrives allocated with its type: its element type is `to`.
  distir::ElementType to = results[0]->getElementType();
  return report(*this, k::cast(*operands[0], to, *results[0]));
}

LogicalResult ConvOp::execute(ArrayRef<const HostTensor *> operands,
                              ArrayRef<HostTensor *> results) {
  return report(*this, k::conv(*operands[0], *operands[1],
                               optionalOperand(operands, 2),
                               getConvOptions(*this), *results[0]));
}

LogicalResult MaxPoolOp::execute(ArrayRef<const HostTensor *> operands,
                                 ArrayRef<HostTensor *> results) {
  return report(*this, k::maxPool(*operands[0],
                                  getPoolOptions(*this, getDilations(), false),
                                  *results[0]));
}

LogicalResult AvgPoolOp::execute(ArrayRef<const HostTensor *> operands,
                                 ArrayRef<HostTensor *> results) {
  return report(*this,
                k::avgPool(*operands[0],
                           getPoolOptions(*this, {}, getCountIncludePad()),
                           *results[0]));
}

//===----------------------------------------------------------------------===//
// Backward helpers
//===----------------------------------------------------------------------===//

LogicalResult GeluGradOp::execute(ArrayRef<const HostTensor *> operands,
                                  ArrayRef<HostTensor *> results) {
  return report(*this, k::geluGrad(*operands[0], *operands[1],
                                   toKernel(getApproximate()), *results[0]));
}

LogicalResult SoftmaxGradOp::execute(ArrayRef<const HostTensor *> operands,
                                     ArrayRef<HostTensor *> results) {
  return report(*this,
                k::softmaxGrad(*operands[0], *operands[1], toSigned(getAxis()),
                               getScale().convertToDouble(), *results[0]));
}

LogicalResult LogSoftmaxGradOp::execute(ArrayRef<const HostTensor *> operands,
                                        ArrayRef<HostTensor *> results) {
  return report(*this, k::logSoftmaxGrad(*operands[0], *operands[1],
                                         toSigned(getAxis()), *results[0]));
}

LogicalResult LayerNormGradOp::execute(ArrayRef<const HostTensor *> operands,
                                       ArrayRef<HostTensor *> results) {
  return report(*this, k::layerNormGrad(*operands[0], *operands[1],
                                        *operands[2], toSigned(getAxis()),
                                        getEpsilon().convertToDouble(),
                                        *results[0], *results[1], *results[2]));
}

LogicalResult BatchNormGradOp::execute(ArrayRef<const HostTensor *> operands,
                                       ArrayRef<HostTensor *> results) {
  return report(*this,
                k::batchNormGrad(*operands[0], *operands[1], *operands[2],
                                 *operands[3], *operands[4],
                                 getEpsilon().convertToDouble(), *results[0],
                                 *results[1], *results[2]));
}

LogicalResult CrossEntropyGradOp::execute(ArrayRef<const HostTensor *> operands,
                                          ArrayRef<HostTensor *> results) {
  return report(
      *this,
      k::crossEntropyGrad(*operands[0], *operands[1], *operands[2],
                          optionalOperand(operands, 3),
                          getCrossEntropyOptions(getClassAxis(), getReduction(),
                                                 getIgnoreIndex()),
                          *results[0]));
}

LogicalResult MseLossGradOp::execute(ArrayRef<const HostTensor *> operands,
                                     ArrayRef<HostTensor *> results) {
  return report(*this, k::mseLossGrad(*operands[0], *operands[1], *operands[2],
                                      *results[0]));
}

LogicalResult TakeGradOp::execute(ArrayRef<const HostTensor *> operands,
                                  ArrayRef<HostTensor *> results) {
  return report(*this,
                k::takeGrad(*operands[0], *operands[1], toSigned(getAxis()),
                            toSigned(getDimSize()), *results[0]));
}

LogicalResult ConvGradInputOp::execute(ArrayRef<const HostTensor *> operands,
                                       ArrayRef<HostTensor *> results) {
  return report(*this, k::convGradInput(*operands[0], *operands[1],
                                        getConvOptions(*this),
                                        toShape(getInputShape()), *results[0]));
}

LogicalResult ConvGradFilterOp::execute(ArrayRef<const HostTensor *> operands,
                                        ArrayRef<HostTensor *> results) {
  return report(*this, k::convGradFilter(
                           *operands[0], *operands[1], getConvOptions(*this),
                           toShape(getFilterShape()), *results[0]));
}

LogicalResult MaxPoolGradOp::execute(ArrayRef<const HostTensor *> operands,
                                     ArrayRef<HostTensor *> results) {
  return report(*this,
                k::maxPoolGrad(*operands[0], *operands[1],
                               getPoolOptions(*this, getDilations(), false),
                               *results[0]));
}

LogicalResult AvgPoolGradOp::execute(ArrayRef<const HostTensor *> operands,
                                     ArrayRef<HostTensor *> results) {
  return report(*this,
                k::avgPoolGrad(*operands[0],
                               getPoolOptions(*this, {}, getCountIncludePad()),
                               toShape(getInputShape()), *results[0]));
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

LogicalResult SgdUpdateOp::execute(ArrayRef<const HostTensor *> operands,
                                   ArrayRef<HostTensor *> results) {
  return report(*this, k::sgdUpdate(*operands[0], *operands[1],
                                    getLr().convertToDouble(), *results[0]));
}

LogicalResult AdamUpdateOp::execute(ArrayRef<const HostTensor *> operands,
                                    ArrayRef<HostTensor *> results) {
  k::AdamOptions options;
  options.learningRate = getLr().convertToDouble();
  options.beta1 = getBeta1().convertToDouble();
  options.beta2 = getBeta2().convertToDouble();
  options.epsilon = getEpsilon().convertToDouble();
  return report(*this, k::adamUpdate(*operands[0], *operands[1], *operands[2],
                                     *operands[3], *operands[4], options,
                                     *results[0], *results[1], *results[2]));
}
