//===- Attention.cpp - Fused attention by the unfused chain's kernels
//------===//
//
// The reference of dist.attention computes what the unfused chain computes
// (matmul -> causal scaled softmax -> training dropout -> matmul, and their
// gradients) with the same kernels, so a program with fused attention runs
// to the values of its unfused twin. The [s_q, s_k] probabilities exist here
// only inside one kernel call, as in a FlashAttention kernel's tiles.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace distir {
namespace kernels {

using namespace detail;

namespace {

Status checkOperands(const char *kernel, const HostTensor &q,
                     const HostTensor &k, const HostTensor &v) {
  StatusOr<shapes::AttentionShape> shape =
      shapes::inferAttention(q.getShape(), k.getShape(), v.getShape());
  if (!shape.ok())
    return kernelError(kernel, shape.message());
  if (k.getElementType() != q.getElementType() ||
      v.getElementType() != q.getElementType())
    return kernelError(kernel, "query, key and value must have one element "
                               "type");
  return Status::success();
}

/// Per row of `scores` [b, h, s_q, s_k]: log(sum(exp(scale * x))) over the
/// row's visible keys, in f32 (what FlashAttention stores for backward).
Status logSumExp(const HostTensor &scores, const AttentionOptions &options,
                 HostTensor &result) {
  const Shape &shape = scores.getShape();
  HostTensor out(ElementType::F32, {shape[0], shape[1], shape[2]});
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat("attention", scores.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(scores);
        const int64_t queries = shape[2], keys = shape[3];
        float *o = out.getData<float>();
        for (int64_t row = 0, e = out.getNumElements(); row < e; ++row) {
          const int64_t visible =
              options.causal ? std::min(keys, row % queries + 1) : keys;
          const T *x = in.data() + row * keys;
          double maxValue = -std::numeric_limits<double>::infinity();
          for (int64_t j = 0; j < visible; ++j)
            maxValue = std::max(maxValue, options.scale * x[j]);
          double sum = 0.0;
          for (int64_t j = 0; j < visible; ++j)
            sum += std::exp(options.scale * x[j] - maxValue);
          o[row] = static_cast<float>(maxValue + std::log(sum));
        }
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

/// The probabilities as the unfused chain has them after dropout, and the
/// softmax output and mask that backward reads.
struct Probabilities {
  HostTensor scores, softmax, dropped, keep;
};

Status computeProbabilities(const HostTensor &q, const HostTensor &k,
                            const AttentionOptions &options,
                            Probabilities &probs) {
  DISTIR_RETURN_IF_ERROR(matmul(q, k, /*transposeA=*/false,
                                /*transposeB=*/true, probs.scores));
  DISTIR_RETURN_IF_ERROR(softmax(probs.scores, /*axis=*/-1, options.causal,
                                 options.scale, probs.softmax));
  if (options.dropoutRatio == 0.0) {
    probs.dropped = probs.softmax;
    return Status::success();
  }
  return dropoutTrain(probs.softmax, options.dropoutRatio, options.seed,
                      options.id, options.position, probs.dropped, probs.keep);
}

} // namespace

Status attention(const HostTensor &q, const HostTensor &k, const HostTensor &v,
                 const AttentionOptions &options, HostTensor &result,
                 HostTensor &logsumexp) {
  DISTIR_RETURN_IF_ERROR(checkOperands("attention", q, k, v));
  Probabilities probs;
  DISTIR_RETURN_IF_ERROR(computeProbabilities(q, k, options, probs));
  DISTIR_RETURN_IF_ERROR(logSumExp(probs.scores, options, logsumexp));
  return matmul(probs.dropped, v, /*transposeA=*/false, /*transposeB=*/false,
                result);
}

Status attentionGrad(const HostTensor &q, const HostTensor &k,
                     const HostTensor &v, const HostTensor &grad,
                     const AttentionOptions &options, HostTensor &gradQuery,
                     HostTensor &gradKey, HostTensor &gradValue) {
  DISTIR_RETURN_IF_ERROR(checkOperands("attention_grad", q, k, v));
  Probabilities probs;
  DISTIR_RETURN_IF_ERROR(computeProbabilities(q, k, options, probs));
  // The unfused chain's gradients, in dist-autodiff's order: context =
  // dropped v, then dropout, softmax and scores = q k^T.
  DISTIR_RETURN_IF_ERROR(matmul(probs.dropped, grad, /*transposeA=*/true,
                                /*transposeB=*/false, gradValue));
  HostTensor gradDropped, gradProbs, gradScores;
  DISTIR_RETURN_IF_ERROR(matmul(grad, v, /*transposeA=*/false,
                                /*transposeB=*/true, gradDropped));
  if (options.dropoutRatio == 0.0)
    gradProbs = std::move(gradDropped);
  else
    DISTIR_RETURN_IF_ERROR(
        dropoutGrad(gradDropped, probs.keep, options.dropoutRatio, gradProbs));
  DISTIR_RETURN_IF_ERROR(softmaxGrad(gradProbs, probs.softmax, /*axis=*/-1,
                                     options.scale, gradScores));
  DISTIR_RETURN_IF_ERROR(matmul(gradScores, k, /*transposeA=*/false,
                                /*transposeB=*/false, gradQuery));
  return matmul(gradScores, q, /*transposeA=*/true, /*transposeB=*/false,
                gradKey);
}

} // namespace kernels
} // namespace distir
