//===- Elementwise.cpp - Elementwise kernels and optimizer updates --------===//

#include "KernelSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace distir {
namespace kernels {

using namespace detail;

namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kSqrtTwoOverPi = 0.79788456080286535588;
constexpr double kInvSqrtTwoPi = 0.39894228040143267794;
constexpr double kGeluCubic = 0.044715;

enum class BinaryOp { Add, Sub, Mul, Div, Pow, Max, Min };

const char *getBinaryName(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "add";
  case BinaryOp::Sub:
    return "sub";
  case BinaryOp::Mul:
    return "mul";
  case BinaryOp::Div:
    return "div";
  case BinaryOp::Pow:
    return "pow";
  case BinaryOp::Max:
    return "maximum";
  case BinaryOp::Min:
    return "minimum";
  }
  return "?";
}

template <typename T> T applyFloat(BinaryOp op, T a, T b) {
  switch (op) {
  case BinaryOp::Add:
    return a + b;
  case BinaryOp::Sub:
    return a - b;
  case BinaryOp::Mul:
    return a * b;
  case BinaryOp::Div:
    return a / b;
  case BinaryOp::Pow:
    return std::pow(a, b);
  case BinaryOp::Max:
    return std::isnan(a) || a > b ? a : b;
  case BinaryOp::Min:
    return std::isnan(a) || a < b ? a : b;
  }
  return a;
}

/// Two's-complement wrap-around like the hardware, instead of signed
/// overflow's undefined behaviour.
template <typename Int> Int applyInteger(BinaryOp op, Int a, Int b) {
  using Unsigned = std::make_unsigned_t<Int>;
  switch (op) {
  case BinaryOp::Add:
    return static_cast<Int>(static_cast<Unsigned>(a) +
                            static_cast<Unsigned>(b));
  case BinaryOp::Sub:
    return static_cast<Int>(static_cast<Unsigned>(a) -
                            static_cast<Unsigned>(b));
  case BinaryOp::Mul:
    return static_cast<Int>(static_cast<Unsigned>(a) *
                            static_cast<Unsigned>(b));
  case BinaryOp::Div:
    if (a == std::numeric_limits<Int>::min() && b == -1)
      return a;
    return a / b; // The caller rejected b == 0.
  case BinaryOp::Pow: {
    // Exact integer power by squaring (wrapping); a negative exponent gives
    // the truncated real result: 1 for base 1, +-1 for base -1, else 0.
    if (b < 0)
      return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
    Unsigned base = static_cast<Unsigned>(a), power = 1;
    for (Unsigned e = static_cast<Unsigned>(b); e; e >>= 1) {
      if (e & 1)
        power *= base;
      base *= base;
    }
    return static_cast<Int>(power);
  }
  case BinaryOp::Max:
    return std::max(a, b);
  case BinaryOp::Min:
    return std::min(a, b);
  }
  return a;
}

/// The loop every binary kernel runs: one pass per broadcast run, with the
/// operation a compile-time-known functor so that the inner loops vectorize.
template <typename T, typename Fn>
void broadcastBinary(const T *lhs, const Shape &lhsShape, const T *rhs,
                     const Shape &rhsShape, T *out, const Shape &outShape,
                     Fn fn) {
  forEachBroadcastRun(outShape, {lhsShape, rhsShape},
                      [&](const BroadcastRun &run) {
                        const T *a = lhs + run.offsets[0];
                        const T *b = rhs + run.offsets[1];
                        T *o = out + run.resultOffset;
                        const int64_t n = run.length;
                        if (run.strides[0] && run.strides[1]) {
                          for (int64_t i = 0; i < n; ++i)
                            o[i] = fn(a[i], b[i]);
                        } else if (run.strides[0]) {
                          const T scalar = *b;
                          for (int64_t i = 0; i < n; ++i)
                            o[i] = fn(a[i], scalar);
                        } else if (run.strides[1]) {
                          const T scalar = *a;
                          for (int64_t i = 0; i < n; ++i)
                            o[i] = fn(scalar, b[i]);
                        } else {
                          std::fill(o, o + n, fn(*a, *b));
                        }
                      });
}

template <typename T, BinaryOp Op>
void runFloatBinary(const T *lhs, const Shape &lhsShape, const T *rhs,
                    const Shape &rhsShape, T *out, const Shape &outShape) {
  broadcastBinary(lhs, lhsShape, rhs, rhsShape, out, outShape,
                  [](T a, T b) { return applyFloat(Op, a, b); });
}

