//===- GradientInterfaceImpl.cpp - gradient rules of the dist ops ---------===//
//
// GradientOpInterface for every compute and communication op, as external
// models registered by registerGradientInterfaceExternalModels (as upstream's
// Linalg AllInterfaces.cpp): the
// vector-Jacobian product of the op, built from ops of the dialect at the
// builder's insertion point. A rule appends one entry per operand to
// `operandGradients`, each of the operand's exact type (shape and placement),
// or null where there is no gradient (integer operands, class weights, the
// statistics of inference batch_norm). `dist-autodiff` drives these rules.
//
// Broadcasting ops sum their gradient back to the operand's shape. Gradients
// of the backward helper ops (second order) exist where they are linear or
// short; the others fail with a diagnostic naming the op.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/GradientInterfaceImpl.h"
#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/ShapeInference/ShapeRules.h"

#include "mlir/IR/DialectRegistry.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dist;
namespace shapes = distir::shapes;

namespace {

RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

bool isFloatTensor(Value value) {
  return isa<FloatType>(tensorType(value).getElementType());
}

/// A splat constant with the element type and placement of `like`: rank 0
/// (operands of broadcasting ops), or of `like`'s shape when `fullShape`.
Value constantLike(OpBuilder &builder, Location loc, Value like, double value,
                   bool fullShape = false) {
  RankedTensorType type = tensorType(like);
  auto valueType = RankedTensorType::get(
      fullShape ? type.getShape() : ArrayRef<int64_t>{}, type.getElementType());
  Attribute element = builder.getFloatAttr(type.getElementType(), value);
  return ConstantOp::create(builder, loc,
                            DenseElementsAttr::get(valueType, element),
                            getPlacement(type));
}

Value scale(OpBuilder &builder, Location loc, Value value, double factor) {
  return MulOp::create(builder, loc, value,
                       constantLike(builder, loc, value, factor));
}

Value reshapeTo(OpBuilder &builder, Location loc, Value value,
                ArrayRef<int64_t> shape) {
  if (tensorType(value).getShape() == shape)
    return value;
  return ReshapeOp::create(builder, loc, value, shape);
}

/// Undoes NumPy broadcasting: sums `grad` over the dimensions that
/// broadcasting added or stretched, then gives it `target`'s shape.
Value sumToShape(OpBuilder &builder, Location loc, Value grad,
                 RankedTensorType target) {
  ArrayRef<int64_t> from = tensorType(grad).getShape(), to = target.getShape();
  if (from == to)
    return grad;
  int64_t extra = (int64_t)from.size() - (int64_t)to.size();
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < (int64_t)from.size(); ++d)
    if (d < extra || (to[d - extra] == 1 && from[d] != 1))
      axes.push_back(d);
  if (!axes.empty())
    grad = ReduceSumOp::create(builder, loc, grad, axes, /*keepdims=*/false);
  return reshapeTo(builder, loc, grad, to);
}

/// Sets the gradients of all operands at once (so that a rule cannot forget
/// one).
LogicalResult setGradients(SmallVectorImpl<Value> &operandGradients,
                           ArrayRef<Value> gradients) {
  llvm::append_range(operandGradients, gradients);
  return success();
}

/// The operand gradient unless the operand is not a float tensor.
Value ifFloat(Value operand, llvm::function_ref<Value()> build) {
  return isFloatTensor(operand) ? build() : Value();
}

/// The gradient of a broadcast operand: the elementwise `term` summed back
/// to the operand's shape (none for an integer operand).
Value broadcastGradient(OpBuilder &builder, Location loc, Value operand,
                        llvm::function_ref<Value()> term) {
  return ifFloat(operand, [&] {
    return sumToShape(builder, loc, term(), tensorType(operand));
  });
}

LogicalResult unsupported(Operation *op) {
  return op->emitOpError("has no gradient rule (second-order differentiation "
                         "of this op is not supported)");
}

/// Shape of a reduction's result with the reduced axes kept as size 1.
SmallVector<int64_t> keptShape(RankedTensorType input, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape(input.getShape());
  for (int64_t axis : axes)
    shape[shapes::normalizeVerifiedAxis(axis, input.getRank())] = 1;
  return shape;
}

/// Gradient of a reduction over `axes`: the result gradient spread back
/// over the reduced dimensions.
Value spreadOverAxes(OpBuilder &builder, Location loc, Value grad,
                     RankedTensorType input, ArrayRef<int64_t> axes) {
  Value kept = reshapeTo(builder, loc, grad, keptShape(input, axes));
  return ExpandOp::create(builder, loc, kept, input.getShape());
}

