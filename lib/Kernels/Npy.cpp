//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Format reference: numpy/lib/format.py (NEP 1). The header is a Python dict
// literal with exactly the keys 'descr', 'fortran_order' and 'shape'.
//
//===----------------------------------------------------------------------===//

#include "distir/Kernels/Npy.h"
#include "distir/Support/ControlCharacters.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace distir {

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct DtypeSpelling {
  const char *descr;
  ElementType type;
};
// The file's dtype for every element type we read; bf16 is written as <f4.
constexpr DtypeSpelling kDtypes[] = {
    {"<f8", ElementType::F64}, {"<f4", ElementType::F32},
    {"<f2", ElementType::F16}, {"<i8", ElementType::I64},
    {"<i4", ElementType::I32}, {"|b1", ElementType::I1},
};

/// A cursor over the header dict literal.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  Status parse(std::string &descr, bool &fortranOrder,
               std::vector<int64_t> &shape) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return fail("expected '{'");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      DISTIR_RETURN_IF_ERROR(parseString(key));
      if (!consume(':'))
        return fail("expected ':' after '" + key + "'");
      if (key == "descr") {
        DISTIR_RETURN_IF_ERROR(parseString(descr));
        seenDescr = true;
      } else if (key == "fortran_order") {
        DISTIR_RETURN_IF_ERROR(parseBool(fortranOrder));
        seenOrder = true;
      } else if (key == "shape") {
        DISTIR_RETURN_IF_ERROR(parseShape(shape));
        seenShape = true;
      } else {
        return fail("unexpected key '" + key + "'");
      }
      if (!consume(',')) {
        if (!consume('}'))
          return fail("expected ',' or '}'");
        break;
      }
    }
    if (!seenDescr || !seenOrder || !seenShape)
      return fail("header lacks one of 'descr', 'fortran_order', 'shape'");
    return Status::success();
  }

private:
  Status fail(const std::string &what) const {
    return Status::error("malformed .npy header: " + what + " at offset " +
                         std::to_string(pos));
  }
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  Status parseString(std::string &value) {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return fail("expected a quoted string");
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string::npos)
      return fail("unterminated string");
    value = text.substr(pos, end - pos);
    pos = end + 1;
    return Status::success();
  }
  Status parseBool(bool &value) {
    skipSpace();
    for (auto [word, meaning] : {std::pair{"True", true}, {"False", false}}) {
      std::string_view literal(word);
      if (text.compare(pos, literal.size(), literal) == 0) {
        pos += literal.size();
        value = meaning;
        return Status::success();
      }
    }
    return fail("expected True or False");
  }
  Status parseShape(std::vector<int64_t> &shape) {
    shape.clear();
    if (!consume('('))
      return fail("expected '(' for the shape");
    while (!consume(')')) {
      skipSpace();
      if (pos >= text.size() ||
          !std::isdigit(static_cast<unsigned char>(text[pos])))
        return fail("expected a dimension");
      int64_t dim = 0;
      while (pos < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos]))) {
        int digit = text[pos++] - '0';
        if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10)
          return fail("dimension overflows int64");
        dim = dim * 10 + digit;
      }
      shape.push_back(dim);
      if (!consume(',')) {
        if (!consume(')'))
          return fail("expected ',' or ')' in the shape");
        break;
      }
    }
    return Status::success();
  }

  const std::string &text;
  size_t pos = 0;
};

uint32_t readLittleEndian(const std::string &bytes, size_t offset,
                          size_t width) {
  uint32_t value = 0;
  for (size_t i = 0; i < width; ++i)
    value |=
        static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i]))
        << (8 * i);
  return value;
}
} // namespace

