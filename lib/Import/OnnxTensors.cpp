//===- OnnxTensors.cpp - ONNX tensors and model files ---------------------===//
//
// TensorProto <-> HostTensor and dense attributes, external tensor data, and
// reading binary or textual ModelProtos without letting protobuf or ONNX
// print, throw or abort past the importer.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include "distir/Support/ToolSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/stubs/logging.h>
#include <onnx/defs/parser.h>

#include <climits>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace distir;
using namespace distir::onnx_import;

std::string distir::onnx_import::getOnnxTypeName(int32_t dataType) {
  if (onnx::TensorProto_DataType_IsValid(dataType))
    return onnx::TensorProto_DataType_Name(
        static_cast<onnx::TensorProto_DataType>(dataType));
  return "data type " + std::to_string(dataType);
}

std::optional<ElementType>
distir::onnx_import::getElementTypeFromOnnx(int32_t dataType) {
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return ElementType::F32;
  case onnx::TensorProto::DOUBLE:
    return ElementType::F64;
  case onnx::TensorProto::FLOAT16:
    return ElementType::F16;
  case onnx::TensorProto::BFLOAT16:
    return ElementType::BF16;
  case onnx::TensorProto::INT64:
    return ElementType::I64;
  case onnx::TensorProto::INT32:
    return ElementType::I32;
  case onnx::TensorProto::BOOL:
    return ElementType::I1;
  default:
    return std::nullopt;
  }
}

Type distir::onnx_import::getMlirElementType(ElementType type,
                                             MLIRContext *context) {
  Builder builder(context);
  switch (type) {
  case ElementType::F64:
    return builder.getF64Type();
  case ElementType::F32:
    return builder.getF32Type();
  case ElementType::F16:
    return builder.getF16Type();
  case ElementType::BF16:
    return builder.getBF16Type();
  case ElementType::I64:
    return builder.getI64Type();
  case ElementType::I32:
    return builder.getI32Type();
  case ElementType::I1:
    return builder.getI1Type();
  }
  return {};
}

