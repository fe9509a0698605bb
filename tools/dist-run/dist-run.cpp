//===- dist-run.cpp - run a dist program on the CPU -----------------------===//
//
// Executes a function of a dist program with the reference interpreter, in
// the global view: inputs are global tensors (generated from a seed or read
// from .npy files) laid out over devices as the signature says, and results
// are reassembled into global tensors. With --reference, the original
// program runs on the same inputs and every result is compared.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Executor/Executor.h"
#include "distir/Executor/GlobalView.h"
#include "distir/Import/OnnxImporter.h"
#include "distir/Kernels/Npy.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <map>

using namespace mlir;
using namespace distir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("dist-run options");
// "-" (the default) reads the program from standard input, so dist-run ends
// a pipeline: dist-gen ... | dist-opt ... | dist-run --seed 1.
cl::opt<std::string> programFile(cl::Positional,
                                 cl::desc("<program.mlir, default: stdin>"),
                                 cl::init("-"), cl::cat(category));
cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: @main, or the "
                       "only public function)"),
              cl::value_desc("name"), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the generated inputs"),
                       cl::init(0), cl::cat(category));
cl::list<std::string>
    inputFiles("input", cl::desc("Global value of one argument: NAME=file.npy"),
               cl::value_desc("NAME=file.npy"), cl::cat(category));
cl::opt<std::string> weightsFile(
    "weights",
    cl::desc("ONNX model whose initializers are the arguments of the same "
             "dist.name (those without --input)"),
    cl::value_desc("model.onnx"), cl::cat(category));
cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Write each global result as <name>.npy here"),
              cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> referenceFile(
    "reference",
    cl::desc("Original program: run it on the same global inputs and compare"),
    cl::value_desc("orig.mlir"), cl::cat(category));
cl::opt<std::string> referenceEntryName(
    "reference-entry",
    cl::desc(
        "Function of --reference to compare with (default: the --entry name "
        "if the reference has it, else @main or its only public function)"),
    cl::value_desc("name"), cl::cat(category));
cl::opt<double> relativeTolerance("rtol",
                                  cl::desc("Relative tolerance of --reference"),
                                  cl::init(1e-4), cl::cat(category));
cl::opt<double> absoluteTolerance("atol",
                                  cl::desc("Absolute tolerance of --reference"),
                                  cl::init(1e-5), cl::cat(category));
cl::opt<bool> printValues("print-values",
                          cl::desc("Print every value of every result"),
                          cl::cat(category));
cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Execute the program this many times (for timing; "
                    "the results of the last run are reported)"),
           cl::init(1), cl::cat(category));
cl::opt<bool>
    printTime("time",
              cl::desc("Print the execution time of the program (not of "
                       "parsing or making inputs) to stderr"),
              cl::cat(category));

/// Integer arguments without dist.bound and without a use that implies a
/// bound are drawn from [0, kDefaultIntegerBound): an arbitrary choice,
/// documented in docs/dist-run.md.
constexpr int64_t kDefaultIntegerBound = 100;
/// Results with at most this many elements are printed in full.
constexpr int64_t kFullPrintLimit = 16;

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "dist-run: error: " << message << "\n";
  std::exit(1);
}

/// Prints diagnostics as single "file:line:col: error: message" lines.
void printDiagnostic(Diagnostic &diagnostic) {
  auto location = diagnostic.getLocation()->findInstanceOf<FileLineColLoc>();
  if (location)
    llvm::errs() << location.getFilename().getValue() << ":"
                 << location.getLine() << ":" << location.getColumn() << ": ";
  else
    llvm::errs() << "dist-run: ";
  switch (diagnostic.getSeverity()) {
  case DiagnosticSeverity::Error:
    llvm::errs() << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    llvm::errs() << "warning: ";
    break;
  default:
    llvm::errs() << "note: ";
    break;
  }
  llvm::errs() << diagnostic.str() << "\n";
}

OwningOpRef<ModuleOp> parseProgram(const std::string &path,
                                   MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr) {
  std::string error;
  auto buffer = openInputFile(path, &error);
  if (!buffer)
    fail("cannot read " + path + ": " + error);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    std::exit(1); // The parser or verifier printed the error.
  return module;
}

/// The function to run: `name` if given, else @main, else the only public
/// function.
func::FuncOp selectEntry(ModuleOp module, const std::string &path,
                         const std::string &name) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func)
      fail(path + ": no function @" + name);
    return func;
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp only;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (only)
      fail(path +
           ": several public functions and no @main: choose one with --entry");
    only = func;
  }
  if (!only)
    fail(path + ": no function to run");
  return only;
}

