//===- ShapeOps.cpp - Data movement kernels -------------------------------===//
//
// These kernels move elements without arithmetic, so they work on the raw
// storage of every element type (one code path per element width).
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include <algorithm>
#include <numeric>

namespace distir {
namespace kernels {

using namespace detail;

namespace {

template <typename Word>
void gatherStridedWords(const Word *src, int64_t srcOffset,
                        const Shape &srcStrides, const Shape &outShape,
                        Word *dst) {
  const int64_t rank = static_cast<int64_t>(outShape.size());
  if (getNumElements(outShape) == 0)
    return;
  if (rank == 0) {
    dst[0] = src[srcOffset];
    return;
  }
  const int64_t inner = outShape[rank - 1];
  const int64_t innerStride = srcStrides[rank - 1];
  Shape counter(rank, 0);
  int64_t offset = srcOffset;
  while (true) {
    const Word *from = src + offset;
    if (innerStride == 1)
      std::copy(from, from + inner, dst);
    else
      for (int64_t i = 0; i < inner; ++i)
        dst[i] = from[i * innerStride];
    dst += inner;
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      offset += srcStrides[d];
      if (++counter[d] < outShape[d])
        break;
      offset -= srcStrides[d] * outShape[d];
      counter[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Fills `out` (contiguous, shape outShape) with the elements of `src` read
/// at srcOffset + sum(index[d] * srcStrides[d]) (strides may be 0 or
/// negative).
void gatherStrided(const HostTensor &src, int64_t srcOffset,
                   const Shape &srcStrides, HostTensor &out) {
  const void *from = src.getRawData();
  void *to = out.getRawData();
  switch (getElementByteWidth(src.getElementType())) {
  case 8:
    return gatherStridedWords(static_cast<const uint64_t *>(from), srcOffset,
                              srcStrides, out.getShape(),
                              static_cast<uint64_t *>(to));
  case 4:
    return gatherStridedWords(static_cast<const uint32_t *>(from), srcOffset,
                              srcStrides, out.getShape(),
                              static_cast<uint32_t *>(to));
  case 2:
    return gatherStridedWords(static_cast<const uint16_t *>(from), srcOffset,
                              srcStrides, out.getShape(),
                              static_cast<uint16_t *>(to));
  default:
    return gatherStridedWords(static_cast<const uint8_t *>(from), srcOffset,
                              srcStrides, out.getShape(),
                              static_cast<uint8_t *>(to));
  }
}

const std::byte *bytesOf(const HostTensor &tensor) {
  return static_cast<const std::byte *>(tensor.getRawData());
}
std::byte *bytesOf(HostTensor &tensor) {
  return static_cast<std::byte *>(tensor.getRawData());
}

Status checkRankedList(const char *kernel, const char *what, const Shape &list,
                       int64_t rank) {
  if (static_cast<int64_t>(list.size()) != rank)
    return kernelError(kernel, std::string(what) + " has " +
                                   std::to_string(list.size()) +
                                   " entries, expected one per dim (" +
                                   std::to_string(rank) + ")");
  return Status::success();
}

Status readIndices(const char *kernel, const HostTensor &indices,
                   std::vector<int64_t> &values) {
  const ElementType type = indices.getElementType();
  if (type != ElementType::I64 && type != ElementType::I32)
    return kernelError(kernel, std::string("indices must be i64 or i32, got ") +
                                   getElementTypeName(type));
  values.resize(static_cast<size_t>(indices.getNumElements()));
  for (int64_t i = 0, e = indices.getNumElements(); i < e; ++i)
    values[i] = type == ElementType::I64 ? indices.getData<int64_t>()[i]
                                         : indices.getData<int32_t>()[i];
  return Status::success();
}

/// Wraps negative indices once and checks the range [0, dimSize).
Status normalizeIndices(const char *kernel, std::vector<int64_t> &values,
                        int64_t dimSize) {
  for (int64_t &index : values) {
    int64_t wrapped = index < 0 ? index + dimSize : index;
    if (wrapped < 0 || wrapped >= dimSize)
      return kernelError(kernel, "index " + std::to_string(index) +
                                     " is out of range for a dim of size " +
                                     std::to_string(dimSize));
    index = wrapped;
  }
  return Status::success();
}

} // namespace

Status transpose(const HostTensor &x, const Shape &perm, HostTensor &result) {
  const char *name = "transpose";
  const int64_t rank = x.getRank();
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "permutation", perm, rank));
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return kernelError(name, "invalid permutation " + formatShape(perm) +
                                   " for rank " + std::to_string(rank));
    seen[p] = true;
  }
  Shape strides = getStrides(x.getShape());
  Shape outShape(rank), srcStrides(rank);
  for (int64_t d = 0; d < rank; ++d) {
    outShape[d] = x.getDimSize(perm[d]);
    srcStrides[d] = strides[perm[d]];
  }
  HostTensor out = HostTensor::uninitialized(x.getElementType(), outShape);
  gatherStrided(x, 0, srcStrides, out);
  result = std::move(out);
  return Status::success();
}

Status reshape(const HostTensor &x, const Shape &shape, HostTensor &result) {
  DISTIR_RETURN_IF_ERROR(checkShape(shape, x.getElementType()));
  if (getNumElements(shape) != x.getNumElements())
    return kernelError(
        "reshape", "cannot reshape " + formatShape(x.getShape()) + " into " +
                       formatShape(shape) + " (element counts differ)");
  HostTensor out(x);
  out.reshapeInPlace(shape);
  result = std::move(out);
  return Status::success();
}

Status concat(const TensorList &inputs, int64_t axis, HostTensor &result) {
  const char *name = "concat";
  if (inputs.empty())
    return kernelError(name, "no inputs");
  const HostTensor &first = *inputs[0];
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, first.getRank(), dim));
  Shape outShape = first.getShape();
  outShape[dim] = 0;
  for (const HostTensor *input : inputs) {
    if (input->getElementType() != first.getElementType())
      return kernelError(name, "inputs have different element types");
    Shape expected = first.getShape(), actual = input->getShape();
    if (actual.size() != expected.size())
      return kernelError(name, "inputs have different ranks");
    expected[dim] = actual[dim];
    if (actual != expected)
      return kernelError(name, "shapes " + formatShape(first.getShape()) +
                                   " and " + formatShape(actual) +
                                   " differ outside the concatenation axis");
    outShape[dim] += actual[dim];
  }
  HostTensor out = HostTensor::uninitialized(first.getElementType(), outShape);
  const int64_t width = getElementByteWidth(first.getElementType());
  AxisSplit outSplit = splitAtAxis(outShape, dim);
  int64_t axisOffset = 0;
  for (const HostTensor *input : inputs) {
    AxisSplit inSplit = splitAtAxis(input->getShape(), dim);
    const int64_t chunk = inSplit.axis * inSplit.inner * width;
    for (int64_t o = 0; o < inSplit.outer; ++o)
      std::memcpy(bytesOf(out) +
                      ((o * outSplit.axis + axisOffset) * outSplit.inner) *
                          width,
                  bytesOf(*input) + o * chunk, static_cast<size_t>(chunk));
    axisOffset += inSplit.axis;
  }
  result = std::move(out);
  return Status::success();
}

