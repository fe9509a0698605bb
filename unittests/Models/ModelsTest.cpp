//===- ModelsTest.cpp - the MLP and GPT generators ------------------------===//

#include "distir/Models/Models.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace distir::models;

namespace {

class ModelsTest : public ::testing::Test {
protected:
  ModelsTest() {
    DialectRegistry registry;
    distir::registerAllDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    module = ModuleOp::create(UnknownLoc::get(context.get()));
  }

  /// Elements of every argument with the given role, in 64-bit arithmetic.
  static int64_t countElements(func::FuncOp func, StringRef role) {
    int64_t total = 0;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto attr = func.getArgAttrOfType<StringAttr>(i, "dist.role");
      if (attr && attr.getValue() == role)
        total +=
            cast<RankedTensorType>(func.getArgumentTypes()[i]).getNumElements();
    }
    return total;
  }

  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

GptConfig smallGpt() {
  GptConfig config;
  config.layers = 3;
  config.hidden = 16;
  config.heads = 4;
  config.seq = 8;
  config.vocab = 40;
  config.batch = 2;
  return config;
}

TEST_F(ModelsTest, MlpParametersMatchTheClosedForm) {
  MlpConfig config;
  config.layers = 4;
  config.hidden = 32;
  config.batch = 8;
  config.inputDim = 20;
  FailureOr<func::FuncOp> func = buildMlp(*module, config);
  ASSERT_TRUE(succeeded(func));
  EXPECT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(countElements(*func, "parameter"), getNumParameters(config));
  EXPECT_EQ(getNumParameters(config), 20 * 32 + 3 * 32 * 32);
  EXPECT_EQ(countElements(*func, "data"), 8 * 20 + 8 * 32);
}

TEST_F(ModelsTest, GptParametersMatchTheClosedForm) {
  GptConfig config = smallGpt();
  FailureOr<func::FuncOp> func = buildGpt(*module, config);
  ASSERT_TRUE(succeeded(func));
  EXPECT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(countElements(*func, "parameter"), getNumParameters(config));
  // 2 embeddings + 12 per layer + final norm (2), the head tied to the
  // word embedding.
  EXPECT_EQ(func->getNumArguments(), 2u + 12 * 3 + 2 + 2);
  // Untied, the head is one more parameter [H, V].
  ModuleOp untiedModule = ModuleOp::create(module->getLoc());
  module->push_back(untiedModule);
  config.tieEmbeddings = false;
  FailureOr<func::FuncOp> untied = buildGpt(untiedModule, config);
  ASSERT_TRUE(succeeded(untied));
  EXPECT_EQ(countElements(*untied, "parameter"), getNumParameters(config));
  EXPECT_EQ(getNumParameters(config) - getNumParameters(smallGpt()),
            config.hidden * config.vocab);
}

TEST_F(ModelsTest, Gpt3HasItsPublishedSize) {
  // GPT-3 175B (Brown et al. 2020): 96 layers, d_model 12288, 96 heads,
  // context 2048. Our LM head is not tied to the embedding and the
  // vocabulary is Megatron's padded 51200, hence slightly above 175e9.
  GptConfig config;
  config.layers = 96;
  config.hidden = 12288;
  config.heads = 96;
  config.seq = 2048;
  config.vocab = 51200;
  config.batch = 1;
  config.dtype = "bf16";
  FailureOr<func::FuncOp> func = buildGpt(*module, config);
  ASSERT_TRUE(succeeded(func));
  EXPECT_EQ(countElements(*func, "parameter"), getNumParameters(config));
  EXPECT_NEAR(static_cast<double>(getNumParameters(config)), 175e9,
              0.01 * 175e9);
}

TEST_F(ModelsTest, TrillionParameterModelDoesNotOverflow) {
  GptConfig config;
  config.layers = 128;
  config.hidden = 25600;
  config.heads = 160;
  config.seq = 2048;
  config.vocab = 51200;
  config.batch = 64;
  config.dtype = "bf16";
  ASSERT_EQ(verifyConfig(config), std::nullopt);
  FailureOr<func::FuncOp> func = buildGpt(*module, config);
  ASSERT_TRUE(succeeded(func));
  int64_t parameters = countElements(*func, "parameter");
  EXPECT_EQ(parameters, getNumParameters(config));
  EXPECT_GT(parameters, int64_t(1000000000000));
  // Bytes of every op's operands stay exact in int64 (no wrap to negative).
  int64_t maxBytes = 0;
  func->walk([&](mlir::dist::CostOpInterface op) {
    maxBytes = std::max(maxBytes, op.getBytesRead());
    EXPECT_GE(op.getBytesRead(), 0);
  });
  // The logits: 64 x 2048 x 51200 bf16 (plus the labels).
  EXPECT_GE(maxBytes, int64_t(64) * 2048 * 51200 * 2);
}

TEST_F(ModelsTest, EveryOpHasALayerInRange) {
  GptConfig config = smallGpt();
  FailureOr<func::FuncOp> func = buildGpt(*module, config);
  ASSERT_TRUE(succeeded(func));
  int64_t ops = 0;
  func->walk([&](Operation *op) {
    if (isa<func::FuncOp, func::ReturnOp>(op))
      return;
    ++ops;
    auto layer = op->getAttrOfType<IntegerAttr>("dist.layer");
    ASSERT_TRUE(layer) << "op without dist.layer: "
                       << op->getName().getStringRef().str();
    EXPECT_GE(layer.getInt(), 0);
    EXPECT_LT(layer.getInt(), config.layers);
  });
  EXPECT_GT(ops, 25 * config.layers);
  // The embedding lookup is in layer 0 and the loss in the last layer.
  mlir::dist::TakeOp take;
  mlir::dist::CrossEntropyOp loss;
  func->walk([&](mlir::dist::TakeOp op) { take = op; });
  func->walk([&](mlir::dist::CrossEntropyOp op) { loss = op; });
  ASSERT_TRUE(take && loss);
  EXPECT_EQ(take->getAttrOfType<IntegerAttr>("dist.layer").getInt(), 0);
  EXPECT_EQ(loss->getAttrOfType<IntegerAttr>("dist.layer").getInt(),
            config.layers - 1);
}

TEST_F(ModelsTest, ParameterNamesAreUniqueAndMatchTheirLayer) {
  GptConfig config = smallGpt();
  FailureOr<func::FuncOp> func = buildGpt(*module, config);
  ASSERT_TRUE(succeeded(func));
  llvm::StringSet<> names;
  llvm::Regex layerName("^layers\\.([0-9]+)\\.");
  bool dataSeen = false;
  for (BlockArgument arg : func->getArguments()) {
    unsigned i = arg.getArgNumber();
    auto name = func->getArgAttrOfType<StringAttr>(i, "dist.name");
    auto role = func->getArgAttrOfType<StringAttr>(i, "dist.role");
    ASSERT_TRUE(name && role);
    EXPECT_TRUE(names.insert(name.getValue()).second) << name.str();
    // Parameters first, then data.
    if (role.getValue() == "data")
      dataSeen = true;
    else
      EXPECT_FALSE(dataSeen) << name.str() << " follows the data";
    SmallVector<StringRef> match;
    if (!layerName.match(name.getValue(), &match))
      continue;
    int64_t layer = std::stoll(match[1].str());
    for (Operation *user : arg.getUsers())
      EXPECT_EQ(user->getAttrOfType<IntegerAttr>("dist.layer").getInt(), layer)
          << name.str();
  }
  EXPECT_TRUE(names.contains("layers.2.attn.qkv.weight"));
  EXPECT_FALSE(names.contains("lm_head.weight")); // Tied to the embedding.
}

TEST_F(ModelsTest, InvalidConfigurationsAreRejected) {
  GptConfig config = smallGpt();
  config.heads = 5;
  EXPECT_EQ(verifyConfig(config), "--heads 5 does not divide --hidden 16");
  std::string diagnostic;
  ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
    diagnostic = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(buildGpt(*module, config)));
  EXPECT_EQ(diagnostic,
            "cannot build GPT: --heads 5 does not divide --hidden 16");
  EXPECT_TRUE(module->getBody()->empty());

  config = smallGpt();
  config.vocab = 0;
  EXPECT_EQ(verifyConfig(config), "--vocab must be a positive integer, got 0");
  config = smallGpt();
  config.dtype = "i8";
  EXPECT_EQ(verifyConfig(config),
            "--dtype must be f64, f32, f16 or bf16, got 'i8'");
  config = smallGpt();
  config.seq = int64_t(1) << 40;
  EXPECT_NE(verifyConfig(config), std::nullopt);

  MlpConfig mlp;
  mlp.layers = 2;
  mlp.hidden = int64_t(1) << 31;
  mlp.batch = 1;
  // A [2^31, 2^31] f32 weight is 2^64 bytes.
  EXPECT_EQ(
      verifyConfig(mlp),
      "the weight tensor [2147483648, 2147483648] has more bytes than 64-bit "
      "arithmetic can count");
  // 2 x 2^62 parameters do not fit int64: the count says so.
  EXPECT_EQ(getNumParameters(mlp), -1);
}

} // namespace
