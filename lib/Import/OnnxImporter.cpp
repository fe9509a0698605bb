//===- OnnxImporter.cpp - ONNX models to the dist dialect -----------------===//
//
// The model-level work: parse, order the graph, run ONNX's checker and shape
// inference, check opsets and op support, then walk the nodes (each node's
// conversion lives in OnnxOps.cpp) and build the function signature.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Executor/Executor.h"
#include "distir/ShapeInference/ShapeRules.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <deque>
#include <iostream>
#include <map>
#include <sstream>

using namespace mlir;
using namespace distir;
using namespace distir::onnx_import;

namespace {

/// The oldest and newest opset of the default domain whose ops the importer
/// maps (the newest is also the newest that Debian's ONNX 1.12 knows).
constexpr int64_t kMinOpset = 7;
constexpr int64_t kMaxOpset = 17;

/// Error text from ONNX (checker, shape inference) spans several lines and
/// sometimes embeds a whole NodeProto; keeps one line.
std::string oneLine(StringRef text) {
  std::string result;
  bool space = false;
  for (char c : text) {
    if (llvm::isSpace(c)) {
      space = !result.empty();
      continue;
    }
    if (space)
      result += ' ';
    space = false;
    result += c;
  }
  constexpr size_t kMaxLength = 600;
  if (result.size() > kMaxLength)
    result = result.substr(0, kMaxLength) + " ...";
  return result;
}

/// ONNX's checker prints warnings (experimental ops) to std::cerr; the
/// importer's caller gets one line per error and nothing else. Not thread
/// safe: std::cerr is process-wide.
class SilenceStdErr {
public:
  SilenceStdErr() : saved(std::cerr.rdbuf(sink.rdbuf())) {}
  ~SilenceStdErr() { std::cerr.rdbuf(saved); }

private:
  std::ostringstream sink;
  std::streambuf *saved;
};

bool isDefaultDomain(StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

std::string describeNode(const onnx::NodeProto &node, int64_t index) {
  std::string opType = isDefaultDomain(node.domain())
                           ? node.op_type()
                           : node.domain() + "." + node.op_type();
  if (!node.name().empty())
    return "node '" + node.name() + "' (" + opType + ")";
  std::string label = "node #" + std::to_string(index) + " (" + opType;
  if (node.output_size() > 0 && !node.output(0).empty())
    label += ", output '" + node.output(0) + "'";
  return label + ")";
}

//===----------------------------------------------------------------------===//
// Model-level checks
//===----------------------------------------------------------------------===//

/// Orders the nodes topologically (ONNX requires it; exporters sometimes
/// do not), reporting undefined inputs, values produced twice and cycles.
Status sortNodes(onnx::GraphProto &graph) {
  const int numNodes = graph.node_size();
  std::set<std::string> available;
  for (const onnx::ValueInfoProto &input : graph.input())
    available.insert(input.name());
  for (const onnx::TensorProto &init : graph.initializer())
    available.insert(init.name());
  for (const onnx::SparseTensorProto &init : graph.sparse_initializer())
    available.insert(init.values().name());

  std::map<std::string, int> producer;
  for (int i = 0; i < numNodes; ++i) {
    for (const std::string &output : graph.node(i).output()) {
      if (output.empty())
        continue;
      if (available.count(output))
        return Status::error(describeNode(graph.node(i), i) + ": output '" +
                             output +
                             "' is already a graph input or initializer");
      auto [it, inserted] = producer.emplace(output, i);
      if (!inserted)
        return Status::error(describeNode(graph.node(i), i) + ": output '" +
                             output + "' is also produced by " +
                             describeNode(graph.node(it->second), it->second));
    }
  }

  std::vector<std::vector<int>> users(numNodes);
  std::vector<int> pending(numNodes, 0);
  for (int i = 0; i < numNodes; ++i) {
    const onnx::NodeProto &node = graph.node(i);
    for (const std::string &input : node.input()) {
      if (input.empty() || available.count(input))
        continue;
      auto it = producer.find(input);
      if (it == producer.end())
        return Status::error(describeNode(node, i) + ": input '" + input +
                             "' is not a graph input, an initializer or the "
                             "output of any node");
      users[it->second].push_back(i);
      ++pending[i];
    }
  }
  std::vector<int> order, ready;
  for (int i = numNodes - 1; i >= 0; --i)
    if (pending[i] == 0)
      ready.push_back(i);
  // Kahn's algorithm; taking the lowest index first keeps a sorted graph
  // in its original order.
  std::set<int> queue(ready.begin(), ready.end());
  while (!queue.empty()) {
    int i = *queue.begin();
    queue.erase(queue.begin());
    order.push_back(i);
    for (int user : users[i])
      if (--pending[user] == 0)
        queue.insert(user);
  }
  if (static_cast<int>(order.size()) != numNodes) {
    // Walk back from a node left over until a node repeats: a cycle.
    int start = 0;
    while (pending[start] == 0)
      ++start;
    std::vector<int> path;
    std::map<int, size_t> seen;
    int current = start;
    while (!seen.count(current)) {
      seen[current] = path.size();
      path.push_back(current);
      for (const std::string &input : graph.node(current).input()) {
        auto it = producer.find(input);
        if (!input.empty() && it != producer.end() && pending[it->second] > 0) {
          current = it->second;
          break;
        }
      }
    }
    // path[k + 1] produces an input of path[k]: print in data-flow order.
    std::string cycle = describeNode(graph.node(current), current);
    for (size_t k = path.size() - 1; k > seen[current]; --k)
      cycle += " -> " + describeNode(graph.node(path[k]), path[k]);
    cycle += " -> " + describeNode(graph.node(current), current);
    return Status::error("the graph has a cycle: " + cycle);
  }
  bool sorted = true;
  for (int i = 0; i < numNodes; ++i)
    sorted &= order[i] == i;
  if (!sorted) {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (int i : order)
      *nodes.Add() = graph.node(i);
    graph.mutable_node()->Swap(&nodes);
  }
  return Status::success();
}

/// Applies --input-shape (and the shapes of --input-value tensors) to the
/// graph inputs before shape inference; a symbolic dimension fixed in one
/// input is fixed wherever it appears.
Status applyInputShapes(onnx::GraphProto &graph,
                        const OnnxImportOptions &options) {
  std::map<std::string, std::vector<int64_t>> shapes = options.inputShapes;
  for (const auto &[name, value] : options.inputValues)
    shapes.emplace(name, value.getShape());

  std::set<std::string> inputNames;
  std::map<std::string, int64_t> symbols;
  for (onnx::ValueInfoProto &input : *graph.mutable_input()) {
    inputNames.insert(input.name());
    auto it = shapes.find(input.name());
    if (it == shapes.end())
      continue;
    const std::string what = "input '" + input.name() + "'";
    if (!input.type().has_tensor_type())
      return Status::error(what + " is not a tensor, its shape cannot be set");
    onnx::TypeProto_Tensor *tensor =
        input.mutable_type()->mutable_tensor_type();
    const std::vector<int64_t> &shape = it->second;
    if (tensor->has_shape() &&
        tensor->shape().dim_size() != static_cast<int>(shape.size()))
      return Status::error(what + " has rank " +
                           std::to_string(tensor->shape().dim_size()) +
                           " but the given shape " + formatShape(shape) +
                           " has rank " + std::to_string(shape.size()));
    if (!tensor->has_shape())
      for (size_t d = 0; d < shape.size(); ++d)
        tensor->mutable_shape()->add_dim();
    for (size_t d = 0; d < shape.size(); ++d) {
      onnx::TensorShapeProto_Dimension *dim =
          tensor->mutable_shape()->mutable_dim(static_cast<int>(d));
      if (dim->has_dim_value() && dim->dim_value() != shape[d])
        return Status::error(what + " has dimension " + std::to_string(d) +
                             " of size " + std::to_string(dim->dim_value()) +
                             ", not " + std::to_string(shape[d]));
      if (dim->has_dim_param()) {
        auto [sym, inserted] = symbols.emplace(dim->dim_param(), shape[d]);
        if (!inserted && sym->second != shape[d])
          return Status::error("symbolic dimension '" + dim->dim_param() +
                               "' is given as both " +
                               std::to_string(sym->second) + " and " +
                               std::to_string(shape[d]));
      }
      dim->set_dim_value(shape[d]);
    }
  }
  for (const auto &[name, shape] : shapes)
    if (!inputNames.count(name))
      return Status::error("the model has no graph input '" + name + "'");

  auto bindSymbols = [&](onnx::ValueInfoProto &info) {
    if (!info.type().has_tensor_type() ||
        !info.type().tensor_type().has_shape())
      return;
    for (onnx::TensorShapeProto_Dimension &dim : *info.mutable_type()
                                                      ->mutable_tensor_type()
                                                      ->mutable_shape()
                                                      ->mutable_dim()) {
      if (!dim.has_dim_param())
        continue;
      auto sym = symbols.find(dim.dim_param());
      if (sym != symbols.end())
        dim.set_dim_value(sym->second);
    }
  };
  for (onnx::ValueInfoProto &info : *graph.mutable_input())
    bindSymbols(info);
  for (onnx::ValueInfoProto &info : *graph.mutable_value_info())
    bindSymbols(info);
  for (onnx::ValueInfoProto &info : *graph.mutable_output())
    bindSymbols(info);
  return Status::success();
}

bool hasExternalData(const onnx::GraphProto &graph) {
  for (const onnx::TensorProto &init : graph.initializer())
    if (init.data_location() == onnx::TensorProto::EXTERNAL)
      return true;
  return false;
}

/// Opset checks: a supported default-domain opset; before opset 7 only ops
/// whose definition did not change up to opset 7 (their meaning is then the
/// one distir implements).
Status checkOpsets(const onnx::ModelProto &model,
                   std::map<std::string, int64_t> &opsets) {
  for (const onnx::OperatorSetIdProto &opset : model.opset_import())
    opsets[isDefaultDomain(opset.domain()) ? "" : opset.domain()] =
        opset.version();
  const onnx::GraphProto &graph = model.graph();
  bool usesDefaultDomain =
      llvm::any_of(graph.node(), [](const onnx::NodeProto &node) {
        return isDefaultDomain(node.domain());
      });
  if (!usesDefaultDomain)
    return Status::success();
  // Before IR version 3 models had no opset imports and meant opset 1.
  auto it = opsets.find("");
  if (it == opsets.end() && model.ir_version() >= 3)
    return Status::error(
        "the model imports no opset of the default ONNX domain");
  int64_t version = it == opsets.end() ? 1 : it->second;
  opsets[""] = version;
  if (version > kMaxOpset)
    return Status::error("opset " + std::to_string(version) +
                         " is newer than distir supports (opsets " +
                         std::to_string(kMinOpset) + " to " +
                         std::to_string(kMaxOpset) + ")");
  if (version >= kMinOpset)
    return Status::success();
  std::map<std::string, std::vector<std::string>> changed;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (!isDefaultDomain(node.domain()))
      continue;
    const onnx::OpSchema *old =
        onnx::OpSchemaRegistry::Schema(node.op_type(), version, "");
    const onnx::OpSchema *atMin =
        onnx::OpSchemaRegistry::Schema(node.op_type(), kMinOpset, "");
    if (!old || !atMin || old->since_version() != atMin->since_version())
      changed[node.op_type()].push_back(describeNode(node, i));
  }
  if (changed.empty())
    return Status::success();
  std::string list;
  for (const auto &[op, nodes] : changed)
    list +=
        (list.empty() ? "" : ", ") + nodes.front() +
        (nodes.size() > 1 ? " and " + std::to_string(nodes.size() - 1) + " more"
                          : "");
  return Status::error("opset " + std::to_string(version) +
                       " is older than distir supports (opsets " +
                       std::to_string(kMinOpset) + " to " +
                       std::to_string(kMaxOpset) +
                       "), and these ops changed since: " + list);
}

/// Lists every op the importer cannot map, all at once.
Status checkSupportedOps(const onnx::GraphProto &graph) {
  std::map<std::string, std::vector<std::string>> unsupported;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (lookupConverter(node.domain(), node.op_type()))
      continue;
    std::string op = isDefaultDomain(node.domain())
                         ? node.op_type()
                         : node.domain() + "." + node.op_type();
    unsupported[op].push_back(node.name().empty() ? "#" + std::to_string(i)
                                                  : "'" + node.name() + "'");
  }
  if (unsupported.empty())
    return Status::success();
  std::string list;
  for (const auto &[op, nodes] : unsupported) {
    list += list.empty() ? "" : ", ";
    list += op + " (" +
            (nodes.size() == 1 ? "node "
                               : std::to_string(nodes.size()) + " nodes: ");
    for (size_t k = 0; k < nodes.size() && k < 3; ++k)
      list += (k ? ", " : "") + nodes[k];
    list += nodes.size() > 3 ? ", ...)" : ")";
  }
  return Status::error("unsupported ONNX op" +
                       std::string(unsupported.size() > 1 ? "s" : "") + ": " +
                       list);
}

