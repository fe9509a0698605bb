//===- HostTensor.h - A dense tensor in host memory -------------*- C++ -*-===//
//
// The buffer type of the reference executor: a row-major (C order) dense
// tensor whose storage holds the element type itself, so that f16/bf16 values
// are rounded exactly as a device would store them. Kernels compute in f32
// (f64 for f64 tensors) and round when they store.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_KERNELS_HOSTTENSOR_H
#define DISTIR_KERNELS_HOSTTENSOR_H

#include "distir/Support/Status.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distir {

enum class ElementType : uint8_t { F64, F32, F16, BF16, I64, I32, I1 };

/// Bytes one element occupies in storage (I1 uses one byte holding 0 or 1).
int64_t getElementByteWidth(ElementType type);
/// MLIR spelling of the type: "f32", "bf16", "i1", ...
const char *getElementTypeName(ElementType type);
/// Inverse of getElementTypeName.
std::optional<ElementType> parseElementType(std::string_view name);
bool isFloatType(ElementType type);
bool isIntegerType(ElementType type); // I64, I32 and I1.

/// IEEE binary16 <-> binary32, round to nearest even on narrowing. The
/// algorithm is the branch-free one of the FP16 library (M. Dukhan), which
/// lets the FPU do the rounding, including subnormals, inf and NaN.
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
/// bfloat16 <-> binary32; narrowing rounds to nearest even and keeps NaN a
/// (quiet) NaN, as TensorFlow and PyTorch do.
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBfloat16(float value);

/// Number of elements of a shape. Fails on a negative dimension or when the
/// element count or the byte size of `type` would overflow int64.
Status checkShape(const std::vector<int64_t> &shape, ElementType type);
int64_t getNumElements(const std::vector<int64_t> &shape);
std::string formatShape(const std::vector<int64_t> &shape); // "[2, 3]"

/// Result of comparing two tensors of the same shape element by element.
struct TensorDifference {
  double maxAbsErr = 0.0;
  /// max |a-b| / |b| over elements with b != 0 (b is the reference).
  double maxRelErr = 0.0;
  /// Elements violating |a - b| <= atol + rtol * |b| (numpy.allclose), NaN
  /// against non-NaN and differing infinities included; NaN matches NaN.
  int64_t numMismatches = 0;
};

class HostTensor {
public:
  /// A rank-0 f32 tensor holding 0.
  HostTensor();
  /// A zero-filled tensor. The shape must pass checkShape.
  HostTensor(ElementType type, std::vector<int64_t> shape);
  /// A tensor whose contents are unspecified, for results that are about to
  /// be overwritten entirely: skipping the zero fill spares a pass over
  /// memory (and its page faults) per op.
  static HostTensor uninitialized(ElementType type, std::vector<int64_t> shape);
  HostTensor(const HostTensor &other);
  HostTensor(HostTensor &&other) noexcept = default;
  HostTensor &operator=(const HostTensor &other);
  HostTensor &operator=(HostTensor &&other) noexcept = default;
  ~HostTensor() = default;

  /// A tensor from values given in f64; each value is rounded to `type`
  /// (floats round to nearest even, integers truncate toward zero).
  static HostTensor fromValues(ElementType type, std::vector<int64_t> shape,
                               const std::vector<double> &values);

  /// Deterministic pseudo-random contents: the same (name, shape, type,
  /// seed) always give the same values, on every platform. Element i is
  /// SplitMix64 of a key hashed from name, shape, type and seed, plus i.
  /// Floats are uniform on a grid in [-1, 1) fine enough for the type and
  /// exactly representable in it. Integers are uniform in [0, upperBound);
  /// upperBound <= 0 means the type's non-negative range. I1 is 0 or 1.
  static HostTensor random(std::string_view name,
                           const std::vector<int64_t> &shape, ElementType type,
                           uint64_t seed, int64_t upperBound = 0);

  ElementType getElementType() const { return type; }
  const std::vector<int64_t> &getShape() const { return shape; }
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  int64_t getDimSize(int64_t dim) const { return shape[dim]; }
  int64_t getNumElements() const { return numElements; }
  int64_t getByteSize() const {
    return numElements * getElementByteWidth(type);
  }

  void *getRawData() { return storage.get(); }
  const void *getRawData() const { return storage.get(); }
  /// Typed storage pointer. T must match the storage: double (F64),
  /// float (F32), uint16_t (F16, BF16), int64_t, int32_t, uint8_t (I1).
  template <typename T> T *getData() {
    return reinterpret_cast<T *>(storage.get());
  }
  template <typename T> const T *getData() const {
    return reinterpret_cast<const T *>(storage.get());
  }

  /// Element access by flat row-major index, converting through f64. Meant
  /// for tests, printing and small scalars, not for kernels' inner loops.
  double getAsDouble(int64_t index) const;
  void setFromDouble(int64_t index, double value);
  float getAsFloat(int64_t index) const {
    return static_cast<float>(getAsDouble(index));
  }

  /// Sets every element to `value` rounded to the element type.
  void fill(double value);
  /// Same data, new shape of the same element count (the caller checks).
  void reshapeInPlace(std::vector<int64_t> newShape);

  /// Same type, shape and bytes (NaNs with equal payload compare equal).
  bool isBitwiseEqual(const HostTensor &other) const;

private:
  struct AlignedDelete {
    void operator()(std::byte *ptr) const;
  };
  void allocate();

  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  int64_t numElements = 1;
  std::unique_ptr<std::byte[], AlignedDelete> storage;
};

/// Compares `actual` with `reference` element by element in f64; fails if
/// element types or shapes differ.
Status compareTensors(const HostTensor &actual, const HostTensor &reference,
                      double rtol, double atol, TensorDifference &difference);

} // namespace distir

#endif // DISTIR_KERNELS_HOSTTENSOR_H
