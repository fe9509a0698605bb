//===- DistOps.cpp - dist dialect operations ------------------------------===//
//
// Result-type inference (which also validates operands and attributes: one
// rule per op, used by the verifier, the builders and dist-infer-shapes) and
// the cost formulas of the ops whose FLOPs no ODS trait states.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/ShapeInference/ShapeRules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::dist;
namespace shapes = distir::shapes;

#include "distir/Dialect/Dist/IR/DistInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Bytes of one element as the cost model counts them (at least one).
static int64_t getElementBytes(Type elementType) {
  if (!elementType.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, (elementType.getIntOrFloatBitWidth() + 7) / 8);
}

/// The byte size of a static-shaped tensor, or an error naming what wraps.
static distir::StatusOr<int64_t> getCheckedTensorBytes(RankedTensorType type) {
  DISTIR_ASSIGN_OR_RETURN(int64_t count,
                          shapes::getElementCount(type.getShape()));
  int64_t bytes;
  if (llvm::MulOverflow(count, getElementBytes(type.getElementType()), bytes))
    return distir::Status::error("byte size of shape " +
                                 shapes::formatDims(type.getShape()) +
                                 " overflows int64");
  return bytes;
}

int64_t mlir::dist::detail::getTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return 0;
  // The RepresentableTensors verifier refuses a type whose size wraps; an
  // unverified one saturates rather than wrapping to a small size.
  distir::StatusOr<int64_t> bytes = getCheckedTensorBytes(tensor);
  return bytes.ok() ? *bytes : std::numeric_limits<int64_t>::max();
}

int64_t mlir::dist::detail::sumTensorBytes(TypeRange types) {
  int64_t total = 0;
  for (Type type : types)
    if (llvm::AddOverflow(total, getTensorBytes(type), total))
      return std::numeric_limits<int64_t>::max(); // Saturates, as above.
  return total;
}

/// Runs `check(type, "operand" or "result", index)` over the op's operand
/// and result types in order, stopping at the first failure.
static LogicalResult
checkEachType(Operation *op,
              function_ref<LogicalResult(Type, StringRef, unsigned)> check) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

LogicalResult mlir::dist::verifyRepresentableTensors(Operation *op) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return success();
    distir::StatusOr<int64_t> bytes = getCheckedTensorBytes(tensor);
    if (bytes.ok())
      return success();
    return op->emitOpError() << what << " #" << index << ": " << bytes.message()
                             << " (a tensor holds at most 2^63-1 bytes)";
  };
  return checkEachType(op, check);
}

double mlir::dist::detail::getElementCount(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.hasStaticShape() ? (double)tensor.getNumElements() : 0.0;
}

bool mlir::dist::areRefinableTypes(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip(lhs, rhs)) {
    if (l == r)
      continue;
    auto lt = dyn_cast<RankedTensorType>(l);
    auto rt = dyn_cast<RankedTensorType>(r);
    if (!lt || !rt || lt.getElementType() != rt.getElementType() ||
        lt.getEncoding() != rt.getEncoding() ||
        failed(verifyCompatibleShape(lt.getShape(), rt.getShape())))
      return false;
  }
  return true;
}

LogicalResult mlir::dist::verifyInferredTypes(Operation *op,
                                              TypeRange inferred) {
  if (areRefinableTypes(inferred, op->getResultTypes()))
    return success();
  return op->emitOpError("inferred type(s) ")
         << inferred << " are incompatible with return type(s) of operation "
         << op->getResultTypes();
}

LogicalResult mlir::dist::verifySamePlacement(Operation *op) {
  std::optional<DevicesAttr> common;
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    if (!isa<RankedTensorType>(type))
      return success();
    DevicesAttr devices = getPlacement(type);
    if (!common) {
      common = devices;
      return success();
    }
    if (devices == *common)
      return success();
    auto diag = op->emitOpError();
    if (!devices || !*common)
      diag << "mixes placed and unplaced values: " << what << " #" << index
           << " is " << (devices ? "placed" : "unplaced");
    else
      diag << "needs all operands and results on one device set, but " << what
           << " #" << index << " is on " << devices
           << " while earlier values are on " << *common;
    return diag;
  };
  return checkEachType(op, check);
}

namespace {
/// Reports inference errors in the op's name at its location (if any).
struct Inference {
  std::optional<Location> loc;
  StringRef opName;

  template <typename... Args> LogicalResult error(Args &&...args) const {
    return emitOptionalError(loc, "'", opName, "' op ",
                             std::forward<Args>(args)...);
  }
};
} // namespace

static RankedTensorType tensorOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

static RankedTensorType makeTensor(ArrayRef<int64_t> shape, Type elementType,
                                   Attribute encoding) {
  return RankedTensorType::get(shape, elementType, encoding);
}

static bool isDynamic(int64_t dim) { return ShapedType::isDynamic(dim); }

/// The value of a shape rule, or its error reported as the op's.
template <typename T>
static FailureOr<T> check(const Inference &inf, distir::StatusOr<T> result) {
  if (!result.ok())
    return inf.error(result.message());
  return std::move(*result);
}

static FailureOr<int64_t> normalizeAxis(const Inference &inf, int64_t axis,
                                        int64_t rank,
                                        const char *what = "axis") {
  return check(inf, shapes::normalizeAxis(axis, rank, what));
}

static FailureOr<shapes::Shape> broadcastShapes(const Inference &inf,
                                                ArrayRef<int64_t> a,
                                                ArrayRef<int64_t> b) {
  return check(inf, shapes::broadcastShapes(a, b));
}

/// Names a shape rule's operands by their types, as diagnostics print them.
static shapes::OperandNamer namedByType(SmallVector<Type> types) {
  return [types = std::move(types)](size_t i) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << '\'' << types[i] << '\'';
    return text;
  };
}

static LogicalResult sameElementType(const Inference &inf, Type a, Type b,
                                     StringRef what) {
  if (getElementTypeOrSelf(a) != getElementTypeOrSelf(b))
    return inf.error(what, " must have the same element type, got ",
                     getElementTypeOrSelf(a), " and ", getElementTypeOrSelf(b));
  return success();
}

static LogicalResult sameShape(const Inference &inf, RankedTensorType a,
                               RankedTensorType b, StringRef what) {
  if (failed(verifyCompatibleShape(a.getShape(), b.getShape())))
    return inf.error(what, " must have the same shape, got ", a, " and ", b);
  return success();
}

