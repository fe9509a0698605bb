//===- ImportTests.cpp - the ONNX importer's library API
//-------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"
#include "distir/Import/OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace distir;

namespace {

std::string inputsDir() { return DISTIR_IMPORT_TEST_INPUTS; }

StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
importText(mlir::MLIRContext &context, llvm::StringRef text,
           const OnnxImportOptions &options) {
  return importOnnxModel(text, "test.onnx.txt", context, options);
}

/// What dist-translate registers: the importer folds constant subgraphs by
/// running the reference kernels.
mlir::DialectRegistry getImportRegistry() {
  mlir::DialectRegistry registry;
  mlir::dist::registerExecutionInterfaceExternalModels(registry);
  return registry;
}

std::vector<std::string> argumentNames(mlir::ModuleOp module) {
  std::vector<std::string> names;
  auto func = *module.getOps<mlir::func::FuncOp>().begin();
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    names.push_back(
        func.getArgAttrOfType<mlir::StringAttr>(i, "dist.name").str());
  return names;
}

TEST(OnnxImport, DetectsTextSyntax) {
  EXPECT_TRUE(isOnnxText("<ir_version: 8>\ng (float[2] X) => (float[2] Y) {}"));
  EXPECT_TRUE(isOnnxText("# comment\n  <ir_version: 8>"));
  EXPECT_FALSE(isOnnxText(llvm::StringRef("\x08\x07\x12\x00", 4)));
  EXPECT_FALSE(isOnnxText(""));
}

// External data and inline data are two spellings of the same tensors.
TEST(OnnxImport, LoadsInitializersInlineAndExternal) {
  std::map<std::string, HostTensor> inline_, external;
  Status status = loadOnnxInitializers(inputsDir() + "/mlp.onnx", inline_);
  ASSERT_TRUE(status.ok()) << status.message();
  status = loadOnnxInitializers(inputsDir() + "/mlp_external.onnx", external);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(inline_.size(), 5u);
  ASSERT_EQ(external.size(), 5u);
  for (const auto &[name, tensor] : inline_) {
    ASSERT_TRUE(external.count(name)) << name;
    EXPECT_TRUE(tensor.isBitwiseEqual(external.at(name))) << name;
  }
  const HostTensor &weight = inline_.at("layers.0.weight");
  EXPECT_EQ(weight.getElementType(), ElementType::F32);
  EXPECT_EQ(weight.getShape(), (std::vector<int64_t>{8, 16}));
  const HostTensor &shape = inline_.at("flat_shape");
  EXPECT_EQ(shape.getElementType(), ElementType::I64);
  ASSERT_EQ(shape.getNumElements(), 1);
  EXPECT_EQ(shape.getData<int64_t>()[0], -1);
}

TEST(OnnxImport, MissingFilesAreErrorsNamingThem) {
  std::map<std::string, HostTensor> weights;
  Status status = loadOnnxInitializers("/nonexistent/model.onnx", weights);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("/nonexistent/model.onnx: ", 0), 0u)
      << status.message();
  HostTensor tensor;
  status = readOnnxTensorFile(inputsDir() + "/make_models.py", tensor);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("make_models.py: "), std::string::npos);
}

// An input whose value is given becomes a constant only where the dialect
// needs it at import time (a Reshape target); otherwise it stays an input.
TEST(OnnxImport, InputValuesFreezeOnlyWhatIsNeeded) {
  mlir::MLIRContext context(getImportRegistry());
  const char *model = R"(<ir_version: 8, opset_import: ["" : 14]>
g (float[2, 3] X, int64[2] S, float[3] B) => (float[3, 2] Y, float[2, 3] Z) {
  Y = Reshape (X, S)
  Z = Add (X, B)
})";
  OnnxImportOptions options;
  HostTensor shape(ElementType::I64, {2});
  shape.getData<int64_t>()[0] = 3;
  shape.getData<int64_t>()[1] = -1;
  options.inputValues["S"] = shape;
  options.inputValues["B"] = HostTensor(ElementType::F32, {3});
  auto module = importText(context, model, options);
  ASSERT_TRUE(module) << module.message();
  EXPECT_EQ(argumentNames(**module), (std::vector<std::string>{"X", "B"}));
  auto func = *(*module)->getOps<mlir::func::FuncOp>().begin();
  auto result = mlir::cast<mlir::RankedTensorType>(func.getResultTypes()[0]);
  EXPECT_EQ(result.getShape(), (llvm::ArrayRef<int64_t>{3, 2}));

  // Without the value the import explains what is missing.
  options.inputValues.erase("S");
  auto missing = importText(context, model, options);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.message().find("--input-value S=FILE"), std::string::npos)
      << missing.message();
}

