//===- DistOps.cpp - dist dialect operations ------------------------------===//
//
// Result-type inference (which also validates operands and attributes: one
// rule per op, used by the verifier, the builders and dist-infer-shapes) and
// the cost formulas of the ops whose FLOPs no ODS trait states.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::dist;

#include "distir/Dialect/Dist/IR/DistInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

int64_t mlir::dist::detail::getTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return 0;
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  int64_t bytes = std::max<int64_t>(1, (bits + 7) / 8);
  return tensor.getNumElements() * bytes;
}

int64_t mlir::dist::detail::sumTensorBytes(TypeRange types) {
  int64_t total = 0;
  for (Type type : types)
    total += getTensorBytes(type);
  return total;
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
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
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

/// Normalizes a possibly negative axis of a rank-`rank` tensor (`rank + 1`
/// positions when `allowEnd`); fails with a message naming `what`.
static FailureOr<int64_t> normalizeAxis(const Inference &inf, int64_t axis,
                                        int64_t rank, StringRef what = "axis") {
  if (axis < -rank || axis >= rank)
    return inf.error(what, " ", axis, " is out of range for rank ", rank);
  return axis < 0 ? axis + rank : axis;
}

/// NumPy broadcasting of two shapes (aligned on the right).
static FailureOr<SmallVector<int64_t>> broadcastShapes(const Inference &inf,
                                                       ArrayRef<int64_t> a,
                                                       ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db)
      result[i] = da;
    else if (da == 1)
      result[i] = db;
    else if (db == 1)
      result[i] = da;
    else if (isDynamic(da))
      result[i] = db;
    else if (isDynamic(db))
      result[i] = da;
    else
      return inf.error("cannot broadcast shapes [",
                       llvm::make_range(a.begin(), a.end()), "] and [",
                       llvm::make_range(b.begin(), b.end()), "]: dimension ", i,
                       " is ", da, " vs ", db);
  }
  return result;
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

/// Element count of a static shape, or -1 when a dimension is dynamic.
static int64_t staticElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (isDynamic(dim))
      return -1;
    count *= dim;
  }
  return count;
}

#define INFER_CONTEXT(OP)                                                      \
  Inference inf{location, OP::getOperationName()};                             \
  (void)inf;                                                                   \
  (void)context

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

namespace {
struct MatmulDims {
  SmallVector<int64_t> batch;
  int64_t m, n, k;
};
} // namespace

static FailureOr<MatmulDims>
getMatmulDims(const Inference &inf, RankedTensorType lhs, RankedTensorType rhs,
              bool transA, bool transB, SmallVectorImpl<int64_t> *resultShape) {
  if (lhs.getRank() == 0 || rhs.getRank() == 0)
    return inf.error("operands must have rank >= 1");
  if ((transA && lhs.getRank() < 2) || (transB && rhs.getRank() < 2))
    return inf.error("transposed operands must have rank >= 2");
  SmallVector<int64_t> a(lhs.getShape()), b(rhs.getShape());
  bool lhsVector = a.size() == 1, rhsVector = b.size() == 1;
  if (lhsVector)
    a.insert(a.begin(), 1);
  if (rhsVector)
    b.push_back(1);
  if (transA)
    std::swap(a[a.size() - 1], a[a.size() - 2]);
  if (transB)
    std::swap(b[b.size() - 1], b[b.size() - 2]);
  MatmulDims dims;
  dims.m = a[a.size() - 2];
  int64_t ka = a.back();
  int64_t kb = b[b.size() - 2];
  dims.n = b.back();
  if (!isDynamic(ka) && !isDynamic(kb) && ka != kb)
    return inf.error("contracting dimensions differ: ", lhs, " has ", ka,
                     " and ", rhs, " has ", kb);
  dims.k = isDynamic(ka) ? kb : ka;
  FailureOr<SmallVector<int64_t>> batch =
      broadcastShapes(inf, ArrayRef(a).drop_back(2), ArrayRef(b).drop_back(2));
  if (failed(batch))
    return failure();
  dims.batch = *batch;
  if (resultShape) {
    resultShape->assign(dims.batch.begin(), dims.batch.end());
    if (!lhsVector)
      resultShape->push_back(dims.m);
    if (!rhsVector)
      resultShape->push_back(dims.n);
  }
  return dims;
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(MatmulOp);
  auto lhs = tensorOf(adaptor.getLhs()), rhs = tensorOf(adaptor.getRhs());
  if (failed(sameElementType(inf, lhs, rhs, "operands")))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(getMatmulDims(inf, lhs, rhs, adaptor.getTransposeA(),
                           adaptor.getTransposeB(), &shape)))
    return failure();
  types.push_back(makeTensor(shape, lhs.getElementType(), lhs.getEncoding()));
  return success();
}