#define INFER_CONTEXT(OP)                                                      \
  Inference inf{location, OP::getOperationName()};                             \
  (void)inf;                                                                   \
  (void)context

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

static FailureOr<shapes::MatmulShape> getMatmulShape(const Inference &inf,
                                                     RankedTensorType lhs,
                                                     RankedTensorType rhs,
                                                     bool transA, bool transB) {
  return check(inf, shapes::inferMatmul(lhs.getShape(), rhs.getShape(), transA,
                                        transB, namedByType({lhs, rhs})));
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(MatmulOp);
  auto lhs = tensorOf(adaptor.getLhs()), rhs = tensorOf(adaptor.getRhs());
  if (failed(sameElementType(inf, lhs, rhs, "operands")))
    return failure();
  FailureOr<shapes::MatmulShape> shape = getMatmulShape(
      inf, lhs, rhs, adaptor.getTransposeA(), adaptor.getTransposeB());
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(shape->result, lhs.getElementType(), lhs.getEncoding()));
  return success();
}

double MatmulOp::getFlops() {
  Inference inf{std::nullopt, getOperationName()};
  FailureOr<shapes::MatmulShape> dims =
      getMatmulShape(inf, getLhs().getType(), getRhs().getType(),
                     getTransposeA(), getTransposeB());
  if (failed(dims))
    return 0;
  double batch = 1;
  for (int64_t dim : dims->batch)
    batch *= isDynamic(dim) ? 0 : dim;
  if (isDynamic(dims->m) || isDynamic(dims->n) || isDynamic(dims->k))
    return 0;
  return 2.0 * batch * dims->m * dims->n * dims->k;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

static LogicalResult inferBinary(const Inference &inf, Value lhs, Value rhs,
                                 SmallVectorImpl<Type> &types) {
  auto l = tensorOf(lhs), r = tensorOf(rhs);
  if (failed(sameElementType(inf, l, r, "operands")))
    return failure();
  FailureOr<shapes::Shape> shape =
      broadcastShapes(inf, l.getShape(), r.getShape());
  if (failed(shape))
    return failure();
  types.push_back(makeTensor(*shape, l.getElementType(), l.getEncoding()));
  return success();
}

LogicalResult mlir::dist::detail::inferBroadcastReturnTypes(
    std::optional<Location> location, StringRef opName, Value lhs, Value rhs,
    SmallVectorImpl<Type> &types) {
  return inferBinary(Inference{location, opName}, lhs, rhs, types);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(WhereOp);
  auto c = tensorOf(adaptor.getCondition());
  auto t = tensorOf(adaptor.getTrueValue()),
       f = tensorOf(adaptor.getFalseValue());
  if (failed(sameElementType(inf, t, f, "true and false values")))
    return failure();
  FailureOr<shapes::Shape> tf =
      broadcastShapes(inf, t.getShape(), f.getShape());
  if (failed(tf))
    return failure();
  FailureOr<shapes::Shape> shape = broadcastShapes(inf, c.getShape(), *tf);
  if (failed(shape))
    return failure();
  types.push_back(makeTensor(*shape, t.getElementType(), t.getEncoding()));
  return success();
}

/// Gradients of activations: the result has the gradient's type, and the
/// saved tensor (input or output of the forward op) its shape.
static LogicalResult inferSameAsGrad(const Inference &inf, Value grad,
                                     Value saved,
                                     SmallVectorImpl<Type> &types) {
  auto g = tensorOf(grad), s = tensorOf(saved);
  if (failed(sameElementType(inf, g, s, "gradient and saved value")) ||
      failed(sameShape(inf, g, s, "gradient and saved value")))
    return failure();
  types.push_back(g);
  return success();
}

LogicalResult mlir::dist::detail::inferActivationGradReturnTypes(
    std::optional<Location> location, StringRef opName, Value grad, Value saved,
    SmallVectorImpl<Type> &types) {
  return inferSameAsGrad(Inference{location, opName}, grad, saved, types);
}

LogicalResult GeluGradOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(GeluGradOp);
  return inferSameAsGrad(inf, adaptor.getGrad(), adaptor.getInput(), types);
}

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

LogicalResult DropoutTrainOp::inferReturnTypes(MLIRContext *context,
                                               std::optional<Location> location,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(DropoutTrainOp);
  auto input = tensorOf(adaptor.getInput());
  types.push_back(input);
  types.push_back(makeTensor(input.getShape(),
                             IntegerType::get(input.getContext(), 1),
                             input.getEncoding()));
  return success();
}

SmallVector<int64_t> DropoutTrainOp::getReferenceShapeOrResultShape() {
  if (std::optional<ArrayRef<int64_t>> shape = getReferenceShape())
    return SmallVector<int64_t>(*shape);
  return SmallVector<int64_t>(getResult().getType().getShape());
}

/// `ratio` is a probability of zeroing that leaves something to rescale.
static LogicalResult verifyDropoutRatio(Operation *op, double ratio) {
  if (!(ratio >= 0.0 && ratio < 1.0))
    return op->emitOpError("ratio must be in [0, 1), got ") << ratio;
  return success();
}

/// Where a local tensor of `localShape` lies in dropout's reference tensor:
/// `reference` (its shape), `offset`, and a block per `blocks` operand along
/// `dims` of `sizes`. `what` names the local tensor in messages.
static LogicalResult verifyDropoutPosition(
    Operation *op, ArrayRef<int64_t> localShape, ArrayRef<int64_t> reference,
    std::optional<ArrayRef<int64_t>> offset, ArrayRef<int64_t> dims,
    ArrayRef<int64_t> sizes, ValueRange blocks, StringRef what) {
  int64_t rank = localShape.size();
  if ((int64_t)reference.size() != rank)
    return op->emitOpError("reference_shape has ")
           << reference.size() << " dimensions, the " << what << " " << rank;
  if (offset) {
    if ((int64_t)offset->size() != rank)
      return op->emitOpError("reference_offset has ")
             << offset->size() << " dimensions, the " << what << " " << rank;
    for (auto [d, start] : llvm::enumerate(*offset))
      if (start < 0 ||
          (!isDynamic(localShape[d]) && start > reference[d] - localShape[d]))
        return op->emitOpError("reference_offset ")
               << start << " of dimension " << d << " puts the local "
               << localShape[d] << " elements outside the reference "
               << reference[d];
  }
  if (dims.size() != blocks.size() || sizes.size() != dims.size())
    return op->emitOpError("needs one block_dims and one block_sizes entry "
                           "per block operand, got ")
           << dims.size() << " and " << sizes.size() << " for "
           << blocks.size();
  for (auto [dim, size] : llvm::zip(dims, sizes)) {
    if (dim < 0 || dim >= rank)
      return op->emitOpError("block dimension ") << dim << " is out of range";
    if (size <= 0 || size > reference[dim])
      return op->emitOpError("block size ")
             << size << " of dimension " << dim << " is not in [1, "
             << reference[dim] << "]";
  }
  for (Value block : blocks)
    if (cast<RankedTensorType>(block.getType()).getRank() != 0)
      return op->emitOpError("block indices must be rank-0 tensors");
  return success();
}

