//===- dist-translate.cpp - translations into the dist dialect ------------===//
//
//   dist-translate --import-onnx model.onnx [-o model.mlir]
//       [--embed-weights] [--onnx-names] [--input-shape NAME=8x3x224x224]...
//       [--input-value NAME=FILE.pb|FILE.npy]...
//
// Errors are one line on stderr ("error: <file>: <what>") with exit code 1.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Import/OnnxImporter.h"
#include "distir/Kernels/Npy.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/ToolSupport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::OptionCategory category("dist-translate options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input file>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"), cl::cat(category));
static cl::opt<bool> importOnnx(
    "import-onnx",
    cl::desc("Import an ONNX model (binary ModelProto or ONNX text syntax)"),
    cl::cat(category));
static cl::opt<bool> listOnnxOps(
    "list-onnx-ops",
    cl::desc("Print the ONNX ops --import-onnx supports, one per line"),
    cl::cat(category));
static cl::opt<bool> embedWeights(
    "embed-weights",
    cl::desc("Keep float initializers as constants instead of parameter "
             "arguments"),
    cl::cat(category));
static cl::opt<bool> onnxNames(
    "onnx-names",
    cl::desc("Name every parameter by its ONNX initializer, also those the "
             "exporter named itself (onnx::MatMul_N), instead of by the "
             "scope of the node that reads it"),
    cl::cat(category));
static cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Shape of a graph input, fixing its symbolic dimensions "
             "(NAME=8x3x224x224; NAME= for a scalar)"),
    cl::value_desc("name=shape"), cl::cat(category));
static cl::list<std::string> inputValues(
    "input-value",
    cl::desc("Value of a graph input (a TensorProto .pb or a .npy file); "
             "inputs whose value the dialect needs at compile time become "
             "constants"),
    cl::value_desc("name=file"), cl::cat(category));
static cl::opt<std::string>
    functionName("function-name", cl::desc("Name of the imported function"),
                 cl::init("main"), cl::cat(category));

static int fail(const Twine &message) {
  WithColor::error() << message << "\n";
  return 1;
}

/// Splits NAME=VALUE at the last '=' (ONNX names may contain '=').
static bool splitAssignment(StringRef text, StringRef &name, StringRef &value) {
  size_t eq = text.rfind('=');
  if (eq == StringRef::npos || eq == 0)
    return false;
  name = text.take_front(eq);
  value = text.drop_front(eq + 1);
  return true;
}

static bool parseShape(StringRef text, std::vector<int64_t> &shape) {
  shape.clear();
  if (text.empty())
    return true;
  SmallVector<StringRef> dims;
  text.split(dims, 'x');
  for (StringRef dim : dims) {
    int64_t size;
    if (dim.getAsInteger(10, size) || size < 0)
      return false;
    shape.push_back(size);
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  distir::installOutOfMemoryHandler("dist-translate");
  distir::registerDebugOptions();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  distir::parseCommandLine(argc, argv,
                           "distir translations into the dist dialect\n");
  distir::rejectRepeatedOptions("dist-translate");
  if (listOnnxOps) {
    for (const std::string &op : distir::getSupportedOnnxOps())
      outs() << op << "\n";
    return 0;
  }
  if (!importOnnx)
    return fail("choose a translation: --import-onnx");

  distir::OnnxImportOptions options;
  options.embedWeights = embedWeights;
  options.recoverNames = !onnxNames;
  options.functionName = functionName;
  for (const std::string &entry : inputShapes) {
    StringRef name, shapeText;
    std::vector<int64_t> shape;
    if (!splitAssignment(entry, name, shapeText) ||
        !parseShape(shapeText, shape))
      return fail("--input-shape '" + entry +
                  "': expected NAME=DxDx...D with non-negative sizes");
    options.inputShapes[name.str()] = shape;
  }
  for (const std::string &entry : inputValues) {
    StringRef name, path;
    if (!splitAssignment(entry, name, path) || path.empty())
      return fail("--input-value '" + entry + "': expected NAME=FILE");
    distir::HostTensor value;
    distir::Status status = path.ends_with(".npy")
                                ? distir::readNpyFile(path.str(), value)
                                : distir::readOnnxTensorFile(path.str(), value);
    if (!status.ok())
      return fail("--input-value " + name + ": " + status.message());
    options.inputValues[name.str()] = std::move(value);
  }

  if (std::optional<std::string> error =
          distir::checkRegularFile(inputFilename))
    return fail(*error);
  ErrorOr<std::unique_ptr<MemoryBuffer>> input =
      MemoryBuffer::getFileOrSTDIN(inputFilename, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!input)
    return fail(inputFilename + ": " + input.getError().message());

  // Only the dialects the importer emits: the tool does not depend on the
  // passes (DistInitAll), so it builds and links on its own.
  mlir::DialectRegistry registry;
  registry.insert<mlir::dist::DistDialect, mlir::func::FuncDialect>();
  // The importer folds constant subgraphs by running the reference kernels.
  mlir::dist::registerExecutionInterfaceExternalModels(registry);
  mlir::MLIRContext context(registry);
  distir::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      distir::importOnnxModel((*input)->getBuffer(),
                              inputFilename == "-" ? StringRef("<stdin>")
                                                   : StringRef(inputFilename),
                              context, options);
  if (!module)
    return fail(module.message());

  std::string openError;
  std::unique_ptr<ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &openError);
  if (!output)
    return fail(openError);
  (*module)->print(output->os());
  output->os() << "\n";
  if (std::optional<std::string> error =
          distir::keepOutputFile(*output, outputFilename))
    return fail(*error);
  return 0;
}