/// parseNpy without the escaping of its messages.
static Status parseNpyContents(const std::string &bytes, HostTensor &tensor) {
  if (bytes.size() < kMagicSize + 2 ||
      bytes.compare(0, kMagicSize, kMagic, kMagicSize) != 0)
    return Status::error("not a .npy file (bad magic string)");
  int major = static_cast<unsigned char>(bytes[kMagicSize]);
  if (major < 1 || major > 3)
    return Status::error("unsupported .npy format version " +
                         std::to_string(major));
  size_t lengthWidth = major == 1 ? 2 : 4;
  size_t headerStart = kMagicSize + 2 + lengthWidth;
  if (bytes.size() < headerStart)
    return Status::error("truncated .npy file (header length missing)");
  size_t headerLength = readLittleEndian(bytes, kMagicSize + 2, lengthWidth);
  if (bytes.size() < headerStart + headerLength)
    return Status::error("truncated .npy file (header needs " +
                         std::to_string(headerLength) + " bytes)");

  std::string header = bytes.substr(headerStart, headerLength);
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  DISTIR_RETURN_IF_ERROR(
      HeaderParser(header).parse(descr, fortranOrder, shape));
  if (fortranOrder)
    return Status::error("Fortran-order .npy arrays are not supported; save "
                         "with numpy.ascontiguousarray");
  std::optional<ElementType> type;
  for (const DtypeSpelling &spelling : kDtypes)
    if (descr == spelling.descr)
      type = spelling.type;
  if (!type)
    return Status::error("unsupported .npy dtype '" + descr +
                         "' (supported: <f8 <f4 <f2 <i8 <i4 |b1)");
  DISTIR_RETURN_IF_ERROR(checkShape(shape, *type));

  size_t dataStart = headerStart + headerLength;
  int64_t expected = getNumElements(shape) * getElementByteWidth(*type);
  int64_t available = static_cast<int64_t>(bytes.size() - dataStart);
  if (available < expected)
    return Status::error("truncated .npy file: shape " + formatShape(shape) +
                         " needs " + std::to_string(expected) +
                         " data bytes, found " + std::to_string(available));
  if (available > expected)
    return Status::error(
        ".npy file has " + std::to_string(available - expected) +
        " bytes after the data of shape " + formatShape(shape));

  HostTensor result(*type, shape);
  std::memcpy(result.getRawData(), bytes.data() + dataStart,
              static_cast<size_t>(expected));
  if (*type == ElementType::I1) {
    uint8_t *values = result.getData<uint8_t>();
    for (int64_t i = 0, e = result.getNumElements(); i < e; ++i)
      values[i] = values[i] != 0;
  }
  tensor = std::move(result);
  return Status::success();
}

Status parseNpy(const std::string &bytes, HostTensor &tensor) {
  Status status = parseNpyContents(bytes, tensor);
  if (status.ok())
    return status;
  return Status::error(escapeControlCharacters(status.message()));
}

std::string serializeNpy(const HostTensor &tensor) {
  // bf16 has no NumPy dtype; its values are exact in f32.
  HostTensor widened;
  const HostTensor *source = &tensor;
  if (tensor.getElementType() == ElementType::BF16) {
    widened = HostTensor(ElementType::F32, tensor.getShape());
    const uint16_t *in = tensor.getData<uint16_t>();
    float *out = widened.getData<float>();
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      out[i] = bfloat16ToFloat(in[i]);
    source = &widened;
  }
  const char *descr = "";
  for (const DtypeSpelling &spelling : kDtypes)
    if (spelling.type == source->getElementType())
      descr = spelling.descr;

  std::ostringstream dict;
  dict << "{'descr': '" << descr << "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : source->getShape())
    dict << dim << (source->getRank() == 1 ? "," : ", ");
  std::string header = dict.str();
  if (source->getRank() > 1)
    header.resize(header.size() - 2);
  header += "), }";

  // Pad with spaces and a newline so that the data starts 64-byte aligned.
  bool version1 = header.size() + 64 <= 65535;
  size_t prefix = kMagicSize + 2 + (version1 ? 2 : 4);
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::string bytes(kMagic, kMagicSize);
  bytes += static_cast<char>(version1 ? 1 : 2);
  bytes += '\0';
  uint32_t length = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < (version1 ? 2u : 4u); ++i)
    bytes += static_cast<char>((length >> (8 * i)) & 0xFF);
  bytes += header;
  bytes.append(static_cast<const char *>(source->getRawData()),
               static_cast<size_t>(source->getByteSize()));
  return bytes;
}

Status readNpyFile(const std::string &path, HostTensor &tensor) {
  // Read whole: a device or a FIFO (/dev/zero) would never end.
  std::error_code error;
  if (std::filesystem::exists(path, error) &&
      !std::filesystem::is_regular_file(path, error))
    return Status::error(path + ": not a regular file");
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return Status::error(path + ": cannot open file");
  std::ostringstream contents;
  contents << file.rdbuf();
  Status status = parseNpy(contents.str(), tensor);
  if (!status.ok())
    return Status::error(path + ": " + status.message());
  return Status::success();
}

Status writeNpyFile(const std::string &path, const HostTensor &tensor) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file)
    return Status::error(path + ": cannot open file for writing");
  std::string bytes = serializeNpy(tensor);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  // A full disk (or /dev/full) shows only when the buffer is written.
  file.close();
  if (!file)
    return Status::error(path + ": write failed");
  return Status::success();
}

} // namespace distir