Status slice(const HostTensor &x, const Shape &starts, const Shape &limits,
             const Shape &strides, HostTensor &result) {
  const char *name = "slice";
  const int64_t rank = x.getRank();
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "starts", starts, rank));
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "limits", limits, rank));
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "strides", strides, rank));
  Shape dense = getStrides(x.getShape());
  Shape outShape(rank), srcStrides(rank);
  int64_t offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t size = x.getDimSize(d), start = starts[d], limit = limits[d],
                  stride = strides[d];
    const std::string where =
        " in dim " + std::to_string(d) + " (size " + std::to_string(size) + ")";
    if (stride == 0)
      return kernelError(name, "stride 0" + where);
    if (stride > 0) {
      if (start < 0 || start > limit || limit > size)
        return kernelError(name,
                           "need 0 <= start <= limit <= size, got start " +
                               std::to_string(start) + ", limit " +
                               std::to_string(limit) + where);
      outShape[d] = (limit - start + stride - 1) / stride;
    } else {
      if (limit < -1 || limit > start || (start >= size && start != limit))
        return kernelError(name, "with a negative stride need -1 <= limit <= "
                                 "start < size, got start " +
                                     std::to_string(start) + ", limit " +
                                     std::to_string(limit) + where);
      outShape[d] = (start - limit + (-stride) - 1) / (-stride);
    }
    if (outShape[d] > 0)
      offset += start * dense[d];
    srcStrides[d] = stride * dense[d];
  }
  HostTensor out = HostTensor::uninitialized(x.getElementType(), outShape);
  gatherStrided(x, offset, srcStrides, out);
  result = std::move(out);
  return Status::success();
}