template <typename T>
void dispatchFloatBinary(BinaryOp op, const T *lhs, const Shape &lhsShape,
                         const T *rhs, const Shape &rhsShape, T *out,
                         const Shape &outShape) {
  switch (op) {
  case BinaryOp::Add:
    return runFloatBinary<T, BinaryOp::Add>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  case BinaryOp::Sub:
    return runFloatBinary<T, BinaryOp::Sub>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  case BinaryOp::Mul:
    return runFloatBinary<T, BinaryOp::Mul>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  case BinaryOp::Div:
    return runFloatBinary<T, BinaryOp::Div>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  case BinaryOp::Pow:
    return runFloatBinary<T, BinaryOp::Pow>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  case BinaryOp::Max:
    return runFloatBinary<T, BinaryOp::Max>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  case BinaryOp::Min:
    return runFloatBinary<T, BinaryOp::Min>(lhs, lhsShape, rhs, rhsShape, out,
                                            outShape);
  }
}

template <typename Int>
Status integerBinary(BinaryOp op, const HostTensor &lhs, const HostTensor &rhs,
                     HostTensor &out) {
  if (op == BinaryOp::Div) {
    const Int *divisor = rhs.getData<Int>();
    for (int64_t i = 0, e = rhs.getNumElements(); i < e; ++i)
      if (divisor[i] == 0)
        return kernelError("div", "integer division by zero");
  }
  broadcastBinary(lhs.getData<Int>(), lhs.getShape(), rhs.getData<Int>(),
                  rhs.getShape(), out.getData<Int>(), out.getShape(),
                  [op](Int a, Int b) { return applyInteger(op, a, b); });
  return Status::success();
}

Status binary(BinaryOp op, const HostTensor &lhs, const HostTensor &rhs,
              HostTensor &result) {
  const char *name = getBinaryName(op);
  if (lhs.getElementType() != rhs.getElementType())
    return kernelError(name,
                       std::string("operands have different element types (") +
                           getElementTypeName(lhs.getElementType()) + " vs " +
                           getElementTypeName(rhs.getElementType()) + ")");
  Shape shape;
  DISTIR_RETURN_IF_ERROR(
      broadcastShapes(name, lhs.getShape(), rhs.getShape(), shape));
  const ElementType type = lhs.getElementType();
  HostTensor out = HostTensor::uninitialized(type, shape);
  if (type == ElementType::I64 || type == ElementType::I32) {
    Status status = type == ElementType::I64
                        ? integerBinary<int64_t>(op, lhs, rhs, out)
                        : integerBinary<int32_t>(op, lhs, rhs, out);
    DISTIR_RETURN_IF_ERROR(status);
    result = std::move(out);
    return Status::success();
  }
  DISTIR_RETURN_IF_ERROR(dispatchFloat(name, type, [&](auto zero) {
    using T = decltype(zero);
    InputView<T> a(lhs), b(rhs);
    OutputView<T> o(out);
    dispatchFloatBinary<T>(op, a.data(), lhs.getShape(), b.data(),
                           rhs.getShape(), o.data(), shape);
    o.commit();
    return Status::success();
  }));
  result = std::move(out);
  return Status::success();
}

/// Applies fn elementwise to a float tensor (same type and shape out).
template <typename Fn>
Status floatUnary(const char *name, const HostTensor &x, HostTensor &result,
                  Fn fn) {
  HostTensor out = HostTensor::uninitialized(x.getElementType(), x.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, x.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> in(x);
        OutputView<T> o(out);
        const T *src = in.data();
        T *dst = o.data();
        for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
          dst[i] = fn(src[i]);
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

/// Applies fn(a, b) to two same-shaped float tensors.
template <typename Fn>
Status floatPairwise(const char *name, const char *lhsName,
                     const HostTensor &lhs, const char *rhsName,
                     const HostTensor &rhs, HostTensor &result, Fn fn) {
  DISTIR_RETURN_IF_ERROR(
      checkSameTypeAndShape(name, lhsName, lhs, rhsName, rhs));
  HostTensor out =
      HostTensor::uninitialized(lhs.getElementType(), lhs.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, lhs.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> a(lhs), b(rhs);
        OutputView<T> o(out);
        const T *pa = a.data();
        const T *pb = b.data();
        T *dst = o.data();
        for (int64_t i = 0, e = lhs.getNumElements(); i < e; ++i)
          dst[i] = fn(pa[i], pb[i]);
        o.commit();
        return Status::success();
      }));
  result = std::move(out);
  return Status::success();
}

