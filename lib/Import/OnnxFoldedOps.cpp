//===- OnnxFoldedOps.cpp - ONNX ops evaluated at import time --------------===//
//
// Equal, Not, Mod, Range and ScatterND have no dist op: exporters write them
// to compute masks and index tables from constants (Swin's shifted-window
// attention mask, torch._assert on image sizes), so the importer evaluates
// them while it imports and the program holds their results as constants.
// Their inputs must therefore be known at import time; the error says what
// an input depends on otherwise.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include "distir/ShapeInference/ShapeRules.h"

#include <cmath>

using namespace mlir;
using namespace distir;
using namespace distir::onnx_import;

namespace {

/// The values of inputs [0, count), each of which must be known now.
FailureOr<SmallVector<const HostTensor *>> getFoldedInputs(NodeImporter &n,
                                                           int count) {
  SmallVector<const HostTensor *> tensors;
  for (int i = 0; i < count; ++i) {
    FailureOr<const HostTensor *> tensor = n.getStaticInput(
        i, n.node.op_type() + " is evaluated at import time: its input");
    if (failed(tensor))
      return failure();
    tensors.push_back(*tensor);
  }
  return tensors;
}

/// Integers are read without going through double, so that int64 values
/// beyond 2^53 compare and divide exactly.
int64_t getInteger(const HostTensor &tensor, int64_t index) {
  switch (tensor.getElementType()) {
  case ElementType::I64:
    return tensor.getData<int64_t>()[index];
  case ElementType::I32:
    return tensor.getData<int32_t>()[index];
  case ElementType::I1:
    return tensor.getData<uint8_t>()[index] != 0;
  default:
    return static_cast<int64_t>(tensor.getAsDouble(index));
  }
}

void setInteger(HostTensor &tensor, int64_t index, int64_t value) {
  switch (tensor.getElementType()) {
  case ElementType::I64:
    tensor.getData<int64_t>()[index] = value;
    return;
  case ElementType::I32:
    tensor.getData<int32_t>()[index] = static_cast<int32_t>(value);
    return;
  case ElementType::I1:
    tensor.getData<uint8_t>()[index] = value != 0;
    return;
  default:
    tensor.setFromDouble(index, static_cast<double>(value));
  }
}

/// Calls `fn(resultIndex, lhsIndex, rhsIndex)` for every element of the
/// numpy broadcast of `lhs` and `rhs`, whose result has `type`.
FailureOr<HostTensor> foldBroadcast(
    NodeImporter &n, const HostTensor &lhs, const HostTensor &rhs,
    ElementType type,
    llvm::function_ref<void(HostTensor &, int64_t, int64_t, int64_t)> fn) {
  const shapes::Shape &lhsShape = lhs.getShape(), &rhsShape = rhs.getShape();
  StatusOr<shapes::Shape> shape = shapes::broadcastShapes(lhsShape, rhsShape);
  if (!shape.ok())
    return n.error(shape.message());
  if (Status status = checkFoldedSize(*shape, type); !status.ok())
    return n.error(status.message());
  HostTensor result(type, *shape);
  const int64_t rank = static_cast<int64_t>(shape->size());
  // Row-major strides of each operand in the result's dims (0 where the
  // operand broadcasts).
  auto stridesOf = [&](const shapes::Shape &operand) {
    SmallVector<int64_t> strides(rank, 0);
    int64_t stride = 1;
    for (int64_t d = static_cast<int64_t>(operand.size()) - 1, r = rank - 1;
         d >= 0; --d, --r) {
      strides[r] = operand[d] == 1 ? 0 : stride;
      stride *= operand[d];
    }
    return strides;
  };
  SmallVector<int64_t> lhsStrides = stridesOf(lhsShape),
                       rhsStrides = stridesOf(rhsShape);
  SmallVector<int64_t> position(rank, 0);
  for (int64_t i = 0; i < result.getNumElements(); ++i) {
    int64_t l = 0, r = 0;
    for (int64_t d = 0; d < rank; ++d) {
      l += position[d] * lhsStrides[d];
      r += position[d] * rhsStrides[d];
    }
    fn(result, i, l, r);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++position[d] < (*shape)[d])
        break;
      position[d] = 0;
    }
  }
  return result;
}

