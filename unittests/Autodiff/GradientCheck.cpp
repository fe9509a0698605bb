//===- GradientCheck.cpp - autodiff against finite differences ------------===//

#include "GradientCheck.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace distir;
using namespace distir::testing;

namespace {

/// Collects diagnostics as text instead of printing them.
struct CapturedDiagnostics {
  explicit CapturedDiagnostics(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag << "\n";
          return success();
        }) {}
  std::string text;
  ScopedDiagnosticHandler handler;
};

bool isParameter(func::FuncOp func, unsigned index) {
  auto role = func.getArgAttrOfType<StringAttr>(index, "dist.role");
  return role && role.getValue() == "parameter";
}

} // namespace

func::FuncOp distir::testing::getFirstFunction(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      return func;
  return {};
}

LogicalResult
distir::testing::makeArguments(func::FuncOp func, uint64_t seed,
                               std::vector<PlacedValue> &arguments,
                               std::string &error) {
  for (BlockArgument arg : func.getArguments()) {
    ElementType type;
    std::vector<int64_t> shape;
    if (Status status = getHostTensorType(arg.getType(), type, shape);
        !status.ok()) {
      error = status.message();
      return failure();
    }
    int64_t bound = 0;
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                       "dist.bound"))
      bound = attr.getInt();
    PlacedValue value;
    if (dist::DevicesAttr devices = dist::getPlacement(arg.getType()))
      value.devices.assign(devices.getIds().begin(), devices.getIds().end());
    size_t count = std::max<size_t>(value.devices.size(), 1);
    for (size_t d = 0; d < count; ++d) {
      std::string name =
          "arg" + std::to_string(arg.getArgNumber()) + "." + std::to_string(d);
      value.locals.push_back(std::make_shared<HostTensor>(
          HostTensor::random(name, shape, type, seed, bound)));
    }
    arguments.push_back(std::move(value));
  }
  return success();
}

OwningOpRef<ModuleOp>
distir::testing::differentiate(ModuleOp forward,
                               const dist::DistAutodiffOptions &options,
                               std::string &error) {
  MLIRContext &context = *forward.getContext();
  CapturedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> step = forward.clone();
  PassManager pm(&context);
  pm.addPass(dist::createDistAutodiff(options));
  if (failed(pm.run(*step))) {
    error = "dist-autodiff failed: " + diagnostics.text;
    return nullptr;
  }
  return step;
}

namespace {

/// Runs `func`; the objective is the sum over devices of the first result
/// (the loss on each device holding it), which is what a seed of 1 on every
/// device differentiates.
LogicalResult runProgram(ModuleOp module, func::FuncOp func,
                         const std::vector<PlacedValue> &arguments,
                         std::vector<PlacedValue> &results, double &objective) {
  Interpreter interpreter(module);
  results.clear();
  if (failed(interpreter.run(func, arguments, results)))
    return failure();
  objective = 0;
  for (const auto &local : results.front().locals)
    objective += local->getAsDouble(0);
  return success();
}

std::vector<int64_t> elementsToCheck(int64_t count, int64_t maxElements) {
  std::vector<int64_t> indices;
  if (maxElements <= 0 || count <= maxElements) {
    for (int64_t i = 0; i < count; ++i)
      indices.push_back(i);
    return indices;
  }
  for (int64_t k = 0; k < maxElements; ++k)
    indices.push_back(k * (count - 1) / (maxElements - 1));
  return indices;
}

} // namespace