LogicalResult DropoutOp::verify() {
  return verifyDropoutRatio(*this, getRatio().convertToDouble());
}

LogicalResult DropoutTrainOp::verify() {
  if (failed(verifyDropoutRatio(*this, getRatio().convertToDouble())))
    return failure();
  return verifyDropoutPosition(*this, getResult().getType().getShape(),
                               getReferenceShapeOrResultShape(),
                               getReferenceOffset(), getBlockDims(),
                               getBlockSizes(), getBlocks(), "input");
}

LogicalResult DropoutGradOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(DropoutGradOp);
  auto grad = tensorOf(adaptor.getGrad()), keep = tensorOf(adaptor.getKeep());
  if (failed(sameShape(inf, grad, keep, "gradient and mask")))
    return failure();
  types.push_back(grad);
  return success();
}

LogicalResult DropoutGradOp::verify() {
  return verifyDropoutRatio(*this, getRatio().convertToDouble());
}

//===----------------------------------------------------------------------===//
// Fused attention
//===----------------------------------------------------------------------===//

static FailureOr<shapes::AttentionShape>
getAttentionShape(const Inference &inf, Value query, Value key, Value value) {
  auto q = tensorOf(query), k = tensorOf(key), v = tensorOf(value);
  if (failed(sameElementType(inf, q, k, "query and key")) ||
      failed(sameElementType(inf, q, v, "query and value")))
    return failure();
  return check(inf,
               shapes::inferAttention(q.getShape(), k.getShape(), v.getShape(),
                                      namedByType({q, k, v})));
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AttentionOp);
  FailureOr<shapes::AttentionShape> shape = getAttentionShape(
      inf, adaptor.getQuery(), adaptor.getKey(), adaptor.getValue());
  if (failed(shape))
    return failure();
  auto q = tensorOf(adaptor.getQuery());
  types.push_back(
      makeTensor(shape->result, q.getElementType(), q.getEncoding()));
  types.push_back(makeTensor(shape->logsumexp, Float32Type::get(q.getContext()),
                             q.getEncoding()));
  return success();
}

LogicalResult AttentionGradOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AttentionGradOp);
  auto q = tensorOf(adaptor.getQuery()), k = tensorOf(adaptor.getKey()),
       v = tensorOf(adaptor.getValue()), out = tensorOf(adaptor.getOutput()),
       lse = tensorOf(adaptor.getLogsumexp()),
       grad = tensorOf(adaptor.getGrad());
  if (failed(sameElementType(inf, q, k, "query and key")) ||
      failed(sameElementType(inf, q, v, "query and value")) ||
      failed(sameElementType(inf, q, out, "query and output")) ||
      failed(sameElementType(inf, q, grad, "query and gradient")))
    return failure();
  if (failed(check(inf, shapes::inferAttentionGrad(
                            q.getShape(), k.getShape(), v.getShape(),
                            out.getShape(), lse.getShape(), grad.getShape(),
                            namedByType({q, k, v, out, lse, grad})))))
    return failure();
  types.append({q, k, v});
  return success();
}

/// The probabilities of an attention op: [b, heads, s_q, s_k].
static SmallVector<int64_t> getProbsShape(Value query, Value key) {
  ArrayRef<int64_t> q = tensorOf(query).getShape(),
                    k = tensorOf(key).getShape();
  return {q[0], q[1], q[2], k[2]};
}

/// `reference_shape`, else the local probabilities' shape.
template <typename OpTy>
static SmallVector<int64_t> getAttentionReferenceShape(OpTy op) {
  if (std::optional<ArrayRef<int64_t>> shape = op.getReferenceShape())
    return SmallVector<int64_t>(*shape);
  return getProbsShape(op.getQuery(), op.getKey());
}

SmallVector<int64_t> AttentionOp::getReferenceShapeOrProbsShape() {
  return getAttentionReferenceShape(*this);
}

SmallVector<int64_t> AttentionGradOp::getReferenceShapeOrProbsShape() {
  return getAttentionReferenceShape(*this);
}

/// The dropout of the probabilities: a ratio, and the position of the local
/// probabilities in the reference ones, as dist.dropout_train's.
template <typename OpTy> static LogicalResult verifyAttention(OpTy op) {
  if (failed(verifyDropoutRatio(op, op.getDropoutRatio().convertToDouble())))
    return failure();
  if (op.getScale().convertToDouble() <= 0.0)
    return op.emitOpError("scale must be positive");
  if (failed(verifyDropoutPosition(
          op, getProbsShape(op.getQuery(), op.getKey()),
          op.getReferenceShapeOrProbsShape(), op.getReferenceOffset(),
          op.getBlockDims(), op.getBlockSizes(), op.getBlocks(),
          "probabilities")))
    return failure();
  // Only the batch and head dimensions split (the sequence dimensions are
  // needed whole): only they have blocks.
  for (int64_t dim : op.getBlockDims())
    if (dim > 1)
      return op.emitOpError("only the batch and head dimensions (0, 1) have "
                            "blocks, got ")
             << dim;
  return success();
}

LogicalResult AttentionOp::verify() { return verifyAttention(*this); }
LogicalResult AttentionGradOp::verify() { return verifyAttention(*this); }

