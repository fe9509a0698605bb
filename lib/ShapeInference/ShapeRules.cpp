//===- ShapeRules.cpp - Shape rules of the dist ops over plain int64_t ----===//
//
// Plain C++: only the header-only llvm/Support/MathExtras.h for overflow
// checks, no LLVM or MLIR library to link.
//
//===----------------------------------------------------------------------===//

#include "distir/ShapeInference/ShapeRules.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <sstream>

namespace distir {
namespace shapes {

namespace {

/// Builds a message from streamable pieces: error("axis ", 3, " is ...").
template <typename... Args> Status error(const Args &...args) {
  std::ostringstream os;
  (os << ... << args);
  return Status::error(os.str());
}

/// Operand `i` as the caller names it, or its dims.
std::string nameOf(const OperandNamer &name, size_t i, DimsRef dims) {
  return name ? name(i) : formatDims(dims);
}

/// A slice's element count: ceil(distance / stride) without overflow.
uint64_t ceilDiv(uint64_t distance, uint64_t stride) {
  return distance == 0 ? 0 : (distance - 1) / stride + 1;
}

} // namespace

std::string formatDims(DimsRef dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

//===----------------------------------------------------------------------===//
// Checked arithmetic and element counts
//===----------------------------------------------------------------------===//

StatusOr<int64_t> checkedAdd(int64_t a, int64_t b, const std::string &what) {
  int64_t result;
  if (llvm::AddOverflow(a, b, result))
    return error(what, " overflows int64");
  return result;
}

StatusOr<int64_t> checkedMul(int64_t a, int64_t b, const std::string &what) {
  int64_t result;
  if (llvm::MulOverflow(a, b, result))
    return error(what, " overflows int64");
  return result;
}

StatusOr<int64_t> getElementCount(DimsRef shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (isDynamic(dim))
      return kDynamic;
  }
  // The message is formatted only on overflow: every op's verifier and the
  // simulator's byte counts come here.
  for (int64_t dim : shape)
    if (llvm::MulOverflow(count, dim, count))
      return error("element count of shape ", formatDims(shape),
                   " overflows int64");
  return count;
}

//===----------------------------------------------------------------------===//
// Axes and broadcasting
//===----------------------------------------------------------------------===//

StatusOr<int64_t> normalizeAxis(int64_t axis, int64_t rank, const char *what) {
  if (axis < -rank || axis >= rank)
    return error(what, " ", axis, " is out of range for rank ", rank);
  return normalizeVerifiedAxis(axis, rank);
}

StatusOr<int64_t> normalizePosition(int64_t axis, int64_t rank,
                                    const char *what) {
  if (axis < -rank || axis > rank)
    return error(what, " ", axis, " is out of range for rank ", rank);
  return axis < 0 ? axis + rank : axis;
}

StatusOr<Shape> normalizeAxes(DimsRef axes, int64_t rank) {
  Shape result;
  for (int64_t axis : axes) {
    DISTIR_ASSIGN_OR_RETURN(int64_t normalized, normalizeAxis(axis, rank));
    if (std::find(result.begin(), result.end(), normalized) != result.end())
      return error("axis ", axis, " is given twice");
    result.push_back(normalized);
  }
  return result;
}

bool areCompatibleShapes(DimsRef lhs, DimsRef rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (size_t i = 0; i < lhs.size(); ++i)
    if (!isDynamic(lhs[i]) && !isDynamic(rhs[i]) && lhs[i] != rhs[i])
      return false;
  return true;
}

StatusOr<Shape> broadcastShapes(DimsRef lhs, DimsRef rhs) {
  const size_t rank = std::max(lhs.size(), rhs.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == b || b == 1 || isDynamic(b))
      result[i] = a == 1 ? b : a;
    else if (a == 1 || isDynamic(a))
      result[i] = b;
    else
      return error("cannot broadcast shapes ", formatDims(lhs), " and ",
                   formatDims(rhs), ": dimension ", i, " is ", a, " vs ", b);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

StatusOr<MatmulShape> inferMatmul(DimsRef lhs, DimsRef rhs, bool transposeLhs,
                                  bool transposeRhs, const OperandNamer &name) {
  if (lhs.empty() || rhs.empty())
    return error("operands must have rank >= 1");
  if ((transposeLhs && lhs.size() < 2) || (transposeRhs && rhs.size() < 2))
    return error("transposed operands must have rank >= 2");
  Shape a = lhs.vec(), b = rhs.vec();
  const bool lhsVector = a.size() == 1, rhsVector = b.size() == 1;
  if (lhsVector)
    a.insert(a.begin(), 1);
  if (rhsVector)
    b.push_back(1);
  if (transposeLhs)
    std::swap(a[a.size() - 1], a[a.size() - 2]);
  if (transposeRhs)
    std::swap(b[b.size() - 1], b[b.size() - 2]);
  MatmulShape shape;
  shape.m = a[a.size() - 2];
  shape.n = b.back();
  const int64_t ka = a.back(), kb = b[b.size() - 2];
  if (!isDynamic(ka) && !isDynamic(kb) && ka != kb)
    return error("contracting dimensions differ: ", nameOf(name, 0, lhs),
                 " has ", ka, " and ", nameOf(name, 1, rhs), " has ", kb);
  shape.k = isDynamic(ka) ? kb : ka;
  DISTIR_ASSIGN_OR_RETURN(shape.batch, broadcastShapes(DimsRef(a).dropBack(2),
                                                       DimsRef(b).dropBack(2)));
  shape.result = shape.batch;
  if (!lhsVector)
    shape.result.push_back(shape.m);
  if (!rhsVector)
    shape.result.push_back(shape.n);
  return shape;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

StatusOr<Shape> inferTranspose(DimsRef input, DimsRef permutation) {
  const int64_t rank = input.rank();
  if (permutation.rank() != rank)
    return error("permutation has ", permutation.size(),
                 " entries but the input has rank ", rank);
  std::vector<bool> seen(rank, false);
  Shape result;
  for (int64_t p : permutation) {
    if (p < 0 || p >= rank || seen[p])
      return error("permutation ", formatDims(permutation),
                   " is not a permutation of 0..", rank - 1);
    seen[p] = true;
    result.push_back(input[p]);
  }
  return result;
}

StatusOr<Shape> inferReshape(DimsRef input, DimsRef target) {
  Shape result = target.vec();
  int64_t inferred = -1, known = 1;
  for (size_t i = 0; i < result.size(); ++i) {
    const int64_t dim = result[i];
    if (dim == -1) {
      if (inferred >= 0)
        return error("shape may have only one -1");
      inferred = static_cast<int64_t>(i);
    } else if (dim < 0) {
      return error("shape entries must be non-negative or -1, got ", dim);
    } else if (llvm::MulOverflow(known, dim, known)) {
      return error("element count of shape ", formatDims(target),
                   " overflows int64");
    }
  }
  DISTIR_ASSIGN_OR_RETURN(int64_t count, getElementCount(input));
  if (inferred >= 0) {
    if (isDynamic(count))
      result[inferred] = kDynamic;
    else if (known == 0 || count % known != 0)
      return error("cannot reshape ", count, " elements into ",
                   formatDims(target));
    else
      result[inferred] = count / known;
  } else if (!isDynamic(count) && count != known) {
    return error("cannot reshape ", count, " elements into ", known);
  }
  return result;
}

StatusOr<Shape> inferConcat(const std::vector<DimsRef> &inputs, int64_t axis,
                            const OperandNamer &name) {
  if (inputs.empty())
    return error("needs at least one input");
  DimsRef first = inputs.front();
  DISTIR_ASSIGN_OR_RETURN(int64_t dim, normalizeAxis(axis, first.rank()));
  Shape result = first.vec();
  result[dim] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    DimsRef input = inputs[i];
    if (input.size() != first.size())
      return error("inputs must have the same rank, got ",
                   nameOf(name, 0, first), " and ", nameOf(name, i, input));
    for (size_t d = 0; d < input.size(); ++d) {
      const int64_t size = input[d];
      if (static_cast<int64_t>(d) == dim) {
        if (isDynamic(result[d]) || isDynamic(size)) {
          result[d] = kDynamic;
          continue;
        }
        DISTIR_ASSIGN_OR_RETURN(
            result[d],
            checkedAdd(result[d], size,
                       "concatenated dimension " + std::to_string(d)));
      } else if (isDynamic(result[d])) {
        result[d] = size;
      } else if (!isDynamic(size) && size != result[d]) {
        return error("inputs differ in dimension ", d,
                     " which is not the concatenation axis: ",
                     nameOf(name, 0, first), " and ", nameOf(name, i, input));
      }
    }
  }
  return result;
}

StatusOr<Shape> inferSlice(DimsRef input, DimsRef starts, DimsRef limits,
                           DimsRef strides) {
  const int64_t rank = input.rank();
  if (starts.rank() != rank || limits.rank() != rank || strides.rank() != rank)
    return error("starts, limits and strides need ", rank, " entries each");
  Shape result;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t size = input[d], start = starts[d], limit = limits[d],
                  stride = strides[d];
    if (stride == 0)
      return error("stride of dimension ", d, " is zero");
    const bool known = !isDynamic(size);
    const bool inBounds =
        stride > 0 ? start >= 0 && limit >= start && (!known || limit <= size)
                   : limit >= -1 && limit <= start &&
                         (!known || start < size || start == limit);
    if (!inBounds)
      return error("slice [", start, ":", limit, ":", stride,
                   "] is out of bounds for dimension ", d, " of size ", size);
    // Both distances are at most 2^63 and the stride's magnitude at least 1:
    // unsigned arithmetic cannot wrap, and a count beyond int64 is refused.
    const uint64_t distance = stride > 0 ? uint64_t(limit) - uint64_t(start)
                                         : uint64_t(start) - uint64_t(limit);
    const uint64_t magnitude =
        stride > 0 ? uint64_t(stride) : uint64_t(0) - uint64_t(stride);
    const uint64_t count = ceilDiv(distance, magnitude);
    if (count > uint64_t(std::numeric_limits<int64_t>::max()))
      return error("slice of dimension ", d, " overflows int64");
    result.push_back(static_cast<int64_t>(count));
  }
  return result;
}

StatusOr<std::vector<Shape>> inferSplit(DimsRef input, int64_t axis,
                                        DimsRef sizes) {
  DISTIR_ASSIGN_OR_RETURN(int64_t dim, normalizeAxis(axis, input.rank()));
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0)
      return error("split sizes must be non-negative, got ", size);
    DISTIR_ASSIGN_OR_RETURN(total,
                            checkedAdd(total, size, "sum of split sizes"));
  }
  if (!isDynamic(input[dim]) && total != input[dim])
    return error("split sizes add up to ", total, " but dimension ", dim,
                 " has ", input[dim]);
  std::vector<Shape> results;
  for (int64_t size : sizes) {
    Shape piece = input.vec();
    piece[dim] = size;
    results.push_back(std::move(piece));
  }
  return results;
}