std::unique_ptr<MLIRContext> distir::testing::makeContext() {
  DialectRegistry registry;
  distir::registerAllDialects(registry);
  // The checks run the forward and the training step.
  mlir::dist::registerExecutionInterfaceExternalModels(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

GradientCheckResult
distir::testing::checkGradients(ModuleOp forward,
                                const GradientCheckOptions &options) {
  GradientCheckResult result;
  MLIRContext &context = *forward.getContext();
  CapturedDiagnostics diagnostics(context);
  auto fail = [&](const std::string &what) {
    result.error =
        what + (diagnostics.text.empty() ? "" : ": " + diagnostics.text);
    return result;
  };

  func::FuncOp forwardFunc = getFirstFunction(forward);
  if (!forwardFunc)
    return fail("no function to check");
  dist::DistAutodiffOptions autodiff;
  autodiff.optimizer = dist::Optimizer::None;
  autodiff.funcName = forwardFunc.getSymName().str();
  OwningOpRef<ModuleOp> step = differentiate(forward, autodiff, result.error);
  if (!step)
    return result;
  func::FuncOp stepFunc = getFirstFunction(*step);

  std::vector<PlacedValue> arguments;
  if (failed(makeArguments(forwardFunc, options.seed, arguments, result.error)))
    return result;

  // The training step takes the parameters first, then the other arguments,
  // each group in its original order; it returns the loss, then the
  // gradients in parameter order.
  std::vector<unsigned> parameters;
  std::vector<PlacedValue> stepArguments;
  for (unsigned i = 0; i < forwardFunc.getNumArguments(); ++i)
    if (isParameter(forwardFunc, i)) {
      parameters.push_back(i);
      stepArguments.push_back(arguments[i]);
    }
  for (unsigned i = 0; i < forwardFunc.getNumArguments(); ++i)
    if (!isParameter(forwardFunc, i))
      stepArguments.push_back(arguments[i]);
  result.numParameters = parameters.size();

  std::vector<PlacedValue> stepResults, forwardResults;
  double stepLoss = 0, forwardLoss = 0;
  if (failed(runProgram(*step, stepFunc, stepArguments, stepResults, stepLoss)))
    return fail("the training step failed to run");
  if (failed(runProgram(forward, forwardFunc, arguments, forwardResults,
                        forwardLoss)))
    return fail("the forward function failed to run");
  result.loss = forwardLoss;
  if (stepLoss != forwardLoss)
    return fail("the training step's loss " + std::to_string(stepLoss) +
                " differs from the forward loss " +
                std::to_string(forwardLoss));
  if (stepResults.size() < 1 + parameters.size())
    return fail("the training step returns too few results");

  for (auto [k, index] : llvm::enumerate(parameters)) {
    auto name = forwardFunc.getArgAttrOfType<StringAttr>(index, "dist.name");
    std::string label = name ? name.str() : "arg" + std::to_string(index);
    const PlacedValue &gradient = stepResults[1 + k];
    PlacedValue &parameter = arguments[index];
    for (size_t d = 0; d < parameter.locals.size(); ++d) {
      std::shared_ptr<const HostTensor> original = parameter.locals[d];
      for (int64_t i : elementsToCheck(original->getNumElements(),
                                       options.maxElementsPerParameter)) {
        double value = original->getAsDouble(i), objective[2];
        for (int side = 0; side < 2; ++side) {
          auto perturbed = std::make_shared<HostTensor>(*original);
          perturbed->setFromDouble(i, value + (side == 0 ? 1 : -1) *
                                                  options.epsilon);
          parameter.locals[d] = perturbed;
          std::vector<PlacedValue> ignored;
          if (failed(runProgram(forward, forwardFunc, arguments, ignored,
                                objective[side])))
            return fail("the forward function failed to run");
        }
        parameter.locals[d] = original;
        double numeric = (objective[0] - objective[1]) / (2 * options.epsilon);
        double analytic = gradient.locals[d]->getAsDouble(i);
        double error = std::abs(analytic - numeric);
        result.maxAbsError = std::max(result.maxAbsError, error);
        ++result.numElementsChecked;
        if (!(error <= options.absTolerance +
                           options.relTolerance *
                               std::max(std::abs(analytic), std::abs(numeric))))
          result.mismatches.push_back(
              label + " device#" + std::to_string(d) + " element " +
              std::to_string(i) + ": autodiff " + std::to_string(analytic) +
              ", finite differences " + std::to_string(numeric));
      }
    }
  }
  return result;
}

GradientCheckResult
distir::testing::checkGradients(MLIRContext &context, llvm::StringRef source,
                                const GradientCheckOptions &options) {
  CapturedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module) {
    GradientCheckResult result;
    result.error = "parse error: " + diagnostics.text;
    return result;
  }
  return checkGradients(*module, options);
}
