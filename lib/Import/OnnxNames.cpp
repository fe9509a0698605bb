//===- OnnxNames.cpp - Parameter names from the exporter's scopes ---------===//
//
// torch.onnx.export constant-folds the transposed weight of every nn.Linear
// (and the weights of recurrent layers) into initializers it names itself,
// `onnx::MatMul_567`, so layout maps and name-based parallelization cannot
// address them. The node that reads such an initializer still carries the
// module's scope (`/h.0/c_fc/MatMul`), and the layer's bias, which torch
// does not fold, its name: the parameter is named after the bias
// (`h.0.c_fc.bias` gives `h.0.c_fc.weight`) or else after the scope plus the
// operand's role (`h.0.c_fc.weight`).
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace distir;
using namespace distir::onnx_import;

namespace {

/// The module path of a node named like `/model/features/features.1/attn/
/// MatMul_3`: the components before the op's own, where a component that
/// extends the previous one (torch names the children of Sequential and
/// ModuleList `features.1` inside `features`) replaces it.
std::string getScope(llvm::StringRef nodeName) {
  if (!nodeName.starts_with("/"))
    return "";
  llvm::SmallVector<llvm::StringRef> components;
  nodeName.split(components, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (components.size() < 2)
    return "";
  components.pop_back();
  llvm::SmallVector<std::string> path;
  for (llvm::StringRef component : components) {
    if (!path.empty() && component.starts_with(path.back() + "."))
      path.back() = component.str();
    else
      path.push_back(component.str());
  }
  return llvm::join(path, ".");
}

/// The numbered occurrence of an op in its scope (`LSTM_1` is 1, `LSTM` 0):
/// torch's layer index of stacked recurrent layers.
std::string getLayerSuffix(llvm::StringRef nodeName) {
  llvm::StringRef last = nodeName.rsplit('/').second;
  llvm::StringRef number = last.rsplit('_').second;
  unsigned index = 0;
  if (number.empty() || number.getAsInteger(10, index))
    index = 0;
  return "_l" + std::to_string(index);
}

/// The parameter name of what operand `index` of `node` holds, or "".
std::string getRoleName(const onnx::NodeProto &node, int index) {
  const std::string &op = node.op_type();
  if ((op == "MatMul" && index == 1) ||
      ((op == "Gemm" || op == "Conv") && index == 1))
    return "weight";
  if ((op == "Gemm" || op == "Conv") && index == 2)
    return "bias";
  if (op == "LSTM" || op == "GRU" || op == "RNN") {
    static const char *const kRoles[] = {"", "weight_ih", "weight_hh", "bias"};
    if (index >= 1 && index <= 3)
      return kRoles[index] + getLayerSuffix(node.name());
  }
  return "";
}

/// The weight name that goes with the bias of the same layer: torch exports
/// nn.Linear as a MatMul whose result an Add offsets by the (unfolded,
/// still named) bias, or as a Gemm reading it. `x.bias` gives `x.weight`,
/// nn.MultiheadAttention's `x.in_proj_bias` gives `x.in_proj_weight`.
std::string getWeightNameFromBias(
    const onnx::NodeProto &node, const std::set<std::string> &named,
    const std::multimap<std::string, const onnx::NodeProto *> &readers) {
  // torch deduplicates equal initializers (the zero biases of a freshly
  // initialized model): a bias outside the node's scope is another layer's.
  std::string scope = getScope(node.name());
  auto fromBias = [&](const std::string &bias) -> std::string {
    llvm::StringRef name(bias);
    if (!named.count(bias) || !name.ends_with("bias") ||
        (!scope.empty() && !name.starts_with(scope + ".")))
      return "";
    return name.drop_back(4).str() + "weight";
  };
  if (node.op_type() == "Gemm" && node.input_size() > 2)
    return fromBias(node.input(2));
  if (node.op_type() != "MatMul" || node.output_size() < 1)
    return "";
  auto [begin, end] = readers.equal_range(node.output(0));
  for (auto it = begin; it != end; ++it) {
    const onnx::NodeProto &add = *it->second;
    if (add.op_type() != "Add" || add.input_size() != 2)
      continue;
    const std::string &other =
        add.input(0) == node.output(0) ? add.input(1) : add.input(0);
    if (std::string name = fromBias(other); !name.empty())
      return name;
  }
  return "";
}

} // namespace

std::map<std::string, std::string>
onnx_import::recoverParameterNames(const onnx::GraphProto &graph) {
  std::set<std::string> taken, named, generated;
  for (const onnx::TensorProto &init : graph.initializer()) {
    taken.insert(init.name());
    (llvm::StringRef(init.name()).starts_with("onnx::") ? generated : named)
        .insert(init.name());
  }
  std::multimap<std::string, const onnx::NodeProto *> readers;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &input : node.input())
      readers.emplace(input, &node);
  for (const onnx::ValueInfoProto &input : graph.input())
    taken.insert(input.name());

  // The first reader of each generated initializer names it.
  std::map<std::string, std::string> proposed;
  for (const onnx::NodeProto &node : graph.node())
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string &input = node.input(i);
      if (!generated.count(input) || proposed.count(input))
        continue;
      std::string role = getRoleName(node, i);
      std::string name =
          role == "weight" ? getWeightNameFromBias(node, named, readers) : "";
      if (std::string scope = getScope(node.name());
          name.empty() && !scope.empty() && !role.empty())
        name = scope + "." + role;
      proposed[input] = name;
    }

  // A name two initializers would share, or one the model already uses,
  // names neither: the exporter's names stay.
  std::map<std::string, int> uses;
  for (const auto &[init, name] : proposed)
    if (!name.empty())
      ++uses[name];
  std::map<std::string, std::string> names;
  for (const auto &[init, name] : proposed)
    if (!name.empty() && uses[name] == 1 && !taken.count(name))
      names[init] = name;
  return names;
}