double countOverAxes(RankedTensorType input, ArrayRef<int64_t> axes) {
  double count = 1;
  for (int64_t axis : axes)
    count *=
        input.getDimSize(shapes::normalizeVerifiedAxis(axis, input.getRank()));
  return count;
}

} // namespace

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(MatmulOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getLhs().getType(), bType = op.getRhs().getType();
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  Value a = op.getLhs(), b = op.getRhs(), dc = resultGradients[0];

  // Promote rank-1 operands as the forward did, and give the result
  // gradient back the dimensions the promotion dropped.
  bool aVector = aType.getRank() == 1, bVector = bType.getRank() == 1;
  if (aVector)
    a = reshapeTo(builder, loc, a, {1, aType.getDimSize(0)});
  if (bVector)
    b = reshapeTo(builder, loc, b, {bType.getDimSize(0), 1});
  if (aVector || bVector) {
    SmallVector<int64_t> shape(tensorType(dc).getShape());
    if (bVector)
      shape.push_back(1);
    if (aVector)
      shape.insert(shape.end() - 1, 1);
    dc = reshapeTo(builder, loc, dc, shape);
  }
  RankedTensorType aFull = tensorType(a), bFull = tensorType(b);

  // With A = op(a), B = op(b): dA = dC B^T and dB = A^T dC, transposed back
  // when the operand was transposed, then summed over broadcast batch dims.
  Value da = MatmulOp::create(builder, loc, ta ? b : dc, ta ? dc : b,
                              /*transpose_a=*/ta ? tb : false,
                              /*transpose_b=*/ta ? true : !tb);
  // Sum over broadcast batch dims against the promoted shape, then drop the
  // promoted dim: the two are not aligned on the right for a vector rhs.
  da = reshapeTo(builder, loc, sumToShape(builder, loc, da, aFull),
                 aType.getShape());

  Value db;
  if (bFull.getRank() == 2 && aFull.getRank() > 2 && !ta && !bVector) {
    // A weight shared by every batch element: contract over all rows at
    // once instead of materializing one [K, N] product per batch element.
    int64_t k = aFull.getShape().back(), n = bFull.getShape().back();
    if (tb)
      n = bFull.getDimSize(0);
    int64_t rows = aFull.getNumElements() / std::max<int64_t>(k, 1);
    Value a2 = reshapeTo(builder, loc, a, {rows, k});
    Value dc2 = reshapeTo(builder, loc, dc, {rows, n});
    db = tb ? MatmulOp::create(builder, loc, dc2, a2, true, false)
            : MatmulOp::create(builder, loc, a2, dc2, true, false);
  } else {
    db = MatmulOp::create(builder, loc, tb ? dc : a, tb ? a : dc,
                          /*transpose_a=*/tb ? true : !ta,
                          /*transpose_b=*/tb ? ta : false);
  }
  db = reshapeTo(builder, loc, sumToShape(builder, loc, db, bFull),
                 bType.getShape());
  return setGradients(operandGradients, {da, db});
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(AddOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dz = resultGradients[0];
  return setGradients(
      operandGradients,
      {broadcastGradient(builder, loc, op.getLhs(), [&] { return dz; }),
       broadcastGradient(builder, loc, op.getRhs(), [&] { return dz; })});
}

static LogicalResult buildGradientOf(SubOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dz = resultGradients[0];
  return setGradients(
      operandGradients,
      {broadcastGradient(builder, loc, op.getLhs(), [&] { return dz; }),
       broadcastGradient(builder, loc, op.getRhs(),
                         [&] { return NegOp::create(builder, loc, dz); })});
}

static LogicalResult buildGradientOf(MulOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dz = resultGradients[0];
  return setGradients(
      operandGradients,
      {broadcastGradient(
           builder, loc, op.getLhs(),
           [&] { return MulOp::create(builder, loc, dz, op.getRhs()); }),
       broadcastGradient(builder, loc, op.getRhs(), [&] {
         return MulOp::create(builder, loc, dz, op.getLhs());
       })});
}

static LogicalResult buildGradientOf(DivOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dz = resultGradients[0];
  // z = a / b: da = dz / b, db = -dz * z / b.
  return setGradients(
      operandGradients,
      {broadcastGradient(
           builder, loc, op.getLhs(),
           [&] { return DivOp::create(builder, loc, dz, op.getRhs()); }),
       broadcastGradient(builder, loc, op.getRhs(), [&] {
         Value t = MulOp::create(builder, loc, dz, op.getResult());
         return NegOp::create(builder, loc,
                              DivOp::create(builder, loc, t, op.getRhs()));
       })});
}

static LogicalResult buildGradientOf(PowOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dz = resultGradients[0], a = op.getLhs(), b = op.getRhs();
  // z = a^b: da = dz * b * a^(b-1), db = dz * z * log(a) (NaN for a <= 0,
  // where the real power has no derivative in b either).
  return setGradients(
      operandGradients,
      {broadcastGradient(
           builder, loc, a,
           [&] {
             Value bMinusOne = SubOp::create(
                 builder, loc, b, constantLike(builder, loc, b, 1.0));
             Value t = PowOp::create(builder, loc, a, bMinusOne);
             return MulOp::create(builder, loc,
                                  MulOp::create(builder, loc, dz, b), t);
           }),
       broadcastGradient(builder, loc, b, [&] {
         Value t = MulOp::create(builder, loc, dz, op.getResult());
         return MulOp::create(builder, loc, t, LogOp::create(builder, loc, a));
       })});
}

static LogicalResult buildGradientOf(WhereOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dz = resultGradients[0];
  Value zero = constantLike(builder, loc, dz, 0.0);
  return setGradients(
      operandGradients,
      {Value(),
       broadcastGradient(builder, loc, op.getTrueValue(),
                         [&] {
                           return WhereOp::create(builder, loc,
                                                  op.getCondition(), dz, zero);
                         }),
       broadcastGradient(builder, loc, op.getFalseValue(), [&] {
         return WhereOp::create(builder, loc, op.getCondition(), zero, dz);
       })});
}

static LogicalResult buildGradientOf(NegOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(operandGradients, {NegOp::create(builder, op.getLoc(),
                                                       resultGradients[0])});
}

static LogicalResult buildGradientOf(ExpOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(operandGradients,
                      {MulOp::create(builder, op.getLoc(), resultGradients[0],
                                     op.getResult())});
}

static LogicalResult buildGradientOf(LogOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {DivOp::create(builder, op.getLoc(), resultGradients[0], op.getInput())});
}

