//===- Inputs.cpp - Global inputs of a program: files or generated --------===//

#include "distir/Executor/Inputs.h"

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Kernels/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace distir {

std::string describe(const GlobalLayout &layout) {
  return "'" + layout.name + "' " + getElementTypeName(layout.elementType) +
         " " + formatShape(layout.globalShape);
}

static int64_t getDimSize(Value value, int64_t axis) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() == 0)
    return 0;
  int64_t dim = axis < 0 ? axis + type.getRank() : axis;
  if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return 0;
  return type.getDimSize(dim);
}

/// The bound an integer operand gets from what it indexes: the size of the
/// dim a take or a cross-entropy label indexes (0: none).
static int64_t getIndexBound(Operation *user, Value operand) {
  if (auto take = dyn_cast<dist::TakeOp>(user);
      take && operand == take.getIndices())
    return getDimSize(take.getInput(), static_cast<int64_t>(take.getAxis()));
  if (auto loss = dyn_cast<dist::CrossEntropyOp>(user);
      loss && operand == loss.getLabels())
    return getDimSize(loss.getLogits(),
                      static_cast<int64_t>(loss.getClassAxis()));
  if (auto grad = dyn_cast<dist::CrossEntropyGradOp>(user);
      grad && operand == grad.getLabels())
    return getDimSize(grad.getLogits(),
                      static_cast<int64_t>(grad.getClassAxis()));
  return 0;
}

/// Integers: dist.bound, else the size of the dim they index (take indices,
/// cross-entropy labels), else kDefaultIntegerBound. Matmul weights (right
/// operands of rank >= 2) are scaled by 1/sqrt(contracting size). Floats
/// feeding an Adam step count are 1 (the first step); those feeding a variance
/// (Adam's second moment, batch_norm's variance) are made non-negative, since a
/// negative one would turn the results into NaN.
GenerationRule getGenerationRule(func::FuncOp func, unsigned index,
                                 const GlobalLayout &layout) {
  GenerationRule rule;
  rule.bound = layout.bound;
  for (OpOperand &use : func.getArgument(index).getUses()) {
    Operation *user = use.getOwner();
    Value operand = use.get();
    int64_t bound = getIndexBound(user, operand);
    if (rule.bound <= 0 && bound > 0)
      rule.bound = bound;
    // The weight of x @ W: uniform in +-1/sqrt(K), K its contracting size,
    // as PyTorch initializes nn.Linear. Unscaled weights make every layer
    // multiply activations by ~sqrt(K/3): a deep net's values explode and
    // f32 comparisons of transformed programs drown in rounding.
    if (auto matmul = dyn_cast<dist::MatmulOp>(user);
        matmul && operand == matmul.getRhs() && rule.scale == 1.0) {
      bool isMatrix = cast<RankedTensorType>(operand.getType()).getRank() >= 2;
      int64_t contracting =
          getDimSize(operand, matmul.getTransposeB() ? -1 : -2);
      if (isMatrix && contracting > 0)
        rule.scale = 1.0 / std::sqrt(double(contracting));
    }
    if (auto adam = dyn_cast<dist::AdamUpdateOp>(user)) {
      if (operand == adam.getStep())
        rule.fill = 1.0;
      if (operand == adam.getMoment2())
        rule.nonNegative = true;
    }
    if (auto norm = dyn_cast<dist::BatchNormOp>(user);
        norm && operand == norm.getVariance())
      rule.nonNegative = true;
    if (auto norm = dyn_cast<dist::BatchNormGradOp>(user);
        norm && operand == norm.getVariance())
      rule.nonNegative = true;
  }
  if (rule.bound <= 0)
    rule.bound = kDefaultIntegerBound;
  return rule;
}

