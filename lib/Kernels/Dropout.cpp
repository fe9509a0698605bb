//===- Dropout.cpp - Training dropout with counter-based masks ------------===//
//
// A mask element is a pure function of (seed, id, reference index): no
// generator state advances, so the masks of a program do not depend on the
// order in which devices, microbatches or recomputations draw them.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include <Random123/philox.h>

#include <cstdint>

namespace distir {
namespace kernels {

using namespace detail;

bool isDropoutKept(uint64_t seed, uint64_t id, uint64_t index, double ratio) {
  using Philox = r123::Philox4x32_R<10>;
  uint64_t block = index / 4;
  Philox::key_type key = {
      {static_cast<uint32_t>(seed), static_cast<uint32_t>(id)}};
  Philox::ctr_type counter = {
      {static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32),
       static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(id >> 32)}};
  Philox::ctr_type words = Philox()(counter, key);
  // 24 bits: exact in float, as curand_uniform's draws are.
  double uniform = (words.v[index % 4] >> 8) * 0x1p-24;
  return uniform >= ratio;
}

namespace {

/// The reference index of every local element of a tensor of `shape`.
/// Walks the local multi-index with a running reference offset, so a step
/// costs one add in the common case.
template <typename Fn>
Status forEachReferenceIndex(const Shape &shape,
                             const DropoutPosition &position, Fn fn) {
  const size_t rank = shape.size();
  if (position.referenceShape.size() != rank || position.offset.size() != rank)
    return kernelError("dropout_train",
                       "the reference position has another rank than the "
                       "input");
  Shape referenceStrides = getStrides(position.referenceShape);
  int64_t start = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (position.offset[d] < 0 ||
        position.offset[d] + shape[d] > position.referenceShape[d])
      return kernelError("dropout_train",
                         "the local block lies outside the reference tensor "
                         "in dimension " +
                             std::to_string(d));
    start += position.offset[d] * referenceStrides[d];
  }
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  if (count == 0)
    return Status::success();
  Shape index(rank, 0);
  int64_t reference = start;
  for (int64_t flat = 0; flat < count; ++flat) {
    fn(flat, static_cast<uint64_t>(reference));
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) {
        reference += referenceStrides[d];
        break;
      }
      reference -= (shape[d] - 1) * referenceStrides[d];
      index[d] = 0;
    }
  }
  return Status::success();
}

Status checkRatio(const char *kernel, double ratio) {
  if (!(ratio >= 0.0 && ratio < 1.0))
    return kernelError(kernel,
                       "ratio must be in [0, 1), got " + std::to_string(ratio));
  return Status::success();
}

} // namespace

/// `result = kept[i] ? x[i] / (1 - ratio) : 0`, in x's element type.
static Status applyMask(const char *kernel, const HostTensor &x,
                        const uint8_t *kept, double ratio, HostTensor &result) {
  HostTensor out = HostTensor::uninitialized(x.getElementType(), x.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(kernel, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        OutputView<T> o(out);
        const T scale = T(1) / T(1 - ratio);
        for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
          o[i] = kept[i] ? in[i] * scale : T(0);
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

Status dropoutTrain(const HostTensor &x, double ratio, uint64_t seed,
                    uint64_t id, const DropoutPosition &position,
                    HostTensor &result, HostTensor &keep) {
  DISTIR_RETURN_IF_ERROR(checkRatio("dropout_train", ratio));
  HostTensor mask(ElementType::I1, x.getShape());
  uint8_t *kept = mask.getData<uint8_t>();
  DISTIR_RETURN_IF_ERROR(forEachReferenceIndex(
      x.getShape(), position, [&](int64_t flat, uint64_t reference) {
        kept[flat] = isDropoutKept(seed, id, reference, ratio);
      }));
  DISTIR_RETURN_IF_ERROR(applyMask("dropout_train", x, kept, ratio, result));
  keep = std::move(mask);
  return Status::success();
}

Status dropoutGrad(const HostTensor &grad, const HostTensor &keep, double ratio,
                   HostTensor &result) {
  DISTIR_RETURN_IF_ERROR(checkRatio("dropout_grad", ratio));
  if (keep.getElementType() != ElementType::I1 ||
      keep.getShape() != grad.getShape())
    return kernelError("dropout_grad",
                       "the mask must be an i1 tensor of the gradient's shape");
  return applyMask("dropout_grad", grad, keep.getData<uint8_t>(), ratio,
                   result);
}

} // namespace kernels
} // namespace distir