/// Attribute values that ONNX's checker lets through but that make ONNX
/// 1.12's shape inference divide by zero (found by fuzzing): reject them
/// before it runs.
Status checkWindowAttributes(const onnx::GraphProto &graph) {
  // Ranks declared in the model (ONNX's inference indexes the input's dims
  // with the filter's rank without checking that they agree).
  std::map<std::string, int> declaredRanks;
  auto declare = [&](const onnx::ValueInfoProto &info) {
    if (info.type().has_tensor_type() && info.type().tensor_type().has_shape())
      declaredRanks[info.name()] = info.type().tensor_type().shape().dim_size();
  };
  llvm::for_each(graph.input(), declare);
  llvm::for_each(graph.value_info(), declare);
  for (const onnx::TensorProto &init : graph.initializer())
    declaredRanks[init.name()] = init.dims_size();
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (!isDefaultDomain(node.domain()) ||
        !llvm::is_contained({"Conv", "MaxPool", "AveragePool"}, node.op_type()))
      continue;
    if (node.op_type() == "Conv" && node.input_size() >= 2 &&
        declaredRanks.count(node.input(0)) &&
        declaredRanks.count(node.input(1)) &&
        declaredRanks[node.input(0)] != declaredRanks[node.input(1)])
      return Status::error(describeNode(node, i) + ": input of rank " +
                           std::to_string(declaredRanks[node.input(0)]) +
                           " and filter of rank " +
                           std::to_string(declaredRanks[node.input(1)]) +
                           " differ");
    for (const onnx::AttributeProto &attr : node.attribute()) {
      StringRef name = attr.name();
      bool positive =
          name == "strides" || name == "dilations" || name == "kernel_shape";
      if (!positive && name != "pads")
        continue;
      for (int64_t value : attr.ints())
        if (positive ? value <= 0 : value < 0)
          return Status::error(describeNode(node, i) + ": " + name.str() +
                               (positive ? " must be positive, got "
                                         : " must be non-negative, got ") +
                               std::to_string(value));
    }
  }
  return Status::success();
}

