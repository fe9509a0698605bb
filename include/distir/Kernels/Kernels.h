//===- Kernels.h - Reference kernels of the dist ops ------------*- C++ -*-===//
//
// One free function per op of the dist dialect, over HostTensors. Semantics
// follow NumPy / ONNX / StableHLO as noted per function.
//
// Conventions shared by every kernel:
//  - Floats compute in f32 for f16/bf16/f32 operands and in f64 for f64;
//    the result is rounded to the result type (nearest even). Sums over many
//    elements (reductions, normalizations, softmax denominators, losses)
//    accumulate in f64 before that rounding, so that a program and its
//    sharded rewrite differ only by the re-association of a few partial sums.
//  - Operands of one kernel share one element type unless said otherwise.
//  - Axes may be negative (counted from the end).
//  - Invalid operands (shapes, types, attributes) return an error Status and
//    leave the results unchanged; nothing aborts.
//  - A result may alias an operand: kernels build the result aside and move
//    it in at the end.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_KERNELS_KERNELS_H
#define DISTIR_KERNELS_KERNELS_H

#include "distir/Kernels/HostTensor.h"

#include <optional>
#include <vector>

namespace distir {
namespace kernels {

using Shape = std::vector<int64_t>;
using TensorList = std::vector<const HostTensor *>;
using ResultList = std::vector<HostTensor *>;

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

/// numpy.matmul over CBLAS gemm: batch dims broadcast, a rank-1 lhs is a row
/// and a rank-1 rhs a column (the promoted dim is dropped from the result).
/// transposeA/B swap the last two dims of a rank >= 2 operand first (no
/// effect on rank-1 operands, like numpy's .T). Float types only.
Status matmul(const HostTensor &a, const HostTensor &b, bool transposeA,
              bool transposeB, HostTensor &result);

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Binary ops with multidirectional broadcasting. Floats and I64/I32
/// (integer div truncates toward zero; division by zero is an error).
Status add(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result);
Status sub(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result);
Status mul(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result);
Status div(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result);
Status pow(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result);
Status maximum(const HostTensor &lhs, const HostTensor &rhs,
               HostTensor &result);
Status minimum(const HostTensor &lhs, const HostTensor &rhs,
               HostTensor &result);
/// cond ? x : y with three-way broadcasting; cond is I1 or an integer type
/// (non-zero is true); x and y share the result type.
Status where(const HostTensor &cond, const HostTensor &x, const HostTensor &y,
             HostTensor &result);

/// Unary ops. neg and relu also accept I64/I32; the others need floats.
Status neg(const HostTensor &x, HostTensor &result);
Status exp(const HostTensor &x, HostTensor &result);
Status log(const HostTensor &x, HostTensor &result);
Status sqrt(const HostTensor &x, HostTensor &result);
Status rsqrt(const HostTensor &x, HostTensor &result);
Status erf(const HostTensor &x, HostTensor &result);
Status relu(const HostTensor &x, HostTensor &result);
Status tanh(const HostTensor &x, HostTensor &result);
Status sigmoid(const HostTensor &x, HostTensor &result);

enum class GeluApproximation { None, Tanh };
/// None: 0.5 x (1 + erf(x / sqrt 2)); Tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x +
/// 0.044715 x^3))).
Status gelu(const HostTensor &x, GeluApproximation approximation,
            HostTensor &result);

/// Inference dropout: the identity.
Status dropout(const HostTensor &x, HostTensor &result);

/// Where the elements of a local tensor lie in dropout's reference tensor:
/// local element `l` (a multi-index) is reference element `offset + l`,
/// numbered row-major in `referenceShape`.
struct DropoutPosition {
  Shape referenceShape;
  Shape offset;
};
/// Whether training dropout keeps reference element `index`: Philox-4x32-10
/// (Random123) keyed by (seed, id) at counter `index / 4`, word `index % 4`,
/// as a uniform draw u in [0, 1) with 24 bits; kept when u >= ratio.
bool isDropoutKept(uint64_t seed, uint64_t id, uint64_t index, double ratio);
/// Training dropout: `keep` (I1) by isDropoutKept at each element's
/// reference position, `result = keep ? x / (1 - ratio) : 0`.
Status dropoutTrain(const HostTensor &x, double ratio, uint64_t seed,
                    uint64_t id, const DropoutPosition &position,
                    HostTensor &result, HostTensor &keep);
/// `result = keep ? grad / (1 - ratio) : 0`.
Status dropoutGrad(const HostTensor &grad, const HostTensor &keep, double ratio,
                   HostTensor &result);
/// Fused attention over query [b, h, s_q, d], key [b, h, s_k, d] and value
/// [b, h, s_k, d_v]: softmax(scale * q k^T) (keys after the query masked when
/// causal), dropped as dropoutTrain drops it at `position` in the reference
/// probabilities, times v.
struct AttentionOptions {
  double scale = 1.0;
  bool causal = false;
  double dropoutRatio = 0.0;
  uint64_t seed = 0, id = 0;
  DropoutPosition position;
};
/// `result` [b, h, s_q, d_v] and the f32 `logsumexp` [b, h, s_q] of each row
/// of scale * q k^T over its visible keys.
Status attention(const HostTensor &q, const HostTensor &k, const HostTensor &v,
                 const AttentionOptions &options, HostTensor &result,
                 HostTensor &logsumexp);
/// The gradients of attention w.r.t. q, k and v from the result gradient,
/// recomputing the probabilities and the mask.
Status attentionGrad(const HostTensor &q, const HostTensor &k,
                     const HostTensor &v, const HostTensor &grad,
                     const AttentionOptions &options, HostTensor &gradQuery,
                     HostTensor &gradKey, HostTensor &gradValue);
/// Conversion to `type`: float -> integer truncates toward zero (saturating,
/// NaN -> 0), anything -> I1 is `!= 0`, floats round to nearest even.
Status cast(const HostTensor &x, ElementType type, HostTensor &result);

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

/// softmax(scale * x) along `axis`, stabilized by subtracting the maximum.
/// causal: over the last two dims [q, k] (rank >= 2, axis must be the last
/// dim) entries with k > q are masked: probability exactly 0.
Status softmax(const HostTensor &x, int64_t axis, bool causal, double scale,
               HostTensor &result);
Status logSoftmax(const HostTensor &x, int64_t axis, HostTensor &result);

/// ONNX LayerNormalization: normalizes over dims [axis, rank) with the biased
/// variance; scale and (optional) bias have shape x.shape[axis:].
Status layerNorm(const HostTensor &x, const HostTensor &scale,
                 const HostTensor *bias, int64_t axis, double epsilon,
                 HostTensor &result);
/// ONNX BatchNormalization in inference mode: x is [N, C, ...] and the other
/// operands are [C].
Status batchNorm(const HostTensor &x, const HostTensor &scale,
                 const HostTensor &bias, const HostTensor &mean,
                 const HostTensor &variance, double epsilon,
                 HostTensor &result);

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

/// result[i_perm[0], ...] layout: result.shape[d] = x.shape[perm[d]].
Status transpose(const HostTensor &x, const Shape &perm, HostTensor &result);
/// Same elements in the same order; the element count must match.
Status reshape(const HostTensor &x, const Shape &shape, HostTensor &result);
/// Concatenation along `axis`; all other dims must agree.
Status concat(const TensorList &inputs, int64_t axis, HostTensor &result);
/// NumPy x[start:limit:stride] per dim. Starts are non-negative and in
/// range; a positive stride needs start <= limit <= dim; a negative stride
/// needs -1 <= limit <= start < dim, where limit -1 means "past the first
/// element".
Status slice(const HostTensor &x, const Shape &starts, const Shape &limits,
             const Shape &strides, HostTensor &result);
/// Splits along `axis` into pieces of the given sizes (summing to the dim).
Status split(const HostTensor &x, int64_t axis, const Shape &sizes,
             const ResultList &results);
/// StableHLO pad with zeros: low/high edge padding and interior padding
/// between elements, all non-negative.
Status pad(const HostTensor &x, const Shape &low, const Shape &high,
           const Shape &interior, HostTensor &result);
/// numpy.take / ONNX Gather: result shape is data.shape[:axis] +
/// indices.shape + data.shape[axis+1:]; negative indices wrap once.
Status take(const HostTensor &data, const HostTensor &indices, int64_t axis,
            HostTensor &result);
/// take from one block of a table cut into equal blocks along `axis`: `data`
/// is block number `block`, so index i selects its slice
/// i - block * data.shape[axis], and indices outside the block select zeros
/// (Megatron-LM's VocabParallelEmbedding). Negative indices do not wrap.
Status takeBlock(const HostTensor &data, const HostTensor &indices,
                 int64_t axis, int64_t block, HostTensor &result);
/// ONNX OneHot of `indices` (i64 or i32) as `elementType`: the class axis of
/// `depth` inserted at `axis` (normalized, of the result's rank), 1 at class
/// `index - block * depth`, 0 elsewhere (also for indices outside the block).
Status oneHot(const HostTensor &indices, int64_t depth, int64_t axis,
              int64_t block, ElementType elementType, HostTensor &result);
/// ONNX Expand: broadcast x with `shape` (bidirectionally).
Status expand(const HostTensor &x, const Shape &shape, HostTensor &result);

//===----------------------------------------------------------------------===//
// Reductions and losses
//===----------------------------------------------------------------------===//

/// Sum / mean / maximum over `axes` (no repeats). An empty list reduces nothing
/// (the dialect's shape rule; ONNX's noop_with_empty_axes = 1): list every dim
/// to reduce them all. keepDims keeps reduced dims as size 1.
Status reduceSum(const HostTensor &x, const Shape &axes, bool keepDims,
                 HostTensor &result);
Status reduceMean(const HostTensor &x, const Shape &axes, bool keepDims,
                  HostTensor &result);
Status reduceMax(const HostTensor &x, const Shape &axes, bool keepDims,
                 HostTensor &result);

enum class LossReduction { Mean, Sum, None };
struct CrossEntropyOptions {
  int64_t classAxis = 1;
  LossReduction reduction = LossReduction::Mean;
  /// Samples with this label contribute nothing (and do not count in mean).
  std::optional<int64_t> ignoreIndex;
};
/// ONNX SoftmaxCrossEntropyLoss: loss_i = -w[l_i] log softmax(logits_i)[l_i].
/// labels (I64/I32) have the shape of logits without the class axis;
/// weights (optional) are [C]. Mean divides by the sum of the weights of the
/// non-ignored samples (their count without weights); if that is 0 the
/// result is NaN, as in ONNX and PyTorch. Result: rank-0, or labels' shape
/// for LossReduction::None.
Status crossEntropy(const HostTensor &logits, const HostTensor &labels,
                    const HostTensor *weights,
                    const CrossEntropyOptions &options, HostTensor &result);
/// mean((pred - target)^2) as a rank-0 tensor; equal shapes.
Status mseLoss(const HostTensor &pred, const HostTensor &target,
               HostTensor &result);

//===----------------------------------------------------------------------===//
// Convolution and pooling (ONNX semantics, layout N C D1 ... Dk)
//===----------------------------------------------------------------------===//

/// Empty vectors take ONNX defaults (strides/dilations 1, pads 0).
struct ConvOptions {
  Shape strides;
  Shape dilations;
  Shape padsBegin;
  Shape padsEnd;
  int64_t group = 1;
};
/// w is [M, C/group, k1..kk]; bias (optional) is [M]. im2col + gemm.
Status conv(const HostTensor &x, const HostTensor &w, const HostTensor *bias,
            const ConvOptions &options, HostTensor &result);

struct PoolOptions {
  Shape kernelShape;
  Shape strides;
  Shape dilations;
  Shape padsBegin;
  Shape padsEnd;
  /// Output size rounds up; as in PyTorch and ONNX >= 1.16, a last window
  /// that would start inside the end padding is dropped.
  bool ceilMode = false;
  /// avg_pool only: divide by the window size including the (begin/end)
  /// padding instead of by the number of real elements.
  bool countIncludePad = false;
};
Status maxPool(const HostTensor &x, const PoolOptions &options,
               HostTensor &result);
Status avgPool(const HostTensor &x, const PoolOptions &options,
               HostTensor &result);
/// Mean over every spatial dim, kept as size 1.
Status globalAvgPool(const HostTensor &x, HostTensor &result);

//===----------------------------------------------------------------------===//
// Backward helpers
//===----------------------------------------------------------------------===//

Status reluGrad(const HostTensor &dy, const HostTensor &x, HostTensor &dx);
Status geluGrad(const HostTensor &dy, const HostTensor &x,
                GeluApproximation approximation, HostTensor &dx);
/// y is tanh(x): dx = dy (1 - y^2).
Status tanhGrad(const HostTensor &dy, const HostTensor &y, HostTensor &dx);
/// y is sigmoid(x): dx = dy y (1 - y).
Status sigmoidGrad(const HostTensor &dy, const HostTensor &y, HostTensor &dx);
/// y is the softmax output (masked entries 0, so causal needs nothing more);
/// dx = scale y (dy - sum(dy y)) where `scale` is the forward's input scale.
Status softmaxGrad(const HostTensor &dy, const HostTensor &y, int64_t axis,
                   double scale, HostTensor &dx);
/// y is the log_softmax output: dx = dy - exp(y) sum(dy).
Status logSoftmaxGrad(const HostTensor &dy, const HostTensor &y, int64_t axis,
                      HostTensor &dx);
/// Gradients of layerNorm w.r.t. x, scale and bias (recomputing the
/// statistics from x).
Status layerNormGrad(const HostTensor &dy, const HostTensor &x,
                     const HostTensor &scale, int64_t axis, double epsilon,
                     HostTensor &dx, HostTensor &dscale, HostTensor &dbias);
/// Gradients of the inference batchNorm (mean and variance are constants).
Status batchNormGrad(const HostTensor &dy, const HostTensor &x,
                     const HostTensor &scale, const HostTensor &mean,
                     const HostTensor &variance, double epsilon, HostTensor &dx,
                     HostTensor &dscale, HostTensor &dbias);
/// dloss is rank-0, or labels' shape for LossReduction::None.
Status crossEntropyGrad(const HostTensor &dloss, const HostTensor &logits,
                        const HostTensor &labels, const HostTensor *weights,
                        const CrossEntropyOptions &options,
                        HostTensor &dlogits);
Status mseLossGrad(const HostTensor &dloss, const HostTensor &pred,
                   const HostTensor &target, HostTensor &dpred);
/// Scatter-add of dy into zeros of shape dy.shape[:axis] + [dimSize] +
/// dy.shape[axis + indices.rank:].
Status takeGrad(const HostTensor &dy, const HostTensor &indices, int64_t axis,
                int64_t dimSize, HostTensor &ddata);
/// takeGrad into block number `block` (of dimSize slices) of the table's
/// gradient: indices outside the block add nothing.
Status takeGradBlock(const HostTensor &dy, const HostTensor &indices,
                     int64_t axis, int64_t dimSize, int64_t block,
                     HostTensor &ddata);
Status convGradInput(const HostTensor &dy, const HostTensor &w,
                     const ConvOptions &options, const Shape &inputShape,
                     HostTensor &dx);
Status convGradFilter(const HostTensor &dy, const HostTensor &x,
                      const ConvOptions &options, const Shape &filterShape,
                      HostTensor &dw);
/// Routes each output gradient to the first maximum of its window.
Status maxPoolGrad(const HostTensor &dy, const HostTensor &x,
                   const PoolOptions &options, HostTensor &dx);
Status avgPoolGrad(const HostTensor &dy, const PoolOptions &options,
                   const Shape &inputShape, HostTensor &dx);

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

/// w - learningRate * g.
Status sgdUpdate(const HostTensor &w, const HostTensor &g, double learningRate,
                 HostTensor &newW);

struct AdamOptions {
  double learningRate = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
};
/// Adam (Kingma & Ba) with bias correction: step is a rank-0 tensor holding
/// the 1-based step number t; m' = b1 m + (1-b1) g, v' = b2 v + (1-b2) g^2,
/// w' = w - lr (m' / (1-b1^t)) / (sqrt(v' / (1-b2^t)) + eps).
Status adamUpdate(const HostTensor &w, const HostTensor &g, const HostTensor &m,
                  const HostTensor &v, const HostTensor &step,
                  const AdamOptions &options, HostTensor &newW,
                  HostTensor &newM, HostTensor &newV);

//===----------------------------------------------------------------------===//
// Collective building blocks
//===----------------------------------------------------------------------===//

enum class ReductionKind { Sum, Prod, Min, Max, Avg };
/// Elementwise reduction of equally shaped and typed tensors, combined in
/// the order given (Avg divides the sum by the count).
Status reduceTensors(const TensorList &inputs, ReductionKind kind,
                     HostTensor &result);
/// Writes `source` into `target` with its first element at `offsets`
/// (in place; source must fit and share the element type).
Status insertSlice(const HostTensor &source, const Shape &offsets,
                   HostTensor &target);
/// Splits along `axis` into `numParts` equal pieces.
Status splitEvenly(const HostTensor &x, int64_t axis, int64_t numParts,
                   const ResultList &results);

} // namespace kernels
} // namespace distir

#endif // DISTIR_KERNELS_KERNELS_H