StatusOr<Shape> inferPad(DimsRef input, DimsRef low, DimsRef high,
                         DimsRef interior) {
  const int64_t rank = input.rank();
  if (low.rank() != rank || high.rank() != rank || interior.rank() != rank)
    return error("low, high and interior need ", rank, " entries each");
  Shape result;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0 || interior[d] < 0)
      return error("padding amounts must be non-negative");
    const int64_t size = input[d];
    if (isDynamic(size)) {
      result.push_back(kDynamic);
      continue;
    }
    const std::string what = "padded size of dimension " + std::to_string(d);
    DISTIR_ASSIGN_OR_RETURN(
        int64_t gaps,
        checkedMul(std::max<int64_t>(size - 1, 0), interior[d], what));
    DISTIR_ASSIGN_OR_RETURN(int64_t padded, checkedAdd(size, gaps, what));
    DISTIR_ASSIGN_OR_RETURN(padded, checkedAdd(padded, low[d], what));
    DISTIR_ASSIGN_OR_RETURN(padded, checkedAdd(padded, high[d], what));
    result.push_back(padded);
  }
  return result;
}

StatusOr<Shape> inferTake(DimsRef input, DimsRef indices, int64_t axis) {
  DISTIR_ASSIGN_OR_RETURN(int64_t dim, normalizeAxis(axis, input.rank()));
  Shape result(input.begin(), input.begin() + dim);
  result.insert(result.end(), indices.begin(), indices.end());
  result.insert(result.end(), input.begin() + dim + 1, input.end());
  return result;
}

