//===- OnnxOps.cpp - One converter per ONNX op ----------------------------===//
//
// Each converter maps one ONNX node onto dist ops, following the op's
// definition in the version the model's opset selects (NodeImporter::version
// is the schema's since_version). Attributes that later opsets turned into
// inputs (axes, split, starts/ends, ratio) are read from wherever that
// version keeps them; inputs that the dialect needs as attributes must be
// known at import time.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/Executor.h"
#include "distir/ShapeInference/ShapeRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <numeric>

using namespace mlir;
using namespace distir;
using namespace distir::onnx_import;

namespace {

int64_t getRank(Value value) { return getTensorType(value).getRank(); }

/// The value of a shape rule, or its error reported at the node.
template <typename T>
FailureOr<T> checkRule(NodeImporter &n, StatusOr<T> result) {
  if (!result.ok())
    return n.error(result.message());
  return std::move(*result);
}

FailureOr<int64_t> normalizeAxis(NodeImporter &n, int64_t axis, int64_t rank) {
  return checkRule(n, shapes::normalizeAxis(axis, rank));
}

/// Normalizes a list of axes (no repeats) against `rank`.
FailureOr<SmallVector<int64_t>>
normalizeAxes(NodeImporter &n, ArrayRef<int64_t> axes, int64_t rank) {
  ASSIGN_OR_RETURN(normalized, checkRule(n, shapes::normalizeAxes(axes, rank)));
  return SmallVector<int64_t>(normalized.begin(), normalized.end());
}

/// The 2-D shape of `shape` flattened at `axis`: the products of dims
/// [0, axis) and [axis, rank), each dynamic if one of its dims is.
FailureOr<SmallVector<int64_t>>
flattenedAt(NodeImporter &n, ArrayRef<int64_t> shape, size_t axis) {
  ASSIGN_OR_RETURN(
      rows, checkRule(n, shapes::getElementCount(shape.take_front(axis))));
  ASSIGN_OR_RETURN(
      cols, checkRule(n, shapes::getElementCount(shape.drop_front(axis))));
  return SmallVector<int64_t>{rows, cols};
}

IntegerAttr i64Attr(NodeImporter &n, int64_t value) {
  return n.builder.getI64IntegerAttr(value);
}
FloatAttr f64Attr(NodeImporter &n, double value) {
  return n.builder.getF64FloatAttr(value);
}
DenseI64ArrayAttr i64ArrayAttr(NodeImporter &n, ArrayRef<int64_t> values) {
  return n.builder.getDenseI64ArrayAttr(values);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <typename OpTy> LogicalResult convertBinary(NodeImporter &n) {
  ASSIGN_OR_RETURN(lhs, n.getInput(0));
  ASSIGN_OR_RETURN(rhs, n.getInput(1));
  ASSIGN_OR_RETURN(result, n.create<OpTy>(lhs, rhs));
  n.setOutput(0, result);
  return success();
}

template <typename OpTy> LogicalResult convertUnary(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  ASSIGN_OR_RETURN(result, n.create<OpTy>(input));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertReciprocal(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ASSIGN_OR_RETURN(one, n.createScalar(input, 1.0));
  ASSIGN_OR_RETURN(result, n.create<dist::DivOp>(one, input));
  n.setOutput(0, result);
  return success();
}

/// Pow-12 and later let the exponent's type differ from the base's; the
/// result has the base's type.
LogicalResult convertPow(NodeImporter &n) {
  ASSIGN_OR_RETURN(base, n.getInput(0));
  ASSIGN_OR_RETURN(exponent, n.getInput(1));
  Type baseType = getElementTypeOrSelf(base.getType());
  Type exponentType = getElementTypeOrSelf(exponent.getType());
  if (baseType == exponentType || isa<FloatType>(baseType) ||
      !isa<FloatType>(exponentType)) {
    ASSIGN_OR_RETURN(castExponent, n.createCast(exponent, baseType));
    ASSIGN_OR_RETURN(result, n.create<dist::PowOp>(base, castExponent));
    n.setOutput(0, result);
    return success();
  }
  // An integer base with a float exponent: compute in the exponent's float
  // type and truncate back, as numpy's power followed by astype does.
  ASSIGN_OR_RETURN(floatBase, n.createCast(base, exponentType));
  ASSIGN_OR_RETURN(power, n.create<dist::PowOp>(floatBase, exponent));
  ASSIGN_OR_RETURN(result, n.createCast(power, baseType));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertWhere(NodeImporter &n) {
  ASSIGN_OR_RETURN(condition, n.getInput(0));
  ASSIGN_OR_RETURN(x, n.getInput(1));
  ASSIGN_OR_RETURN(y, n.getInput(2));
  ASSIGN_OR_RETURN(result, n.create<dist::WhereOp>(condition, x, y));
  n.setOutput(0, result);
  return success();
}

/// max(0, min(1, alpha x + beta)) as relu(y) - relu(y - 1): exact (y - 1
/// is exact for y >= 1), and its gradient is 1 on 0 < y < 1 as torch's.
FailureOr<Value> createHardSigmoid(NodeImporter &n, Value x, double alpha,
                                   double beta) {
  ASSIGN_OR_RETURN(scale, n.createScalar(x, alpha));
  ASSIGN_OR_RETURN(shift, n.createScalar(x, beta));
  ASSIGN_OR_RETURN(one, n.createScalar(x, 1.0));
  ASSIGN_OR_RETURN(scaled, n.create<dist::MulOp>(x, scale));
  ASSIGN_OR_RETURN(y, n.create<dist::AddOp>(scaled, shift));
  ASSIGN_OR_RETURN(low, n.create<dist::ReluOp>(y));
  ASSIGN_OR_RETURN(above, n.create<dist::SubOp>(y, one));
  ASSIGN_OR_RETURN(high, n.create<dist::ReluOp>(above));
  return n.create<dist::SubOp>(low, high);
}

LogicalResult convertHardSigmoid(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  ASSIGN_OR_RETURN(result, createHardSigmoid(n, input, n.getFloat("alpha", 0.2),
                                             n.getFloat("beta", 0.5)));
  n.setOutput(0, result);
  return success();
}

/// x * HardSigmoid(x) with alpha 1/6 and beta 1/2 (ONNX's definition).
LogicalResult convertHardSwish(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  ASSIGN_OR_RETURN(gate, createHardSigmoid(n, input, 1.0 / 6.0, 0.5));
  ASSIGN_OR_RETURN(result, n.create<dist::MulOp>(input, gate));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertIdentity(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  n.setOutput(0, input);
  return success();
}

/// com.microsoft Gelu (erf form), BiasGelu (x + bias first) and FastGelu
/// (tanh approximation, optional bias): what ONNX Runtime's transformer
/// optimizer and many exported BERT models contain.
LogicalResult convertMicrosoftGelu(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  Value x = input;
  if (Value bias = n.getOptionalInput(1)) {
    ASSIGN_OR_RETURN(sum, n.create<dist::AddOp>(x, bias));
    x = sum;
  } else if (n.node.op_type() == "BiasGelu") {
    return n.error("BiasGelu needs its bias input");
  }
  auto approximation = n.node.op_type() == "FastGelu"
                           ? dist::GeluApproximation::tanh
                           : dist::GeluApproximation::none;
  ASSIGN_OR_RETURN(result,
                   n.create<dist::GeluOp>(x, dist::GeluApproximationAttr::get(
                                                 n.context, approximation)));
  n.setOutput(0, result);
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra and normalization
//===----------------------------------------------------------------------===//

LogicalResult convertMatMul(NodeImporter &n) {
  ASSIGN_OR_RETURN(lhs, n.getInput(0));
  if (failed(n.requireFloat(lhs)))
    return failure();
  ASSIGN_OR_RETURN(rhs, n.getInput(1));
  ASSIGN_OR_RETURN(result,
                   n.create<dist::MatmulOp>(lhs, rhs, UnitAttr(), UnitAttr()));
  n.setOutput(0, result);
  return success();
}

/// Y = alpha * op(A) op(B) + beta * C, with the transposes folded into the
/// matmul and C broadcast by the addition.
LogicalResult convertGemm(NodeImporter &n) {
  ASSIGN_OR_RETURN(a, n.getInput(0));
  ASSIGN_OR_RETURN(b, n.getInput(1));
  if (failed(n.requireFloat(a)))
    return failure();
  double alpha = n.getFloat("alpha", 1.0), beta = n.getFloat("beta", 1.0);
  UnitAttr transA =
      n.getInt("transA", 0) ? n.builder.getUnitAttr() : UnitAttr();
  UnitAttr transB =
      n.getInt("transB", 0) ? n.builder.getUnitAttr() : UnitAttr();
  ASSIGN_OR_RETURN(product, n.create<dist::MatmulOp>(a, b, transA, transB));
  Value result = product;
  if (alpha != 1.0) {
    ASSIGN_OR_RETURN(scale, n.createScalar(result, alpha));
    ASSIGN_OR_RETURN(scaled, n.create<dist::MulOp>(result, scale));
    result = scaled;
  }
  if (Value c = n.getOptionalInput(2)) {
    if (beta != 1.0) {
      ASSIGN_OR_RETURN(scale, n.createScalar(c, beta));
      ASSIGN_OR_RETURN(scaled, n.create<dist::MulOp>(c, scale));
      c = scaled;
    }
    ASSIGN_OR_RETURN(sum, n.create<dist::AddOp>(result, c));
    if (getTensorType(sum).getShape() != getTensorType(result).getShape())
      return n.error("C does not broadcast to the shape of A * B");
    result = sum;
  }
  n.setOutput(0, result);
  return success();
}

template <typename OpTy>
FailureOr<Value> createSoftmax(NodeImporter &n, Value input, int64_t axis) {
  if constexpr (std::is_same_v<OpTy, dist::SoftmaxOp>)
    return n.create<OpTy>(input, i64Attr(n, axis), FloatAttr(), UnitAttr());
  else
    return n.create<OpTy>(input, i64Attr(n, axis));
}

/// Before opset 13 Softmax and LogSoftmax flatten the input to 2-D at
/// `axis` and normalize each row; from 13 on they normalize along `axis`.
template <typename OpTy> LogicalResult convertSoftmax(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  int64_t rank = getRank(input);
  int64_t defaultAxis = n.version < 13 ? 1 : -1;
  ASSIGN_OR_RETURN(axis, normalizeAxis(n, n.getInt("axis", defaultAxis), rank));
  if (n.version >= 13 || axis == rank - 1) {
    ASSIGN_OR_RETURN(result, createSoftmax<OpTy>(n, input, axis));
    n.setOutput(0, result);
    return success();
  }
  ArrayRef<int64_t> shape = getTensorType(input).getShape();
  ASSIGN_OR_RETURN(rows, flattenedAt(n, shape, axis));
  ASSIGN_OR_RETURN(matrix, n.createReshape(input, rows));
  ASSIGN_OR_RETURN(normalized, createSoftmax<OpTy>(n, matrix, 1));
  ASSIGN_OR_RETURN(result, n.createReshape(normalized, shape));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertLayerNormalization(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ASSIGN_OR_RETURN(scale, n.getInput(1));
  if (failed(n.requireFloat(input)))
    return failure();
  int64_t rank = getRank(input);
  ASSIGN_OR_RETURN(axis, normalizeAxis(n, n.getInt("axis", -1), rank));
  double epsilon = n.getFloat("epsilon", 1e-5);
  Value bias = n.getOptionalInput(2);
  if (!bias) {
    // The dialect's layer_norm always adds a bias: a zero one.
    ElementType elementType;
    std::vector<int64_t> shape;
    if (Status status = getHostTensorType(scale.getType(), elementType, shape);
        !status.ok())
      return n.error("without a bias input, the scale needs a static shape");
    if (Status status = checkFoldedSize(shape, elementType); !status.ok())
      return n.error(status.message());
    ASSIGN_OR_RETURN(zeros, n.createConstant(HostTensor(elementType, shape)));
    bias = zeros;
  }
  ASSIGN_OR_RETURN(result, n.create<dist::LayerNormOp>(input, scale, bias,
                                                       i64Attr(n, axis),
                                                       f64Attr(n, epsilon)));
  n.setOutput(0, result);
  if (!n.hasOutput(1) && !n.hasOutput(2))
    return success();

  // Mean and InvStdDev (kept dims, in the stash type) by their definition.
  std::optional<ElementType> stash =
      getElementTypeFromOnnx(n.getInt("stash_type", onnx::TensorProto::FLOAT));
  if (!stash || !isFloatType(*stash))
    return n.error("stash_type " + Twine(n.getInt("stash_type", 1)) +
                   " is not a supported float type");
  ASSIGN_OR_RETURN(x,
                   n.createCast(input, getMlirElementType(*stash, n.context)));
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  UnitAttr keep = n.builder.getUnitAttr();
  ASSIGN_OR_RETURN(
      mean, n.create<dist::ReduceMeanOp>(x, i64ArrayAttr(n, axes), keep));
  n.setOutput(1, mean);
  if (!n.hasOutput(2))
    return success();
  ASSIGN_OR_RETURN(centered, n.create<dist::SubOp>(x, mean));
  ASSIGN_OR_RETURN(squared, n.create<dist::MulOp>(centered, centered));
  ASSIGN_OR_RETURN(variance, n.create<dist::ReduceMeanOp>(
                                 squared, i64ArrayAttr(n, axes), keep));
  ASSIGN_OR_RETURN(eps, n.createScalar(variance, epsilon));
  ASSIGN_OR_RETURN(shifted, n.create<dist::AddOp>(variance, eps));
  ASSIGN_OR_RETURN(invStdDev, n.create<dist::RsqrtOp>(shifted));
  n.setOutput(2, invStdDev);
  return success();
}

LogicalResult convertBatchNormalization(NodeImporter &n) {
  if (n.version >= 14 && n.getInt("training_mode", 0) != 0)
    return n.error("training_mode=1 is not supported: distir imports "
                   "BatchNormalization in inference form");
  if (n.version < 9 && n.getInt("spatial", 1) != 1)
    return n.error("spatial=0 (per-activation statistics) is not supported");
  for (int o = 1; o < n.getNumOutputs(); ++o)
    if (n.hasOutput(o))
      return n.error("output #" + Twine(o) + " ('" + n.node.output(o) +
                     "') exists only in training mode; distir imports "
                     "BatchNormalization in inference form");
  SmallVector<Value, 5> operands;
  for (int i = 0; i < 5; ++i) {
    ASSIGN_OR_RETURN(operand, n.getInput(i));
    operands.push_back(operand);
  }
  if (failed(n.requireFloat(operands[0])))
    return failure();
  ASSIGN_OR_RETURN(result,
                   n.create<dist::BatchNormOp>(
                       operands[0], operands[1], operands[2], operands[3],
                       operands[4], f64Attr(n, n.getFloat("epsilon", 1e-5))));
  n.setOutput(0, result);
  return success();
}

/// Inference-mode Dropout is the identity; its mask is all ones (true).
LogicalResult convertDropout(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  double ratio = n.getFloat("ratio", 0.5);
  if (n.version >= 12) {
    ratio = 0.5;
    // The ratio only documents the op at inference; use it when known.
    if (const HostTensor *given = n.tryGetStaticInput(1))
      ratio = given->getNumElements() == 1 ? given->getAsDouble(0) : ratio;
    if (n.hasInput(2)) {
      ASSIGN_OR_RETURN(mode, n.getStaticInput(2, "training_mode"));
      if (mode->getNumElements() != 1)
        return n.error("training_mode must be a scalar");
      if (mode->getAsDouble(0) != 0 && ratio != 0)
        return n.error("training-mode Dropout (random masking) is not "
                       "supported; distir imports Dropout in inference form");
    }
  }
  if (!(ratio >= 0.0 && ratio < 1.0))
    return n.error("ratio must be in [0, 1) (ONNX Dropout), got " +
                   std::to_string(ratio));
  ASSIGN_OR_RETURN(result, n.create<dist::DropoutOp>(input, f64Attr(n, ratio)));
  n.setOutput(0, result);
  if (!n.hasOutput(1))
    return success();
  ElementType maskType;
  std::vector<int64_t> shape;
  if (Status status = getHostTensorType(input.getType(), maskType, shape);
      !status.ok())
    return n.error("the mask output needs a static input shape: " +
                   status.message());
  // Dropout-7 returns the mask in the input's type, later versions as bool.
  ElementType onesType = n.version >= 10 ? ElementType::I1 : maskType;
  if (Status status = checkFoldedSize(shape, onesType); !status.ok())
    return n.error("the mask output: " + status.message());
  HostTensor ones(onesType, shape);
  ones.fill(1.0);
  ASSIGN_OR_RETURN(mask, n.createConstant(ones));
  n.setOutput(1, mask);
  return success();
}

LogicalResult convertSoftmaxCrossEntropyLoss(NodeImporter &n) {
  ASSIGN_OR_RETURN(scores, n.getInput(0));
  ASSIGN_OR_RETURN(labels, n.getInput(1));
  if (failed(n.requireFloat(scores)))
    return failure();
  Value weights = n.getOptionalInput(2);
  std::string reductionName = n.getString("reduction", "mean");
  std::optional<dist::LossReduction> reduction =
      dist::symbolizeLossReduction(reductionName);
  if (!reduction)
    return n.error("reduction '" + reductionName + "' is not supported");
  IntegerAttr ignoreIndex;
  if (n.findAttr("ignore_index"))
    ignoreIndex = i64Attr(n, n.getInt("ignore_index", 0));
  ASSIGN_OR_RETURN(loss,
                   n.create<dist::CrossEntropyOp>(
                       scores, labels, weights, i64Attr(n, 1),
                       dist::LossReductionAttr::get(n.context, *reduction),
                       ignoreIndex));
  n.setOutput(0, loss);
  if (n.hasOutput(1)) {
    ASSIGN_OR_RETURN(logProb,
                     n.create<dist::LogSoftmaxOp>(scores, i64Attr(n, 1)));
    n.setOutput(1, logProb);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

struct Window {
  SmallVector<int64_t> kernel, strides, dilations, pads;
};

/// Reads strides, dilations and pads (explicit or from auto_pad) of a
/// sliding window with the given kernel.
FailureOr<Window> getWindow(NodeImporter &n, Value input,
                            ArrayRef<int64_t> kernel) {
  Window w;
  const int64_t k = static_cast<int64_t>(kernel.size());
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = n.getInts("strides").value_or(SmallVector<int64_t>(k, 1));
  w.dilations = n.getInts("dilations").value_or(SmallVector<int64_t>(k, 1));
  if (static_cast<int64_t>(w.strides.size()) != k ||
      static_cast<int64_t>(w.dilations.size()) != k)
    return n.error("strides and dilations need " + Twine(k) + " entries");
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    w.pads = n.getInts("pads").value_or(SmallVector<int64_t>(2 * k, 0));
    if (static_cast<int64_t>(w.pads.size()) != 2 * k)
      return n.error("pads needs " + Twine(2 * k) + " entries");
    return w;
  }
  if (autoPad == "VALID") {
    w.pads.assign(2 * k, 0);
    return w;
  }
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return n.error("auto_pad '" + autoPad +
                   "' is not one of NOTSET, VALID, "
                   "SAME_UPPER, SAME_LOWER");
  // SAME_*: the output has ceil(input / stride) elements; the odd pad goes
  // at the end (UPPER) or the beginning (LOWER).
  auto type = getTensorType(input);
  w.pads.assign(2 * k, 0);
  for (int64_t i = 0; i < k; ++i) {
    int64_t size = type.getDimSize(i + 2);
    if (ShapedType::isDynamic(size))
      return n.error("auto_pad " + autoPad +
                     " needs static spatial dimensions; give the input shape "
                     "with --input-shape");
    ASSIGN_OR_RETURN(
        pads, checkRule(n, shapes::inferSamePads(size, kernel[i], w.strides[i],
                                                 w.dilations[i],
                                                 autoPad == "SAME_UPPER")));
    w.pads[i] = pads.first;
    w.pads[i + k] = pads.second;
  }
  return w;
}

LogicalResult convertConv(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ASSIGN_OR_RETURN(filter, n.getInput(1));
  Value bias = n.getOptionalInput(2);
  if (failed(n.requireFloat(input)))
    return failure();
  auto filterType = getTensorType(filter);
  if (filterType.getRank() < 3)
    return n.error("the filter must have rank >= 3");
  SmallVector<int64_t> kernel(filterType.getShape().drop_front(2));
  if (std::optional<SmallVector<int64_t>> given = n.getInts("kernel_shape"))
    for (auto [k, g] : llvm::zip(kernel, *given))
      if (!ShapedType::isDynamic(k) && k != g)
        return n.error("kernel_shape does not match the filter's shape");
  for (int64_t k : kernel)
    if (ShapedType::isDynamic(k))
      return n.error("the filter needs static spatial dimensions");
  ASSIGN_OR_RETURN(w, getWindow(n, input, kernel));
  ASSIGN_OR_RETURN(result,
                   n.create<dist::ConvOp>(
                       input, filter, bias, i64ArrayAttr(n, w.strides),
                       i64ArrayAttr(n, w.pads), i64ArrayAttr(n, w.dilations),
                       i64Attr(n, n.getInt("group", 1))));
  n.setOutput(0, result);
  return success();
}

template <typename OpTy> LogicalResult convertPool(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  std::optional<SmallVector<int64_t>> kernel = n.getInts("kernel_shape");
  if (!kernel)
    return n.error("kernel_shape is required");
  if (getRank(input) != static_cast<int64_t>(kernel->size()) + 2)
    return n.error("kernel_shape has " + Twine(kernel->size()) +
                   " entries for an input of rank " + Twine(getRank(input)));
  ASSIGN_OR_RETURN(w, getWindow(n, input, *kernel));
  UnitAttr ceilMode =
      n.getInt("ceil_mode", 0) ? n.builder.getUnitAttr() : UnitAttr();
  Value result;
  if constexpr (std::is_same_v<OpTy, dist::MaxPoolOp>) {
    if (n.hasOutput(1))
      return n.error("the Indices output of MaxPool is not supported");
    ASSIGN_OR_RETURN(pooled,
                     n.create<dist::MaxPoolOp>(
                         input, i64ArrayAttr(n, w.kernel),
                         i64ArrayAttr(n, w.strides), i64ArrayAttr(n, w.pads),
                         i64ArrayAttr(n, w.dilations), ceilMode));
    result = pooled;
  } else {
    UnitAttr includePad =
        n.getInt("count_include_pad", 0) ? n.builder.getUnitAttr() : UnitAttr();
    ASSIGN_OR_RETURN(pooled,
                     n.create<dist::AvgPoolOp>(input, i64ArrayAttr(n, w.kernel),
                                               i64ArrayAttr(n, w.strides),
                                               i64ArrayAttr(n, w.pads),
                                               includePad, ceilMode));
    result = pooled;
  }
  n.setOutput(0, result);
  return success();
}

LogicalResult convertGlobalAveragePool(NodeImporter &n) {
  return convertUnary<dist::GlobalAvgPoolOp>(n);
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult convertTranspose(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  int64_t rank = getRank(input);
  SmallVector<int64_t> perm;
  if (std::optional<SmallVector<int64_t>> given = n.getInts("perm"))
    perm = *given;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  ASSIGN_OR_RETURN(result,
                   n.create<dist::TransposeOp>(input, i64ArrayAttr(n, perm)));
  n.setOutput(0, result);
  return success();
}

/// Reshape's 0 copies the input's dimension (unless allowzero) and one -1
/// is inferred; dist.reshape keeps the -1 and needs the rest static.
LogicalResult convertReshape(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ASSIGN_OR_RETURN(shape, n.getStaticInts(1, "the target shape"));
  bool allowZero = n.version >= 14 && n.getInt("allowzero", 0) != 0;
  ArrayRef<int64_t> inputShape = getTensorType(input).getShape();
  int inferred = 0;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (dim == -1) {
      ++inferred;
    } else if (dim == 0 && !allowZero) {
      if (i >= inputShape.size())
        return n.error("shape entry " + Twine(i) +
                       " is 0 (copy) but the input has rank " +
                       Twine(inputShape.size()));
      if (ShapedType::isDynamic(inputShape[i]))
        return n.error("shape entry " + Twine(i) +
                       " copies an unknown input dimension; give the input "
                       "shape with --input-shape");
      dim = inputShape[i];
    } else if (dim < 0) {
      return n.error("shape entry " + Twine(i) + " is " + Twine(dim));
    }
  }
  if (inferred > 1)
    return n.error("the target shape has more than one -1");
  if (allowZero && inferred && llvm::is_contained(shape, 0))
    return n.error("with allowzero=1 the target shape cannot hold both 0 "
                   "and -1");
  ASSIGN_OR_RETURN(result,
                   n.create<dist::ReshapeOp>(input, i64ArrayAttr(n, shape)));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertFlatten(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  int64_t rank = getRank(input);
  ASSIGN_OR_RETURN(
      axis, checkRule(n, shapes::normalizePosition(n.getInt("axis", 1), rank)));
  ASSIGN_OR_RETURN(rows, flattenedAt(n, getTensorType(input).getShape(), axis));
  ASSIGN_OR_RETURN(result, n.createReshape(input, rows));
  n.setOutput(0, result);
  return success();
}

/// Axes of Squeeze/Unsqueeze/ReduceSum: an attribute before opset 13, an
/// input from 13 on.
FailureOr<std::optional<SmallVector<int64_t>>>
getAxesAttrOrInput(NodeImporter &n, int inputIndex, bool fromInput) {
  if (!fromInput)
    return n.getInts("axes");
  if (!n.hasInput(inputIndex))
    return std::optional<SmallVector<int64_t>>();
  ASSIGN_OR_RETURN(axes, n.getStaticInts(inputIndex, "axes"));
  return std::optional<SmallVector<int64_t>>(std::move(axes));
}

LogicalResult convertSqueeze(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ArrayRef<int64_t> shape = getTensorType(input).getShape();
  ASSIGN_OR_RETURN(given, getAxesAttrOrInput(n, 1, n.version >= 13));
  SmallVector<int64_t> axes;
  if (given) {
    ASSIGN_OR_RETURN(normalized, normalizeAxes(n, *given, shape.size()));
    axes = normalized;
    for (int64_t axis : axes)
      if (!ShapedType::isDynamic(shape[axis]) && shape[axis] != 1)
        return n.error("dimension " + Twine(axis) + " has size " +
                       Twine(shape[axis]) + ", not 1");
  } else {
    for (auto [d, size] : llvm::enumerate(shape)) {
      if (ShapedType::isDynamic(size))
        return n.error("without axes, every dimension must be static to tell "
                       "which are 1; give the input shape with --input-shape");
      if (size == 1)
        axes.push_back(d);
    }
  }
  SmallVector<int64_t> result;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      result.push_back(size);
  ASSIGN_OR_RETURN(reshaped, n.createReshape(input, result));
  n.setOutput(0, reshaped);
  return success();
}

LogicalResult convertUnsqueeze(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ArrayRef<int64_t> shape = getTensorType(input).getShape();
  ASSIGN_OR_RETURN(given, getAxesAttrOrInput(n, 1, n.version >= 13));
  if (!given)
    return n.error("axes are required");
  int64_t rank = static_cast<int64_t>(shape.size() + given->size());
  ASSIGN_OR_RETURN(axes, normalizeAxes(n, *given, rank));
  SmallVector<int64_t> result;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    result.push_back(llvm::is_contained(axes, d) ? 1 : shape[next++]);
  ASSIGN_OR_RETURN(reshaped, n.createReshape(input, result));
  n.setOutput(0, reshaped);
  return success();
}

LogicalResult convertConcat(NodeImporter &n) {
  SmallVector<Value> inputs;
  for (int i = 0; i < n.getNumInputs(); ++i) {
    ASSIGN_OR_RETURN(input, n.getInput(i));
    inputs.push_back(input);
  }
  if (inputs.empty())
    return n.error("needs at least one input");
  if (!n.findAttr("axis"))
    return n.error("axis is required");
  ASSIGN_OR_RETURN(result,
                   n.create<dist::ConcatOp>(ValueRange(inputs),
                                            i64Attr(n, n.getInt("axis", 0))));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertSplit(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  auto type = getTensorType(input);
  ASSIGN_OR_RETURN(axis, normalizeAxis(n, n.getInt("axis", 0), type.getRank()));
  SmallVector<int64_t> sizes;
  if (n.version >= 13 && n.hasInput(1)) {
    ASSIGN_OR_RETURN(given, n.getStaticInts(1, "split"));
    sizes = given;
  } else if (n.version < 13 && n.findAttr("split")) {
    sizes = *n.getInts("split");
  } else {
    int64_t parts = n.getNumOutputs(), size = type.getDimSize(axis);
    if (ShapedType::isDynamic(size))
      return n.error("an equal split needs a static dimension " + Twine(axis) +
                     "; give the input shape with --input-shape");
    if (parts == 0 || size % parts != 0)
      return n.error("dimension " + Twine(axis) + " of size " + Twine(size) +
                     " does not split into " + Twine(parts) + " equal parts");
    sizes.assign(parts, size / parts);
  }
  if (static_cast<int64_t>(sizes.size()) != n.getNumOutputs())
    return n.error("split has " + Twine(sizes.size()) + " sizes for " +
                   Twine(n.getNumOutputs()) + " outputs");
  ASSIGN_OR_RETURN(op, n.createOp<dist::SplitOp>(sizes.size(), input,
                                                 i64Attr(n, axis),
                                                 i64ArrayAttr(n, sizes)));
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    n.setOutput(i, op->getResult(i));
  return success();
}

/// ONNX Slice: per listed axis, starts/ends (negative counts from the end,
/// clamped into range) and steps; other axes are kept whole.
LogicalResult convertSlice(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  auto type = getTensorType(input);
  const int64_t rank = type.getRank();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (n.version < 10) {
    starts = n.getInts("starts").value_or(SmallVector<int64_t>());
    ends = n.getInts("ends").value_or(SmallVector<int64_t>());
    if (std::optional<SmallVector<int64_t>> given = n.getInts("axes"))
      axes = *given;
  } else {
    ASSIGN_OR_RETURN(s, n.getStaticInts(1, "starts"));
    ASSIGN_OR_RETURN(e, n.getStaticInts(2, "ends"));
    starts = s;
    ends = e;
    if (n.hasInput(3)) {
      ASSIGN_OR_RETURN(a, n.getStaticInts(3, "axes"));
      axes = a;
    }
    if (n.hasInput(4)) {
      ASSIGN_OR_RETURN(st, n.getStaticInts(4, "steps"));
      steps = st;
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < static_cast<int64_t>(starts.size()); ++d)
      axes.push_back(d);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || starts.size() != axes.size() ||
      starts.size() != steps.size())
    return n.error("starts, ends, axes and steps differ in length");
  ASSIGN_OR_RETURN(normalizedAxes, normalizeAxes(n, axes, rank));

  SmallVector<int64_t> begin(rank, 0), limit(type.getShape()), stride(rank, 1);
  for (auto [k, axis] : llvm::enumerate(normalizedAxes)) {
    int64_t size = type.getDimSize(axis);
    int64_t step = steps[k];
    if (step == 0)
      return n.error("step of axis " + Twine(axis) + " is 0");
    if (ShapedType::isDynamic(size))
      return n.error("slicing dimension " + Twine(axis) +
                     " needs its size; give the input shape with "
                     "--input-shape");
    // Saturating forms of "add size if negative, then clamp": the bounds
    // are often INT64_MIN/INT64_MAX.
    auto clamp = [&](int64_t value, int64_t low, int64_t high) {
      if (value < 0)
        value = value < -size ? low : value + size;
      return std::clamp(value, low, high);
    };
    int64_t start, end;
    if (step > 0) {
      start = clamp(starts[k], 0, size);
      end = clamp(ends[k], 0, size);
      end = std::max(start, end);
    } else {
      start = clamp(starts[k], 0, std::max<int64_t>(size - 1, 0));
      end = clamp(ends[k], -1, size - 1);
      if (size == 0)
        start = end = 0;
      end = std::min(start, end);
    }
    begin[axis] = start;
    limit[axis] = end;
    stride[axis] = step;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (ShapedType::isDynamic(limit[d]))
      return n.error("dimension " + Twine(d) +
                     " is unknown; slicing needs static dimensions, give the "
                     "input shape with --input-shape");
  ASSIGN_OR_RETURN(result,
                   n.create<dist::SliceOp>(input, i64ArrayAttr(n, begin),
                                           i64ArrayAttr(n, limit),
                                           i64ArrayAttr(n, stride)));
  n.setOutput(0, result);
  return success();
}

/// The padded border of one axis in reflect or edge mode: `count` elements
/// mirrored about (reflect) or repeating (edge) the first element, or the
/// last one when `atEnd`.
FailureOr<Value> createBorder(NodeImporter &n, Value input, int64_t axis,
                              int64_t count, bool reflect, bool atEnd) {
  int64_t size = getTensorType(input).getDimSize(axis);
  if (reflect) {
    if (count >= size)
      return n.error("reflect padding of " + Twine(count) +
                     " needs more than " + Twine(count) +
                     " elements in dimension " + Twine(axis));
    // Elements count .. 1 (or size-2 .. size-1-count), reversed.
    return atEnd
               ? n.createSliceAlong(input, axis, size - 2, size - 2 - count, -1)
               : n.createSliceAlong(input, axis, count, 0, -1);
  }
  if (size == 0)
    return n.error("edge padding of an empty dimension " + Twine(axis));
  ASSIGN_OR_RETURN(edge, atEnd ? n.createSliceAlong(input, axis, size - 1, size)
                               : n.createSliceAlong(input, axis, 0, 1));
  SmallVector<int64_t> shape(getTensorType(edge).getShape());
  shape[axis] = count;
  return n.create<dist::ExpandOp>(edge, i64ArrayAttr(n, shape));
}

/// Adds `value` where dist.pad put zeros: a constant that is `value` outside
/// the box [low, low + size) of every dim and 0 inside.
FailureOr<Value> fillPadding(NodeImporter &n, Value padded,
                             ArrayRef<int64_t> low, ArrayRef<int64_t> inner,
                             double value) {
  ElementType elementType;
  std::vector<int64_t> shape;
  if (Status status = getHostTensorType(padded.getType(), elementType, shape);
      !status.ok())
    return n.error("a non-zero constant_value needs static shapes");
  if (Status status = checkFoldedSize(shape, elementType); !status.ok())
    return n.error(status.message());
  HostTensor fill(elementType, shape);
  const int64_t rank = static_cast<int64_t>(shape.size());
  SmallVector<int64_t> position(rank, 0);
  for (int64_t i = 0; i < fill.getNumElements(); ++i) {
    bool inside = true;
    for (int64_t d = 0; d < rank; ++d)
      inside &= position[d] >= low[d] && position[d] < low[d] + inner[d];
    fill.setFromDouble(i, inside ? 0.0 : value);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++position[d] < shape[d])
        break;
      position[d] = 0;
    }
  }
  ASSIGN_OR_RETURN(constant, n.createConstant(fill));
  return n.create<dist::AddOp>(padded, constant);
}

/// ONNX Pad in constant, reflect and edge mode. Negative pads crop (a
/// slice); constant mode pads with zeros (dist.pad) and adds the constant
/// value where it padded; reflect and edge concatenate border slices.
LogicalResult convertPad(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  auto type = getTensorType(input);
  const int64_t rank = type.getRank();
  if (!type.hasStaticShape())
    return n.error("Pad needs a static input shape; give the input shapes "
                   "with --input-shape");
  SmallVector<int64_t> pads;
  double value = 0.0;
  if (n.version < 11) {
    pads = n.getInts("pads").value_or(SmallVector<int64_t>());
    value = n.getFloat("value", 0.0);
  } else {
    ASSIGN_OR_RETURN(given, n.getStaticInts(1, "pads"));
    pads = given;
    if (n.hasInput(2)) {
      ASSIGN_OR_RETURN(constant, n.getStaticInput(2, "constant_value"));
      if (constant->getNumElements() != 1)
        return n.error("constant_value must hold one element");
      value = constant->getAsDouble(0);
    }
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return n.error("pads needs " + Twine(2 * rank) + " entries");
  std::string mode = n.getString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return n.error("mode '" + mode + "' is not supported");

  Value result = input;
  SmallVector<int64_t> low(rank), high(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = getTensorType(result).getDimSize(d);
    int64_t begin = std::max<int64_t>(-pads[d], 0);
    int64_t end = size - std::max<int64_t>(-pads[d + rank], 0);
    if (begin > end)
      return n.error("negative pads remove more than dimension " + Twine(d) +
                     " holds");
    if (begin != 0 || end != size) {
      ASSIGN_OR_RETURN(cropped, n.createSliceAlong(result, d, begin, end));
      result = cropped;
    }
    low[d] = std::max<int64_t>(pads[d], 0);
    high[d] = std::max<int64_t>(pads[d + rank], 0);
  }
  if (mode == "constant") {
    SmallVector<int64_t> inner(getTensorType(result).getShape());
    ASSIGN_OR_RETURN(padded,
                     n.create<dist::PadOp>(
                         result, i64ArrayAttr(n, low), i64ArrayAttr(n, high),
                         i64ArrayAttr(n, SmallVector<int64_t>(rank, 0))));
    result = padded;
    if (value != 0.0) {
      ASSIGN_OR_RETURN(filled, fillPadding(n, result, low, inner, value));
      result = filled;
    }
    n.setOutput(0, result);
    return success();
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] == 0 && high[d] == 0)
      continue;
    SmallVector<Value, 3> parts;
    if (low[d] > 0) {
      ASSIGN_OR_RETURN(
          border, createBorder(n, result, d, low[d], mode == "reflect", false));
      parts.push_back(border);
    }
    parts.push_back(result);
    if (high[d] > 0) {
      ASSIGN_OR_RETURN(
          border, createBorder(n, result, d, high[d], mode == "reflect", true));
      parts.push_back(border);
    }
    ASSIGN_OR_RETURN(
        joined, n.create<dist::ConcatOp>(ValueRange(parts), i64Attr(n, d)));
    result = joined;
  }
  n.setOutput(0, result);
  return success();
}

LogicalResult convertGather(NodeImporter &n) {
  ASSIGN_OR_RETURN(data, n.getInput(0));
  ASSIGN_OR_RETURN(indices, n.getInput(1));
  ASSIGN_OR_RETURN(axis, normalizeAxis(n, n.getInt("axis", 0), getRank(data)));
  ASSIGN_OR_RETURN(result, n.create<dist::TakeOp>(data, indices, mlir::Value(),
                                                  i64Attr(n, axis)));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertExpand(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  ASSIGN_OR_RETURN(shape, n.getStaticInts(1, "the target shape"));
  ASSIGN_OR_RETURN(result,
                   n.create<dist::ExpandOp>(input, i64ArrayAttr(n, shape)));
  n.setOutput(0, result);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions, casts and constants
//===----------------------------------------------------------------------===//

/// ReduceSum takes its axes as an input from opset 13, the other reductions
/// only from opset 18 (beyond what distir imports).
template <typename OpTy> LogicalResult convertReduce(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  int64_t rank = getRank(input);
  bool axesFromInput =
      std::is_same_v<OpTy, dist::ReduceSumOp> && n.version >= 13;
  ASSIGN_OR_RETURN(given, getAxesAttrOrInput(n, 1, axesFromInput));
  SmallVector<int64_t> axes;
  if (given && !given->empty()) {
    ASSIGN_OR_RETURN(normalized, normalizeAxes(n, *given, rank));
    axes = normalized;
  } else if (axesFromInput && n.getInt("noop_with_empty_axes", 0)) {
    n.setOutput(0, input);
    return success();
  } else {
    // No axes: reduce all of them (spelled out; the dialect reads an empty
    // list as "none").
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  UnitAttr keepdims =
      n.getInt("keepdims", 1) ? n.builder.getUnitAttr() : UnitAttr();
  ASSIGN_OR_RETURN(result,
                   n.create<OpTy>(input, i64ArrayAttr(n, axes), keepdims));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertCast(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  int64_t to = n.getInt("to", 0);
  std::optional<ElementType> type = getElementTypeFromOnnx(to);
  if (!type)
    return n.error("casting to " + getOnnxTypeName(to) +
                   " is not supported (distir has no such element type)");
  ASSIGN_OR_RETURN(
      result, n.create<dist::CastOp>(
                  input, TypeAttr::get(getMlirElementType(*type, n.context))));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertConstant(NodeImporter &n) {
  if (n.node.attribute_size() != 1)
    return n.error("needs exactly one value attribute");
  const onnx::AttributeProto &attr = n.node.attribute(0);
  HostTensor value;
  const std::string &name = attr.name();
  if (name == "value") {
    if (Status status = tensorFromProto(attr.t(), "", value); !status.ok())
      return n.error(status.message());
  } else if (name == "value_float") {
    value = HostTensor::fromValues(ElementType::F32, {}, {attr.f()});
  } else if (name == "value_int") {
    value = HostTensor(ElementType::I64, {});
    value.getData<int64_t>()[0] = attr.i();
  } else if (name == "value_floats") {
    std::vector<double> floats(attr.floats().begin(), attr.floats().end());
    value = HostTensor::fromValues(
        ElementType::F32, {static_cast<int64_t>(floats.size())}, floats);
  } else if (name == "value_ints") {
    value = HostTensor(ElementType::I64, {attr.ints_size()});
    llvm::copy(attr.ints(), value.getData<int64_t>());
  } else {
    return n.error("a '" + name + "' constant is not supported");
  }
  ASSIGN_OR_RETURN(result, n.createConstant(value));
  n.setOutput(0, result);
  return success();
}

/// Shape, Size and ConstantOfShape become constants: shapes are static in
/// the imported program.
LogicalResult convertShape(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  auto type = getTensorType(input);
  int64_t rank = type.getRank();
  auto clamp = [&](int64_t value) {
    return std::clamp<int64_t>(value < 0 ? value + rank : value, 0, rank);
  };
  int64_t begin = clamp(n.getInt("start", 0));
  int64_t end = clamp(n.getInt("end", rank));
  HostTensor shape(ElementType::I64, {std::max<int64_t>(end - begin, 0)});
  for (int64_t d = begin; d < end; ++d) {
    if (type.isDynamicDim(d))
      return n.error("dimension " + Twine(d) + " of input '" + n.node.input(0) +
                     "' is unknown; give the input shapes with --input-shape");
    shape.getData<int64_t>()[d - begin] = type.getDimSize(d);
  }
  ASSIGN_OR_RETURN(result, n.createConstant(shape));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertSize(NodeImporter &n) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  auto type = getTensorType(input);
  if (!type.hasStaticShape())
    return n.error("the input's shape is unknown; give the input shapes with "
                   "--input-shape");
  HostTensor size(ElementType::I64, {});
  size.getData<int64_t>()[0] = type.getNumElements();
  ASSIGN_OR_RETURN(result, n.createConstant(size));
  n.setOutput(0, result);
  return success();
}

LogicalResult convertConstantOfShape(NodeImporter &n) {
  ASSIGN_OR_RETURN(shapeValues, n.getStaticInts(0, "the shape"));
  HostTensor fillValue = HostTensor::fromValues(ElementType::F32, {1}, {0.0});
  if (const onnx::AttributeProto *attr = n.findAttr("value"))
    if (Status status = tensorFromProto(attr->t(), "", fillValue); !status.ok())
      return n.error(status.message());
  if (fillValue.getNumElements() != 1)
    return n.error("value must hold one element");
  std::vector<int64_t> shape(shapeValues.begin(), shapeValues.end());
  if (Status status = checkFoldedSize(shape, fillValue.getElementType());
      !status.ok())
    return n.error(status.message());
  HostTensor filled(fillValue.getElementType(), shape);
  filled.fill(fillValue.getAsDouble(0));
  ASSIGN_OR_RETURN(result, n.createConstant(filled));
  n.setOutput(0, result);
  return success();
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

struct Converter {
  StringLiteral domain;
  StringLiteral opType;
  ConvertFn convert;
};

const Converter kConverters[] = {
    {"", "Add", convertBinary<dist::AddOp>},
    {"", "AveragePool", convertPool<dist::AvgPoolOp>},
    {"", "BatchNormalization", convertBatchNormalization},
    {"", "Cast", convertCast},
    {"", "Concat", convertConcat},
    {"", "Constant", convertConstant},
    {"", "ConstantOfShape", convertConstantOfShape},
    {"", "Conv", convertConv},
    {"", "Div", convertBinary<dist::DivOp>},
    {"", "Dropout", convertDropout},
    {"", "Erf", convertUnary<dist::ErfOp>},
    {"", "Equal", convertEqual},
    {"", "Exp", convertUnary<dist::ExpOp>},
    {"", "Expand", convertExpand},
    {"", "Flatten", convertFlatten},
    {"", "Gather", convertGather},
    {"", "Gemm", convertGemm},
    {"", "GRU", convertGRU},
    {"", "GlobalAveragePool", convertGlobalAveragePool},
    {"", "HardSigmoid", convertHardSigmoid},
    {"", "HardSwish", convertHardSwish},
    {"", "Identity", convertIdentity},
    {"", "LayerNormalization", convertLayerNormalization},
    {"", "LSTM", convertLSTM},
    {"", "Log", convertUnary<dist::LogOp>},
    {"", "LogSoftmax", convertSoftmax<dist::LogSoftmaxOp>},
    {"", "MatMul", convertMatMul},
    {"", "MaxPool", convertPool<dist::MaxPoolOp>},
    {"", "Mod", convertMod},
    {"", "Mul", convertBinary<dist::MulOp>},
    {"", "Neg", convertUnary<dist::NegOp>},
    {"", "Not", convertNot},
    {"", "Pad", convertPad},
    {"", "Pow", convertPow},
    {"", "RNN", convertRNN},
    {"", "Range", convertRange},
    {"", "Reciprocal", convertReciprocal},
    {"", "ReduceMean", convertReduce<dist::ReduceMeanOp>},
    {"", "ReduceSum", convertReduce<dist::ReduceSumOp>},
    {"", "Relu", convertUnary<dist::ReluOp>},
    {"", "Reshape", convertReshape},
    {"", "ScatterND", convertScatterND},
    {"", "Shape", convertShape},
    {"", "Sigmoid", convertUnary<dist::SigmoidOp>},
    {"", "Size", convertSize},
    {"", "Slice", convertSlice},
    {"", "Softmax", convertSoftmax<dist::SoftmaxOp>},
    {"", "SoftmaxCrossEntropyLoss", convertSoftmaxCrossEntropyLoss},
    {"", "Split", convertSplit},
    {"", "Sqrt", convertUnary<dist::SqrtOp>},
    {"", "Squeeze", convertSqueeze},
    {"", "Sub", convertBinary<dist::SubOp>},
    {"", "Tanh", convertUnary<dist::TanhOp>},
    {"", "Transpose", convertTranspose},
    {"", "Unsqueeze", convertUnsqueeze},
    {"", "Where", convertWhere},
    {"com.microsoft", "BiasGelu", convertMicrosoftGelu},
    {"com.microsoft", "FastGelu", convertMicrosoftGelu},
    {"com.microsoft", "Gelu", convertMicrosoftGelu},
};

} // namespace

ConvertFn distir::onnx_import::lookupConverter(StringRef domain,
                                               StringRef opType) {
  if (domain == "ai.onnx")
    domain = "";
  for (const Converter &converter : kConverters)
    if (converter.domain == domain && converter.opType == opType)
      return converter.convert;
  return nullptr;
}

std::vector<std::string> distir::getSupportedOnnxOps() {
  std::vector<std::string> ops;
  for (const Converter &converter : kConverters)
    ops.push_back(converter.domain.empty()
                      ? converter.opType.str()
                      : (converter.domain + "." + converter.opType).str());
  llvm::sort(ops);
  return ops;
}