LogicalResult setFoldedOutput(NodeImporter &n, const HostTensor &value) {
  FailureOr<Value> constant = n.createConstant(value);
  if (failed(constant))
    return failure();
  n.setOutput(0, *constant);
  return success();
}

} // namespace

LogicalResult onnx_import::convertEqual(NodeImporter &n) {
  FailureOr<SmallVector<const HostTensor *>> inputs = getFoldedInputs(n, 2);
  if (failed(inputs))
    return failure();
  const HostTensor &lhs = *(*inputs)[0], &rhs = *(*inputs)[1];
  if (lhs.getElementType() != rhs.getElementType())
    return n.error("the inputs have different element types");
  bool integers = isIntegerType(lhs.getElementType());
  FailureOr<HostTensor> result =
      foldBroadcast(n, lhs, rhs, ElementType::I1,
                    [&](HostTensor &out, int64_t i, int64_t l, int64_t r) {
                      bool equal =
                          integers ? getInteger(lhs, l) == getInteger(rhs, r)
                                   : lhs.getAsDouble(l) == rhs.getAsDouble(r);
                      setInteger(out, i, equal);
                    });
  if (failed(result))
    return failure();
  return setFoldedOutput(n, *result);
}

LogicalResult onnx_import::convertNot(NodeImporter &n) {
  FailureOr<SmallVector<const HostTensor *>> inputs = getFoldedInputs(n, 1);
  if (failed(inputs))
    return failure();
  const HostTensor &input = *(*inputs)[0];
  if (input.getElementType() != ElementType::I1)
    return n.error("the input must be a bool tensor");
  HostTensor result(ElementType::I1, input.getShape());
  for (int64_t i = 0; i < input.getNumElements(); ++i)
    setInteger(result, i, getInteger(input, i) == 0);
  return setFoldedOutput(n, result);
}

/// fmod = 0: the remainder takes the divisor's sign (Python's %), integers
/// only; fmod = 1: C's fmod, the dividend's sign.
LogicalResult onnx_import::convertMod(NodeImporter &n) {
  FailureOr<SmallVector<const HostTensor *>> inputs = getFoldedInputs(n, 2);
  if (failed(inputs))
    return failure();
  const HostTensor &lhs = *(*inputs)[0], &rhs = *(*inputs)[1];
  ElementType type = lhs.getElementType();
  if (rhs.getElementType() != type)
    return n.error("the inputs have different element types");
  bool fmod = n.getInt("fmod", 0) != 0;
  bool integers = isIntegerType(type);
  if (!integers && !fmod)
    return n.error("fmod must be 1 for float inputs");
  bool divisionByZero = false;
  FailureOr<HostTensor> result = foldBroadcast(
      n, lhs, rhs, type, [&](HostTensor &out, int64_t i, int64_t l, int64_t r) {
        if (!integers) {
          out.setFromDouble(i,
                            std::fmod(lhs.getAsDouble(l), rhs.getAsDouble(r)));
          return;
        }
        int64_t a = getInteger(lhs, l), b = getInteger(rhs, r);
        if (b == 0) {
          divisionByZero = true;
          return;
        }
        // INT64_MIN % -1 overflows in C++; its remainder is 0.
        int64_t remainder = b == -1 ? 0 : a % b;
        if (!fmod && remainder != 0 && ((remainder < 0) != (b < 0)))
          remainder += b;
        setInteger(out, i, remainder);
      });
  if (failed(result))
    return failure();
  if (divisionByZero)
    return n.error("integer modulo by zero");
  return setFoldedOutput(n, *result);
}