namespace {

/// External data must be a regular file inside the model's directory, after
/// resolving `..` and symbolic links: a model file from elsewhere must not
/// make the importer read (and embed as weights) `/etc/passwd`, nor block on
/// a FIFO or read `/dev/zero` without end. `resolved` is the real path of the
/// location.
Status checkConfined(StringRef location, StringRef resolved,
                     StringRef modelDir) {
  SmallString<256> directory;
  if (std::error_code error = llvm::sys::fs::real_path(
          modelDir.empty() ? StringRef(".") : modelDir, directory))
    return Status::error("cannot resolve the model's directory '" +
                         modelDir.str() + "': " + error.message());
  StringRef inside = resolved;
  if (!inside.consume_front(directory) ||
      !(llvm::sys::path::is_separator(directory.back()) ||
        (!inside.empty() && llvm::sys::path::is_separator(inside.front()))))
    return Status::error("external data location '" + location.str() +
                         "' resolves to '" + resolved.str() +
                         "', outside the model's directory '" +
                         std::string(directory) + "'");
  llvm::sys::fs::file_status status;
  if (std::error_code error = llvm::sys::fs::status(resolved, status))
    return Status::error("cannot read external data '" + resolved.str() +
                         "': " + error.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return Status::error("external data '" + resolved.str() +
                         "' is not a regular file");
  return Status::success();
}

/// Reads the bytes an external-data tensor points at, relative to the
/// model's directory.
Status readExternalData(const onnx::TensorProto &proto, StringRef modelDir,
                        std::string &bytes) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const onnx::StringStringEntryProto &entry : proto.external_data()) {
    const std::string &key = entry.key();
    if (key == "location") {
      location = entry.value();
    } else if (key == "offset" || key == "length") {
      int64_t parsed;
      if (StringRef(entry.value()).getAsInteger(10, parsed) || parsed < 0)
        return Status::error("external data " + key + " '" + entry.value() +
                             "' is not a non-negative integer");
      (key == "offset" ? offset : length) = parsed;
    }
  }
  if (location.empty())
    return Status::error("external data has no location");
  if (llvm::sys::path::is_absolute(location))
    return Status::error("external data location '" + location +
                         "' must be relative to the model's directory");
  SmallString<256> path(modelDir);
  llvm::sys::path::append(path, location);
  SmallString<256> resolved;
  if (std::error_code error = llvm::sys::fs::real_path(path, resolved))
    return Status::error("cannot read external data '" + std::string(path) +
                         "': " + error.message());
  DISTIR_RETURN_IF_ERROR(checkConfined(location, resolved, modelDir));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(resolved, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return Status::error("cannot read external data '" + std::string(path) +
                         "': " + file.getError().message());
  int64_t size = (*file)->getBufferSize();
  if (length < 0)
    length = size - std::min(offset, size);
  if (offset > size || length > size - offset)
    return Status::error("external data '" + std::string(path) + "' has " +
                         std::to_string(size) + " bytes, fewer than offset " +
                         std::to_string(offset) + " + length " +
                         std::to_string(length));
  bytes.assign((*file)->getBufferStart() + offset, length);
  return Status::success();
}

/// Copies typed repeated-field values into the tensor's storage.
template <typename Field>
Status copyTypedValues(const Field &field, HostTensor &tensor,
                       ElementType type) {
  if (static_cast<int64_t>(field.size()) != tensor.getNumElements())
    return Status::error("holds " + std::to_string(field.size()) +
                         " values but its shape " +
                         formatShape(tensor.getShape()) + " needs " +
                         std::to_string(tensor.getNumElements()));
  int64_t i = 0;
  for (auto value : field) {
    switch (type) {
    case ElementType::F64:
      tensor.getData<double>()[i] = static_cast<double>(value);
      break;
    case ElementType::F32:
      tensor.getData<float>()[i] = static_cast<float>(value);
      break;
    case ElementType::F16:
    case ElementType::BF16:
      // ONNX keeps the 16 bits of each half-precision value in int32_data.
      tensor.getData<uint16_t>()[i] = static_cast<uint16_t>(value);
      break;
    case ElementType::I64:
      tensor.getData<int64_t>()[i] = static_cast<int64_t>(value);
      break;
    case ElementType::I32:
      tensor.getData<int32_t>()[i] = static_cast<int32_t>(value);
      break;
    case ElementType::I1:
      tensor.getData<uint8_t>()[i] = value != 0;
      break;
    }
    ++i;
  }
  return Status::success();
}

Status convertTensor(const onnx::TensorProto &proto, StringRef modelDir,
                     HostTensor &tensor) {
  if (proto.has_segment())
    return Status::error("segmented tensors are not supported");
  std::optional<ElementType> type = getElementTypeFromOnnx(proto.data_type());
  if (!type)
    return Status::error("has element type " +
                         getOnnxTypeName(proto.data_type()) +
                         ", which distir does not support");
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  DISTIR_RETURN_IF_ERROR(checkShape(shape, *type));
  HostTensor result(*type, shape);

  std::string external;
  const std::string *raw = nullptr;
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    DISTIR_RETURN_IF_ERROR(readExternalData(proto, modelDir, external));
    raw = &external;
  } else if (proto.has_raw_data()) {
    raw = &proto.raw_data();
  }
  if (raw) {
    if (static_cast<int64_t>(raw->size()) != result.getByteSize())
      return Status::error("holds " + std::to_string(raw->size()) +
                           " bytes of data but its shape " +
                           formatShape(shape) + " needs " +
                           std::to_string(result.getByteSize()));
    // raw_data is little-endian, as is every host distir runs on.
    if (!raw->empty())
      std::memcpy(result.getRawData(), raw->data(), raw->size());
    if (*type == ElementType::I1)
      for (int64_t i = 0; i < result.getNumElements(); ++i)
        result.getData<uint8_t>()[i] = result.getData<uint8_t>()[i] != 0;
    tensor = std::move(result);
    return Status::success();
  }

  Status status = Status::success();
  switch (*type) {
  case ElementType::F32:
    status = copyTypedValues(proto.float_data(), result, *type);
    break;
  case ElementType::F64:
    status = copyTypedValues(proto.double_data(), result, *type);
    break;
  case ElementType::I64:
    status = copyTypedValues(proto.int64_data(), result, *type);
    break;
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I32:
  case ElementType::I1:
    status = copyTypedValues(proto.int32_data(), result, *type);
    break;
  }
  if (!status.ok())
    return status;
  tensor = std::move(result);
  return Status::success();
}