/// The dist type of an ONNX tensor type; `what` names the value in errors.
StatusOr<RankedTensorType> convertType(const onnx::TypeProto &type,
                                       MLIRContext *context,
                                       const std::string &what) {
  if (!type.has_tensor_type())
    return Status::error(what +
                         " is not a tensor (sequences, maps, optionals and "
                         "sparse tensors are not supported)");
  const onnx::TypeProto_Tensor &tensor = type.tensor_type();
  std::optional<ElementType> elementType =
      getElementTypeFromOnnx(tensor.elem_type());
  if (!elementType)
    return Status::error(what + " has element type " +
                         getOnnxTypeName(tensor.elem_type()) +
                         ", which distir does not support");
  if (!tensor.has_shape())
    return Status::error(what + " has no shape (not even a rank); give one "
                                "with --input-shape");
  SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto_Dimension &dim : tensor.shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return RankedTensorType::get(shape,
                               getMlirElementType(*elementType, context));
}

/// Encoder-decoder stacks whose layers are module lists named "encoder" and
/// "decoder" ("/encoder.1/self_attn/q/MatMul", HF T5-style).
const llvm::Regex &getStackPattern() {
  static const llvm::Regex pattern(
      "(^|[/._:])(encoder|decoder)[._]([0-9]+)([/._:]|$)");
  return pattern;
}