Status split(const HostTensor &x, int64_t axis, const Shape &sizes,
             const ResultList &results) {
  const char *name = "split";
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, x.getRank(), dim));
  if (sizes.size() != results.size())
    return kernelError(name, std::to_string(sizes.size()) + " sizes for " +
                                 std::to_string(results.size()) + " results");
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0)
      return kernelError(name, "negative split size " + std::to_string(size));
    total += size;
  }
  if (total != x.getDimSize(dim))
    return kernelError(name, "sizes " + formatShape(sizes) +
                                 " do not add up to dim " +
                                 std::to_string(dim) + " of size " +
                                 std::to_string(x.getDimSize(dim)));
  const int64_t width = getElementByteWidth(x.getElementType());
  AxisSplit inSplit = splitAtAxis(x.getShape(), dim);
  std::vector<HostTensor> pieces;
  int64_t axisOffset = 0;
  for (int64_t size : sizes) {
    Shape shape = x.getShape();
    shape[dim] = size;
    HostTensor piece = HostTensor::uninitialized(x.getElementType(), shape);
    const int64_t chunk = size * inSplit.inner * width;
    for (int64_t o = 0; o < inSplit.outer; ++o)
      std::memcpy(bytesOf(piece) + o * chunk,
                  bytesOf(x) +
                      ((o * inSplit.axis + axisOffset) * inSplit.inner) * width,
                  static_cast<size_t>(chunk));
    axisOffset += size;
    pieces.push_back(std::move(piece));
  }
  for (size_t i = 0; i < pieces.size(); ++i)
    *results[i] = std::move(pieces[i]);
  return Status::success();
}

Status splitEvenly(const HostTensor &x, int64_t axis, int64_t numParts,
                   const ResultList &results) {
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis("split", axis, x.getRank(), dim));
  if (numParts <= 0 || x.getDimSize(dim) % numParts != 0)
    return kernelError("split", "dim " + std::to_string(dim) + " of size " +
                                    std::to_string(x.getDimSize(dim)) +
                                    " does not split into " +
                                    std::to_string(numParts) + " equal parts");
  return split(x, dim, Shape(numParts, x.getDimSize(dim) / numParts), results);
}

Status insertSlice(const HostTensor &source, const Shape &offsets,
                   HostTensor &target) {
  const char *name = "insert_slice";
  const int64_t rank = target.getRank();
  if (source.getElementType() != target.getElementType() ||
      source.getRank() != rank)
    return kernelError(name,
                       "source and target differ in element type or rank");
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "offsets", offsets, rank));
  for (int64_t d = 0; d < rank; ++d)
    if (offsets[d] < 0 ||
        offsets[d] + source.getDimSize(d) > target.getDimSize(d))
      return kernelError(name, "block " + formatShape(source.getShape()) +
                                   " at " + formatShape(offsets) +
                                   " does not fit in " +
                                   formatShape(target.getShape()));
  if (source.getNumElements() == 0)
    return Status::success();
  const int64_t width = getElementByteWidth(target.getElementType());
  const Shape targetStrides = getStrides(target.getShape());
  const int64_t row = rank == 0 ? 1 : source.getDimSize(rank - 1);
  const int64_t numRows = source.getNumElements() / row;
  Shape counter(std::max<int64_t>(rank - 1, 0), 0);
  for (int64_t r = 0; r < numRows; ++r) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset +=
          (offsets[d] + (d < rank - 1 ? counter[d] : 0)) * targetStrides[d];
    std::memcpy(bytesOf(target) + offset * width,
                bytesOf(source) + r * row * width,
                static_cast<size_t>(row * width));
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++counter[d] < source.getDimSize(d))
        break;
      counter[d] = 0;
    }
  }
  return Status::success();
}

Status pad(const HostTensor &x, const Shape &low, const Shape &high,
           const Shape &interior, HostTensor &result) {
  const char *name = "pad";
  const int64_t rank = x.getRank();
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "low", low, rank));
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "high", high, rank));
  DISTIR_RETURN_IF_ERROR(checkRankedList(name, "interior", interior, rank));
  Shape outShape(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0 || interior[d] < 0)
      return kernelError(name, "padding must be non-negative (dim " +
                                   std::to_string(d) + ")");
    const int64_t size = x.getDimSize(d);
    outShape[d] =
        low[d] + high[d] + size + (size > 0 ? (size - 1) * interior[d] : 0);
  }
  DISTIR_RETURN_IF_ERROR(checkShape(outShape, x.getElementType()));
  HostTensor out(x.getElementType(), outShape);
  if (x.getNumElements() > 0) {
    // Walk the input; each element lands at low + i * (interior + 1).
    const int64_t width = getElementByteWidth(x.getElementType());
    Shape outStrides = getStrides(outShape);
    Shape counter(rank, 0);
    for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d)
        offset += (low[d] + counter[d] * (interior[d] + 1)) * outStrides[d];
      std::memcpy(bytesOf(out) + offset * width, bytesOf(x) + i * width, width);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++counter[d] < x.getDimSize(d))
          break;
        counter[d] = 0;
      }
    }
  }
  result = std::move(out);
  return Status::success();
}