/// The matmul FLOPs of the forward: 2 s_q s_k d for the scores and
/// 2 s_q s_k d_v for the context, per batch element and head, as
/// FlashAttention-2 counts them (Dao 2023, section 4.1: 4 s^2 d per head);
/// halved with the causal mask, since the kernel skips the key blocks past
/// the query block (FlashAttention-2 does; section 3.1.1).
template <typename OpTy> static double getAttentionForwardFlops(OpTy op) {
  ArrayRef<int64_t> q = op.getQuery().getType().getShape();
  ArrayRef<int64_t> k = op.getKey().getType().getShape();
  ArrayRef<int64_t> v = op.getValue().getType().getShape();
  for (ArrayRef<int64_t> shape : {q, k, v})
    if (llvm::any_of(shape, isDynamic))
      return 0;
  double flops = 2.0 * q[0] * q[1] * q[2] * k[2] * (q[3] + v[3]);
  return op.getCausal() ? flops / 2 : flops;
}

double AttentionOp::getFlops() { return getAttentionForwardFlops(*this); }

/// 2.5 times the forward: five matmuls against the forward's two (the
/// scores recomputed, then dV, dP, dQ and dK; Dao 2023, section 4.1).
double AttentionGradOp::getFlops() {
  return 2.5 * getAttentionForwardFlops(*this);
}

//===----------------------------------------------------------------------===//
// Softmax and normalization
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SoftmaxOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<int64_t> axis =
      normalizeAxis(inf, (int64_t)adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  if (adaptor.getCausal() &&
      (input.getRank() < 2 || *axis != input.getRank() - 1))
    return inf.error("causal softmax needs rank >= 2 and the last axis");
  types.push_back(input);
  return success();
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(LogSoftmaxOp);
  auto input = tensorOf(adaptor.getInput());
  if (failed(normalizeAxis(inf, (int64_t)adaptor.getAxis(), input.getRank())))
    return failure();
  types.push_back(input);
  return success();
}

LogicalResult mlir::dist::detail::inferSoftmaxGradReturnTypes(
    std::optional<Location> location, StringRef opName, Value grad,
    Value output, int64_t axis, SmallVectorImpl<Type> &types) {
  Inference inf{location, opName};
  if (failed(normalizeAxis(inf, axis, tensorOf(output).getRank())))
    return failure();
  return inferSameAsGrad(inf, grad, output, types);
}

/// The normalized shape of layer_norm: input dims [axis, rank).
static FailureOr<int64_t> checkLayerNormParams(const Inference &inf,
                                               RankedTensorType input,
                                               int64_t rawAxis,
                                               ArrayRef<Value> params) {
  FailureOr<int64_t> axis = normalizeAxis(inf, rawAxis, input.getRank());
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> normalized = input.getShape().drop_front(*axis);
  for (Value param : params) {
    auto type = tensorOf(param);
    if (failed(sameElementType(inf, input, type, "input and parameters")))
      return failure();
    if (failed(verifyCompatibleShape(type.getShape(), normalized)))
      return inf.error("scale and bias must have the normalized shape [",
                       llvm::make_range(normalized.begin(), normalized.end()),
                       "], got ", type);
  }
  return axis;
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(LayerNormOp);
  auto input = tensorOf(adaptor.getInput());
  if (failed(checkLayerNormParams(inf, input, (int64_t)adaptor.getAxis(),
                                  {adaptor.getScale(), adaptor.getBias()})))
    return failure();
  types.push_back(input);
  return success();
}

LogicalResult LayerNormGradOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(LayerNormGradOp);
  auto input = tensorOf(adaptor.getInput());
  if (failed(checkLayerNormParams(inf, input, (int64_t)adaptor.getAxis(),
                                  {adaptor.getScale()})))
    return failure();
  if (failed(sameShape(inf, tensorOf(adaptor.getGrad()), input,
                       "gradient and input")))
    return failure();
  Type scale = adaptor.getScale().getType();
  types.append({input, scale, scale});
  return success();
}

static LogicalResult checkBatchNormParams(const Inference &inf,
                                          RankedTensorType input,
                                          ArrayRef<Value> params) {
  if (input.getRank() < 2)
    return inf.error("input must have rank >= 2 (batch, channels, ...)");
  for (Value param : params) {
    auto type = tensorOf(param);
    if (failed(sameElementType(inf, input, type, "input and parameters")))
      return failure();
    if (type.getRank() != 1 ||
        failed(verifyCompatibleShape(type.getShape(), input.getDimSize(1))))
      return inf.error("per-channel parameters must have shape [",
                       input.getDimSize(1), "], got ", type);
  }
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(BatchNormOp);
  auto input = tensorOf(adaptor.getInput());
  if (failed(checkBatchNormParams(inf, input,
                                  {adaptor.getScale(), adaptor.getBias(),
                                   adaptor.getMean(), adaptor.getVariance()})))
    return failure();
  types.push_back(input);
  return success();
}

LogicalResult BatchNormGradOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(BatchNormGradOp);
  auto input = tensorOf(adaptor.getInput());
  if (failed(checkBatchNormParams(
          inf, input,
          {adaptor.getScale(), adaptor.getMean(), adaptor.getVariance()})) ||
      failed(sameShape(inf, tensorOf(adaptor.getGrad()), input,
                       "gradient and input")))
    return failure();
  Type scale = adaptor.getScale().getType();
  types.append({input, scale, scale});
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(TransposeOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<shapes::Shape> shape = check(
      inf, shapes::inferTranspose(input.getShape(), adaptor.getPermutation()));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ReshapeOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferReshape(input.getShape(), adaptor.getShape()));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}
// A reshape of a row-major tensor is a view: it moves no bytes.
int64_t ReshapeOp::getBytesRead() { return 0; }
int64_t ReshapeOp::getBytesWritten() { return 0; }

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ConcatOp);
  SmallVector<Type> inputTypes(adaptor.getInputs().getTypes());
  std::vector<shapes::DimsRef> shapes;
  for (Type type : inputTypes) {
    if (failed(sameElementType(inf, inputTypes.front(), type, "inputs")))
      return failure();
    shapes.push_back(cast<RankedTensorType>(type).getShape());
  }
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferConcat(shapes, (int64_t)adaptor.getAxis(),
                                     namedByType(inputTypes)));
  if (failed(shape))
    return failure();
  auto first = cast<RankedTensorType>(inputTypes.front());
  types.push_back(
      makeTensor(*shape, first.getElementType(), first.getEncoding()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SliceOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferSlice(input.getShape(), adaptor.getStarts(),
                                    adaptor.getLimits(), adaptor.getStrides()));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SplitOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<std::vector<shapes::Shape>> pieces = check(
      inf, shapes::inferSplit(input.getShape(), (int64_t)adaptor.getAxis(),
                              adaptor.getSizes()));
  if (failed(pieces))
    return failure();
  for (const shapes::Shape &shape : *pieces)
    types.push_back(
        makeTensor(shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(PadOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferPad(input.getShape(), adaptor.getLow(),
                                  adaptor.getHigh(), adaptor.getInterior()));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}

/// The block operand of take and take_grad, when present, is a scalar.
static LogicalResult checkBlockIndex(const Inference &inf, Value block) {
  if (block && tensorOf(block).getRank() != 0)
    return inf.error("block must be a rank-0 index, got ", block.getType());
  return success();
}

LogicalResult TakeOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(TakeOp);
  auto input = tensorOf(adaptor.getInput());
  if (failed(checkBlockIndex(inf, adaptor.getBlock())))
    return failure();
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferTake(input.getShape(),
                                   tensorOf(adaptor.getIndices()).getShape(),
                                   (int64_t)adaptor.getAxis()));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}