static LogicalResult buildGradientOf(SqrtOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // d sqrt(x) = 0.5 / sqrt(x).
  Location loc = op.getLoc();
  Value t = DivOp::create(builder, loc, resultGradients[0], op.getResult());
  return setGradients(operandGradients, {scale(builder, loc, t, 0.5)});
}

static LogicalResult buildGradientOf(RsqrtOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // d x^(-1/2) = -0.5 x^(-3/2) = -0.5 z^3.
  Location loc = op.getLoc();
  Value z = op.getResult();
  Value cube =
      MulOp::create(builder, loc, MulOp::create(builder, loc, z, z), z);
  Value t = MulOp::create(builder, loc, resultGradients[0], cube);
  return setGradients(operandGradients, {scale(builder, loc, t, -0.5)});
}

static LogicalResult buildGradientOf(ErfOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // d erf(x) = 2 / sqrt(pi) exp(-x^2).
  Location loc = op.getLoc();
  Value x = op.getInput();
  Value t = ExpOp::create(
      builder, loc,
      NegOp::create(builder, loc, MulOp::create(builder, loc, x, x)));
  t = MulOp::create(builder, loc, resultGradients[0], t);
  return setGradients(operandGradients,
                      {scale(builder, loc, t, 2.0 / std::sqrt(M_PI))});
}

static LogicalResult buildGradientOf(ReluOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(operandGradients,
                      {ReluGradOp::create(builder, op.getLoc(),
                                          resultGradients[0], op.getInput())});
}

static LogicalResult buildGradientOf(TanhOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(operandGradients,
                      {TanhGradOp::create(builder, op.getLoc(),
                                          resultGradients[0], op.getResult())});
}

static LogicalResult buildGradientOf(SigmoidOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {SigmoidGradOp::create(builder, op.getLoc(), resultGradients[0],
                             op.getResult())});
}

static LogicalResult buildGradientOf(GeluOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {GeluGradOp::create(builder, op.getLoc(), resultGradients[0],
                          op.getInput(), op.getApproximateAttr())});
}

static LogicalResult buildGradientOf(DropoutOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Inference dropout is the identity.
  return setGradients(operandGradients, {resultGradients[0]});
}

static LogicalResult buildGradientOf(DropoutTrainOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // The mask has no gradient; the block indices are integers.
  Value grad = resultGradients[0];
  operandGradients.push_back(grad ? DropoutGradOp::create(builder, op.getLoc(),
                                                          grad, op.getKeep(),
                                                          op.getRatioAttr())
                                  : Value());
  operandGradients.append(op.getBlocks().size(), Value());
  return success();
}

static LogicalResult buildGradientOf(DropoutGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Linear in the gradient, with the same mask.
  return setGradients(
      operandGradients,
      {DropoutGradOp::create(builder, op.getLoc(), resultGradients[0],
                             op.getKeep(), op.getRatioAttr()),
       Value()});
}

static LogicalResult buildGradientOf(CastOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Value input = op.getInput();
  return setGradients(operandGradients, {ifFloat(input, [&] {
                        return CastOp::create(
                                   builder, op.getLoc(), resultGradients[0],
                                   getElementTypeOrSelf(input.getType()))
                            .getResult();
                      })});
}

//===----------------------------------------------------------------------===//
// Fused attention
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(AttentionOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // The logsumexp is a statistic for backward, not a value to differentiate.
  if (resultGradients[1])
    return op.emitOpError("has no gradient through its logsumexp");
  Value grad = resultGradients[0];
  if (!grad) {
    operandGradients.append(op->getNumOperands(), Value());
    return success();
  }
  // The same attributes: the backward re-draws the forward's masks.
  SmallVector<Value> operands{op.getQuery(),  op.getKey(),       op.getValue(),
                              op.getResult(), op.getLogsumexp(), grad};
  llvm::append_range(operands, op.getBlocks());
  auto gradOp = AttentionGradOp::create(builder, op.getLoc(),
                                        TypeRange{op.getQuery().getType(),
                                                  op.getKey().getType(),
                                                  op.getValue().getType()},
                                        operands, op->getAttrs());
  operandGradients.append(gradOp->getResults().begin(),
                          gradOp->getResults().end());
  operandGradients.append(op.getBlocks().size(), Value());
  return success();
}