namespace {

/// Positions into a block of `dimSize` slices that starts at global index
/// `start`: an index outside [start, start + dimSize) becomes -1 (a zero
/// slice). Negative indices do not wrap: they address the whole table.
void localizeToBlock(std::vector<int64_t> &positions, int64_t start,
                     int64_t dimSize) {
  for (int64_t &index : positions) {
    int64_t local = index - start;
    index = local >= 0 && local < dimSize ? local : -1;
  }
}

/// The gather of take: slice positions[j] of `data` along `dim`, or zeros
/// where the position is -1.
Status gatherSlices(const HostTensor &data, const HostTensor &indices,
                    int64_t dim, const std::vector<int64_t> &positions,
                    HostTensor &result) {
  Shape outShape(data.getShape().begin(), data.getShape().begin() + dim);
  outShape.insert(outShape.end(), indices.getShape().begin(),
                  indices.getShape().end());
  outShape.insert(outShape.end(), data.getShape().begin() + dim + 1,
                  data.getShape().end());
  HostTensor out = HostTensor::uninitialized(data.getElementType(), outShape);
  AxisSplit split = splitAtAxis(data.getShape(), dim);
  const int64_t row = split.inner * getElementByteWidth(data.getElementType());
  const int64_t count = static_cast<int64_t>(positions.size());
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t j = 0; j < count; ++j) {
      std::byte *to = bytesOf(out) + (o * count + j) * row;
      if (positions[j] < 0)
        std::memset(to, 0, static_cast<size_t>(row));
      else
        std::memcpy(to, bytesOf(data) + (o * split.axis + positions[j]) * row,
                    static_cast<size_t>(row));
    }
  result = std::move(out);
  return Status::success();
}

} // namespace

Status take(const HostTensor &data, const HostTensor &indices, int64_t axis,
            HostTensor &result) {
  const char *name = "take";
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, data.getRank(), dim));
  std::vector<int64_t> positions;
  DISTIR_RETURN_IF_ERROR(readIndices(name, indices, positions));
  DISTIR_RETURN_IF_ERROR(
      normalizeIndices(name, positions, data.getDimSize(dim)));
  return gatherSlices(data, indices, dim, positions, result);
}

Status takeBlock(const HostTensor &data, const HostTensor &indices,
                 int64_t axis, int64_t block, HostTensor &result) {
  const char *name = "take";
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, data.getRank(), dim));
  if (block < 0)
    return kernelError(name, "negative block " + std::to_string(block));
  std::vector<int64_t> positions;
  DISTIR_RETURN_IF_ERROR(readIndices(name, indices, positions));
  localizeToBlock(positions, block * data.getDimSize(dim),
                  data.getDimSize(dim));
  return gatherSlices(data, indices, dim, positions, result);
}

Status oneHot(const HostTensor &indices, int64_t depth, int64_t axis,
              int64_t block, ElementType elementType, HostTensor &result) {
  const char *name = "one_hot";
  if (depth < 0)
    return kernelError(name, "negative depth " + std::to_string(depth));
  int64_t dim;
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, indices.getRank() + 1, dim));
  std::vector<int64_t> positions;
  DISTIR_RETURN_IF_ERROR(readIndices(name, indices, positions));
  localizeToBlock(positions, block * depth, depth);
  Shape outShape = indices.getShape();
  outShape.insert(outShape.begin() + dim, depth);
  // The indices split at `dim` into [outer, inner]; the class axis between.
  AxisSplit split = splitAtAxis(outShape, dim);
  std::vector<double> values(
      static_cast<size_t>(split.outer * depth * split.inner), 0.0);
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t i = 0; i < split.inner; ++i) {
      int64_t position = positions[o * split.inner + i];
      if (position >= 0)
        values[(o * depth + position) * split.inner + i] = 1.0;
    }
  HostTensor out(elementType, outShape);
  DISTIR_RETURN_IF_ERROR(dispatchFloat(name, elementType, [&](auto) {
    storeAs(values.data(), out.getNumElements(), out, 0);
    return Status::success();
  }));
  result = std::move(out);
  return Status::success();
}