std::string describe(const GlobalLayout &layout) {
  return "'" + layout.name + "' " + getElementTypeName(layout.elementType) +
         " " + formatShape(layout.globalShape);
}

/// How to generate one argument so that the program sees valid data: a
/// bound for integers, non-negative values for variances, a step number.
struct GenerationRule {
  int64_t bound = 0;
  bool nonNegative = false;
  std::optional<double> fill;
  /// Multiplies the uniform [-1, 1) values (1: unscaled).
  double scale = 1.0;
};

int64_t getDimSize(Value value, int64_t axis) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() == 0)
    return 0;
  int64_t dim = axis < 0 ? axis + type.getRank() : axis;
  if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return 0;
  return type.getDimSize(dim);
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
    int64_t bound = 0;
    if (auto take = dyn_cast<dist::TakeOp>(user);
        take && operand == take.getIndices())
      bound = getDimSize(take.getInput(), static_cast<int64_t>(take.getAxis()));
    else if (auto loss = dyn_cast<dist::CrossEntropyOp>(user);
             loss && operand == loss.getLabels())
      bound = getDimSize(loss.getLogits(),
                         static_cast<int64_t>(loss.getClassAxis()));
    else if (auto grad = dyn_cast<dist::CrossEntropyGradOp>(user);
             grad && operand == grad.getLabels())
      bound = getDimSize(grad.getLogits(),
                         static_cast<int64_t>(grad.getClassAxis()));
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
                         const GlobalLayout &layout) {
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

/// The global inputs: --input files first, the rest generated from the seed.
std::vector<HostTensor> makeInputs(func::FuncOp func,
                                   const std::vector<GlobalLayout> &layouts) {
  std::map<std::string, std::string> files;
  for (const std::string &spec : inputFiles) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0)
      fail("--input expects NAME=file.npy, got '" + spec + "'");
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
    fail("--input names unknown argument '" + name + "' (arguments: " + names +
         ")");
  }
  std::map<std::string, HostTensor> weights;
  if (!weightsFile.empty())
    if (Status status = loadOnnxInitializers(weightsFile, weights);
        !status.ok())
      fail(status.message());
  std::vector<HostTensor> inputs;
  for (auto [index, layout] : llvm::enumerate(layouts)) {
    auto file = files.find(layout.name);
    auto weight = weights.find(layout.name);
    std::string source;
    HostTensor tensor;
    if (file != files.end()) {
      source = file->second;
      if (Status status = readNpyFile(file->second, tensor); !status.ok())
        fail(status.message());
    } else if (weight != weights.end()) {
      source = weightsFile + ": initializer '" + layout.name + "'";
      tensor = std::move(weight->second);
    } else {
      inputs.push_back(generateInput(func, index, layout));
      continue;
    }
    if (tensor.getShape() != layout.globalShape ||
        tensor.getElementType() != layout.elementType)
      fail(source + ": holds " + getElementTypeName(tensor.getElementType()) +
           " " + formatShape(tensor.getShape()) + " but argument " +
           describe(layout) + " needs " +
           getElementTypeName(layout.elementType) + " " +
           formatShape(layout.globalShape));
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

/// Runs `func` on global inputs and returns global results.
bool runGlobal(func::FuncOp func, const std::vector<HostTensor> &inputs,
               std::vector<HostTensor> &outputs,
               std::vector<GlobalLayout> &resultLayouts) {
  std::vector<GlobalLayout> argumentLayouts;
  if (failed(getArgumentLayouts(func, argumentLayouts)) ||
      failed(getResultLayouts(func, resultLayouts)))
    return false;
  std::vector<PlacedValue> arguments(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status status =
            distributeGlobal(inputs[i], argumentLayouts[i], arguments[i]);
        !status.ok())
      fail("argument " + std::to_string(i) + ": " + status.message());
  Interpreter interpreter(func->getParentOfType<ModuleOp>());
  std::vector<PlacedValue> results;
  for (unsigned run = 0; run < std::max(1u, unsigned(repeat)); ++run) {
    auto start = std::chrono::steady_clock::now();
    if (failed(interpreter.run(func, arguments, results)))
      return false;
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    if (printTime)
      llvm::errs() << "time: @" << func.getSymName() << " run " << run << ": "
                   << llvm::format("%.3f", elapsed.count()) << " ms\n";
  }
  outputs.resize(results.size());
  for (size_t i = 0; i < results.size(); ++i)
    if (Status status =
            assembleGlobal(results[i], resultLayouts[i], relativeTolerance,
                           absoluteTolerance, outputs[i]);
        !status.ok())
      fail("result " + std::to_string(i) + ": " + status.message());
  return true;
}

void checkSameSignature(const std::vector<GlobalLayout> &program,
                        const std::vector<GlobalLayout> &reference,
                        const char *what) {
  if (program.size() != reference.size())
    fail(programFile + " has " + std::to_string(program.size()) + " " + what +
         "s but " + referenceFile + " has " + std::to_string(reference.size()));
  for (size_t i = 0; i < program.size(); ++i)
    if (program[i].name != reference[i].name ||
        program[i].globalShape != reference[i].globalShape ||
        program[i].elementType != reference[i].elementType)
      fail(std::string(what) + " " + std::to_string(i) + " is " +
           describe(program[i]) + " in " + programFile + " but " +
           describe(reference[i]) + " in " + referenceFile);
}

std::string formatNumber(double value, ElementType type) {
  char buffer[48];
  if (isIntegerType(type))
    std::snprintf(buffer, sizeof(buffer), "%lld",
                  static_cast<long long>(value));
  else
    std::snprintf(buffer, sizeof(buffer), "%.7g", value);
  return buffer;
}

/// Nested lists like NumPy: [[1, 2], [3, 4]].
void printNested(llvm::raw_ostream &os, const HostTensor &tensor) {
  const std::vector<int64_t> &shape = tensor.getShape();
  if (shape.empty()) {
    os << formatNumber(tensor.getAsDouble(0), tensor.getElementType());
    return;
  }
  std::vector<int64_t> counter(shape.size(), 0);
  int64_t total = tensor.getNumElements();
  if (total == 0) {
    os << "[]";
    return;
  }
  for (int64_t i = 0; i < total; ++i) {
    size_t opened = 0;
    for (size_t d = shape.size(); d-- > 0;)
      if (counter[d] == 0)
        ++opened;
      else
        break;
    if (i > 0)
      os << ", ";
    for (size_t o = 0; o < opened; ++o)
      os << "[";
    os << formatNumber(tensor.getAsDouble(i), tensor.getElementType());
    for (size_t d = shape.size(); d-- > 0;) {
      if (++counter[d] < shape[d])
        break;
      counter[d] = 0;
      os << "]";
    }
  }
}

void printSummary(const GlobalLayout &layout, const HostTensor &tensor) {
  llvm::outs() << layout.name << ": "
               << getElementTypeName(tensor.getElementType()) << " "
               << formatShape(tensor.getShape());
  const int64_t count = tensor.getNumElements();
  if (printValues || count <= kFullPrintLimit) {
    llvm::outs() << " = ";
    printNested(llvm::outs(), tensor);
    llvm::outs() << "\n";
    return;
  }
  double sum = 0, low = INFINITY, high = -INFINITY;
  for (int64_t i = 0; i < count; ++i) {
    double value = tensor.getAsDouble(i);
    sum += value;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  const ElementType type = tensor.getElementType();
  llvm::outs() << " mean=" << formatNumber(sum / count, ElementType::F64)
               << " min=" << formatNumber(low, type)
               << " max=" << formatNumber(high, type) << " first=[";
  for (int64_t i = 0; i < 4; ++i)
    llvm::outs() << (i ? ", " : "")
                 << formatNumber(tensor.getAsDouble(i), type);
  llvm::outs() << ", ...]\n";
}

void writeOutputs(const std::vector<GlobalLayout> &layouts,
                  const std::vector<HostTensor> &outputs) {
  if (std::error_code error = llvm::sys::fs::create_directories(outputDir))
    fail("cannot create " + outputDir + ": " + error.message());
  std::map<std::string, int> used;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = layouts[i].name;
    for (char &c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' &&
          c != '-' && c != '.')
        c = '_';
    if (used[name]++)
      name += "_" + std::to_string(i);
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name + ".npy");
    if (Status status = writeNpyFile(path.str().str(), outputs[i]);
        !status.ok())
      fail(status.message());
  }
}