/// Protobuf logs parse problems to stderr in several lines; the importer
/// reports its own one-line errors instead.
void silenceProtobufLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char *,
                                       int, const std::string &) {});
  });
}

/// ONNX's parser reports "[ParseError at position (line: L column: C)]",
/// a context line and the message over several lines; keeps "L:C: message".
std::string formatTextParseError(const std::string &message) {
  StringRef text(message);
  std::string position;
  size_t line = text.find("line: "), column = text.find("column: ");
  if (line != StringRef::npos && column != StringRef::npos) {
    StringRef l = text.drop_front(line + 6).take_while(llvm::isDigit);
    StringRef c = text.drop_front(column + 8).take_while(llvm::isDigit);
    position = (l + ":" + c + ": ").str();
  }
  // The last non-empty line holds the actual message.
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  StringRef last = lines.empty() ? text : lines.back().trim();
  return position + last.str();
}

} // namespace

std::string distir::onnx_import::formatModelError(StringRef path,
                                                  StringRef message) {
  // Text parse errors start with "line:col: " already.
  bool positioned = !message.empty() && llvm::isDigit(message.front());
  std::string text = (path + (positioned ? ":" : ": ") + message).str();
  // Names and strings quoted from the model may hold any byte; the message
  // stays on one line.
  std::string result;
  for (unsigned char c : text) {
    if (c >= 0x20 && c != 0x7F)
      result += static_cast<char>(c);
    else
      result +=
          c == '\n' ? "\\n" : "\\x" + llvm::utohexstr(c, /*LowerCase=*/true, 2);
  }
  return result;
}

Status distir::onnx_import::inlineExternalData(onnx::TensorProto &proto,
                                               StringRef modelDir) {
  if (proto.data_location() != onnx::TensorProto::EXTERNAL)
    return Status::success();
  std::string bytes;
  if (Status status = readExternalData(proto, modelDir, bytes); !status.ok())
    return Status::error("tensor '" + proto.name() + "': " + status.message());
  proto.set_raw_data(std::move(bytes));
  proto.clear_external_data();
  proto.set_data_location(onnx::TensorProto::DEFAULT);
  return Status::success();
}

Status distir::onnx_import::tensorFromProto(const onnx::TensorProto &proto,
                                            StringRef modelDir,
                                            HostTensor &tensor) {
  Status status = convertTensor(proto, modelDir, tensor);
  if (status.ok())
    return status;
  std::string name =
      proto.name().empty() ? "tensor" : "tensor '" + proto.name() + "'";
  return Status::error(name + ": " + status.message());
}

Status distir::onnx_import::checkFoldedSize(const std::vector<int64_t> &shape,
                                            ElementType type) {
  DISTIR_RETURN_IF_ERROR(checkShape(shape, type));
  int64_t bytes = getNumElements(shape) * getElementByteWidth(type);
  if (bytes <= kMaxFoldedBytes)
    return Status::success();
  return Status::error(
      std::string("a constant of ") + getElementTypeName(type) + " " +
      formatShape(shape) + " (" + std::to_string(bytes) +
      " bytes) is more than the " + std::to_string(kMaxFoldedBytes) +
      " bytes the importer computes at import time");
}