template <typename Fn>
Status integerUnary(const HostTensor &x, HostTensor &result, Fn fn) {
  HostTensor out = HostTensor::uninitialized(x.getElementType(), x.getShape());
  auto apply = [&](auto *src, auto *dst) {
    for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
      dst[i] = fn(src[i]);
  };
  if (x.getElementType() == ElementType::I64)
    apply(x.getData<int64_t>(), out.getData<int64_t>());
  else
    apply(x.getData<int32_t>(), out.getData<int32_t>());
  result = std::move(out);
  return Status::success();
}

bool isWideInteger(ElementType type) {
  return type == ElementType::I64 || type == ElementType::I32;
}

template <typename T> T geluValue(T x, GeluApproximation approximation) {
  if (approximation == GeluApproximation::None)
    return T(0.5) * x * (T(1) + std::erf(x * T(kSqrtHalf)));
  T inner = T(kSqrtTwoOverPi) * (x + T(kGeluCubic) * x * x * x);
  return T(0.5) * x * (T(1) + std::tanh(inner));
}

template <typename T> T geluDerivative(T x, GeluApproximation approximation) {
  if (approximation == GeluApproximation::None)
    return T(0.5) * (T(1) + std::erf(x * T(kSqrtHalf))) +
           x * T(kInvSqrtTwoPi) * std::exp(T(-0.5) * x * x);
  T inner = T(kSqrtTwoOverPi) * (x + T(kGeluCubic) * x * x * x);
  T t = std::tanh(inner);
  T dInner = T(kSqrtTwoOverPi) * (T(1) + T(3 * kGeluCubic) * x * x);
  return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * dInner;
}

} // namespace

//===----------------------------------------------------------------------===//
// Binary and ternary
//===----------------------------------------------------------------------===//

Status add(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result) {
  return binary(BinaryOp::Add, lhs, rhs, result);
}
Status sub(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result) {
  return binary(BinaryOp::Sub, lhs, rhs, result);
}
Status mul(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result) {
  return binary(BinaryOp::Mul, lhs, rhs, result);
}
Status div(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result) {
  return binary(BinaryOp::Div, lhs, rhs, result);
}
Status pow(const HostTensor &lhs, const HostTensor &rhs, HostTensor &result) {
  return binary(BinaryOp::Pow, lhs, rhs, result);
}
Status maximum(const HostTensor &lhs, const HostTensor &rhs,
               HostTensor &result) {
  return binary(BinaryOp::Max, lhs, rhs, result);
}
Status minimum(const HostTensor &lhs, const HostTensor &rhs,
               HostTensor &result) {
  return binary(BinaryOp::Min, lhs, rhs, result);
}