/// start, start + delta, ... up to (excluding) limit, in start's type.
LogicalResult onnx_import::convertRange(NodeImporter &n) {
  FailureOr<SmallVector<const HostTensor *>> inputs = getFoldedInputs(n, 3);
  if (failed(inputs))
    return failure();
  const HostTensor &start = *(*inputs)[0], &limit = *(*inputs)[1],
                   &delta = *(*inputs)[2];
  for (const HostTensor *scalar : *inputs)
    if (scalar->getNumElements() != 1)
      return n.error("start, limit and delta must be scalars");
  ElementType type = start.getElementType();
  int64_t count;
  if (isIntegerType(type)) {
    int64_t first = getInteger(start, 0), last = getInteger(limit, 0),
            step = getInteger(delta, 0);
    if (step == 0)
      return n.error("delta is 0");
    // ceil((last - first) / step) with integer division toward zero.
    int64_t span = last - first;
    count = span / step + ((span % step != 0) && ((span < 0) == (step < 0)));
    count = std::max<int64_t>(count, 0);
    if (Status status = checkFoldedSize({count}, type); !status.ok())
      return n.error(status.message());
    HostTensor result(type, {count});
    for (int64_t i = 0; i < count; ++i)
      setInteger(result, i, first + i * step);
    return setFoldedOutput(n, result);
  }
  double first = start.getAsDouble(0), step = delta.getAsDouble(0);
  if (step == 0)
    return n.error("delta is 0");
  double elements = std::ceil((limit.getAsDouble(0) - first) / step);
  if (!(elements < 9.0e18))
    return n.error("the range has too many elements");
  count = std::max<int64_t>(static_cast<int64_t>(elements), 0);
  if (Status status = checkFoldedSize({count}, type); !status.ok())
    return n.error(status.message());
  HostTensor result(type, {count});
  for (int64_t i = 0; i < count; ++i)
    result.setFromDouble(i, first + static_cast<double>(i) * step);
  return setFoldedOutput(n, result);
}

/// A copy of data with the slices that indices address replaced by (or,
/// with reduction add/mul, combined with) the slices of updates.
LogicalResult onnx_import::convertScatterND(NodeImporter &n) {
  FailureOr<SmallVector<const HostTensor *>> inputs = getFoldedInputs(n, 3);
  if (failed(inputs))
    return failure();
  const HostTensor &data = *(*inputs)[0], &indices = *(*inputs)[1],
                   &updates = *(*inputs)[2];
  std::string reduction = n.getString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    return n.error("reduction '" + reduction + "' is not supported");
  if (updates.getElementType() != data.getElementType())
    return n.error("updates and data have different element types");
  const shapes::Shape &dataShape = data.getShape();
  const shapes::Shape &indexShape = indices.getShape();
  if (indexShape.empty())
    return n.error("indices must have rank >= 1");
  const int64_t depth = indexShape.back();
  const int64_t dataRank = static_cast<int64_t>(dataShape.size());
  if (depth > dataRank)
    return n.error("indices address " + Twine(depth) + " dims of a rank-" +
                   Twine(dataRank) + " tensor");
  shapes::Shape expected(indexShape.begin(), indexShape.end() - 1);
  expected.insert(expected.end(), dataShape.begin() + depth, dataShape.end());
  if (updates.getShape() != expected)
    return n.error("updates must have shape " + shapes::formatDims(expected));
  int64_t sliceSize = 1;
  for (int64_t d = depth; d < dataRank; ++d)
    sliceSize *= dataShape[d];
  const int64_t numSlices =
      depth == 0 ? indices.getNumElements() : indices.getNumElements() / depth;
  HostTensor result = data;
  bool integers = isIntegerType(data.getElementType());
  for (int64_t s = 0; s < numSlices; ++s) {
    int64_t offset = 0;
    for (int64_t d = 0; d < depth; ++d) {
      int64_t index = getInteger(indices, s * depth + d);
      if (index < 0)
        index += dataShape[d];
      if (index < 0 || index >= dataShape[d])
        return n.error("index " + Twine(getInteger(indices, s * depth + d)) +
                       " is out of range for dimension " + Twine(d) +
                       " of size " + Twine(dataShape[d]));
      offset = offset * dataShape[d] + index;
    }
    offset *= sliceSize;
    for (int64_t e = 0; e < sliceSize; ++e) {
      int64_t to = offset + e, from = s * sliceSize + e;
      if (integers) {
        int64_t value = getInteger(updates, from), old = getInteger(result, to);
        setInteger(result, to,
                   reduction == "add"   ? old + value
                   : reduction == "mul" ? old * value
                                        : value);
      } else {
        double value = updates.getAsDouble(from), old = result.getAsDouble(to);
        result.setFromDouble(to, reduction == "add"   ? old + value
                                 : reduction == "mul" ? old * value
                                                      : value);
      }
    }
  }
  return setFoldedOutput(n, result);
}