namespace {

/// The scatter-add of take_grad into zeros of `dimSize` slices along the
/// take axis; positions of -1 (outside a block) add nothing.
Status scatterAddSlices(const char *name, const HostTensor &dy,
                        const HostTensor &indices, int64_t dim, int64_t dimSize,
                        const std::vector<int64_t> &positions,
                        HostTensor &ddata) {
  const Shape &dyShape = dy.getShape();
  Shape outShape(dyShape.begin(), dyShape.begin() + dim);
  outShape.push_back(dimSize);
  outShape.insert(outShape.end(), dyShape.begin() + dim + indices.getRank(),
                  dyShape.end());
  HostTensor out(dy.getElementType(), outShape);
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, dy.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> grad(dy);
        AxisSplit split = splitAtAxis(outShape, dim);
        const int64_t count = static_cast<int64_t>(positions.size());
        // Repeated indices add up: accumulate in f64 (see Kernels.h).
        std::vector<double> sums(static_cast<size_t>(out.getNumElements()),
                                 0.0);
        for (int64_t o = 0; o < split.outer; ++o)
          for (int64_t j = 0; j < count; ++j) {
            if (positions[j] < 0)
              continue;
            const T *from = grad.data() + (o * count + j) * split.inner;
            double *to =
                sums.data() + (o * split.axis + positions[j]) * split.inner;
            for (int64_t i = 0; i < split.inner; ++i)
              to[i] += from[i];
          }
        storeAs(sums.data(), out.getNumElements(), out, 0);
        return Status::success();
      }));
  ddata = std::move(out);
  return Status::success();
}

/// Checks take_grad's operands; sets the take axis `dim` and reads the
/// indices into `positions`.
Status checkTakeGrad(const char *name, const HostTensor &dy,
                     const HostTensor &indices, int64_t axis, int64_t dimSize,
                     int64_t &dim, std::vector<int64_t> &positions) {
  const int64_t indexRank = indices.getRank();
  const int64_t dataRank = dy.getRank() - indexRank + 1;
  if (dataRank < 1)
    return kernelError(name, "dy of rank " + std::to_string(dy.getRank()) +
                                 " cannot come from indices of rank " +
                                 std::to_string(indexRank));
  DISTIR_RETURN_IF_ERROR(resolveAxis(name, axis, dataRank, dim));
  const Shape &dyShape = dy.getShape();
  if (!std::equal(indices.getShape().begin(), indices.getShape().end(),
                  dyShape.begin() + dim))
    return kernelError(name, "dy shape " + formatShape(dyShape) +
                                 " does not hold indices of shape " +
                                 formatShape(indices.getShape()) + " at dim " +
                                 std::to_string(dim));
  if (dimSize < 0)
    return kernelError(name, "negative dim size");
  return readIndices(name, indices, positions);
}

} // namespace

Status takeGrad(const HostTensor &dy, const HostTensor &indices, int64_t axis,
                int64_t dimSize, HostTensor &ddata) {
  const char *name = "take_grad";
  int64_t dim;
  std::vector<int64_t> positions;
  DISTIR_RETURN_IF_ERROR(
      checkTakeGrad(name, dy, indices, axis, dimSize, dim, positions));
  DISTIR_RETURN_IF_ERROR(normalizeIndices(name, positions, dimSize));
  return scatterAddSlices(name, dy, indices, dim, dimSize, positions, ddata);
}

Status takeGradBlock(const HostTensor &dy, const HostTensor &indices,
                     int64_t axis, int64_t dimSize, int64_t block,
                     HostTensor &ddata) {
  const char *name = "take_grad";
  if (block < 0)
    return kernelError(name, "negative block " + std::to_string(block));
  int64_t dim;
  std::vector<int64_t> positions;
  DISTIR_RETURN_IF_ERROR(
      checkTakeGrad(name, dy, indices, axis, dimSize, dim, positions));
  localizeToBlock(positions, block * dimSize, dimSize);
  return scatterAddSlices(name, dy, indices, dim, dimSize, positions, ddata);
}

Status expand(const HostTensor &x, const Shape &shape, HostTensor &result) {
  Shape outShape;
  DISTIR_RETURN_IF_ERROR(
      broadcastShapes("expand", x.getShape(), shape, outShape));
  DISTIR_RETURN_IF_ERROR(checkShape(outShape, x.getElementType()));
  HostTensor out = HostTensor::uninitialized(x.getElementType(), outShape);
  gatherStrided(x, 0, getBroadcastStrides(x.getShape(), outShape), out);
  result = std::move(out);
  return Status::success();
}

} // namespace kernels
} // namespace distir