// A lookup reads the indices and the rows it gathers, not the whole table.
int64_t TakeOp::getBytesRead() {
  return detail::getTensorBytes(getIndices().getType()) +
         detail::getTensorBytes(getType());
}

LogicalResult TakeGradOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(TakeGradOp);
  auto grad = tensorOf(adaptor.getGrad());
  if (failed(checkBlockIndex(inf, adaptor.getBlock())))
    return failure();
  auto indices = tensorOf(adaptor.getIndices());
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferTakeGrad(grad.getShape(), indices.getShape(),
                                       (int64_t)adaptor.getAxis(),
                                       (int64_t)adaptor.getDimSize(),
                                       namedByType({grad, indices})));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, grad.getElementType(), grad.getEncoding()));
  return success();
}

LogicalResult OneHotOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(OneHotOp);
  auto indices = tensorOf(adaptor.getIndices());
  if (failed(checkBlockIndex(inf, adaptor.getBlock())))
    return failure();
  int64_t depth = (int64_t)adaptor.getDepth();
  if (depth < 0)
    return inf.error("depth must not be negative, got ", depth);
  Type elementType = adaptor.getElementType();
  if (!isa<FloatType>(elementType))
    return inf.error("element_type must be a float type, got ", elementType);
  FailureOr<int64_t> axis =
      normalizeAxis(inf, (int64_t)adaptor.getAxis(), indices.getRank() + 1);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(indices.getShape());
  shape.insert(shape.begin() + *axis, depth);
  types.push_back(makeTensor(shape, elementType, indices.getEncoding()));
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ExpandOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferExpand(input.getShape(), adaptor.getShape()));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and losses
//===----------------------------------------------------------------------===//

static LogicalResult inferReduce(const Inference &inf, Value inputValue,
                                 ArrayRef<int64_t> axes, bool keepdims,
                                 SmallVectorImpl<Type> &types) {
  auto input = tensorOf(inputValue);
  FailureOr<shapes::Shape> shape =
      check(inf, shapes::inferReduce(input.getShape(), axes, keepdims));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult mlir::dist::detail::inferReduceReturnTypes(
    std::optional<Location> location, StringRef opName, Value input,
    ArrayRef<int64_t> axes, bool keepdims, SmallVectorImpl<Type> &types) {
  return inferReduce(Inference{location, opName}, input, axes, keepdims, types);
}

/// Checks logits/labels/weights of cross_entropy and returns the per-sample
/// shape (the logits' without the class axis).
static FailureOr<shapes::Shape>
checkCrossEntropy(const Inference &inf, RankedTensorType logits,
                  RankedTensorType labels, Value weights, int64_t rawAxis) {
  FailureOr<int64_t> axis =
      normalizeAxis(inf, rawAxis, logits.getRank(), "class_axis");
  if (failed(axis))
    return failure();
  shapes::Shape samples = shapes::dropAxis(logits.getShape(), *axis);
  if (failed(verifyCompatibleShape(labels.getShape(), samples)))
    return inf.error("labels ", labels, " must have the shape of the logits ",
                     logits, " without the class axis");
  if (weights) {
    auto w = tensorOf(weights);
    if (w.getRank() != 1 ||
        failed(verifyCompatibleShape(w.getShape(), logits.getDimSize(*axis))))
      return inf.error("weights must have one entry per class (",
                       logits.getDimSize(*axis), "), got ", w);
  }
  return samples;
}

LogicalResult CrossEntropyOp::inferReturnTypes(MLIRContext *context,
                                               std::optional<Location> location,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(CrossEntropyOp);
  auto logits = tensorOf(adaptor.getLogits());
  FailureOr<shapes::Shape> samples =
      checkCrossEntropy(inf, logits, tensorOf(adaptor.getLabels()),
                        adaptor.getWeights(), (int64_t)adaptor.getClassAxis());
  if (failed(samples))
    return failure();
  shapes::Shape shape;
  if (adaptor.getReduction() == LossReduction::none)
    shape = *samples;
  types.push_back(
      makeTensor(shape, logits.getElementType(), logits.getEncoding()));
  return success();
}

LogicalResult CrossEntropyGradOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(CrossEntropyGradOp);
  auto logits = tensorOf(adaptor.getLogits());
  FailureOr<shapes::Shape> samples =
      checkCrossEntropy(inf, logits, tensorOf(adaptor.getLabels()),
                        adaptor.getWeights(), (int64_t)adaptor.getClassAxis());
  if (failed(samples))
    return failure();
  auto grad = tensorOf(adaptor.getGrad());
  ArrayRef<int64_t> expected;
  if (adaptor.getReduction() == LossReduction::none)
    expected = *samples;
  if (failed(verifyCompatibleShape(grad.getShape(), expected)))
    return inf.error("loss gradient ", grad, " must have the loss's shape");
  types.push_back(logits);
  return success();
}

LogicalResult MseLossOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(MseLossOp);
  auto prediction = tensorOf(adaptor.getPrediction());
  auto target = tensorOf(adaptor.getTarget());
  if (failed(
          sameElementType(inf, prediction, target, "prediction and target")) ||
      failed(sameShape(inf, prediction, target, "prediction and target")))
    return failure();
  types.push_back(
      makeTensor({}, prediction.getElementType(), prediction.getEncoding()));
  return success();
}