// The size of X's first dimension reaches the Reshape through Gather and
// Concat, which the importer evaluates with their reference kernels.
TEST(OnnxImport, FoldsConstantSubgraphsWithTheRegisteredKernels) {
  const char *model = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2, 3, 4] X) => (float[2, 12] R) {
  shape = Shape (X)
  idx = Constant <value = int64[1] {0}> ()
  batch = Gather <axis = 0> (shape, idx)
  minus = Constant <value = int64[1] {-1}> ()
  target = Concat <axis = 0> (batch, minus)
  R = Reshape (X, target)
})";
  mlir::MLIRContext context(getImportRegistry());
  auto module = importText(context, model, OnnxImportOptions());
  ASSERT_TRUE(module) << module.message();

  // A tool that forgot the registration gets an error naming it.
  mlir::MLIRContext bare;
  auto unfolded = importText(bare, model, OnnxImportOptions());
  ASSERT_FALSE(unfolded);
  EXPECT_NE(unfolded.message().find("registerExecutionInterfaceExternalModels"),
            std::string::npos)
      << unfolded.message();
}

TEST(OnnxImport, InputValueMustMatchTheInput) {
  mlir::MLIRContext context(getImportRegistry());
  const char *model = R"(<ir_version: 8, opset_import: ["" : 14]>
g (float[2, 3] X) => (float[2, 3] Y) {
  Y = Relu (X)
})";
  OnnxImportOptions options;
  options.inputValues["X"] = HostTensor(ElementType::F32, {3, 2});
  auto module = importText(context, model, options);
  ASSERT_FALSE(module);
  EXPECT_NE(module.message().find("input 'X' has dimension 0 of size 2, not 3"),
            std::string::npos)
      << module.message();
}

// Every model of ONNX's test data either imports or fails with one line that
// starts with the file and names the node (and its op type) it concerns.
TEST(OnnxImport, EveryOnnxTestDataModelImportsOrFailsWithOneLine) {
  const std::string root = "/usr/share/libonnx-testdata/data";
  if (!llvm::sys::fs::is_directory(root))
    GTEST_SKIP() << root << " not found (Debian package libonnx-testdata)";
  llvm::Regex nodeLabel(
      "node ('[^']*'|#[0-9]+) \\(([A-Za-z0-9_.]+)(, output '[^']*')?\\)");
  int models = 0, imported = 0;
  std::map<std::string, int> errorsBySuite;
  mlir::MLIRContext context(getImportRegistry());
  for (const char *suite :
       {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
    std::error_code ec;
    std::vector<std::string> paths;
    for (llvm::sys::fs::directory_iterator it(root + "/" + suite, ec), end;
         it != end && !ec; it.increment(ec)) {
      std::string path = it->path() + "/model.onnx";
      if (llvm::sys::fs::exists(path))
        paths.push_back(path);
    }
    std::sort(paths.begin(), paths.end());
    for (const std::string &path : paths) {
      ++models;
      auto buffer =
          llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
      ASSERT_TRUE(buffer) << path;
      auto module = importOnnxModel((*buffer)->getBuffer(), path, context,
                                    OnnxImportOptions());
      if (module) {
        ++imported;
        continue;
      }
      const std::string &error = module.message();
      ++errorsBySuite[suite];
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
      EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
      if (error.find(": node ") != std::string::npos) {
        EXPECT_TRUE(nodeLabel.match(error)) << error;
      }
    }
  }
  std::cout << models << " models: " << imported << " imported";
  for (const auto &[suite, count] : errorsBySuite)
    std::cout << ", " << count << " " << suite << " rejected";
  std::cout << "\n";
  // libonnx-testdata 1.12 holds 1,072 models in these four suites.
  EXPECT_GE(models, 1000);
}

} // namespace