Status where(const HostTensor &cond, const HostTensor &x, const HostTensor &y,
             HostTensor &result) {
  if (isFloatType(cond.getElementType()))
    return kernelError("where",
                       std::string("condition must be i1 or an integer, got ") +
                           getElementTypeName(cond.getElementType()));
  if (x.getElementType() != y.getElementType())
    return kernelError("where", "x and y have different element types");
  Shape shape;
  DISTIR_RETURN_IF_ERROR(
      broadcastShapes("where", cond.getShape(), x.getShape(), shape));
  DISTIR_RETURN_IF_ERROR(broadcastShapes("where", shape, y.getShape(), shape));

  std::vector<uint8_t> truth(cond.getNumElements());
  for (int64_t i = 0, e = cond.getNumElements(); i < e; ++i)
    truth[i] = cond.getAsDouble(i) != 0.0;
  HostTensor out(x.getElementType(), shape);
  const int64_t width = getElementByteWidth(x.getElementType());
  const auto *xBytes = static_cast<const std::byte *>(x.getRawData());
  const auto *yBytes = static_cast<const std::byte *>(y.getRawData());
  auto *outBytes = static_cast<std::byte *>(out.getRawData());
  forEachBroadcastRun(
      shape, {cond.getShape(), x.getShape(), y.getShape()},
      [&](const BroadcastRun &run) {
        for (int64_t i = 0; i < run.length; ++i) {
          bool pick = truth[run.offsets[0] + i * run.strides[0]];
          const std::byte *src =
              pick ? xBytes + (run.offsets[1] + i * run.strides[1]) * width
                   : yBytes + (run.offsets[2] + i * run.strides[2]) * width;
          std::memcpy(outBytes + (run.resultOffset + i) * width, src, width);
        }
      });
  result = std::move(out);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

Status neg(const HostTensor &x, HostTensor &result) {
  if (isWideInteger(x.getElementType()))
    return integerUnary(x, result, [](auto v) {
      using Int = decltype(v);
      return static_cast<Int>(-static_cast<std::make_unsigned_t<Int>>(v));
    });
  return floatUnary("neg", x, result, [](auto v) { return -v; });
}

Status exp(const HostTensor &x, HostTensor &result) {
  return floatUnary("exp", x, result, [](auto v) { return std::exp(v); });
}

Status log(const HostTensor &x, HostTensor &result) {
  return floatUnary("log", x, result, [](auto v) { return std::log(v); });
}

Status sqrt(const HostTensor &x, HostTensor &result) {
  return floatUnary("sqrt", x, result, [](auto v) { return std::sqrt(v); });
}

Status rsqrt(const HostTensor &x, HostTensor &result) {
  return floatUnary("rsqrt", x, result, [](auto v) {
    using T = decltype(v);
    return T(1) / std::sqrt(v);
  });
}

Status erf(const HostTensor &x, HostTensor &result) {
  return floatUnary("erf", x, result, [](auto v) { return std::erf(v); });
}

Status relu(const HostTensor &x, HostTensor &result) {
  if (isWideInteger(x.getElementType()))
    return integerUnary(x, result,
                        [](auto v) { return v > 0 ? v : decltype(v)(0); });
  // NaN propagates, as in PyTorch.
  return floatUnary("relu", x, result,
                    [](auto v) { return v < 0 ? decltype(v)(0) : v; });
}

Status tanh(const HostTensor &x, HostTensor &result) {
  return floatUnary("tanh", x, result, [](auto v) { return std::tanh(v); });
}

Status sigmoid(const HostTensor &x, HostTensor &result) {
  return floatUnary("sigmoid", x, result, [](auto v) {
    using T = decltype(v);
    return T(1) / (T(1) + std::exp(-v));
  });
}

Status gelu(const HostTensor &x, GeluApproximation approximation,
            HostTensor &result) {
  return floatUnary("gelu", x, result, [approximation](auto v) {
    return geluValue(v, approximation);
  });
}

Status dropout(const HostTensor &x, HostTensor &result) {
  result = x;
  return Status::success();
}

Status cast(const HostTensor &x, ElementType type, HostTensor &result) {
  HostTensor out(type, x.getShape());
  const int64_t n = x.getNumElements();
  const ElementType from = x.getElementType();
  if (from == type) {
    out = x;
  } else if (type == ElementType::I1) {
    for (int64_t i = 0; i < n; ++i)
      out.getData<uint8_t>()[i] = x.getAsDouble(i) != 0.0;
  } else if (isIntegerType(from) && isIntegerType(type)) {
    // Integer narrowing wraps (C semantics, like ONNX Cast); going through
    // f64 would lose int64 values above 2^53.
    for (int64_t i = 0; i < n; ++i) {
      int64_t value = from == ElementType::I64   ? x.getData<int64_t>()[i]
                      : from == ElementType::I32 ? x.getData<int32_t>()[i]
                                                 : x.getData<uint8_t>()[i];
      if (type == ElementType::I64)
        out.getData<int64_t>()[i] = value;
      else
        out.getData<int32_t>()[i] = static_cast<int32_t>(value);
    }
  } else {
    // Through f64, which holds every value of the other types exactly
    // (except int64 above 2^53, rounded once). f64 -> f16/bf16 rounds twice
    // (via f32); the result can differ from a direct rounding in the last
    // bit on exact ties only.
    std::vector<double> values(static_cast<size_t>(n));
    loadAs(x, 0, n, values.data());
    storeAs(values.data(), n, out, 0);
  }
  result = std::move(out);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Elementwise backward helpers
//===----------------------------------------------------------------------===//

Status reluGrad(const HostTensor &dy, const HostTensor &x, HostTensor &dx) {
  return floatPairwise("relu_grad", "dy", dy, "x", x, dx, [](auto g, auto v) {
    return v > 0 ? g : decltype(g)(0);
  });
}

Status geluGrad(const HostTensor &dy, const HostTensor &x,
                GeluApproximation approximation, HostTensor &dx) {
  return floatPairwise("gelu_grad", "dy", dy, "x", x, dx,
                       [approximation](auto g, auto v) {
                         return g * geluDerivative(v, approximation);
                       });
}

Status tanhGrad(const HostTensor &dy, const HostTensor &y, HostTensor &dx) {
  return floatPairwise("tanh_grad", "dy", dy, "y", y, dx, [](auto g, auto t) {
    return g * (decltype(g)(1) - t * t);
  });
}

Status sigmoidGrad(const HostTensor &dy, const HostTensor &y, HostTensor &dx) {
  return floatPairwise(
      "sigmoid_grad", "dy", dy, "y", y, dx,
      [](auto g, auto s) { return g * s * (decltype(g)(1) - s); });
}

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

Status sgdUpdate(const HostTensor &w, const HostTensor &g, double learningRate,
                 HostTensor &newW) {
  return floatPairwise("sgd_update", "w", w, "g", g, newW,
                       [learningRate](auto weight, auto grad) {
                         using T = decltype(weight);
                         return weight - static_cast<T>(learningRate) * grad;
                       });
}

Status adamUpdate(const HostTensor &w, const HostTensor &g, const HostTensor &m,
                  const HostTensor &v, const HostTensor &step,
                  const AdamOptions &options, HostTensor &newW,
                  HostTensor &newM, HostTensor &newV) {
  const char *name = "adam_update";
  DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(name, "w", w, "g", g));
  DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(name, "w", w, "m", m));
  DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(name, "w", w, "v", v));
  if (step.getNumElements() != 1)
    return kernelError(name, "step must hold one value, got shape " +
                                 formatShape(step.getShape()));
  const double t = step.getAsDouble(0);
  if (!(t >= 1.0))
    return kernelError(name,
                       "step must be >= 1 (1-based), got " + std::to_string(t));
  HostTensor w2(w.getElementType(), w.getShape());
  HostTensor m2(w.getElementType(), w.getShape());
  HostTensor v2(w.getElementType(), w.getShape());
  DISTIR_RETURN_IF_ERROR(
      dispatchFloat(name, w.getElementType(), [&](auto zero) {
        using T = decltype(zero);
        InputView<T> wIn(w), gIn(g), mIn(m), vIn(v);
        OutputView<T> wOut(w2), mOut(m2), vOut(v2);
        const T beta1 = static_cast<T>(options.beta1);
        const T beta2 = static_cast<T>(options.beta2);
        const T correction1 = static_cast<T>(1.0 - std::pow(options.beta1, t));
        const T correction2 = static_cast<T>(1.0 - std::pow(options.beta2, t));
        const T lr = static_cast<T>(options.learningRate);
        const T eps = static_cast<T>(options.epsilon);
        for (int64_t i = 0, e = w.getNumElements(); i < e; ++i) {
          T grad = gIn[i];
          T moment = beta1 * mIn[i] + (T(1) - beta1) * grad;
          T second = beta2 * vIn[i] + (T(1) - beta2) * grad * grad;
          mOut[i] = moment;
          vOut[i] = second;
          wOut[i] = wIn[i] - lr * (moment / correction1) /
                                 (std::sqrt(second / correction2) + eps);
        }
        wOut.commit();
        mOut.commit();
        vOut.commit();
        return Status::success();
      }));
  newW = std::move(w2);
  newM = std::move(m2);
  newV = std::move(v2);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

