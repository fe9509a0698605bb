//===- ShapeRules.h - Shape rules of the dist ops over plain int64_t -*- C++
//-*-===//
//
// One definition of every shape rule of the dist dialect, as free functions
// over plain int64_t dims (as StableHLO's TypeInference.h, without MLIR): the
// ops' type inference, the sharding rules, the gradients, the ONNX importer
// and the kernels all call these, so a rule cannot drift between them.
//
// Conventions:
//  - A dim is a non-negative size or kDynamic (the value of MLIR's
//    ShapedType::kDynamic); rules propagate kDynamic where the result is not
//    known statically. The kernels only pass static shapes.
//  - Every size, offset and count is computed with checked arithmetic; a wrap
//    is an error naming the attribute, never a wrong shape.
//  - Errors are one-line messages without a location or an op name: callers
//    prefix them ('dist.pad' op ..., "pad: ...", the ONNX node).
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SHAPEINFERENCE_SHAPERULES_H
#define DISTIR_SHAPEINFERENCE_SHAPERULES_H

#include "distir/Support/Status.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace distir {
namespace shapes {

/// A dim whose size is not known statically (== mlir::ShapedType::kDynamic).
constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();
inline bool isDynamic(int64_t dim) { return dim == kDynamic; }

using Shape = std::vector<int64_t>;

/// A read-only view of dims: std::vector, llvm::ArrayRef, llvm::SmallVector or
/// anything else with contiguous data() and size(). Like ArrayRef, it does
/// not own what it points to.
class DimsRef {
public:
  DimsRef() = default;
  DimsRef(const int64_t *data, size_t size) : ptr(data), length(size) {}
  template <typename Container,
            typename = decltype(std::declval<const Container &>().data()),
            typename = decltype(std::declval<const Container &>().size())>
  DimsRef(const Container &container)
      : ptr(container.data()), length(container.size()) {}
// As llvm::ArrayRef: the list outlives the full expression that uses it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  DimsRef(std::initializer_list<int64_t> list)
      : ptr(list.begin()), length(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  const int64_t *data() const { return ptr; }
  size_t size() const { return length; }
  int64_t rank() const { return static_cast<int64_t>(length); }
  bool empty() const { return length == 0; }
  const int64_t *begin() const { return ptr; }
  const int64_t *end() const { return ptr + length; }
  int64_t operator[](size_t i) const {
    assert(i < length && "dim index out of range");
    return ptr[i];
  }
  /// The dims [begin, begin + count).
  DimsRef slice(size_t begin, size_t count) const {
    assert(begin + count <= length && "slice out of range");
    return DimsRef(ptr + begin, count);
  }
  DimsRef dropFront(size_t count) const { return slice(count, length - count); }
  DimsRef dropBack(size_t count) const { return slice(0, length - count); }
  Shape vec() const { return Shape(begin(), end()); }

private:
  const int64_t *ptr = nullptr;
  size_t length = 0;
};

/// "[2, 3]"; a dynamic dim prints as its raw value (as MLIR's diagnostics
/// print an ArrayRef of dims).
std::string formatDims(DimsRef dims);

//===----------------------------------------------------------------------===//
// Checked arithmetic and element counts
//===----------------------------------------------------------------------===//

/// a + b, or an error "<what> overflows int64".
StatusOr<int64_t> checkedAdd(int64_t a, int64_t b, const std::string &what);
/// a * b, or an error "<what> overflows int64".
StatusOr<int64_t> checkedMul(int64_t a, int64_t b, const std::string &what);
/// Elements of `shape`: kDynamic if a dim is dynamic, an error on overflow.
StatusOr<int64_t> getElementCount(DimsRef shape);

//===----------------------------------------------------------------------===//
// Axes and broadcasting
//===----------------------------------------------------------------------===//

/// Maps `axis` in [-rank, rank) to [0, rank); otherwise fails with "<what>
/// <axis> is out of range for rank <rank>".
StatusOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                const char *what = "axis");
/// normalizeAxis of an axis that a verifier has already checked.
inline int64_t normalizeVerifiedAxis(int64_t axis, int64_t rank) {
  assert(axis >= -rank && axis < rank && "axis was not verified");
  return axis < 0 ? axis + rank : axis;
}
/// A position between dims (ONNX Flatten's axis): [-rank, rank] to [0, rank].
StatusOr<int64_t> normalizePosition(int64_t axis, int64_t rank,
                                    const char *what = "axis");
/// normalizeAxis of each axis; an axis named twice fails.
StatusOr<Shape> normalizeAxes(DimsRef axes, int64_t rank);

/// MLIR's verifyCompatibleShape: same rank, and equal dims where both are
/// static.
bool areCompatibleShapes(DimsRef lhs, DimsRef rhs);

/// NumPy/ONNX multidirectional broadcasting, aligned on the right. A dynamic
/// dim broadcasts against 1 and takes the other side's static size.
StatusOr<Shape> broadcastShapes(DimsRef lhs, DimsRef rhs);

/// Describes operand `i` of a rule in an error message (for example the MLIR
/// type 'tensor<4x8xf32>'); by default its dims are printed.
using OperandNamer = std::function<std::string(size_t)>;

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

struct MatmulShape {
  Shape batch; ///< Broadcast batch dims.
  int64_t m = 0, n = 0, k = 0;
  Shape result;
};
/// dist.matmul (numpy.matmul): rank-1 operands are promoted (lhs to a row,
/// rhs to a column) and their promoted dim dropped from the result; transposed
/// operands need rank >= 2.
StatusOr<MatmulShape> inferMatmul(DimsRef lhs, DimsRef rhs, bool transposeLhs,
                                  bool transposeRhs,
                                  const OperandNamer &name = {});

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

StatusOr<Shape> inferTranspose(DimsRef input, DimsRef permutation);
/// `target` may hold one -1, inferred from the element count.
StatusOr<Shape> inferReshape(DimsRef input, DimsRef target);
/// The inputs share their rank and every dim but `axis` (not normalized).
StatusOr<Shape> inferConcat(const std::vector<DimsRef> &inputs, int64_t axis,
                            const OperandNamer &name = {});
/// StableHLO-style slice: for a positive stride start <= limit <= size; for a
/// negative one size > start >= limit >= -1 (a reverse slice).
StatusOr<Shape> inferSlice(DimsRef input, DimsRef starts, DimsRef limits,
                           DimsRef strides);
/// One shape per size; the sizes add up to dim `axis` (not normalized).
StatusOr<std::vector<Shape>> inferSplit(DimsRef input, int64_t axis,
                                        DimsRef sizes);
StatusOr<Shape> inferPad(DimsRef input, DimsRef low, DimsRef high,
                         DimsRef interior);
/// numpy.take: dim `axis` is replaced by the indices' dims.
StatusOr<Shape> inferTake(DimsRef input, DimsRef indices, int64_t axis);
/// The table gradient of take: the indices' dims in `grad` become `dimSize`.
StatusOr<Shape> inferTakeGrad(DimsRef grad, DimsRef indices, int64_t axis,
                              int64_t dimSize, const OperandNamer &name = {});
/// Fused attention over query [b, h, s_q, d], key [b, h, s_k, d] and value
/// [b, h, s_k, d_v]: the result [b, h, s_q, d_v], the per-row logsumexp
/// [b, h, s_q] and the probabilities it never stores [b, h, s_q, s_k].
struct AttentionShape {
  Shape result, logsumexp, probs;
};
StatusOr<AttentionShape> inferAttention(DimsRef query, DimsRef key,
                                        DimsRef value,
                                        const OperandNamer &name = {});
/// The gradient of fused attention also reads the forward's result and
/// logsumexp and the result gradient: checks them against the forward's
/// shapes (operands 3, 4, 5 for `name`).
StatusOr<AttentionShape> inferAttentionGrad(DimsRef query, DimsRef key,
                                            DimsRef value, DimsRef output,
                                            DimsRef logsumexp, DimsRef grad,
                                            const OperandNamer &name = {});
/// Broadcast of `input` to `shape` (ONNX Expand: either side may be 1).
StatusOr<Shape> inferExpand(DimsRef input, DimsRef shape);

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The reduced axes are dropped, or kept as size 1 with `keepDims`.
StatusOr<Shape> inferReduce(DimsRef input, DimsRef axes, bool keepDims);
/// `shape` without dim `axis` (a verified axis): the per-sample shape of a
/// loss over class dim `axis`.
Shape dropAxis(DimsRef shape, int64_t axis);

//===----------------------------------------------------------------------===//
// Convolution and pooling (N x C x spatial...)
//===----------------------------------------------------------------------===//

/// A sliding window: one entry per spatial dim (pads: all begins, then all
/// ends); empty dilations mean 1.
struct Window {
  DimsRef kernel, strides, pads, dilations;
  bool ceilMode = false;
};
/// Spatial output sizes of `window` over `input` (operand 0 for `name`).
StatusOr<Shape> inferWindowOutput(DimsRef input, const Window &window,
                                  const OperandNamer &name = {});
/// N x M x spatial output of a grouped convolution with filter M x C/group x
/// kernel (the window's kernel is the filter's spatial dims).
StatusOr<Shape> inferConv(DimsRef input, DimsRef filter, int64_t group,
                          DimsRef strides, DimsRef pads, DimsRef dilations,
                          const OperandNamer &name = {});
/// ONNX auto_pad SAME_UPPER / SAME_LOWER for one spatial dim: the pads
/// (begin, end) that give ceil(size / stride) outputs; the odd pad goes at
/// the end (upper) or the beginning (lower).
StatusOr<std::pair<int64_t, int64_t>>
inferSamePads(int64_t size, int64_t kernel, int64_t stride, int64_t dilation,
              bool upper);
/// N x C x spatial output of max/avg pooling.
StatusOr<Shape> inferPool(DimsRef input, const Window &window,
                          const OperandNamer &name = {});

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// Fails unless 0 <= dim < rank (collectives take no negative dims).
StatusOr<int64_t> checkDim(int64_t dim, int64_t rank, const char *what = "dim");
/// The shape of `groupSize` pieces of `input` concatenated along `dim`.
StatusOr<Shape> inferGathered(DimsRef input, int64_t dim, int64_t groupSize,
                              const char *what = "dim");
/// The shape of each of `groupSize` equal pieces of `input` along `dim`.
StatusOr<Shape> inferScattered(DimsRef input, int64_t dim, int64_t groupSize,
                               const char *what = "dim");

} // namespace shapes
} // namespace distir

#endif // DISTIR_SHAPEINFERENCE_SHAPERULES_H