static LogicalResult buildGradientOf(AttentionGradOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

//===----------------------------------------------------------------------===//
// Softmax and normalization
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(SoftmaxOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Masked (causal) entries have probability 0 and so get no gradient.
  return setGradients(
      operandGradients,
      {SoftmaxGradOp::create(builder, op.getLoc(), resultGradients[0],
                             op.getResult(), op.getAxisAttr(),
                             op.getScaleAttr())});
}

static LogicalResult buildGradientOf(LogSoftmaxOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {LogSoftmaxGradOp::create(builder, op.getLoc(), resultGradients[0],
                                op.getResult(), op.getAxisAttr())});
}

static LogicalResult buildGradientOf(LayerNormOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  auto grads = LayerNormGradOp::create(builder, op.getLoc(), resultGradients[0],
                                       op.getInput(), op.getScale(),
                                       op.getAxisAttr(), op.getEpsilonAttr());
  return setGradients(
      operandGradients,
      {grads.getInputGrad(), grads.getScaleGrad(), grads.getBiasGrad()});
}

static LogicalResult buildGradientOf(BatchNormOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Inference form: mean and variance are running statistics, not trained.
  auto grads = BatchNormGradOp::create(
      builder, op.getLoc(), resultGradients[0], op.getInput(), op.getScale(),
      op.getMean(), op.getVariance(), op.getEpsilonAttr());
  return setGradients(operandGradients,
                      {grads.getInputGrad(), grads.getScaleGrad(),
                       grads.getBiasGrad(), Value(), Value()});
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(TransposeOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  ArrayRef<int64_t> perm = op.getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return setGradients(operandGradients, {ifFloat(op.getInput(), [&] {
                        return TransposeOp::create(builder, op.getLoc(),
                                                   resultGradients[0], inverse)
                            .getResult();
                      })});
}

static LogicalResult buildGradientOf(ReshapeOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  RankedTensorType input = op.getInput().getType();
  if (!input.hasStaticShape())
    return op.emitOpError("gradient needs a static input shape, got ") << input;
  return setGradients(operandGradients, {ifFloat(op.getInput(), [&] {
                        return reshapeTo(builder, op.getLoc(),
                                         resultGradients[0], input.getShape());
                      })});
}

static LogicalResult buildGradientOf(ConcatOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  if (!isFloatTensor(op.getResult()))
    return setGradients(operandGradients,
                        SmallVector<Value>(op.getNumOperands()));
  int64_t axis = shapes::normalizeVerifiedAxis((int64_t)op.getAxis(),
                                               op.getType().getRank());
  SmallVector<int64_t> sizes;
  for (Value input : op.getInputs())
    sizes.push_back(tensorType(input).getDimSize(axis));
  auto pieces =
      SplitOp::create(builder, op.getLoc(), resultGradients[0], axis, sizes);
  return setGradients(operandGradients,
                      SmallVector<Value>(pieces.getResults()));
}

static LogicalResult buildGradientOf(SliceOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  if (!isFloatTensor(op.getInput()))
    return setGradients(operandGradients, {Value()});
  Location loc = op.getLoc();
  RankedTensorType input = op.getInput().getType();
  if (!input.hasStaticShape())
    return op.emitOpError("gradient needs a static input shape, got ") << input;
  Value grad = resultGradients[0];
  ArrayRef<int64_t> resultShape = op.getType().getShape();
  int64_t rank = input.getRank();
  // Zeros are padded around and between the taken elements; a negative
  // stride first reverses the gradient so that elements come in input order.
  SmallVector<int64_t> low(rank), high(rank), interior(rank);
  SmallVector<int64_t> revStarts(rank), revLimits(rank), revStrides(rank);
  bool reverse = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = op.getStarts()[d], stride = op.getStrides()[d];
    int64_t count = resultShape[d], size = input.getDimSize(d);
    revStarts[d] = 0;
    revLimits[d] = count;
    revStrides[d] = 1;
    if (count == 0) {
      low[d] = size;
      high[d] = 0;
      interior[d] = 0;
      continue;
    }
    int64_t last = start + (count - 1) * stride;
    int64_t first = std::min(start, last);
    low[d] = first;
    high[d] = size - 1 - std::max(start, last);
    interior[d] = std::abs(stride) - 1;
    if (stride < 0) {
      reverse = true;
      revStarts[d] = count - 1;
      revLimits[d] = -1;
      revStrides[d] = -1;
    }
  }
  if (reverse)
    grad =
        SliceOp::create(builder, loc, grad, revStarts, revLimits, revStrides);
  return setGradients(operandGradients,
                      {PadOp::create(builder, loc, grad, low, high, interior)});
}

static LogicalResult buildGradientOf(SplitOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  if (!isFloatTensor(op.getInput()))
    return setGradients(operandGradients, {Value()});
  SmallVector<Value> pieces;
  for (auto [result, grad] : llvm::zip(op.getResults(), resultGradients))
    pieces.push_back(grad ? grad
                          : constantLike(builder, op.getLoc(), result, 0.0,
                                         /*fullShape=*/true));
  return setGradients(
      operandGradients,
      {ConcatOp::create(builder, op.getLoc(), pieces, op.getAxisAttr())});
}