/// The layers of the encoder stack: the decoder's layers follow them.
int64_t countEncoderLayers(const onnx::GraphProto &graph) {
  int64_t count = 0;
  for (const onnx::NodeProto &node : graph.node()) {
    SmallVector<StringRef> matches;
    int64_t layer;
    if (getStackPattern().match(node.name(), &matches) &&
        matches[2] == "encoder" && !matches[3].getAsInteger(10, layer))
      count = std::max(count, layer + 1);
  }
  return count;
}

/// Layer index hint for pipeline cutting, from names such as
/// "/encoder/layer.3/attention/MatMul" or "blocks_11.conv", or else
/// "/decoder.1/..." (layer encoderLayers + 1). The leftmost numbered list
/// wins: torchvision's CNN trunks are a `features` Sequential whose entries
/// hold numbered lists of their own ("/features/features.3/block/block.1/"
/// is layer 3, not 1, which repeats in every entry).
std::optional<int64_t> getLayerHint(const onnx::NodeProto &node,
                                    int64_t encoderLayers) {
  static const llvm::Regex pattern(
      "(^|[/._:])(layers?|blocks?|h|features)[._]?([0-9]+)([/._:]|$)");
  for (const std::string *name :
       {&node.name(), node.output_size() > 0 ? &node.output(0) : nullptr}) {
    if (!name)
      continue;
    SmallVector<StringRef> matches;
    int64_t layer;
    if (pattern.match(*name, &matches) && !matches[3].getAsInteger(10, layer))
      return layer;
  }
  SmallVector<StringRef> matches;
  int64_t layer;
  if (getStackPattern().match(node.name(), &matches) &&
      !matches[3].getAsInteger(10, layer))
    return matches[2] == "decoder" ? encoderLayers + layer : layer;
  return std::nullopt;
}

} // namespace

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

RankedTensorType distir::onnx_import::getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

GraphImporter::GraphImporter(MLIRContext &context,
                             const OnnxImportOptions &options,
                             StringRef modelPath)
    : context(context), options(options), modelPath(modelPath.str()),
      modelDir(llvm::sys::path::parent_path(modelPath).str()),
      builder(&context) {}

FailureOr<const HostTensor *>
GraphImporter::getInitializer(const std::string &name) {
  auto cached = initializerValues.find(name);
  if (cached != initializerValues.end())
    return &cached->second;
  HostTensor tensor;
  Status status = tensorFromProto(*initializers.lookup(name), modelDir, tensor);
  if (!status.ok()) {
    if (error.empty())
      error = status.message();
    return failure();
  }
  return &initializerValues.emplace(name, std::move(tensor)).first->second;
}

FailureOr<Value> GraphImporter::createParameter(const std::string &name) {
  const onnx::TensorProto &proto = *initializers.lookup(name);
  std::optional<ElementType> type = getElementTypeFromOnnx(proto.data_type());
  if (!type) {
    error = "initializer '" + name + "' has element type " +
            getOnnxTypeName(proto.data_type()) +
            ", which distir does not support";
    return failure();
  }
  SmallVector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  for (int64_t dim : shape)
    if (dim < 0) {
      error = "initializer '" + name + "' has a negative dimension";
      return failure();
    }
  auto tensorType =
      RankedTensorType::get(shape, getMlirElementType(*type, &context));
  BlockArgument arg = entry->insertArgument(
      numParameters++, tensorType, NameLoc::get(builder.getStringAttr(name)));
  argumentNames[arg] = name;
  return Value(arg);
}

FailureOr<Value> GraphImporter::lookupValue(const std::string &name,
                                            const std::string &user) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  if (!initializers.count(name)) {
    error = user + ": value '" + name + "' is not defined";
    return failure();
  }
  // Initializers materialize on first use: floats become parameters (or
  // constants with --embed-weights), integers and booleans constants, and so
  // do BatchNormalization's running statistics, which are not trained.
  const onnx::TensorProto &proto = *initializers.lookup(name);
  std::optional<ElementType> type = getElementTypeFromOnnx(proto.data_type());
  Value value;
  if (type && isFloatType(*type) && !options.embedWeights &&
      !runningStatistics.count(name)) {
    FailureOr<Value> param = createParameter(name);
    if (failed(param))
      return failure();
    value = *param;
  } else {
    FailureOr<const HostTensor *> tensor = getInitializer(name);
    if (failed(tensor)) {
      error = user + ": " + error;
      return failure();
    }
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(entry);
    Location loc = NameLoc::get(builder.getStringAttr(name));
    NodeImporter constantBuilder(*this, emptyNode, 0, loc, user);
    FailureOr<Value> constant = constantBuilder.createConstant(**tensor);
    if (failed(constant)) {
      error = user + ": initializer '" + name + "': " + diagnostics;
      return failure();
    }
    value = *constant;
  }
  values[name] = value;
  return value;
}