LogicalResult MseLossGradOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(MseLossGradOp);
  auto prediction = tensorOf(adaptor.getPrediction());
  auto target = tensorOf(adaptor.getTarget());
  if (failed(sameShape(inf, prediction, target, "prediction and target")))
    return failure();
  if (tensorOf(adaptor.getGrad()).getRank() != 0)
    return inf.error("loss gradient must be a scalar");
  types.push_back(prediction);
  return success();
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(CastOp);
  auto input = tensorOf(adaptor.getInput());
  Type to = adaptor.getTo();
  if (!to.isIntOrFloat())
    return inf.error("can only cast to an integer or float type, got ", to);
  types.push_back(makeTensor(input.getShape(), to, input.getEncoding()));
  return success();
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &types) {
  Adaptor adaptor(operands, attributes, properties, regions);
  auto valueType = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
  if (!valueType)
    return emitOptionalError(
        location, "'dist.constant' op value must be a ranked tensor");
  types.push_back(makeTensor(valueType.getShape(), valueType.getElementType(),
                             adaptor.getDevicesAttr()));
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

int64_t ConstantOp::getBytesRead() { return 0; }

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

static double product(ArrayRef<int64_t> values) {
  double p = 1;
  for (int64_t v : values)
    p *= isDynamic(v) ? 0 : v;
  return p;
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ConvOp);
  auto input = tensorOf(adaptor.getInput()),
       filter = tensorOf(adaptor.getFilter());
  if (failed(sameElementType(inf, input, filter, "input and filter")))
    return failure();
  FailureOr<shapes::Shape> shape = check(
      inf, shapes::inferConv(input.getShape(), filter.getShape(),
                             (int64_t)adaptor.getGroup(), adaptor.getStrides(),
                             adaptor.getPads(), adaptor.getDilations(),
                             namedByType({input})));
  if (failed(shape))
    return failure();
  int64_t filters = filter.getDimSize(0);
  if (Value bias = adaptor.getBias()) {
    auto b = tensorOf(bias);
    if (b.getRank() != 1 ||
        failed(verifyCompatibleShape(b.getShape(), filters)))
      return inf.error("bias must have one entry per filter (", filters,
                       "), got ", b);
  }
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}
double ConvOp::getFlops() {
  auto filter = getFilter().getType();
  // Each output element: a dot product over C/group x kernel elements.
  return 2.0 * detail::getElementCount(getType()) *
         product(filter.getShape().drop_front(1));
}

static LogicalResult inferConvGrad(const Inference &inf, RankedTensorType grad,
                                   RankedTensorType other,
                                   ArrayRef<int64_t> resultShape,
                                   SmallVectorImpl<Type> &types) {
  if (failed(sameElementType(inf, grad, other, "operands")))
    return failure();
  if ((int64_t)resultShape.size() != grad.getRank() || grad.getRank() < 3)
    return inf.error("result shape must have the gradient's rank (>= 3)");
  types.push_back(
      makeTensor(resultShape, grad.getElementType(), grad.getEncoding()));
  return success();
}

LogicalResult ConvGradInputOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ConvGradInputOp);
  return inferConvGrad(inf, tensorOf(adaptor.getGrad()),
                       tensorOf(adaptor.getFilter()), adaptor.getInputShape(),
                       types);
}
double ConvGradInputOp::getFlops() {
  return 2.0 * detail::getElementCount(getGrad().getType()) *
         product(getFilter().getType().getShape().drop_front(1));
}

LogicalResult ConvGradFilterOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ConvGradFilterOp);
  return inferConvGrad(inf, tensorOf(adaptor.getGrad()),
                       tensorOf(adaptor.getInput()), adaptor.getFilterShape(),
                       types);
}
double ConvGradFilterOp::getFlops() {
  return 2.0 * detail::getElementCount(getGrad().getType()) *
         product(getType().getShape().drop_front(1));
}

static LogicalResult inferPool(const Inference &inf, RankedTensorType input,
                               const shapes::Window &window,
                               SmallVectorImpl<Type> &types) {
  FailureOr<shapes::Shape> shape = check(
      inf, shapes::inferPool(input.getShape(), window, namedByType({input})));
  if (failed(shape))
    return failure();
  types.push_back(
      makeTensor(*shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(MaxPoolOp);
  return inferPool(inf, tensorOf(adaptor.getInput()),
                   {adaptor.getKernelShape(), adaptor.getStrides(),
                    adaptor.getPads(), adaptor.getDilations(),
                    adaptor.getCeilMode()},
                   types);
}
double MaxPoolOp::getFlops() {
  return detail::getElementCount(getType()) * product(getKernelShape());
}

LogicalResult AvgPoolOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AvgPoolOp);
  return inferPool(inf, tensorOf(adaptor.getInput()),
                   {adaptor.getKernelShape(),
                    adaptor.getStrides(),
                    adaptor.getPads(),
                    {},
                    adaptor.getCeilMode()},
                   types);
}
double AvgPoolOp::getFlops() {
  return detail::getElementCount(getType()) * product(getKernelShape());
}

LogicalResult MaxPoolGradOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(MaxPoolGradOp);
  auto input = tensorOf(adaptor.getInput());
  SmallVector<Type> pooled;
  if (failed(inferPool(inf, input,
                       {adaptor.getKernelShape(), adaptor.getStrides(),
                        adaptor.getPads(), adaptor.getDilations(),
                        adaptor.getCeilMode()},
                       pooled)))
    return failure();
  if (failed(sameShape(inf, tensorOf(adaptor.getGrad()),
                       cast<RankedTensorType>(pooled.front()),
                       "gradient and pooled output")))
    return failure();
  types.push_back(input);
  return success();
}
double MaxPoolGradOp::getFlops() {
  return detail::getElementCount(getGrad().getType()) *
         product(getKernelShape());
}

LogicalResult AvgPoolGradOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AvgPoolGradOp);
  auto grad = tensorOf(adaptor.getGrad());
  auto input = makeTensor(adaptor.getInputShape(), grad.getElementType(),
                          grad.getEncoding());
  SmallVector<Type> pooled;
  if (failed(inferPool(inf, input,
                       {adaptor.getKernelShape(),
                        adaptor.getStrides(),
                        adaptor.getPads(),
                        {},
                        adaptor.getCeilMode()},
                       pooled)) ||
      failed(sameShape(inf, grad, cast<RankedTensorType>(pooled.front()),
                       "gradient and pooled output")))
    return failure();
  types.push_back(input);
  return success();
}
double AvgPoolGradOp::getFlops() {
  return detail::getElementCount(getGrad().getType()) *
         product(getKernelShape());
}