static LogicalResult buildGradientOf(PadOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  if (!isFloatTensor(op.getInput()))
    return setGradients(operandGradients, {Value()});
  RankedTensorType input = op.getInput().getType();
  SmallVector<int64_t> starts, limits, strides;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    int64_t size = input.getDimSize(d), step = op.getInterior()[d] + 1;
    starts.push_back(op.getLow()[d]);
    limits.push_back(op.getLow()[d] + std::max<int64_t>(size - 1, 0) * step +
                     (size > 0 ? 1 : 0));
    strides.push_back(step);
  }
  return setGradients(operandGradients,
                      {SliceOp::create(builder, op.getLoc(), resultGradients[0],
                                       starts, limits, strides)});
}

static LogicalResult buildGradientOf(TakeOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  RankedTensorType input = op.getInput().getType();
  int64_t axis =
      shapes::normalizeVerifiedAxis((int64_t)op.getAxis(), input.getRank());
  // Indices and the block index have no gradient.
  SmallVector<Value, 3> grads(op->getNumOperands());
  grads[0] = ifFloat(op.getInput(), [&] {
    return TakeGradOp::create(builder, op.getLoc(), resultGradients[0],
                              op.getIndices(), axis, input.getDimSize(axis),
                              op.getBlock())
        .getResult();
  });
  return setGradients(operandGradients, grads);
}

static LogicalResult buildGradientOf(ExpandOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(operandGradients,
                      {broadcastGradient(builder, op.getLoc(), op.getInput(),
                                         [&] { return resultGradients[0]; })});
}

//===----------------------------------------------------------------------===//
// Reductions and losses
//===----------------------------------------------------------------------===//

// An empty axis list reduces nothing (the op's shape rule), so the
// gradient of such a reduction is the result gradient itself.
static LogicalResult buildGradientOf(ReduceSumOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  if (op.getAxes().empty())
    return setGradients(operandGradients, {resultGradients[0]});
  return setGradients(operandGradients,
                      {spreadOverAxes(builder, op.getLoc(), resultGradients[0],
                                      op.getInput().getType(), op.getAxes())});
}

static LogicalResult buildGradientOf(ReduceMeanOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  if (op.getAxes().empty())
    return setGradients(operandGradients, {resultGradients[0]});
  RankedTensorType input = op.getInput().getType();
  Value spread = spreadOverAxes(builder, op.getLoc(), resultGradients[0], input,
                                op.getAxes());
  return setGradients(operandGradients,
                      {scale(builder, op.getLoc(), spread,
                             1.0 / countOverAxes(input, op.getAxes()))});
}

static LogicalResult buildGradientOf(CrossEntropyOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Class weights are treated as constants (they are hyper-parameters).
  Value dlogits = CrossEntropyGradOp::create(
      builder, op.getLoc(), resultGradients[0], op.getLogits(), op.getLabels(),
      op.getWeights(), op.getClassAxisAttr(), op.getReductionAttr(),
      op.getIgnoreIndexAttr());
  SmallVector<Value> grads = {dlogits, Value()};
  if (op.getWeights())
    grads.push_back(Value());
  return setGradients(operandGradients, grads);
}

static LogicalResult buildGradientOf(MseLossOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Value dprediction =
      MseLossGradOp::create(builder, op.getLoc(), resultGradients[0],
                            op.getPrediction(), op.getTarget());
  return setGradients(
      operandGradients,
      {dprediction, NegOp::create(builder, op.getLoc(), dprediction)});
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(ConvOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Location loc = op.getLoc();
  Value dy = resultGradients[0];
  Value dx = ConvGradInputOp::create(
      builder, loc, dy, op.getFilter(), op.getStridesAttr(), op.getPadsAttr(),
      op.getDilationsAttr(), op.getGroupAttr(),
      builder.getDenseI64ArrayAttr(op.getInput().getType().getShape()));
  Value dw = ConvGradFilterOp::create(
      builder, loc, dy, op.getInput(), op.getStridesAttr(), op.getPadsAttr(),
      op.getDilationsAttr(), op.getGroupAttr(),
      builder.getDenseI64ArrayAttr(op.getFilter().getType().getShape()));
  SmallVector<Value> grads = {dx, dw};
  if (op.getBias()) {
    // The bias is added to channel 1 of every output position.
    SmallVector<int64_t> axes = {0};
    for (int64_t d = 2; d < op.getType().getRank(); ++d)
      axes.push_back(d);
    grads.push_back(
        ReduceSumOp::create(builder, loc, dy, axes, /*keepdims=*/false));
  }
  return setGradients(operandGradients, grads);
}

static LogicalResult buildGradientOf(MaxPoolOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {MaxPoolGradOp::create(builder, op.getLoc(), resultGradients[0],
                             op.getInput(), op.getKernelShapeAttr(),
                             op.getStridesAttr(), op.getPadsAttr(),
                             op.getDilationsAttr(), op.getCeilModeAttr())});
}