StatusOr<Shape> inferTakeGrad(DimsRef grad, DimsRef indices, int64_t axis,
                              int64_t dimSize, const OperandNamer &name) {
  const int64_t inputRank = grad.rank() - indices.rank() + 1;
  if (inputRank < 1)
    return error("gradient rank ", grad.rank(),
                 " is too small for indices of rank ", indices.rank());
  DISTIR_ASSIGN_OR_RETURN(int64_t dim, normalizeAxis(axis, inputRank));
  if (dimSize <= 0)
    return error("dim_size must be positive");
  if (!areCompatibleShapes(grad.slice(dim, indices.size()), indices))
    return error("gradient ", nameOf(name, 0, grad),
                 " does not hold indices of shape ", nameOf(name, 1, indices));
  Shape result(grad.begin(), grad.begin() + dim);
  result.push_back(dimSize);
  result.insert(result.end(), grad.begin() + dim + indices.rank(), grad.end());
  return result;
}

StatusOr<AttentionShape> inferAttention(DimsRef query, DimsRef key,
                                        DimsRef value,
                                        const OperandNamer &name) {
  DimsRef operands[] = {query, key, value};
  for (size_t i = 0; i < 3; ++i)
    if (operands[i].rank() != 4)
      return error("operand ", nameOf(name, i, operands[i]),
                   " must be [batch, heads, sequence, head dim]");
  for (size_t i = 1; i < 3; ++i)
    if (!areCompatibleShapes(operands[i].slice(0, 2), query.slice(0, 2)))
      return error("operand ", nameOf(name, i, operands[i]),
                   " has other batch or head dimensions than the query ",
                   nameOf(name, 0, query));
  if (!areCompatibleShapes(key.slice(3, 1), query.slice(3, 1)))
    return error("key ", nameOf(name, 1, key),
                 " has another head dimension than the query ",
                 nameOf(name, 0, query));
  if (!areCompatibleShapes(value.slice(2, 1), key.slice(2, 1)))
    return error("value ", nameOf(name, 2, value),
                 " has another sequence length than the key ",
                 nameOf(name, 1, key));
  AttentionShape shape;
  shape.result = {query[0], query[1], query[2], value[3]};
  shape.logsumexp = {query[0], query[1], query[2]};
  shape.probs = {query[0], query[1], query[2], key[2]};
  return shape;
}