LogicalResult GlobalAvgPoolOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(GlobalAvgPoolOp);
  auto input = tensorOf(adaptor.getInput());
  if (input.getRank() < 3)
    return inf.error("input must have rank >= 3, got ", input);
  SmallVector<int64_t> shape(input.getRank(), 1);
  shape[0] = input.getDimSize(0);
  shape[1] = input.getDimSize(1);
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
  return success();
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

LogicalResult SgdUpdateOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SgdUpdateOp);
  auto param = tensorOf(adaptor.getParam());
  if (failed(sameShape(inf, param, tensorOf(adaptor.getGrad()),
                       "parameter and gradient")) ||
      failed(sameElementType(inf, param, adaptor.getGrad().getType(),
                             "parameter and gradient")))
    return failure();
  types.push_back(param);
  return success();
}

LogicalResult AdamUpdateOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AdamUpdateOp);
  auto param = tensorOf(adaptor.getParam());
  for (Value state :
       {adaptor.getGrad(), adaptor.getMoment1(), adaptor.getMoment2()})
    if (failed(sameShape(inf, param, tensorOf(state),
                         "parameter, gradient and moments")))
      return failure();
  auto step = tensorOf(adaptor.getStep());
  distir::StatusOr<int64_t> stepCount =
      shapes::getElementCount(step.getShape());
  if (!stepCount.ok() || *stepCount != 1)
    return inf.error("step must hold one element, got ", step);
  types.append({param, param, param});
  return success();
}

//===----------------------------------------------------------------------===//
// Sharding constraint and mesh
//===----------------------------------------------------------------------===//

LogicalResult ShardingConstraintOp::verifySymbolUses(SymbolTableCollection &) {
  return verifyShardingOfType(*this, getSharding(), getInput().getType(),
                              "input");
}

LogicalResult MeshOp::verify() {
  SmallVector<std::string> axes;
  for (Attribute axis : getAxes())
    axes.push_back(cast<StringAttr>(axis).getValue().str());
  ArrayRef<int64_t> devices;
  if (std::optional<ArrayRef<int64_t>> explicitDevices = getDevices())
    devices = *explicitDevices;
  if (std::optional<std::string> problem =
          Mesh::verify(getShape(), axes, devices))
    return emitOpError() << *problem;
  return success();
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

LogicalResult GroupRankOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(GroupRankOp);
  types.push_back(makeTensor({}, IntegerType::get(context, 64),
                             adaptor.getGroups().getUnion()));
  return success();
}
// Known at launch: nothing is computed or stored by a kernel.
int64_t GroupRankOp::getBytesWritten() { return 0; }

/// The operand of a communication op must be placed; returns its type.
static FailureOr<RankedTensorType>
placedOperand(const Inference &inf, Value input, DevicesAttr &devices) {
  auto type = tensorOf(input);
  devices = getPlacement(type);
  if (!devices)
    return inf.error("operand must be placed on a device set, got ", type);
  return type;
}

/// The groups must partition `devices` exactly.
static LogicalResult checkGroupsPartition(const Inference &inf,
                                          DeviceGroupsAttr groups,
                                          DevicesAttr devices,
                                          StringRef which) {
  // Verified groups are disjoint: their union has every id once.
  if (groups.getUnion() != devices)
    return inf.error("groups ", groups, " must partition the ", which,
                     " device set ", devices);
  return success();
}

static LogicalResult checkRoot(const Inference &inf, DeviceGroupsAttr groups,
                               int64_t root) {
  if (root < 0 || root >= groups.getGroupSize())
    return inf.error("root ", root, " is not a position in groups of size ",
                     groups.getGroupSize());
  return success();
}

/// Broadcast and scatter: the operand lives on the roots of the groups.
static FailureOr<RankedTensorType> operandOnRoots(const Inference &inf,
                                                  Value input,
                                                  DeviceGroupsAttr groups,
                                                  int64_t root) {
  DevicesAttr devices;
  FailureOr<RankedTensorType> type = placedOperand(inf, input, devices);
  if (failed(type) || failed(checkRoot(inf, groups, root)))
    return failure();
  if (groups.getRoots(root) != devices)
    return inf.error("operand must live on the roots of the groups, ",
                     groups.getRoots(root), ", got ", devices);
  return type;
}

/// Gather and reduce: the groups partition the operand's set; the result
/// goes to the roots.
static FailureOr<RankedTensorType> operandToRoots(const Inference &inf,
                                                  Value input,
                                                  DeviceGroupsAttr groups,
                                                  int64_t root) {
  DevicesAttr devices;
  FailureOr<RankedTensorType> type = placedOperand(inf, input, devices);
  if (failed(type) || failed(checkRoot(inf, groups, root)) ||
      failed(checkGroupsPartition(inf, groups, devices, "operand")))
    return failure();
  return type;
}

static FailureOr<int64_t> checkDim(const Inference &inf, RankedTensorType type,
                                   int64_t dim, const char *what = "dim") {
  return check(inf, shapes::checkDim(dim, type.getRank(), what));
}

/// Multiplies (gather) or divides (scatter) dim `dim` by the group size.
static LogicalResult scaleDim(const Inference &inf,
                              SmallVectorImpl<int64_t> &shape, int64_t dim,
                              int64_t groupSize, bool multiply) {
  FailureOr<shapes::Shape> scaled =
      check(inf, multiply ? shapes::inferGathered(shape, dim, groupSize)
                          : shapes::inferScattered(shape, dim, groupSize));
  if (failed(scaled))
    return failure();
  shape.assign(scaled->begin(), scaled->end());
  return success();
}

LogicalResult SendOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SendOp);
  DevicesAttr from;
  FailureOr<RankedTensorType> type =
      placedOperand(inf, adaptor.getInput(), from);
  if (failed(type))
    return failure();
  DevicesAttr to = adaptor.getTo();
  if (from.size() != to.size())
    return inf.error("sends between device sets of different sizes: ",
                     from.size(), " devices to ", to.size());
  types.push_back(withPlacement(*type, to));
  return success();
}

LogicalResult AllReduceOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AllReduceOp);
  DevicesAttr devices;
  FailureOr<RankedTensorType> type =
      placedOperand(inf, adaptor.getInput(), devices);
  if (failed(type) || failed(checkGroupsPartition(inf, adaptor.getGroups(),
                                                  devices, "operand")))
    return failure();
  types.push_back(*type);
  return success();
}
int64_t AllReduceOp::getPayloadBytes() {
  return detail::getTensorBytes(getInput().getType());
}