static LogicalResult buildGradientOf(AvgPoolOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {AvgPoolGradOp::create(
          builder, op.getLoc(), resultGradients[0], op.getKernelShapeAttr(),
          op.getStridesAttr(), op.getPadsAttr(), op.getCountIncludePadAttr(),
          op.getCeilModeAttr(),
          builder.getDenseI64ArrayAttr(op.getInput().getType().getShape()))});
}

static LogicalResult buildGradientOf(GlobalAvgPoolOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  RankedTensorType input = op.getInput().getType();
  SmallVector<int64_t> spatial;
  for (int64_t d = 2; d < input.getRank(); ++d)
    spatial.push_back(d);
  Value spread = ExpandOp::create(builder, op.getLoc(), resultGradients[0],
                                  input.getShape());
  return setGradients(operandGradients,
                      {scale(builder, op.getLoc(), spread,
                             1.0 / countOverAxes(input, spatial))});
}

//===----------------------------------------------------------------------===//
// Backward helpers (second order)
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(ReluGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Linear in the gradient; piecewise constant (zero derivative) in x.
  return setGradients(operandGradients,
                      {ReluGradOp::create(builder, op.getLoc(),
                                          resultGradients[0], op.getSaved()),
                       Value()});
}

static LogicalResult buildGradientOf(TanhGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = g (1 - y^2): dg = dr (1 - y^2), dy = -2 dr g y.
  Location loc = op.getLoc();
  Value dr = resultGradients[0];
  Value dy =
      MulOp::create(builder, loc, MulOp::create(builder, loc, dr, op.getGrad()),
                    op.getSaved());
  return setGradients(operandGradients,
                      {TanhGradOp::create(builder, loc, dr, op.getSaved()),
                       scale(builder, loc, dy, -2.0)});
}

static LogicalResult buildGradientOf(SigmoidGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = g y (1 - y): dg = dr y (1 - y), dy = dr g (1 - 2y).
  Location loc = op.getLoc();
  Value dr = resultGradients[0], y = op.getSaved();
  Value oneMinusTwoY = AddOp::create(builder, loc, scale(builder, loc, y, -2.0),
                                     constantLike(builder, loc, y, 1.0));
  Value dy =
      MulOp::create(builder, loc, MulOp::create(builder, loc, dr, op.getGrad()),
                    oneMinusTwoY);
  return setGradients(operandGradients,
                      {SigmoidGradOp::create(builder, loc, dr, y), dy});
}