int compareWithReference(const std::vector<GlobalLayout> &layouts,
                         const std::vector<HostTensor> &outputs,
                         const std::vector<HostTensor> &expected) {
  bool pass = true;
  double overallAbs = 0, overallRel = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorDifference difference;
    if (Status status =
            compareTensors(outputs[i], expected[i], relativeTolerance,
                           absoluteTolerance, difference);
        !status.ok())
      fail("result '" + layouts[i].name + "': " + status.message());
    overallAbs = std::max(overallAbs, difference.maxAbsErr);
    overallRel = std::max(overallRel, difference.maxRelErr);
    llvm::outs() << layouts[i].name << ": max_abs_err="
                 << formatNumber(difference.maxAbsErr, ElementType::F64)
                 << " max_rel_err="
                 << formatNumber(difference.maxRelErr, ElementType::F64);
    // NaN equals NaN in the comparison, so a NaN reference would make any
    // transformation look right: such a check proves nothing and fails.
    int64_t referenceNaNs = 0;
    for (int64_t e = 0; e < expected[i].getNumElements(); ++e)
      referenceNaNs += std::isnan(expected[i].getAsDouble(e));
    if (referenceNaNs > 0) {
      pass = false;
      llvm::outs()
          << " NAN (" << referenceNaNs
          << " NaN values in the reference: the inputs are not valid for it)\n";
      continue;
    }
    if (difference.numMismatches == 0) {
      llvm::outs() << " ok\n";
      continue;
    }
    pass = false;
    llvm::outs() << " MISMATCH (" << difference.numMismatches << " of "
                 << outputs[i].getNumElements()
                 << " elements outside rtol/atol)\n";
  }
  llvm::outs() << "overall: max_abs_err="
               << formatNumber(overallAbs, ElementType::F64)
               << " max_rel_err=" << formatNumber(overallRel, ElementType::F64)
               << " rtol=" << formatNumber(relativeTolerance, ElementType::F64)
               << " atol=" << formatNumber(absoluteTolerance, ElementType::F64)
               << ": " << (pass ? "PASS" : "FAIL") << "\n";
  return pass ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "dist-run: execute a dist program on the CPU "
                              "with the reference kernels\n");
  if (relativeTolerance < 0 || absoluteTolerance < 0)
    fail("--rtol and --atol must be non-negative");

  // Only the dialects a program is written in: no passes run here.
  DialectRegistry registry;
  registry.insert<dist::DistDialect, func::FuncDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  context.getDiagEngine().registerHandler([](Diagnostic &diagnostic) {
    printDiagnostic(diagnostic);
    return success();
  });

  llvm::SourceMgr programSources, referenceSources;
  OwningOpRef<ModuleOp> program =
      parseProgram(programFile, context, programSources);
  func::FuncOp programEntry = selectEntry(*program, programFile, entryName);
  OwningOpRef<ModuleOp> reference;
  func::FuncOp referenceEntry;
  if (!referenceFile.empty()) {
    reference = parseProgram(referenceFile, context, referenceSources);
    std::string name = referenceEntryName;
    if (name.empty() && !entryName.empty() &&
        reference->lookupSymbol<func::FuncOp>(entryName))
      name = entryName;
    referenceEntry = selectEntry(*reference, referenceFile, name);
  }

  // Inputs follow the original signature when there is one: its shapes are
  // global and its uses give integer bounds that are not per-shard sizes.
  func::FuncOp signature = referenceEntry ? referenceEntry : programEntry;
  std::vector<GlobalLayout> argumentLayouts, resultLayouts;
  if (failed(getArgumentLayouts(signature, argumentLayouts)) ||
      failed(getResultLayouts(signature, resultLayouts)))
    return 1;
  if (referenceEntry) {
    std::vector<GlobalLayout> programArguments, programResults;
    if (failed(getArgumentLayouts(programEntry, programArguments)) ||
        failed(getResultLayouts(programEntry, programResults)))
      return 1;
    checkSameSignature(programArguments, argumentLayouts, "argument");
    checkSameSignature(programResults, resultLayouts, "result");
  }
  std::vector<HostTensor> inputs = makeInputs(signature, argumentLayouts);

  std::vector<HostTensor> outputs, expected;
  std::vector<GlobalLayout> outputLayouts, expectedLayouts;
  if (!runGlobal(programEntry, inputs, outputs, outputLayouts))
    return 1;
  if (printValues || !referenceEntry)
    for (size_t i = 0; i < outputs.size(); ++i)
      printSummary(outputLayouts[i], outputs[i]);
  if (!outputDir.empty())
    writeOutputs(outputLayouts, outputs);
  if (!referenceEntry)
    return 0;
  if (!runGlobal(referenceEntry, inputs, expected, expectedLayouts))
    return 1;
  return compareWithReference(outputLayouts, outputs, expected);
}