HostTensor generateInput(func::FuncOp func, unsigned index,
                         const GlobalLayout &layout, uint64_t seed) {
  GenerationRule rule = getGenerationRule(func, index, layout);
  HostTensor tensor = HostTensor::random(
      layout.name, layout.globalShape, layout.elementType, seed,
      isIntegerType(layout.elementType) ? rule.bound : 0);
  if (rule.fill)
    tensor.fill(*rule.fill);
  else if (rule.nonNegative)
    for (int64_t i = 0; i < tensor.getNumElements(); ++i)
      tensor.setFromDouble(i, std::fabs(tensor.getAsDouble(i)));
  else if (rule.scale != 1.0)
    for (int64_t i = 0; i < tensor.getNumElements(); ++i)
      tensor.setFromDouble(i, tensor.getAsDouble(i) * rule.scale);
  return tensor;
}

Status parseInputSpecs(const std::vector<std::string> &specs,
                       const std::vector<GlobalLayout> &layouts,
                       std::map<std::string, std::string> &files) {
  for (const std::string &spec : specs) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0)
      return Status::error("--input expects NAME=file.npy, got '" + spec + "'");
    files[spec.substr(0, equals)] = spec.substr(equals + 1);
  }
  for (const auto &[name, path] : files) {
    bool known = llvm::any_of(
        layouts, [&](const GlobalLayout &l) { return l.name == name; });
    if (known)
      continue;
    std::string names;
    for (const GlobalLayout &layout : layouts)
      names += (names.empty() ? "" : ", ") + layout.name;
    return Status::error("--input names unknown argument '" + name +
                         "' (arguments: " + names + ")");
  }
  return Status::success();
}

Status checkInputMemory(const std::vector<GlobalLayout> &layouts,
                        int64_t limit) {
  std::optional<int64_t> total = 0;
  const GlobalLayout *largest = nullptr;
  int64_t largestBytes = -1;
  for (const GlobalLayout &layout : layouts) {
    int64_t devices = std::max<int64_t>(layout.devices.size(), 1);
    std::optional<int64_t> global =
        getHostBytes(layout.elementType, layout.globalShape, 1);
    std::optional<int64_t> placed =
        getHostBytes(layout.elementType, layout.localShape, devices);
    std::optional<int64_t> bytes =
        global && placed ? llvm::checkedAdd(*global, *placed) : std::nullopt;
    int64_t known = bytes.value_or(std::numeric_limits<int64_t>::max());
    if (known > largestBytes) {
      largest = &layout;
      largestBytes = known;
    }
    total = bytes && total ? llvm::checkedAdd(*total, *bytes) : std::nullopt;
  }
  if (total && *total <= limit)
    return Status::success();
  std::string need =
      total ? std::to_string(*total) + " bytes" : "more than 2^63 bytes";
  return Status::error("the inputs need " + need +
                       " of host memory (global tensors and their device "
                       "blocks), more than the limit of " +
                       std::to_string(limit) + " bytes; the largest is " +
                       describe(*largest));
}

Status makeInputs(func::FuncOp func, const std::vector<GlobalLayout> &layouts,
                  InputSources sources, std::vector<HostTensor> &inputs) {
  const std::map<std::string, std::string> &files = sources.npyFiles;
  for (auto [index, layout] : llvm::enumerate(layouts)) {
    auto file = files.find(layout.name);
    auto weight = sources.weights.find(layout.name);
    std::string source;
    HostTensor tensor;
    if (file != files.end()) {
      source = file->second;
      DISTIR_RETURN_IF_ERROR(readNpyFile(file->second, tensor));
    } else if (weight != sources.weights.end()) {
      source = sources.weightsFile + ": initializer '" + layout.name + "'";
      tensor = std::move(weight->second);
    } else {
      inputs.push_back(generateInput(func, index, layout, sources.seed));
      continue;
    }
    if (tensor.getShape() != layout.globalShape ||
        tensor.getElementType() != layout.elementType)
      return Status::error(source + ": holds " +
                           getElementTypeName(tensor.getElementType()) + " " +
                           formatShape(tensor.getShape()) + " but argument " +
                           describe(layout) + " needs " +
                           getElementTypeName(layout.elementType) + " " +
                           formatShape(layout.globalShape));
    inputs.push_back(std::move(tensor));
  }
  return Status::success();
}

} // namespace distir