StatusOr<const HostTensor *> GraphImporter::evaluate(Value root) {
  // Depth-first over the producers, without recursion: shape computations
  // are short, but a value may also depend on a long chain of ops.
  std::vector<Value> stack{root};
  std::set<std::string> usedInputs;
  std::deque<HostTensor> computed;
  llvm::DenseMap<Value, const HostTensor *> local;
  auto known = [&](Value v) -> const HostTensor * {
    if (const HostTensor *t = staticValues.lookup(v).get())
      return t;
    return local.lookup(v);
  };
  while (!stack.empty()) {
    Value value = stack.back();
    if (known(value)) {
      stack.pop_back();
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      const std::string &name = argumentNames.lookup(arg);
      if (initializers.count(name)) {
        FailureOr<const HostTensor *> init = getInitializer(name);
        if (failed(init))
          return Status::error(error);
        local[value] = *init;
      } else if (auto given = options.inputValues.find(name);
                 given != options.inputValues.end()) {
        usedInputs.insert(name);
        local[value] = &given->second;
      } else {
        return Status::error("it depends on graph input '" + name +
                             "'; give its value with --input-value " + name +
                             "=FILE");
      }
      stack.pop_back();
      continue;
    }
    Operation *op = value.getDefiningOp();
    // Before the cast: with assertions, MLIR aborts on a cast to an
    // interface the dialect promised but nobody registered.
    if (dist::isMissingExecutionModel(op))
      return Status::error("'" + op->getName().getStringRef().str() + "' " +
                           dist::getMissingExecutionModelMessage());
    auto compute = dyn_cast<dist::ExecutableOpInterface>(op);
    if (!compute)
      return Status::error("it is computed by '" +
                           op->getName().getStringRef().str() +
                           "', which cannot be evaluated at import time");
    bool ready = true;
    for (Value operand : op->getOperands())
      if (!known(operand)) {
        stack.push_back(operand);
        ready = false;
      }
    if (!ready)
      continue;
    stack.pop_back();
    std::vector<const HostTensor *> operands;
    for (Value operand : op->getOperands())
      operands.push_back(known(operand));
    std::vector<HostTensor *> results;
    for (Value result : op->getResults()) {
      ElementType elementType;
      std::vector<int64_t> shape;
      Status status = getHostTensorType(result.getType(), elementType, shape);
      if (!status.ok())
        return Status::error(
            "'" + op->getName().getStringRef().str() +
            "' has a result of unknown shape: " + status.message());
      if (Status size = checkFoldedSize(shape, elementType); !size.ok())
        return Status::error("evaluating '" +
                             op->getName().getStringRef().str() +
                             "' at import time: " + size.message());
      computed.emplace_back(elementType, shape);
      results.push_back(&computed.back());
      local[result] = &computed.back();
    }
    diagnostics.clear();
    if (failed(compute.execute(operands, results)))
      return Status::error("evaluating '" + op->getName().getStringRef().str() +
                           "' at import time failed: " + diagnostics);
  }
  // Keep what was computed for later queries; inputs whose values were used
  // become constants when the function is finished.
  frozenInputs.insert(usedInputs.begin(), usedInputs.end());
  for (auto &[value, tensor] : local) {
    if (staticValues.count(value))
      continue;
    staticValues[value] = std::make_shared<HostTensor>(*tensor);
  }
  return staticValues.lookup(root).get();
}

LogicalResult GraphImporter::checkAgainstOnnxTypes(NodeImporter &node) {
  for (int i = 0; i < node.getNumOutputs(); ++i) {
    const std::string &name = node.node.output(i);
    if (name.empty())
      continue;
    const onnx::TypeProto *onnxType = onnxTypes.lookup(name);
    if (!onnxType || !onnxType->has_tensor_type())
      continue;
    StatusOr<RankedTensorType> expected =
        convertType(*onnxType, &context, name);
    if (!expected)
      continue;
    RankedTensorType actual = getTensorType(values.lookup(name));
    bool sameRank = expected->getRank() == actual.getRank();
    bool compatible =
        sameRank && expected->getElementType() == actual.getElementType();
    for (int64_t d = 0; compatible && d < actual.getRank(); ++d)
      compatible = expected->isDynamicDim(d) || actual.isDynamicDim(d) ||
                   expected->getDimSize(d) == actual.getDimSize(d);
    if (!compatible) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "output '" << name << "' was imported as " << actual
         << " but ONNX shape inference gives " << *expected
         << " (an importer bug; please report it)";
      return node.error(text);
    }
  }
  return success();
}