static LogicalResult buildGradientOf(GeluGradOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

static LogicalResult buildGradientOf(SoftmaxGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = s y (g - sum(g y)). Its Jacobian in g is symmetric, so dg is
  // softmax_grad again; in y: dy = s (dr (g - sum(g y)) - g sum(y dr)).
  Location loc = op.getLoc();
  Value dr = resultGradients[0], g = op.getGrad(), y = op.getOutput();
  SmallVector<int64_t> axis = {(int64_t)op.getAxis()};
  Value gy =
      ReduceSumOp::create(builder, loc, MulOp::create(builder, loc, g, y), axis,
                          /*keepdims=*/true);
  Value ydr = ReduceSumOp::create(builder, loc,
                                  MulOp::create(builder, loc, y, dr), axis,
                                  /*keepdims=*/true);
  Value dy = SubOp::create(
      builder, loc,
      MulOp::create(builder, loc, dr, SubOp::create(builder, loc, g, gy)),
      MulOp::create(builder, loc, g, ydr));
  return setGradients(
      operandGradients,
      {SoftmaxGradOp::create(builder, loc, dr, y, op.getAxisAttr(),
                             op.getScaleAttr()),
       scale(builder, loc, dy, op.getScale().convertToDouble())});
}

static LogicalResult buildGradientOf(LogSoftmaxGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = g - exp(y) sum(g): dg = dr - sum(exp(y) dr), dy = -exp(y) sum(g) dr.
  Location loc = op.getLoc();
  Value dr = resultGradients[0], g = op.getGrad();
  SmallVector<int64_t> axis = {(int64_t)op.getAxis()};
  Value expY = ExpOp::create(builder, loc, op.getOutput());
  Value dg = SubOp::create(
      builder, loc, dr,
      ReduceSumOp::create(builder, loc, MulOp::create(builder, loc, expY, dr),
                          axis,
                          /*keepdims=*/true));
  Value sumG = ReduceSumOp::create(builder, loc, g, axis, /*keepdims=*/true);
  Value dy =
      MulOp::create(builder, loc, MulOp::create(builder, loc, expY, sumG), dr);
  return setGradients(operandGradients, {dg, NegOp::create(builder, loc, dy)});
}

static LogicalResult buildGradientOf(LayerNormGradOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

static LogicalResult buildGradientOf(BatchNormGradOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

// Only the partitioner creates the maximum (for a vocabulary-parallel cross
// entropy), after autodiff.
static LogicalResult buildGradientOf(ReduceMaxOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

static LogicalResult buildGradientOf(OneHotOp op, OpBuilder &, ArrayRef<Value>,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Integer operands only: nothing to differentiate.
  return setGradients(operandGradients,
                      SmallVector<Value, 2>(op->getNumOperands()));
}

static LogicalResult buildGradientOf(CrossEntropyGradOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

static LogicalResult buildGradientOf(MseLossGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = g * 2 (p - t) / N with a scalar g.
  Location loc = op.getLoc();
  Value dr = resultGradients[0];
  RankedTensorType prediction = op.getPrediction().getType();
  double twoOverN =
      2.0 / std::max<double>(1.0, (double)prediction.getNumElements());
  Value diff = SubOp::create(builder, loc, op.getPrediction(), op.getTarget());
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, prediction.getRank()));
  Value dg = ReduceSumOp::create(builder, loc,
                                 MulOp::create(builder, loc, dr, diff), all,
                                 /*keepdims=*/false);
  dg = reshapeTo(builder, loc, scale(builder, loc, dg, twoOverN),
                 op.getGrad().getType().getShape());
  Value dp = scale(builder, loc, MulOp::create(builder, loc, dr, op.getGrad()),
                   twoOverN);
  return setGradients(operandGradients,
                      {dg, dp, NegOp::create(builder, loc, dp)});
}

static LogicalResult buildGradientOf(TakeGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // A scatter-add is linear; its adjoint is the gather.
  SmallVector<Value, 3> grads(op->getNumOperands());
  grads[0] =
      TakeOp::create(builder, op.getLoc(), resultGradients[0], op.getIndices(),
                     (int64_t)op.getAxis(), op.getBlock());
  return setGradients(operandGradients, grads);
}

static LogicalResult buildGradientOf(ConvGradInputOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = C_w^T g: dg = C_w dr = conv(dr, w); in w, <dr, C_w^T g> = <conv(dr, w),
  // g>.
  Location loc = op.getLoc();
  Value dr = resultGradients[0];
  Value dg = ConvOp::create(builder, loc, dr, op.getFilter(), Value(),
                            op.getStridesAttr(), op.getPadsAttr(),
                            op.getDilationsAttr(), op.getGroupAttr());
  Value dw = ConvGradFilterOp::create(
      builder, loc, op.getGrad(), dr, op.getStridesAttr(), op.getPadsAttr(),
      op.getDilationsAttr(), op.getGroupAttr(),
      builder.getDenseI64ArrayAttr(op.getFilter().getType().getShape()));
  return setGradients(operandGradients, {dg, dw});
}

static LogicalResult buildGradientOf(ConvGradFilterOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // r = F_x^T g: dg = conv(x, dr); in x, <dr, F_x^T g> = <conv(x, dr), g>.
  Location loc = op.getLoc();
  Value dr = resultGradients[0];
  Value dg = ConvOp::create(builder, loc, op.getInput(), dr, Value(),
                            op.getStridesAttr(), op.getPadsAttr(),
                            op.getDilationsAttr(), op.getGroupAttr());
  Value dx = ConvGradInputOp::create(
      builder, loc, op.getGrad(), dr, op.getStridesAttr(), op.getPadsAttr(),
      op.getDilationsAttr(), op.getGroupAttr(),
      builder.getDenseI64ArrayAttr(op.getInput().getType().getShape()));
  return setGradients(operandGradients, {dg, dx});
}

static LogicalResult buildGradientOf(MaxPoolGradOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

static LogicalResult buildGradientOf(AvgPoolGradOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Linear: the adjoint of the adjoint of avg_pool is avg_pool.
  return setGradients(
      operandGradients,
      {AvgPoolOp::create(builder, op.getLoc(), resultGradients[0],
                         op.getKernelShapeAttr(), op.getStridesAttr(),
                         op.getPadsAttr(), op.getCountIncludePadAttr(),
                         op.getCeilModeAttr())});
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

static LogicalResult buildGradientOf(SgdUpdateOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  Value dr = resultGradients[0];
  return setGradients(
      operandGradients,
      {dr, scale(builder, op.getLoc(), dr, -op.getLr().convertToDouble())});
}

static LogicalResult buildGradientOf(AdamUpdateOp op, OpBuilder &,
                                     ArrayRef<Value>,
                                     SmallVectorImpl<Value> &) {
  return unsupported(op);
}

//===----------------------------------------------------------------------===//
// Communication: each collective's adjoint is its mirror image
//===----------------------------------------------------------------------===//

/// Reductions whose gradient is linear and shared by all members.
static bool isLinearReduction(ReductionKind kind) {
  return kind == ReductionKind::sum || kind == ReductionKind::avg;
}

static LogicalResult nonlinearReduction(Operation *op, ReductionKind kind) {
  return op->emitOpError("has no gradient rule for reduction '")
         << stringifyReductionKind(kind) << "' (only sum and avg)";
}

/// The gradient of a reducing collective that hands out parts of the result:
/// the `mirror` collective of the result gradient, scaled 1/n for avg.
static LogicalResult mirrorReduction(Operation *op, OpBuilder &builder,
                                     ReductionKind kind,
                                     DeviceGroupsAttr groups,
                                     SmallVectorImpl<Value> &operandGradients,
                                     llvm::function_ref<Value()> mirror) {
  if (!isLinearReduction(kind))
    return nonlinearReduction(op, kind);
  Value grad = mirror();
  if (kind == ReductionKind::avg)
    grad = scale(builder, op->getLoc(), grad, 1.0 / groups.getGroupSize());
  return setGradients(operandGradients, {grad});
}

static LogicalResult buildGradientOf(SendOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(operandGradients,
                      {SendOp::create(builder, op.getLoc(), resultGradients[0],
                                      getPlacement(op.getInput()))});
}

static LogicalResult buildGradientOf(AllReduceOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // Every member's input reaches every member's output (scaled 1/n for avg).
  if (!isLinearReduction(op.getReduction()))
    return nonlinearReduction(op, op.getReduction());
  return setGradients(
      operandGradients,
      {AllReduceOp::create(builder, op.getLoc(), resultGradients[0],
                           op.getGroups(), op.getReduction())});
}

static LogicalResult buildGradientOf(AllGatherOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {ReduceScatterOp::create(
          builder, op.getLoc(), resultGradients[0], op.getGroups(),
          op.getDimAttr(),
          ReductionKindAttr::get(op.getContext(), ReductionKind::sum))});
}

static LogicalResult buildGradientOf(ReduceScatterOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return mirrorReduction(
      op, builder, op.getReduction(), op.getGroups(), operandGradients, [&] {
        return AllGatherOp::create(builder, op.getLoc(), resultGradients[0],
                                   op.getGroups(), op.getDimAttr());
      });
}

static LogicalResult buildGradientOf(AllToAllOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  // The exchange run backwards: split where it concatenated and vice versa.
  return setGradients(
      operandGradients,
      {AllToAllOp::create(builder, op.getLoc(), resultGradients[0],
                          op.getGroups(), op.getConcatDimAttr(),
                          op.getSplitDimAttr())});
}

static LogicalResult buildGradientOf(BroadcastOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {ReduceOp::create(
          builder, op.getLoc(), resultGradients[0], op.getGroups(),
          op.getRootAttr(),
          ReductionKindAttr::get(op.getContext(), ReductionKind::sum))});
}

static LogicalResult buildGradientOf(ReduceOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return mirrorReduction(
      op, builder, op.getReduction(), op.getGroups(), operandGradients, [&] {
        return BroadcastOp::create(builder, op.getLoc(), resultGradients[0],
                                   op.getGroups(), op.getRootAttr());
      });
}

static LogicalResult buildGradientOf(ScatterOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {GatherOp::create(builder, op.getLoc(), resultGradients[0],
                        op.getGroups(), op.getRootAttr(), op.getDimAttr())});
}

static LogicalResult buildGradientOf(GatherOp op, OpBuilder &builder,
                                     ArrayRef<Value> resultGradients,
                                     SmallVectorImpl<Value> &operandGradients) {
  return setGradients(
      operandGradients,
      {ScatterOp::create(builder, op.getLoc(), resultGradients[0],
                         op.getGroups(), op.getRootAttr(), op.getDimAttr())});
}

//===----------------------------------------------------------------------===//
// External models
//===----------------------------------------------------------------------===//

namespace {

/// The gradient interface of `OpT`: its buildGradientOf above.
template <typename OpT>
struct GradientModel
    : GradientOpInterface::ExternalModel<GradientModel<OpT>, OpT> {
  LogicalResult buildGradient(Operation *op, OpBuilder &builder,
                              ArrayRef<Value> resultGradients,
                              SmallVectorImpl<Value> &operandGradients) const {
    return buildGradientOf(cast<OpT>(op), builder, resultGradients,
                           operandGradients);
  }
};

template <typename... OpTs> void attachGradientModels(MLIRContext *ctx) {
  (OpTs::template attachInterface<GradientModel<OpTs>>(*ctx), ...);
}

} // namespace

void mlir::dist::registerGradientInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, DistDialect *) {
    attachGradientModels<
        MatmulOp, AddOp, SubOp, MulOp, DivOp, PowOp, WhereOp, NegOp, ExpOp,
        LogOp, SqrtOp, RsqrtOp, ErfOp, ReluOp, TanhOp, SigmoidOp, GeluOp,
        DropoutOp, DropoutTrainOp, DropoutGradOp, AttentionOp, AttentionGradOp,
        CastOp, SoftmaxOp, LogSoftmaxOp, LayerNormOp, BatchNormOp, TransposeOp,
        ReshapeOp, ConcatOp, SliceOp, SplitOp, PadOp, TakeOp, ExpandOp,
        ReduceSumOp, ReduceMeanOp, ReduceMaxOp, OneHotOp, CrossEntropyOp,
        MseLossOp, ConvOp, MaxPoolOp, AvgPoolOp, GlobalAvgPoolOp, ReluGradOp,
        TanhGradOp, SigmoidGradOp, GeluGradOp, SoftmaxGradOp, LogSoftmaxGradOp,
        LayerNormGradOp, BatchNormGradOp, CrossEntropyGradOp, MseLossGradOp,
        TakeGradOp, ConvGradInputOp, ConvGradFilterOp, MaxPoolGradOp,
        AvgPoolGradOp, SgdUpdateOp, AdamUpdateOp, SendOp, AllReduceOp,
        AllGatherOp, ReduceScatterOp, AllToAllOp, BroadcastOp, ReduceOp,
        ScatterOp, GatherOp>(ctx);
  });
}