DenseElementsAttr distir::onnx_import::getElementsAttr(const HostTensor &tensor,
                                                       RankedTensorType type) {
  if (tensor.getElementType() == ElementType::I1) {
    const uint8_t *data = tensor.getData<uint8_t>();
    SmallVector<bool> bits(data, data + tensor.getNumElements());
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  ArrayRef<char> raw(static_cast<const char *>(tensor.getRawData()),
                     static_cast<size_t>(tensor.getByteSize()));
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

Status distir::onnx_import::getIntegerValues(const HostTensor &tensor,
                                             SmallVectorImpl<int64_t> &values) {
  values.clear();
  int64_t count = tensor.getNumElements();
  switch (tensor.getElementType()) {
  case ElementType::I64:
    values.append(tensor.getData<int64_t>(), tensor.getData<int64_t>() + count);
    return Status::success();
  case ElementType::I32:
    values.append(tensor.getData<int32_t>(), tensor.getData<int32_t>() + count);
    return Status::success();
  case ElementType::I1:
    values.append(tensor.getData<uint8_t>(), tensor.getData<uint8_t>() + count);
    return Status::success();
  default:
    return Status::error(std::string("holds ") +
                         getElementTypeName(tensor.getElementType()) +
                         " values where integers are needed");
  }
}

bool distir::isOnnxText(StringRef contents) {
  // A binary ModelProto starts with a field tag (ir_version is 0x08); the
  // text syntax starts with '<' (model header), a name or a '#' comment.
  StringRef head = contents.take_front(4096);
  if (head.contains('\0'))
    return false;
  StringRef rest = contents;
  while (true) {
    rest = rest.ltrim();
    if (!rest.starts_with("#"))
      break;
    rest = rest.drop_until([](char c) { return c == '\n'; });
  }
  return !rest.empty() && (rest.front() == '<' || llvm::isAlpha(rest.front()));
}

Status distir::onnx_import::parseModel(StringRef contents,
                                       onnx::ModelProto &model) {
  silenceProtobufLogging();
  if (contents.empty())
    return Status::error("the file is empty");
  try {
    if (isOnnxText(contents)) {
      std::string text = contents.str();
      onnx::Common::Status status =
          onnx::OnnxParser::Parse(model, text.c_str());
      if (!status.IsOK())
        return Status::error(formatTextParseError(status.ErrorMessage()));
      return Status::success();
    }
    if (contents.size() > static_cast<size_t>(INT_MAX))
      return Status::error("a ModelProto larger than 2 GiB is invalid; large "
                           "weights belong in external data files");
    if (!model.ParseFromArray(contents.data(),
                              static_cast<int>(contents.size())))
      return Status::error("not an ONNX model: the protobuf is malformed or "
                           "truncated");
  } catch (const std::exception &e) {
    return Status::error(std::string("not an ONNX model: ") + e.what());
  } catch (...) {
    return Status::error("not an ONNX model");
  }
  // Arbitrary bytes often parse as a protobuf of unknown fields.
  if (!model.has_ir_version() || !model.has_graph())
    return Status::error("not an ONNX model: it has no ir_version or no graph");
  return Status::success();
}

Status distir::readOnnxTensorFile(const std::string &path, HostTensor &tensor) {
  silenceProtobufLogging();
  if (std::optional<std::string> error = distir::checkRegularFile(path))
    return Status::error(*error);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return Status::error(path + ": " + file.getError().message());
  onnx::TensorProto proto;
  StringRef bytes = (*file)->getBuffer();
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return Status::error(path + ": not a serialized ONNX TensorProto");
  Status status = onnx_import::tensorFromProto(
      proto, llvm::sys::path::parent_path(path), tensor);
  if (!status.ok())
    return Status::error(path + ": " + status.message());
  return Status::success();
}

Status
distir::loadOnnxInitializers(const std::string &modelPath,
                             std::map<std::string, HostTensor> &weights) {
  if (std::optional<std::string> error = distir::checkRegularFile(modelPath))
    return Status::error(*error);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return Status::error(modelPath + ": " + file.getError().message());
  onnx::ModelProto model;
  Status status = onnx_import::parseModel((*file)->getBuffer(), model);
  if (!status.ok())
    return Status::error(
        onnx_import::formatModelError(modelPath, status.message()));
  StringRef modelDir = llvm::sys::path::parent_path(modelPath);
  // Programs imported from this model name some parameters by their scope
  // (recoverParameterNames): those initializers are found by both names.
  std::map<std::string, std::string> recovered =
      onnx_import::recoverParameterNames(model.graph());
  for (const onnx::TensorProto &proto : model.graph().initializer()) {
    HostTensor tensor;
    status = onnx_import::tensorFromProto(proto, modelDir, tensor);
    if (!status.ok())
      return Status::error(modelPath + ": " + status.message());
    if (auto alias = recovered.find(proto.name()); alias != recovered.end())
      weights[alias->second] = tensor;
    weights[proto.name()] = std::move(tensor);
  }
  if (model.graph().sparse_initializer_size() > 0)
    return Status::error(modelPath + ": sparse initializers are not supported");
  return Status::success();
}