double MatmulOp::getFlops() {
  Inference inf{std::nullopt, getOperationName()};
  FailureOr<MatmulDims> dims =
      getMatmulDims(inf, getLhs().getType(), getRhs().getType(),
                    getTransposeA(), getTransposeB(), nullptr);
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
  FailureOr<SmallVector<int64_t>> shape =
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
  FailureOr<SmallVector<int64_t>> tf =
      broadcastShapes(inf, t.getShape(), f.getShape());
  if (failed(tf))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(inf, c.getShape(), *tf);
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
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if ((int64_t)perm.size() != input.getRank())
    return inf.error("permutation has ", perm.size(),
                     " entries but the input has rank ", input.getRank());
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= input.getRank() || seen[p])
      return inf.error("permutation [",
                       llvm::make_range(perm.begin(), perm.end()),
                       "] is not a permutation of 0..", input.getRank() - 1);
    seen[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ReshapeOp);
  auto input = tensorOf(adaptor.getInput());
  SmallVector<int64_t> shape(adaptor.getShape());
  int64_t inferred = -1, known = 1;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (dim == -1) {
      if (inferred >= 0)
        return inf.error("shape may have only one -1");
      inferred = i;
    } else if (dim < 0) {
      return inf.error("shape entries must be non-negative or -1, got ", dim);
    } else {
      known *= dim;
    }
  }
  int64_t count = staticElementCount(input.getShape());
  if (inferred >= 0) {
    if (count < 0)
      shape[inferred] = ShapedType::kDynamic;
    else if (known == 0 || count % known != 0)
      return inf.error("cannot reshape ", count, " elements into [",
                       llvm::make_range(adaptor.getShape().begin(),
                                        adaptor.getShape().end()),
                       "]");
    else
      shape[inferred] = count / known;
  } else if (count >= 0 && count != known) {
    return inf.error("cannot reshape ", count, " elements into ", known);
  }
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
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
  if (adaptor.getInputs().empty())
    return inf.error("needs at least one input");
  auto first = tensorOf(adaptor.getInputs().front());
  FailureOr<int64_t> axis =
      normalizeAxis(inf, (int64_t)adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  shape[*axis] = 0;
  for (Value value : adaptor.getInputs()) {
    auto type = tensorOf(value);
    if (failed(sameElementType(inf, first, type, "inputs")))
      return failure();
    if (type.getRank() != first.getRank())
      return inf.error("inputs must have the same rank, got ", first, " and ",
                       type);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      if (d == *axis) {
        shape[d] = isDynamic(shape[d]) || isDynamic(size) ? ShapedType::kDynamic
                                                          : shape[d] + size;
      } else if (isDynamic(shape[d])) {
        shape[d] = size;
      } else if (!isDynamic(size) && size != shape[d]) {
        return inf.error("inputs differ in dimension ", d,
                         " which is not the concatenation axis: ", first,
                         " and ", type);
      }
    }
  }
  types.push_back(
      makeTensor(shape, first.getElementType(), first.getEncoding()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SliceOp);
  auto input = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> starts = adaptor.getStarts(), limits = adaptor.getLimits(),
                    strides = adaptor.getStrides();
  int64_t rank = input.getRank();
  if ((int64_t)starts.size() != rank || (int64_t)limits.size() != rank ||
      (int64_t)strides.size() != rank)
    return inf.error("starts, limits and strides need ", rank, " entries each");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input.getDimSize(d), start = starts[d], limit = limits[d],
            stride = strides[d];
    if (stride == 0)
      return inf.error("stride of dimension ", d, " is zero");
    bool known = !isDynamic(size);
    if (stride > 0) {
      if (start < 0 || limit < start || (known && limit > size))
        return inf.error("slice [", start, ":", limit, ":", stride,
                         "] is out of bounds for dimension ", d, " of size ",
                         size);
      shape.push_back((limit - start + stride - 1) / stride);
    } else {
      if (limit < -1 || limit > start ||
          (known && start >= size && start != limit))
        return inf.error("slice [", start, ":", limit, ":", stride,
                         "] is out of bounds for dimension ", d, " of size ",
                         size);
      shape.push_back((start - limit + (-stride) - 1) / (-stride));
    }
  }
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(SplitOp);
  auto input = tensorOf(adaptor.getInput());
  FailureOr<int64_t> axis =
      normalizeAxis(inf, (int64_t)adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  int64_t total = 0;
  for (int64_t size : adaptor.getSizes()) {
    if (size < 0)
      return inf.error("split sizes must be non-negative, got ", size);
    total += size;
  }
  int64_t dim = input.getDimSize(*axis);
  if (!isDynamic(dim) && total != dim)
    return inf.error("split sizes add up to ", total, " but dimension ", *axis,
                     " has ", dim);
  for (int64_t size : adaptor.getSizes()) {
    SmallVector<int64_t> shape(input.getShape());
    shape[*axis] = size;
    types.push_back(
        makeTensor(shape, input.getElementType(), input.getEncoding()));
  }
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(PadOp);
  auto input = tensorOf(adaptor.getInput());
  int64_t rank = input.getRank();
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh(),
                    interior = adaptor.getInterior();
  if ((int64_t)low.size() != rank || (int64_t)high.size() != rank ||
      (int64_t)interior.size() != rank)
    return inf.error("low, high and interior need ", rank, " entries each");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0 || interior[d] < 0)
      return inf.error("padding amounts must be non-negative");
    int64_t size = input.getDimSize(d);
    shape.push_back(isDynamic(size)
                        ? ShapedType::kDynamic
                        : low[d] + high[d] + size +
                              std::max<int64_t>(size - 1, 0) * interior[d]);
  }
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult TakeOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(TakeOp);
  auto input = tensorOf(adaptor.getInput());
  auto indices = tensorOf(adaptor.getIndices());
  FailureOr<int64_t> axis =
      normalizeAxis(inf, (int64_t)adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(input.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, input.getShape().drop_front(*axis + 1));
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
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
  auto indices = tensorOf(adaptor.getIndices());
  int64_t inputRank = grad.getRank() - indices.getRank() + 1;
  if (inputRank < 1)
    return inf.error("gradient rank ", grad.getRank(),
                     " is too small for indices of rank ", indices.getRank());
  FailureOr<int64_t> axis =
      normalizeAxis(inf, (int64_t)adaptor.getAxis(), inputRank);
  if (failed(axis))
    return failure();
  if ((int64_t)adaptor.getDimSize() <= 0)
    return inf.error("dim_size must be positive");
  if (failed(verifyCompatibleShape(
          grad.getShape().slice(*axis, indices.getRank()), indices.getShape())))
    return inf.error("gradient ", grad, " does not hold indices of shape ",
                     indices);
  SmallVector<int64_t> shape(grad.getShape().take_front(*axis));
  shape.push_back((int64_t)adaptor.getDimSize());
  llvm::append_range(shape,
                     grad.getShape().drop_front(*axis + indices.getRank()));
  types.push_back(makeTensor(shape, grad.getElementType(), grad.getEncoding()));
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  INFER_CONTEXT(ExpandOp);
  auto input = tensorOf(adaptor.getInput());
  for (int64_t dim : adaptor.getShape())
    if (dim < 0)
      return inf.error("shape entries must be non-negative, got ", dim);
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(inf, input.getShape(), adaptor.getShape());
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
  SmallVector<bool> reduced(input.getRank(), false);
  for (int64_t rawAxis : axes) {
    FailureOr<int64_t> axis = normalizeAxis(inf, rawAxis, input.getRank());
    if (failed(axis))
      return failure();
    if (reduced[*axis])
      return inf.error("axis ", rawAxis, " is reduced twice");
    reduced[*axis] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (!reduced[d])
      shape.push_back(input.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
  return success();
}

LogicalResult mlir::dist::detail::inferReduceReturnTypes(
    std::optional<Location> location, StringRef opName, Value input,
    ArrayRef<int64_t> axes, bool keepdims, SmallVectorImpl<Type> &types) {
  return inferReduce(Inference{location, opName}, input, axes, keepdims, types);
}

/// Checks logits/labels/weights of cross_entropy and returns the per-sample
/// shape (the logits' without the class axis).
static FailureOr<SmallVector<int64_t>>
checkCrossEntropy(const Inference &inf, RankedTensorType logits,
                  RankedTensorType labels, Value weights, int64_t rawAxis) {
  FailureOr<int64_t> axis =
      normalizeAxis(inf, rawAxis, logits.getRank(), "class_axis");
  if (failed(axis))
    return failure();
  SmallVector<int64_t> samples(logits.getShape());
  samples.erase(samples.begin() + *axis);
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
  FailureOr<SmallVector<int64_t>> samples =
      checkCrossEntropy(inf, logits, tensorOf(adaptor.getLabels()),
                        adaptor.getWeights(), (int64_t)adaptor.getClassAxis());
  if (failed(samples))
    return failure();
  SmallVector<int64_t> shape;
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
  FailureOr<SmallVector<int64_t>> samples =
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

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  ElementsAttr value;
  if (parser.parseAttribute(value, "value", result.attributes))
    return failure();
  DevicesAttr devices;
  if (succeeded(parser.parseOptionalKeyword("on"))) {
    if (parseDeviceSet(parser, devices))
      return failure();
    result.addAttribute("devices", devices);
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return parser.emitError(parser.getNameLoc(),
                            "constant value must be a ranked tensor");
  result.addTypes(withPlacement(type, devices));
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttribute(getValueAttr());
  if (DevicesAttr devices = getDevicesAttr()) {
    printer << " on ";
    printDeviceSet(printer, *this, devices);
  }
  printer.printOptionalAttrDict((*this)->getAttrs(), {"value", "devices"});
}
int64_t ConstantOp::getBytesRead() { return 0; }

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

namespace {
struct WindowAttrs {
  ArrayRef<int64_t> kernel, strides, pads, dilations;
  bool ceilMode = false;
};
} // namespace

/// Spatial output sizes of a sliding window over `input` (N x C x spatial).
static FailureOr<SmallVector<int64_t>> windowOutput(const Inference &inf,
                                                    RankedTensorType input,
                                                    const WindowAttrs &w) {
  int64_t k = input.getRank() - 2;
  if (k < 1)
    return inf.error(
        "input must have rank >= 3 (batch, channels, spatial...), got ", input);
  if ((int64_t)w.kernel.size() != k || (int64_t)w.strides.size() != k ||
      (int64_t)w.pads.size() != 2 * k ||
      (!w.dilations.empty() && (int64_t)w.dilations.size() != k))
    return inf.error("window attributes need ", k,
                     " entries (pads: 2x that) for ", k, " spatial dimensions");
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < k; ++i) {
    int64_t dilation = w.dilations.empty() ? 1 : w.dilations[i];
    if (w.kernel[i] <= 0 || w.strides[i] <= 0 || dilation <= 0 ||
        w.pads[i] < 0 || w.pads[i + k] < 0)
      return inf.error("kernel, strides and dilations must be positive and "
                       "pads non-negative");
    int64_t size = input.getDimSize(i + 2);
    if (isDynamic(size)) {
      out.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t span =
        size + w.pads[i] + w.pads[i + k] - dilation * (w.kernel[i] - 1) - 1;
    if (span < 0)
      return inf.error("window of spatial dimension ", i,
                       " is larger than the padded input");
    int64_t o = w.ceilMode ? (span + w.strides[i] - 1) / w.strides[i] + 1
                           : span / w.strides[i] + 1;
    // With ceil_mode the last window must start inside the input or the
    // leading padding (ONNX and PyTorch agree on this).
    if (w.ceilMode && (o - 1) * w.strides[i] >= size + w.pads[i])
      --o;
    out.push_back(o);
  }
  return out;
}

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
  if (filter.getRank() != input.getRank())
    return inf.error("filter rank ", filter.getRank(),
                     " differs from input rank ", input.getRank());
  int64_t group = (int64_t)adaptor.getGroup();
  if (group <= 0)
    return inf.error("group must be positive");
  int64_t channels = input.getDimSize(1), m = filter.getDimSize(0),
          perGroup = filter.getDimSize(1);
  if (!isDynamic(channels) && !isDynamic(perGroup) &&
      channels != perGroup * group)
    return inf.error("input has ", channels,
                     " channels but the filter expects ", perGroup, " x ",
                     group, " groups");
  if (!isDynamic(m) && m % group != 0)
    return inf.error("filter count ", m, " is not divisible by group ", group);
  if (Value bias = adaptor.getBias()) {
    auto b = tensorOf(bias);
    if (b.getRank() != 1 || failed(verifyCompatibleShape(b.getShape(), m)))
      return inf.error("bias must have one entry per filter (", m, "), got ",
                       b);
  }
  WindowAttrs w{filter.getShape().drop_front(2), adaptor.getStrides(),
                adaptor.getPads(), adaptor.getDilations()};
  FailureOr<SmallVector<int64_t>> spatial = windowOutput(inf, input, w);
  if (failed(spatial))
    return failure();
  SmallVector<int64_t> shape{input.getDimSize(0), m};
  llvm::append_range(shape, *spatial);
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
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
                               const WindowAttrs &w,
                               SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<int64_t>> spatial = windowOutput(inf, input, w);
  if (failed(spatial))
    return failure();
  SmallVector<int64_t> shape{input.getDimSize(0), input.getDimSize(1)};
  llvm::append_range(shape, *spatial);
  types.push_back(
      makeTensor(shape, input.getElementType(), input.getEncoding()));
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
  if (staticElementCount(step.getShape()) != 1)
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
  if (groups.getUnion() != devices || groups.getIds().size() != devices.size())
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
                                   int64_t dim, StringRef what = "dim") {
  if (dim < 0 || dim >= type.getRank())
    return inf.error(what, " ", dim, " is out of range for rank ",
                     type.getRank());
  return dim;
}

static LogicalResult scaleDim(const Inference &inf,
                              SmallVectorImpl<int64_t> &shape, int64_t dim,
                              int64_t groupSize, bool multiply) {
  int64_t &size = shape[dim];
  if (isDynamic(size))
    return success();
  if (multiply) {
    size *= groupSize;
    return success();
  }
  if (size % groupSize != 0)
    return inf.error("dimension ", dim, " of size ", size,
                     " is not divisible by the group size ", groupSize);
  size /= groupSize;
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
  (void)scaleDim(inf, shape, *dim, adaptor.getGroups().getGroupSize(), true);
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
  (void)scaleDim(inf, shape, *concat, n, true);
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
  (void)scaleDim(inf, shape, *dim, groups.getGroupSize(), true);
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

#define GET_OP_CLASSES
#include "distir/Dialect/Dist/IR/DistOps.cpp.inc"