LogicalResult
GraphImporter::importModel(const onnx::ModelProto &model, ModuleOp module,
                           std::map<std::string, int64_t> opsetVersions) {
  opsets = std::move(opsetVersions);
  const onnx::GraphProto &graph = model.graph();
  for (const onnx::TensorProto &init : graph.initializer())
    initializers[init.name()] = &init;
  if (options.recoverNames)
    recoveredNames = recoverParameterNames(graph);
  std::set<std::string> otherUses;
  for (const onnx::NodeProto &node : graph.node())
    for (int i = 0; i < node.input_size(); ++i)
      (node.op_type() == "BatchNormalization" && (i == 3 || i == 4)
           ? runningStatistics
           : otherUses)
          .insert(node.input(i));
  for (const std::string &name : otherUses)
    runningStatistics.erase(name);
  for (const onnx::ValueInfoProto &info : graph.input())
    onnxTypes[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.value_info())
    onnxTypes[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.output())
    onnxTypes[info.name()] = &info.type();

  // Diagnostics of shape rules, kernels and the verifier become part of the
  // importer's one-line error.
  llvm::StringMap<std::string> locationLabels;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    diagnosticLabel.clear();
    if (auto name = dyn_cast<NameLoc>(diag.getLocation()))
      diagnosticLabel = locationLabels.lookup(name.getName().getValue());
    diagnostics = oneLine(diag.str());
    return success();
  });

  builder.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(
      builder, NameLoc::get(builder.getStringAttr(modelPath)),
      options.functionName, builder.getFunctionType({}, {}));
  entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);

  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    StatusOr<RankedTensorType> type = convertType(
        input.type(), &context, "graph input '" + input.name() + "'");
    if (!type) {
      error = type.message();
      return failure();
    }
    BlockArgument arg = entry->addArgument(
        *type, NameLoc::get(builder.getStringAttr(input.name())));
    argumentNames[arg] = input.name();
    values[input.name()] = arg;
  }

  const int64_t encoderLayers = countEncoderLayers(graph);
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    std::string domain = isDefaultDomain(node.domain()) ? "" : node.domain();
    int64_t version = opsets[domain];
    if (domain.empty())
      if (const onnx::OpSchema *schema =
              onnx::OpSchemaRegistry::Schema(node.op_type(), version, ""))
        version = schema->since_version();
    std::string label = describeNode(node, i);
    std::string locName =
        node.name().empty() ? "#" + std::to_string(i) : node.name();
    locationLabels[locName] = label;
    Location loc = NameLoc::get(builder.getStringAttr(locName));

    Operation *last = entry->empty() ? nullptr : &entry->back();
    NodeImporter importer(*this, node, version, loc, label);
    // An optional input that failed to materialize reads as absent; its
    // error is recorded all the same.
    if (failed(lookupConverter(node.domain(), node.op_type())(importer)) ||
        !error.empty())
      return failure();
    for (int o = 0; o < node.output_size(); ++o)
      if (!node.output(o).empty() && !values.count(node.output(o)))
        return importer.error("output #" + Twine(o) + " ('" + node.output(o) +
                              "') is not supported");
    if (failed(checkAgainstOnnxTypes(importer)))
      return failure();
    if (std::optional<int64_t> layer = getLayerHint(node, encoderLayers)) {
      auto layerAttr = builder.getI64IntegerAttr(*layer);
      Operation *first = last             ? last->getNextNode()
                         : entry->empty() ? nullptr
                                          : &entry->front();
      for (Operation *op = first; op; op = op->getNextNode())
        if (!isa<dist::ConstantOp>(op))
          op->setAttr(dist::DistDialect::kLayerAttrName, layerAttr);
    }
  }
  if (failed(finish(graph)))
    return failure();

  diagnostics.clear();
  if (failed(mlir::verify(module))) {
    error = (diagnosticLabel.empty() ? "" : diagnosticLabel + ": ") +
            "the imported program does not verify: " + diagnostics;
    return failure();
  }
  return success();
}

