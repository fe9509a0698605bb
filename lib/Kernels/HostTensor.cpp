//===- HostTensor.cpp - A dense tensor in host memory ---------------------===//

#include "distir/Kernels/HostTensor.h"
#include "distir/ShapeInference/ShapeRules.h"

#include <cmath>
#include <limits>
#include <new>

namespace distir {

namespace {
constexpr std::align_val_t kStorageAlignment{64};

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint64_t splitMix64(uint64_t state) {
  uint64_t z = state + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t mixInto(uint64_t hash, uint64_t value) {
  return splitMix64(hash ^ splitMix64(value));
}

/// Significand bits of the float types: random floats are drawn on a grid
/// that the type represents exactly.
int significandBits(ElementType type) {
  switch (type) {
  case ElementType::F64:
    return 53;
  case ElementType::F32:
    return 24;
  case ElementType::F16:
    return 11;
  case ElementType::BF16:
    return 8;
  default:
    return 0;
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

int64_t getElementByteWidth(ElementType type) {
  switch (type) {
  case ElementType::F64:
  case ElementType::I64:
    return 8;
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::I1:
    return 1;
  }
  return 1;
}

const char *getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F64:
    return "f64";
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::I64:
    return "i64";
  case ElementType::I32:
    return "i32";
  case ElementType::I1:
    return "i1";
  }
  return "?";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (ElementType type :
       {ElementType::F64, ElementType::F32, ElementType::F16, ElementType::BF16,
        ElementType::I64, ElementType::I32, ElementType::I1})
    if (name == getElementTypeName(type))
      return type;
  return std::nullopt;
}

bool isFloatType(ElementType type) {
  return type == ElementType::F64 || type == ElementType::F32 ||
         type == ElementType::F16 || type == ElementType::BF16;
}

bool isIntegerType(ElementType type) { return !isFloatType(type); }

//===----------------------------------------------------------------------===//
// Narrow float conversions
//===----------------------------------------------------------------------===//

float halfToFloat(uint16_t bits) {
  const uint32_t word = static_cast<uint32_t>(bits) << 16;
  const uint32_t sign = word & 0x80000000u;
  const uint32_t twoWord = word + word;
  // Normal numbers: move exponent and mantissa into place, then rescale the
  // exponent bias with one multiplication (which also maps inf/NaN).
  const uint32_t exponentOffset = 0xE0u << 23;
  const float normalized =
      floatFromBits((twoWord >> 4) + exponentOffset) * 0x1.0p-112f;
  // Subnormals: place the mantissa under a 0.5 exponent and subtract 0.5.
  const uint32_t magicMask = 126u << 23;
  const float denormalized = floatFromBits((twoWord >> 17) | magicMask) - 0.5f;
  const uint32_t denormalizedCutoff = 1u << 27;
  const uint32_t result =
      sign | (twoWord < denormalizedCutoff ? floatBits(denormalized)
                                           : floatBits(normalized));
  return floatFromBits(result);
}

uint16_t floatToHalf(float value) {
  // Scaling up then down makes the FPU round the mantissa to the binary16
  // precision at this exponent (nearest even), overflowing to inf exactly
  // where binary16 does.
  float base = (std::fabs(value) * 0x1.0p+112f) * 0x1.0p-110f;
  const uint32_t word = floatBits(value);
  const uint32_t shiftedWord = word + word;
  const uint32_t sign = word & 0x80000000u;
  uint32_t bias = shiftedWord & 0xFF000000u;
  if (bias < 0x71000000u)
    bias = 0x71000000u;
  base = floatFromBits((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = floatBits(base);
  const uint32_t exponentBits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissaBits = bits & 0x00000FFFu;
  const uint32_t nonSign = exponentBits + mantissaBits;
  return static_cast<uint16_t>((sign >> 16) |
                               (shiftedWord > 0xFF000000u ? 0x7E00u : nonSign));
}

float bfloat16ToFloat(uint16_t bits) {
  return floatFromBits(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBfloat16(float value) {
  uint32_t bits = floatBits(value);
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Status checkShape(const std::vector<int64_t> &shape, ElementType type) {
  for (int64_t dim : shape)
    if (dim < 0)
      return Status::error("negative dimension in shape " + formatShape(shape));
  StatusOr<int64_t> count = shapes::getElementCount(shape);
  if (!count.ok())
    return count.status();
  if (*count > std::numeric_limits<int64_t>::max() / getElementByteWidth(type))
    return Status::error("byte size of shape " + formatShape(shape) +
                         " overflows int64");
  return Status::success();
}

int64_t getNumElements(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

std::string formatShape(const std::vector<int64_t> &shape) {
  return shapes::formatDims(shape);
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

void HostTensor::AlignedDelete::operator()(std::byte *ptr) const {
  ::operator delete[](ptr, kStorageAlignment);
}

void HostTensor::allocate() {
  numElements = ::distir::getNumElements(shape);
  // At least one byte so that getRawData() is never null.
  size_t bytes = static_cast<size_t>(std::max<int64_t>(getByteSize(), 1));
  storage.reset(
      static_cast<std::byte *>(::operator new[](bytes, kStorageAlignment)));
}

HostTensor::HostTensor() : HostTensor(ElementType::F32, {}) {}

HostTensor::HostTensor(ElementType type, std::vector<int64_t> shape)
    : type(type), shape(std::move(shape)) {
  allocate();
  std::memset(storage.get(), 0, static_cast<size_t>(getByteSize()));
}

HostTensor HostTensor::uninitialized(ElementType type,
                                     std::vector<int64_t> shape) {
  HostTensor tensor;
  tensor.type = type;
  tensor.shape = std::move(shape);
  tensor.allocate();
  return tensor;
}

HostTensor::HostTensor(const HostTensor &other)
    : type(other.type), shape(other.shape) {
  allocate();
  std::memcpy(storage.get(), other.storage.get(),
              static_cast<size_t>(getByteSize()));
}

HostTensor &HostTensor::operator=(const HostTensor &other) {
  if (this != &other)
    *this = HostTensor(other);
  return *this;
}

HostTensor HostTensor::fromValues(ElementType type, std::vector<int64_t> shape,
                                  const std::vector<double> &values) {
  HostTensor tensor(type, std::move(shape));
  int64_t count = std::min<int64_t>(tensor.getNumElements(),
                                    static_cast<int64_t>(values.size()));
  for (int64_t i = 0; i < count; ++i)
    tensor.setFromDouble(i, values[i]);
  return tensor;
}

HostTensor HostTensor::random(std::string_view name,
                              const std::vector<int64_t> &shape,
                              ElementType type, uint64_t seed,
                              int64_t upperBound) {
  // FNV-1a over the name, then every other part of the identity.
  uint64_t key = 0xCBF29CE484222325ULL;
  for (char c : name) {
    key ^= static_cast<unsigned char>(c);
    key *= 0x100000001B3ULL;
  }
  key = mixInto(key, seed);
  key = mixInto(key, static_cast<uint64_t>(type));
  key = mixInto(key, shape.size());
  for (int64_t dim : shape)
    key = mixInto(key, static_cast<uint64_t>(dim));

  HostTensor tensor(type, shape);
  const int64_t count = tensor.getNumElements();
  auto draw = [&](int64_t i) {
    return splitMix64(key + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ULL);
  };
  if (isFloatType(type)) {
    const int bits = significandBits(type);
    const double step = std::ldexp(1.0, -(bits - 1));
    for (int64_t i = 0; i < count; ++i)
      tensor.setFromDouble(
          i, static_cast<double>(draw(i) >> (64 - bits)) * step - 1.0);
    return tensor;
  }
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = draw(i);
    uint64_t value;
    if (type == ElementType::I1)
      value = bits >> 63;
    else if (upperBound > 0)
      value = static_cast<uint64_t>((static_cast<unsigned __int128>(bits) *
                                     static_cast<uint64_t>(upperBound)) >>
                                    64);
    else
      value = type == ElementType::I64 ? bits >> 1 : bits >> 33;
    if (type == ElementType::I64)
      tensor.getData<int64_t>()[i] = static_cast<int64_t>(value);
    else if (type == ElementType::I32)
      tensor.getData<int32_t>()[i] = static_cast<int32_t>(value);
    else
      tensor.getData<uint8_t>()[i] = static_cast<uint8_t>(value);
  }
  return tensor;
}

double HostTensor::getAsDouble(int64_t index) const {
  switch (type) {
  case ElementType::F64:
    return getData<double>()[index];
  case ElementType::F32:
    return getData<float>()[index];
  case ElementType::F16:
    return halfToFloat(getData<uint16_t>()[index]);
  case ElementType::BF16:
    return bfloat16ToFloat(getData<uint16_t>()[index]);
  case ElementType::I64:
    return static_cast<double>(getData<int64_t>()[index]);
  case ElementType::I32:
    return getData<int32_t>()[index];
  case ElementType::I1:
    return getData<uint8_t>()[index];
  }
  return 0.0;
}

namespace {
/// Float -> integer like ONNX Cast: truncate toward zero; NaN and values out
/// of range saturate instead of being undefined behaviour.
template <typename Int> Int truncateToInteger(double value) {
  if (std::isnan(value))
    return 0;
  double truncated = std::trunc(value);
  if (truncated <= static_cast<double>(std::numeric_limits<Int>::min()))
    return std::numeric_limits<Int>::min();
  if (truncated >= static_cast<double>(std::numeric_limits<Int>::max()))
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(truncated);
}
} // namespace

void HostTensor::setFromDouble(int64_t index, double value) {
  switch (type) {
  case ElementType::F64:
    getData<double>()[index] = value;
    return;
  case ElementType::F32:
    getData<float>()[index] = static_cast<float>(value);
    return;
  case ElementType::F16:
    getData<uint16_t>()[index] = floatToHalf(static_cast<float>(value));
    return;
  case ElementType::BF16:
    getData<uint16_t>()[index] = floatToBfloat16(static_cast<float>(value));
    return;
  case ElementType::I64:
    getData<int64_t>()[index] = truncateToInteger<int64_t>(value);
    return;
  case ElementType::I32:
    getData<int32_t>()[index] = truncateToInteger<int32_t>(value);
    return;
  case ElementType::I1:
    getData<uint8_t>()[index] = value != 0.0 ? 1 : 0;
    return;
  }
}

void HostTensor::fill(double value) {
  if (numElements == 0)
    return;
  setFromDouble(0, value);
  const int64_t width = getElementByteWidth(type);
  for (int64_t i = 1; i < numElements; ++i)
    std::memcpy(storage.get() + i * width, storage.get(), width);
}

void HostTensor::reshapeInPlace(std::vector<int64_t> newShape) {
  shape = std::move(newShape);
}

bool HostTensor::isBitwiseEqual(const HostTensor &other) const {
  return type == other.type && shape == other.shape &&
         std::memcmp(storage.get(), other.storage.get(),
                     static_cast<size_t>(getByteSize())) == 0;
}

namespace {
void recordNonFiniteMismatch(TensorDifference &difference) {
  ++difference.numMismatches;
  difference.maxAbsErr = std::numeric_limits<double>::infinity();
  difference.maxRelErr = std::numeric_limits<double>::infinity();
}
} // namespace

Status compareTensors(const HostTensor &actual, const HostTensor &reference,
                      double rtol, double atol, TensorDifference &difference) {
  difference = TensorDifference();
  if (actual.getElementType() != reference.getElementType())
    return Status::error(std::string("element type mismatch: ") +
                         getElementTypeName(actual.getElementType()) + " vs " +
                         getElementTypeName(reference.getElementType()));
  if (actual.getShape() != reference.getShape())
    return Status::error("shape mismatch: " + formatShape(actual.getShape()) +
                         " vs " + formatShape(reference.getShape()));
  for (int64_t i = 0, e = actual.getNumElements(); i < e; ++i) {
    double a = actual.getAsDouble(i);
    double b = reference.getAsDouble(i);
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) != std::isnan(b))
        recordNonFiniteMismatch(difference);
      continue;
    }
    if (std::isinf(a) || std::isinf(b)) {
      if (a != b)
        recordNonFiniteMismatch(difference);
      continue;
    }
    double absErr = std::fabs(a - b);
    difference.maxAbsErr = std::max(difference.maxAbsErr, absErr);
    if (b != 0.0)
      difference.maxRelErr =
          std::max(difference.maxRelErr, absErr / std::fabs(b));
    if (absErr > atol + rtol * std::fabs(b))
      ++difference.numMismatches;
  }
  return Status::success();
}

} // namespace distir