LogicalResult AllGatherOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AllGatherOp);
  DevicesAttr devices;
  FailureOr<RankedTensorType> type =
      placedOperand(inf, adaptor.getInput(), devices);
  if (failed(type) || failed(checkGroupsPartition(inf, adaptor.getGroups(),
                                                  devices, "operand")))
    return failure();
  FailureOr<int64_t> dim = checkDim(inf, *type, (int64_t)adaptor.getDim());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(type->getShape());
  if (failed(
          scaleDim(inf, shape, *dim, adaptor.getGroups().getGroupSize(), true)))
    return failure();
  types.push_back(makeTensor(shape, type->getElementType(), devices));
  return success();
}
int64_t AllGatherOp::getPayloadBytes() {
  return detail::getTensorBytes(getType());
}

LogicalResult ReduceScatterOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ReduceScatterOp);
  DevicesAttr devices;
  FailureOr<RankedTensorType> type =
      placedOperand(inf, adaptor.getInput(), devices);
  if (failed(type) || failed(checkGroupsPartition(inf, adaptor.getGroups(),
                                                  devices, "operand")))
    return failure();
  FailureOr<int64_t> dim = checkDim(inf, *type, (int64_t)adaptor.getDim());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(type->getShape());
  if (failed(scaleDim(inf, shape, *dim, adaptor.getGroups().getGroupSize(),
                      false)))
    return failure();
  types.push_back(makeTensor(shape, type->getElementType(), devices));
  return success();
}
int64_t ReduceScatterOp::getPayloadBytes() {
  return detail::getTensorBytes(getInput().getType());
}

LogicalResult AllToAllOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(AllToAllOp);
  DevicesAttr devices;
  FailureOr<RankedTensorType> type =
      placedOperand(inf, adaptor.getInput(), devices);
  if (failed(type) || failed(checkGroupsPartition(inf, adaptor.getGroups(),
                                                  devices, "operand")))
    return failure();
  FailureOr<int64_t> split =
      checkDim(inf, *type, (int64_t)adaptor.getSplitDim(), "split_dim");
  FailureOr<int64_t> concat =
      checkDim(inf, *type, (int64_t)adaptor.getConcatDim(), "concat_dim");
  if (failed(split) || failed(concat))
    return failure();
  int64_t n = adaptor.getGroups().getGroupSize();
  SmallVector<int64_t> shape(type->getShape());
  if (failed(scaleDim(inf, shape, *split, n, false)))
    return failure();
  if (failed(scaleDim(inf, shape, *concat, n, true)))
    return failure();
  types.push_back(makeTensor(shape, type->getElementType(), devices));
  return success();
}
int64_t AllToAllOp::getPayloadBytes() {
  return detail::getTensorBytes(getInput().getType());
}

LogicalResult BroadcastOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(BroadcastOp);
  DeviceGroupsAttr groups = adaptor.getGroups();
  FailureOr<RankedTensorType> type = operandOnRoots(
      inf, adaptor.getInput(), groups, (int64_t)adaptor.getRoot());
  if (failed(type))
    return failure();
  types.push_back(withPlacement(*type, groups.getUnion()));
  return success();
}
int64_t BroadcastOp::getPayloadBytes() {
  return detail::getTensorBytes(getInput().getType());
}

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ScatterOp);
  DeviceGroupsAttr groups = adaptor.getGroups();
  FailureOr<RankedTensorType> type = operandOnRoots(
      inf, adaptor.getInput(), groups, (int64_t)adaptor.getRoot());
  if (failed(type))
    return failure();
  FailureOr<int64_t> dim = checkDim(inf, *type, (int64_t)adaptor.getDim());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(type->getShape());
  if (failed(scaleDim(inf, shape, *dim, groups.getGroupSize(), false)))
    return failure();
  types.push_back(makeTensor(shape, type->getElementType(), groups.getUnion()));
  return success();
}
int64_t ScatterOp::getPayloadBytes() {
  return detail::getTensorBytes(getInput().getType());
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(GatherOp);
  DeviceGroupsAttr groups = adaptor.getGroups();
  FailureOr<RankedTensorType> type = operandToRoots(
      inf, adaptor.getInput(), groups, (int64_t)adaptor.getRoot());
  if (failed(type))
    return failure();
  FailureOr<int64_t> dim = checkDim(inf, *type, (int64_t)adaptor.getDim());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(type->getShape());
  if (failed(scaleDim(inf, shape, *dim, groups.getGroupSize(), true)))
    return failure();
  types.push_back(makeTensor(shape, type->getElementType(),
                             groups.getRoots((int64_t)adaptor.getRoot())));
  return success();
}
int64_t GatherOp::getPayloadBytes() {
  return detail::getTensorBytes(getType());
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ReduceOp);
  DeviceGroupsAttr groups = adaptor.getGroups();
  FailureOr<RankedTensorType> type = operandToRoots(
      inf, adaptor.getInput(), groups, (int64_t)adaptor.getRoot());
  if (failed(type))
    return failure();
  types.push_back(
      withPlacement(*type, groups.getRoots((int64_t)adaptor.getRoot())));
  return success();
}
int64_t ReduceOp::getPayloadBytes() {
  return detail::getTensorBytes(getInput().getType());
}

//===----------------------------------------------------------------------===//
// Folders and canonicalization
//===----------------------------------------------------------------------===//

OpFoldResult mlir::dist::detail::foldSingletonGroups(Operation *op,
                                                     DeviceGroupsAttr groups,
                                                     Value input) {
  if (groups.getGroupSize() == 1 &&
      input.getType() == op->getResult(0).getType())
    return input;
  return {};
}

OpFoldResult SendOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult ReshapeOp::canonicalize(ReshapeOp op, PatternRewriter &rewriter) {
  auto producer = op.getInput().getDefiningOp<ReshapeOp>();
  if (!producer)
    return failure();
  // Row-major reshapes keep the element order: only the last shape matters.
  rewriter.modifyOpInPlace(
      op, [&] { op.getInputMutable().assign(producer.getInput()); });
  return success();
}

#define GET_OP_CLASSES
#include "distir/Dialect/Dist/IR/DistOps.cpp.inc"