LogicalResult GraphImporter::finish(const onnx::GraphProto &graph) {
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    FailureOr<Value> value =
        lookupValue(output.name(), "graph output '" + output.name() + "'");
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  func::ReturnOp::create(builder, func.getLoc(), results);

  // Inputs whose values the dialect needed are constants from now on.
  for (const std::string &name : frozenInputs) {
    BlockArgument arg = cast<BlockArgument>(values.lookup(name));
    builder.setInsertionPointToStart(entry);
    NodeImporter constantBuilder(*this, emptyNode, 0, arg.getLoc(),
                                 "graph input '" + name + "'");
    FailureOr<Value> constant =
        constantBuilder.createConstant(options.inputValues.at(name));
    if (failed(constant)) {
      error = "--input-value " + name + ": " + diagnostics;
      return failure();
    }
    arg.replaceAllUsesWith(*constant);
  }

  // Shape computations folded into attributes leave dead ops behind.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (isOpTriviallyDead(&op))
      op.erase();

  llvm::BitVector erased(entry->getNumArguments());
  for (BlockArgument arg : entry->getArguments()) {
    const std::string &name = argumentNames.lookup(arg);
    bool isParameter = arg.getArgNumber() < numParameters;
    if ((isParameter && arg.use_empty()) || frozenInputs.count(name))
      erased.set(arg.getArgNumber());
  }
  unsigned remainingParameters = numParameters;
  for (unsigned i = 0; i < numParameters; ++i)
    remainingParameters -= erased.test(i);
  entry->eraseArguments(erased);

  func.setFunctionType(builder.getFunctionType(
      entry->getArgumentTypes(),
      func::ReturnOp(entry->getTerminator()).getOperandTypes()));
  Builder b(&context);
  for (BlockArgument arg : entry->getArguments()) {
    unsigned i = arg.getArgNumber();
    const std::string &name = argumentNames.lookup(arg);
    auto recovered = recoveredNames.find(name);
    if (recovered == recoveredNames.end()) {
      func.setArgAttr(i, dist::DistDialect::kNameAttrName,
                      b.getStringAttr(name));
    } else {
      // The ONNX name stays beside it, for tools that relate the two.
      func.setArgAttr(i, dist::DistDialect::kNameAttrName,
                      b.getStringAttr(recovered->second));
      func.setArgAttr(i, kOnnxNameAttrName, b.getStringAttr(name));
    }
    dist::setArgRole(func, i,
                     i < remainingParameters ? dist::Role::Parameter
                                             : dist::Role::Data);
    // Integer data that indexes something: dist-run draws random inputs
    // below this bound.
    std::optional<int64_t> bound;
    for (Operation *user : arg.getUsers()) {
      std::optional<int64_t> size;
      if (auto take = dyn_cast<dist::TakeOp>(user);
          take && take.getIndices() == arg) {
        auto input = getTensorType(take.getInput());
        size = input.getDimSize(shapes::normalizeVerifiedAxis(
            static_cast<int64_t>(take.getAxis()), input.getRank()));
      } else if (auto loss = dyn_cast<dist::CrossEntropyOp>(user);
                 loss && loss.getLabels() == arg) {
        auto logits = getTensorType(loss.getLogits());
        size = logits.getDimSize(shapes::normalizeVerifiedAxis(
            static_cast<int64_t>(loss.getClassAxis()), logits.getRank()));
      }
      if (size && !ShapedType::isDynamic(*size))
        bound = bound ? std::min(*bound, *size) : *size;
    }
    if (bound && getElementTypeOrSelf(arg.getType()).isInteger() &&
        !getElementTypeOrSelf(arg.getType()).isInteger(1))
      func.setArgAttr(i, dist::DistDialect::kBoundAttrName,
                      b.getI64IntegerAttr(*bound));
  }
  for (auto [i, output] : llvm::enumerate(graph.output())) {
    func.setResultAttr(i, dist::DistDialect::kNameAttrName,
                       b.getStringAttr(output.name()));
    bool isLoss =
        producerOpType.lookup(output.name()) == "SoftmaxCrossEntropyLoss" &&
        getTensorType(results[i]).getRank() == 0;
    dist::setResultRole(func, i,
                        isLoss ? dist::Role::Loss : dist::Role::Output);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// NodeImporter
//===----------------------------------------------------------------------===//

NodeImporter::NodeImporter(GraphImporter &graph, const onnx::NodeProto &node,
                           int64_t version, Location loc, std::string label)
    : node(node), version(version), builder(graph.builder), loc(loc),
      context(&graph.context), graph(graph), label(std::move(label)) {}

LogicalResult NodeImporter::error(const Twine &message) {
  if (graph.error.empty())
    graph.error = label + ": " + message.str();
  return failure();
}

LogicalResult NodeImporter::reportDiagnostics() {
  std::string text =
      graph.diagnostics.empty() ? "a shape rule failed" : graph.diagnostics;
  graph.diagnostics.clear();
  return error(text);
}

bool NodeImporter::hasInput(int index) const {
  return index < node.input_size() && !node.input(index).empty();
}

FailureOr<Value> NodeImporter::getInput(int index) {
  if (!hasInput(index))
    return error("input #" + Twine(index) + " is missing");
  return graph.lookupValue(node.input(index), label);
}

Value NodeImporter::getOptionalInput(int index) {
  if (!hasInput(index))
    return {};
  FailureOr<Value> value = getInput(index);
  return succeeded(value) ? *value : Value();
}

FailureOr<const HostTensor *> NodeImporter::getStaticInput(int index,
                                                           StringRef what) {
  FailureOr<Value> value = getInput(index);
  if (failed(value))
    return failure();
  StatusOr<const HostTensor *> tensor = graph.evaluate(*value);
  if (tensor)
    return *tensor;
  return error(what + " (input '" + node.input(index) +
               "') must be known at import time, but " + tensor.message());
}

FailureOr<SmallVector<int64_t>> NodeImporter::getStaticInts(int index,
                                                            StringRef what) {
  FailureOr<const HostTensor *> tensor = getStaticInput(index, what);
  if (failed(tensor))
    return failure();
  SmallVector<int64_t> values;
  if (Status status = getIntegerValues(**tensor, values); !status.ok())
    return error(what + " (input '" + node.input(index) + "') " +
                 status.message());
  return values;
}

const HostTensor *NodeImporter::tryGetStaticInput(int index) {
  Value value = getOptionalInput(index);
  if (!value)
    return nullptr;
  StatusOr<const HostTensor *> tensor = graph.evaluate(value);
  return tensor ? *tensor : nullptr;
}

const onnx::AttributeProto *NodeImporter::findAttr(StringRef name) const {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

int64_t NodeImporter::getInt(StringRef name, int64_t defaultValue) const {
  const onnx::AttributeProto *attr = findAttr(name);
  return attr ? attr->i() : defaultValue;
}

double NodeImporter::getFloat(StringRef name, double defaultValue) const {
  const onnx::AttributeProto *attr = findAttr(name);
  return attr ? attr->f() : defaultValue;
}

std::string NodeImporter::getString(StringRef name,
                                    StringRef defaultValue) const {
  const onnx::AttributeProto *attr = findAttr(name);
  return attr ? attr->s() : defaultValue.str();
}

std::optional<SmallVector<int64_t>>
NodeImporter::getInts(StringRef name) const {
  const onnx::AttributeProto *attr = findAttr(name);
  if (!attr)
    return std::nullopt;
  return SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
}

bool NodeImporter::hasOutput(int index) const {
  return index < node.output_size() && !node.output(index).empty();
}

void NodeImporter::setOutput(int index, Value value) {
  if (!hasOutput(index))
    return;
  graph.values[node.output(index)] = value;
  graph.producerOpType[node.output(index)] = node.op_type();
}

FailureOr<Value> NodeImporter::createConstant(const HostTensor &value) {
  auto type = RankedTensorType::get(
      value.getShape(), getMlirElementType(value.getElementType(), context));
  FailureOr<Value> constant = create<dist::ConstantOp>(
      cast<ElementsAttr>(getElementsAttr(value, type)), dist::DevicesAttr());
  if (succeeded(constant))
    graph.staticValues[*constant] = std::make_shared<HostTensor>(value);
  return constant;
}

LogicalResult NodeImporter::requireFloat(Value value) {
  Type elementType = getElementTypeOrSelf(value.getType());
  if (isa<FloatType>(elementType))
    return success();
  return error(node.op_type() + " on " +
               llvm::formatv("{0}", elementType).str() +
               " tensors is not supported (the dist op takes floats)");
}

FailureOr<Value> NodeImporter::createScalar(Value like, double value) {
  Type elementType = getElementTypeOrSelf(like.getType());
  std::optional<ElementType> hostType = getHostElementType(elementType);
  if (!hostType)
    return error("no constant of element type " +
                 llvm::formatv("{0}", elementType).str());
  return createConstant(HostTensor::fromValues(*hostType, {}, {value}));
}

FailureOr<Value> NodeImporter::createReshape(Value input,
                                             ArrayRef<int64_t> shape) {
  SmallVector<int64_t> target(shape);
  bool inferred = false;
  for (int64_t &dim : target) {
    if (!ShapedType::isDynamic(dim))
      continue;
    if (inferred)
      return error("the reshape to [" +
                   llvm::join(llvm::map_range(shape,
                                              [](int64_t d) {
                                                return ShapedType::isDynamic(d)
                                                           ? std::string("?")
                                                           : std::to_string(d);
                                              }),
                              ", ") +
                   "] needs static dimensions; give the input shapes with "
                   "--input-shape");
    dim = -1;
    inferred = true;
  }
  if (getTensorType(input).getShape() == ArrayRef<int64_t>(shape))
    return input;
  return create<dist::ReshapeOp>(input, builder.getDenseI64ArrayAttr(target));
}

FailureOr<Value> NodeImporter::createSliceAlong(Value input, int64_t axis,
                                                int64_t start, int64_t end,
                                                int64_t step) {
  ArrayRef<int64_t> shape = getTensorType(input).getShape();
  SmallVector<int64_t> starts(shape.size(), 0), limits(shape),
      strides(shape.size(), 1);
  starts[axis] = start;
  limits[axis] = end;
  strides[axis] = step;
  return create<dist::SliceOp>(input, builder.getDenseI64ArrayAttr(starts),
                               builder.getDenseI64ArrayAttr(limits),
                               builder.getDenseI64ArrayAttr(strides));
}

FailureOr<Value> NodeImporter::createCast(Value value, Type type) {
  if (getElementTypeOrSelf(value.getType()) == type)
    return value;
  return create<dist::CastOp>(value, TypeAttr::get(type));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

StatusOr<OwningOpRef<ModuleOp>>
distir::importOnnxModel(StringRef contents, StringRef modelPath,
                        MLIRContext &context,
                        const OnnxImportOptions &options) {
  context.loadDialect<dist::DistDialect, func::FuncDialect>();
  auto fail = [&](const std::string &message) {
    return Status::error(formatModelError(modelPath, message));
  };
  onnx::ModelProto model;
  Status status = parseModel(contents, model);
  if (!status.ok())
    return fail(status.message());

  std::map<std::string, int64_t> opsets;
  try {
    onnx::GraphProto &graph = *model.mutable_graph();
    if (Status s = sortNodes(graph); !s.ok())
      return fail(s.message());
    if (Status s = applyInputShapes(graph, options); !s.ok())
      return fail(s.message());
    SilenceStdErr silence;
    try {
      if (hasExternalData(graph) && !isOnnxText(contents))
        onnx::checker::check_model(modelPath.str());
      else
        onnx::checker::check_model(model);
    } catch (const std::exception &e) {
      return fail("ONNX checker: " + oneLine(e.what()));
    }
    if (Status s = checkOpsets(model, opsets); !s.ok())
      return fail(s.message());
    if (Status s = checkSupportedOps(graph); !s.ok())
      return fail(s.message());
    if (Status s = checkWindowAttributes(graph); !s.ok())
      return fail(s.message());
    // Integer initializers (shapes, axes, indices) feed ONNX's data
    // propagation; float weights stay outside until they are needed.
    for (onnx::TensorProto &init : *graph.mutable_initializer()) {
      std::optional<ElementType> type =
          getElementTypeFromOnnx(init.data_type());
      if (type && !isFloatType(*type))
        if (Status s = inlineExternalData(
                init, llvm::sys::path::parent_path(modelPath));
            !s.ok())
          return fail(s.message());
    }
    try {
      onnx::ShapeInferenceOptions inference(/*check_type=*/true,
                                            /*strict_mode=*/1,
                                            /*data_prop=*/true);
      onnx::shape_inference::InferShapes(
          model, onnx::OpSchemaRegistry::Instance(), inference);
    } catch (const std::exception &e) {
      return fail("ONNX shape inference: " + oneLine(e.what()));
    }

    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    GraphImporter importer(context, options, modelPath);
    if (failed(importer.importModel(model, *module, opsets)))
      return fail(importer.error.empty() ? "import failed" : importer.error);
    return std::move(module);
  } catch (const std::exception &e) {
    return fail(oneLine(e.what()));
  } catch (...) {
    return fail("unexpected error while importing");
  }
}