StatusOr<AttentionShape> inferAttentionGrad(DimsRef query, DimsRef key,
                                            DimsRef value, DimsRef output,
                                            DimsRef logsumexp, DimsRef grad,
                                            const OperandNamer &name) {
  DISTIR_ASSIGN_OR_RETURN(AttentionShape shape,
                          inferAttention(query, key, value, name));
  if (!areCompatibleShapes(output, shape.result))
    return error("output ", nameOf(name, 3, output),
                 " is not the forward's result ", formatDims(shape.result));
  if (!areCompatibleShapes(logsumexp, shape.logsumexp))
    return error("logsumexp ", nameOf(name, 4, logsumexp),
                 " is not the forward's ", formatDims(shape.logsumexp));
  if (!areCompatibleShapes(grad, shape.result))
    return error("gradient ", nameOf(name, 5, grad),
                 " is not the forward's result ", formatDims(shape.result));
  return shape;
}

StatusOr<Shape> inferExpand(DimsRef input, DimsRef shape) {
  for (int64_t dim : shape)
    if (dim < 0)
      return error("shape entries must be non-negative, got ", dim);
  return broadcastShapes(input, shape);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

StatusOr<Shape> inferReduce(DimsRef input, DimsRef axes, bool keepDims) {
  std::vector<bool> reduced(input.size(), false);
  for (int64_t axis : axes) {
    DISTIR_ASSIGN_OR_RETURN(int64_t dim, normalizeAxis(axis, input.rank()));
    if (reduced[dim])
      return error("axis ", axis, " is reduced twice");
    reduced[dim] = true;
  }
  Shape result;
  for (size_t d = 0; d < input.size(); ++d) {
    if (!reduced[d])
      result.push_back(input[d]);
    else if (keepDims)
      result.push_back(1);
  }
  return result;
}

Shape dropAxis(DimsRef shape, int64_t axis) {
  Shape result = shape.vec();
  result.erase(result.begin() + normalizeVerifiedAxis(axis, shape.rank()));
  return result;
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

namespace {

/// Output size of one spatial dim; the window's attributes are valid.
StatusOr<int64_t> windowOutputSize(int64_t size, int64_t kernel, int64_t stride,
                                   int64_t padLow, int64_t padHigh,
                                   int64_t dilation, bool ceilMode, int64_t i) {
  const std::string what = "window of spatial dimension " + std::to_string(i);
  DISTIR_ASSIGN_OR_RETURN(int64_t padded, checkedAdd(size, padLow, what));
  DISTIR_ASSIGN_OR_RETURN(padded, checkedAdd(padded, padHigh, what));
  // Kernel and dilation are positive: the window covers reach + 1 elements.
  DISTIR_ASSIGN_OR_RETURN(int64_t reach,
                          checkedMul(dilation, kernel - 1, what));
  if (reach >= padded)
    return error("window of spatial dimension ", i,
                 " is larger than the padded input");
  const int64_t span = padded - reach - 1;
  int64_t out = span / stride + (ceilMode && span % stride != 0 ? 1 : 0) + 1;
  // With ceil_mode the last window must start inside the input or the
  // leading padding (ONNX and PyTorch agree on this): (out - 1) * stride <
  // size + padLow, compared by division so that nothing can wrap.
  const int64_t startLimit = size + padLow; // <= padded: no overflow.
  const int64_t firstStartOutside =
      startLimit == 0 ? 0 : (startLimit - 1) / stride + 1;
  if (ceilMode && out - 1 >= firstStartOutside)
    --out;
  return out;
}

} // namespace

StatusOr<Shape> inferWindowOutput(DimsRef input, const Window &w,
                                  const OperandNamer &name) {
  const int64_t k = input.rank() - 2;
  if (k < 1)
    return error("input must have rank >= 3 (batch, channels, spatial...), "
                 "got ",
                 nameOf(name, 0, input));
  if (w.kernel.rank() != k || w.strides.rank() != k || w.pads.rank() != 2 * k ||
      (!w.dilations.empty() && w.dilations.rank() != k))
    return error("window attributes need ", k, " entries (pads: 2x that) for ",
                 k, " spatial dimensions");
  Shape result;
  for (int64_t i = 0; i < k; ++i) {
    const int64_t dilation = w.dilations.empty() ? 1 : w.dilations[i];
    if (w.kernel[i] <= 0 || w.strides[i] <= 0 || dilation <= 0 ||
        w.pads[i] < 0 || w.pads[i + k] < 0)
      return error("kernel, strides and dilations must be positive and "
                   "pads non-negative");
    const int64_t size = input[i + 2];
    if (isDynamic(size)) {
      result.push_back(kDynamic);
      continue;
    }
    DISTIR_ASSIGN_OR_RETURN(int64_t out,
                            windowOutputSize(size, w.kernel[i], w.strides[i],
                                             w.pads[i], w.pads[i + k], dilation,
                                             w.ceilMode, i));
    result.push_back(out);
  }
  return result;
}

StatusOr<Shape> inferConv(DimsRef input, DimsRef filter, int64_t group,
                          DimsRef strides, DimsRef pads, DimsRef dilations,
                          const OperandNamer &name) {
  if (filter.size() != input.size())
    return error("filter rank ", filter.rank(), " differs from input rank ",
                 input.rank());
  if (input.size() < 3)
    return inferWindowOutput(input, Window{}, name);
  if (group <= 0)
    return error("group must be positive");
  const int64_t channels = input[1], filters = filter[0], perGroup = filter[1];
  if (!isDynamic(channels) && !isDynamic(perGroup)) {
    int64_t expected;
    if (llvm::MulOverflow(perGroup, group, expected) || channels != expected)
      return error("input has ", channels, " channels but the filter expects ",
                   perGroup, " x ", group, " groups");
  }
  if (!isDynamic(filters) && filters % group != 0)
    return error("filter count ", filters, " is not divisible by group ",
                 group);
  Window window{filter.dropFront(2), strides, pads, dilations};
  DISTIR_ASSIGN_OR_RETURN(Shape spatial,
                          inferWindowOutput(input, window, name));
  Shape result{input[0], filters};
  result.insert(result.end(), spatial.begin(), spatial.end());
  return result;
}

StatusOr<std::pair<int64_t, int64_t>>
inferSamePads(int64_t size, int64_t kernel, int64_t stride, int64_t dilation,
              bool upper) {
  if (kernel <= 0 || stride <= 0 || dilation <= 0)
    return error("kernel, strides and dilations must be positive");
  const int64_t out = static_cast<int64_t>(ceilDiv(size, stride));
  // The last window ends at (out - 1) * stride + reach + 1; what lies past
  // the input is padding. out - 1 < size / stride, so the product fits.
  const std::string what = "padding of size " + std::to_string(size);
  DISTIR_ASSIGN_OR_RETURN(int64_t reach,
                          checkedMul(kernel - 1, dilation, what));
  DISTIR_ASSIGN_OR_RETURN(int64_t extent, checkedAdd(reach, 1, what));
  DISTIR_ASSIGN_OR_RETURN(int64_t end,
                          checkedAdd((out - 1) * stride, extent, what));
  const int64_t total = std::max<int64_t>(0, end - size);
  const int64_t small = total / 2;
  const int64_t begin = upper ? small : total - small;
  return std::make_pair(begin, total - begin);
}

StatusOr<Shape> inferPool(DimsRef input, const Window &window,
                          const OperandNamer &name) {
  DISTIR_ASSIGN_OR_RETURN(Shape spatial,
                          inferWindowOutput(input, window, name));
  Shape result{input[0], input[1]};
  result.insert(result.end(), spatial.begin(), spatial.end());
  return result;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

StatusOr<int64_t> checkDim(int64_t dim, int64_t rank, const char *what) {
  if (dim < 0 || dim >= rank)
    return error(what, " ", dim, " is out of range for rank ", rank);
  return dim;
}

StatusOr<Shape> inferGathered(DimsRef input, int64_t dim, int64_t groupSize,
                              const char *what) {
  DISTIR_ASSIGN_OR_RETURN(dim, checkDim(dim, input.rank(), what));
  Shape result = input.vec();
  if (!isDynamic(result[dim])) {
    DISTIR_ASSIGN_OR_RETURN(
        result[dim], checkedMul(result[dim], groupSize,
                                "gathered dimension " + std::to_string(dim)));
  }
  return result;
}

StatusOr<Shape> inferScattered(DimsRef input, int64_t dim, int64_t groupSize,
                               const char *what) {
  DISTIR_ASSIGN_OR_RETURN(dim, checkDim(dim, input.rank(), what));
  Shape result = input.vec();
  int64_t &size = result[dim];
  if (isDynamic(size))
    return result;
  if (groupSize <= 0 || size % groupSize != 0)
    return error("dimension ", dim, " of size ", size,
                 " is not divisible by the group size ", groupSize);
  size /= groupSize;
  return result;
}

} // namespace shapes
} // namespace distir