Status reduceTensors(const TensorList &inputs, ReductionKind kind,
                     HostTensor &result) {
  const char *name = "reduce";
  if (inputs.empty())
    return kernelError(name, "no tensors to reduce");
  for (const HostTensor *input : inputs)
    DISTIR_RETURN_IF_ERROR(checkSameTypeAndShape(
        name, "first tensor", *inputs[0], "another", *input));
  const ElementType type = inputs[0]->getElementType();
  const int64_t n = inputs[0]->getNumElements();
  HostTensor out(type, inputs[0]->getShape());
  // f64 holds every input exactly except int64 above 2^53; integer sums
  // that large are not a use case of the executor.
  std::vector<double> accumulator(static_cast<size_t>(n)),
      values(accumulator.size());
  loadAs(*inputs[0], 0, n, accumulator.data());
  for (size_t k = 1; k < inputs.size(); ++k) {
    loadAs(*inputs[k], 0, n, values.data());
    for (int64_t i = 0; i < n; ++i) {
      double &acc = accumulator[i];
      switch (kind) {
      case ReductionKind::Sum:
      case ReductionKind::Avg:
        acc += values[i];
        break;
      case ReductionKind::Prod:
        acc *= values[i];
        break;
      case ReductionKind::Min:
        acc = applyFloat(BinaryOp::Min, acc, values[i]);
        break;
      case ReductionKind::Max:
        acc = applyFloat(BinaryOp::Max, acc, values[i]);
        break;
      }
    }
  }
  if (kind == ReductionKind::Avg)
    for (double &acc : accumulator)
      acc /= static_cast<double>(inputs.size());
  storeAs(accumulator.data(), n, out, 0);
  result = std::move(out);
  return Status::success();
}

} // namespace kernels
} // namespace distir
