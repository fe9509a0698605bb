//===- ShardingTest.cpp - resharding plans, rules, layout maps, partition -===//

#include "distir/Dialect/Dist/Transforms/Sharding.h"
#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/LoopSharding.h"
#include "distir/Dialect/Dist/Transforms/Reshard.h"
#include "distir/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/Regex.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dist;
using Kind = ReshardStep::Kind;

namespace {

Layout layout(std::initializer_list<std::initializer_list<int64_t>> dims,
              std::initializer_list<int64_t> partial = {}) {
  Layout result;
  for (auto axes : dims)
    result.dims.emplace_back(axes.begin(), axes.end());
  result.partial.assign(partial.begin(), partial.end());
  return result;
}

/// A 2 x 4 mesh: axis 0 ("a", 2 devices), axis 1 ("b", 4 devices).
Mesh mesh2x4() { return Mesh({2, 4}, {"a", "b"}); }

//===----------------------------------------------------------------------===//
// Resharding plans
//===----------------------------------------------------------------------===//

TEST(ReshardPlan, SameLayoutNeedsNothing) {
  EXPECT_TRUE(planReshard(layout({{0}, {}}), layout({{0}, {}})).empty());
}

TEST(ReshardPlan, PartialToReplicatedIsOneAllReduceOverAllAxes) {
  auto steps = planReshard(layout({{}, {}}, {0, 1}), layout({{}, {}}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, Kind::AllReduce);
  EXPECT_EQ(steps[0].axes, (SmallVector<int64_t, 2>{0, 1}));
}

TEST(ReshardPlan, PartialIntoAWantedSplitIsReduceScatter) {
  auto steps = planReshard(layout({{}, {0}}, {1}), layout({{}, {0, 1}}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, Kind::ReduceScatter);
  EXPECT_EQ(steps[0].dim, 1);
  EXPECT_EQ(steps[0].axes, (SmallVector<int64_t, 2>{1}));
}

TEST(ReshardPlan, PartialWhoseSplitIsNotNextIsReducedThenSliced) {
  // The target splits dim 0 by (a, b): b cannot be scattered before a.
  auto steps = planReshard(layout({{}, {}}, {1}), layout({{0, 1}, {}}));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].kind, Kind::AllReduce);
  EXPECT_EQ(steps[1].kind, Kind::Slice);
  EXPECT_EQ(steps[1].axes, (SmallVector<int64_t, 2>{0, 1}));
}

TEST(ReshardPlan, MovingASplitBetweenDimsIsAllToAll) {
  auto steps = planReshard(layout({{1}, {}}), layout({{}, {1}}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, Kind::AllToAll);
  EXPECT_EQ(steps[0].dim, 1);
  EXPECT_EQ(steps[0].concatDim, 0);
}

TEST(ReshardPlan, DroppedSuffixIsGatheredAtOnce) {
  auto steps = planReshard(layout({{0, 1}, {}}), layout({{}, {}}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, Kind::AllGather);
  EXPECT_EQ(steps[0].axes, (SmallVector<int64_t, 2>{0, 1}));
  // Keeping the major axis gathers only the minor one.
  steps = planReshard(layout({{0, 1}, {}}), layout({{0}, {}}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, Kind::AllGather);
  EXPECT_EQ(steps[0].axes, (SmallVector<int64_t, 2>{1}));
}

TEST(ReshardPlan, ReorderedAxesAreGatheredThenSliced) {
  auto steps = planReshard(layout({{0, 1}}), layout({{1, 0}}));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].kind, Kind::AllGather);
  EXPECT_EQ(steps[1].kind, Kind::Slice);
  EXPECT_EQ(steps[1].axes, (SmallVector<int64_t, 2>{1, 0}));
}

TEST(ReshardPlan, ReplicatedToPartialScales) {
  auto steps = planReshard(layout({{}}), layout({{}}, {1}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, Kind::MakePartial);
}

TEST(ReshardPlan, BytesFollowNcclRingVolumes) {
  Mesh mesh = mesh2x4();
  // 8 x 16 f32 = 512 bytes; partial over b (4 devices): 2 (n-1)/n S.
  EXPECT_DOUBLE_EQ(estimateReshardBytes({8, 16}, 4, layout({{}, {}}, {1}),
                                        layout({{}, {}}), mesh),
                   2.0 * 3 / 4 * 512);
  // Gathering dim 0 split over b: each device receives 3 blocks of 128.
  EXPECT_DOUBLE_EQ(estimateReshardBytes({8, 16}, 4, layout({{1}, {}}),
                                        layout({{}, {}}), mesh),
                   3.0 * 128);
  EXPECT_DOUBLE_EQ(estimateReshardBytes({8, 16}, 4, layout({{1}, {}}),
                                        layout({{1}, {}}), mesh),
                   0.0);
}

TEST(Layout, LocalShapesAre64BitAndRefuseRemainders) {
  Mesh mesh = mesh2x4();
  // A trillion-parameter-sized matrix: 2^21 x 2^20 elements.
  auto local =
      layout({{0, 1}, {}}).getLocalShape({int64_t{1} << 21, 1 << 20}, mesh);
  ASSERT_TRUE(local.has_value());
  EXPECT_EQ((*local)[0], int64_t{1} << 18);
  EXPECT_FALSE(layout({{1}, {}}).getLocalShape({6, 4}, mesh).has_value());
  EXPECT_DOUBLE_EQ(estimateReshardBytes({int64_t{1} << 21, 1 << 20}, 2,
                                        layout({{}, {}}, {0}), layout({{}, {}}),
                                        mesh),
                   2.0 * 1 / 2 * 2.0 * (double)(int64_t{1} << 41));
}

//===----------------------------------------------------------------------===//
// Rules and loop shardings
//===----------------------------------------------------------------------===//

class ShardingIRTest : public ::testing::Test {
protected:
  ShardingIRTest() {
    DialectRegistry registry;
    distir::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  template <typename OpT> OpT first(ModuleOp module) {
    OpT found;
    module.walk([&](OpT op) {
      if (!found)
        found = op;
    });
    return found;
  }

  MLIRContext context;
};

TEST_F(ShardingIRTest, MatmulLoopsWithTransposeAndBroadcastBatch) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<3x8x4xf32>, %b: tensor<16x8xf32>) -> tensor<3x4x16xf32> {
      %c = dist.matmul %a, %b {transpose_a, transpose_b} : (tensor<3x8x4xf32>, tensor<16x8xf32>) -> tensor<3x4x16xf32>
      return %c : tensor<3x4x16xf32>
    })mlir");
  ASSERT_TRUE(module);
  FailureOr<ShardingRule> rule = getShardingRule(first<MatmulOp>(*module));
  ASSERT_TRUE(succeeded(rule));
  // Loops: batch, m, n, k. The lhs is [batch, k, m], the rhs [n, k].
  ASSERT_EQ(rule->loops.size(), 4u);
  const auto &lhs = rule->operandDims[0], &rhs = rule->operandDims[1];
  const auto &out = rule->resultDims[0];
  EXPECT_EQ(lhs[0], out[0]);
  EXPECT_EQ(lhs[2], out[1]);
  EXPECT_EQ(rhs[0], out[2]);
  EXPECT_EQ(lhs[1], rhs[1]);
  EXPECT_FALSE(rule->isInResult(lhs[1], 0));
}

TEST_F(ShardingIRTest, ReshapeSharesOnlyTheMajorFactor) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<2x4x24xf32>) -> tensor<2x4x4x3x2xf32> {
      %y = dist.reshape %x {shape = array<i64: 2, 4, 4, 3, 2>} : (tensor<2x4x24xf32>) -> tensor<2x4x4x3x2xf32>
      return %y : tensor<2x4x4x3x2xf32>
    })mlir");
  ASSERT_TRUE(module);
  FailureOr<ShardingRule> rule = getShardingRule(first<ReshapeOp>(*module));
  ASSERT_TRUE(succeeded(rule));
  const auto &in = rule->operandDims[0], &out = rule->resultDims[0];
  EXPECT_EQ(in[2], out[2]);
  EXPECT_TRUE(rule->loops[out[2]].splittable);
  EXPECT_FALSE(rule->loops[out[3]].splittable);
  EXPECT_FALSE(rule->loops[out[4]].splittable);
  EXPECT_EQ(rule->linearity, ShardingRule::Linearity::Joint);
}

TEST_F(ShardingIRTest, WholeDimsAndNormalizedLoops) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4x6xf32>, %g: tensor<6xf32>, %l: tensor<4xi64>, %w: tensor<6xf32>)
        -> (tensor<4x6xf32>, tensor<f32>, tensor<f32>) {
      %y = dist.layer_norm %x, %g, %g : (tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
      %m = dist.cross_entropy %x, %l : (tensor<4x6xf32>, tensor<4xi64>) -> tensor<f32>
      %n = dist.cross_entropy %x, %l, %w : (tensor<4x6xf32>, tensor<4xi64>, tensor<6xf32>) -> tensor<f32>
      return %y, %m, %n : tensor<4x6xf32>, tensor<f32>, tensor<f32>
    })mlir");
  ASSERT_TRUE(module);
  SmallVector<Operation *> ops;
  module->walk([&](ShardingRuleOpInterface op) { ops.push_back(op); });
  ASSERT_EQ(ops.size(), 3u);
  FailureOr<ShardingRule> norm = getShardingRule(ops[0]);
  ASSERT_TRUE(succeeded(norm));
  EXPECT_TRUE(norm->loops[norm->operandDims[0][0]].splittable);
  EXPECT_FALSE(norm->loops[norm->operandDims[0][1]].splittable);
  // A mean over the samples: split, each device's loss is rescaled.
  FailureOr<ShardingRule> mean = getShardingRule(ops[1]);
  ASSERT_TRUE(succeeded(mean));
  const auto &sample = mean->loops[mean->operandDims[0][0]];
  EXPECT_TRUE(sample.splittable && sample.normalized);
  // The classes split only through the vocabulary-parallel expansion.
  const auto &classes = mean->loops[mean->operandDims[0][1]];
  EXPECT_TRUE(classes.splittable && classes.expands);
  // Weighted: the divisor depends on every label.
  FailureOr<ShardingRule> weighted = getShardingRule(ops[2]);
  ASSERT_TRUE(succeeded(weighted));
  EXPECT_FALSE(weighted->loops[weighted->operandDims[0][0]].splittable);
  EXPECT_FALSE(weighted->loops[weighted->operandDims[0][1]].splittable);
}

TEST_F(ShardingIRTest, DeriveAssignsPartialAxesToReductionLoops) {
  auto module = parse(R"mlir(
    dist.mesh @m shape = [2, 4] axes = ["a", "b"]
    func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
      %c = dist.matmul %a, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
      return %c : tensor<8x4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto matmul = first<MatmulOp>(*module);
  FailureOr<ShardingRule> rule = getShardingRule(matmul);
  ASSERT_TRUE(succeeded(rule));
  Mesh mesh = mesh2x4();
  Layout lhs = layout({{0}, {1}});
  SmallVector<const Layout *> operands{&lhs, nullptr};
  SmallVector<Layout> results{layout({{0}, {}}, {1})};
  FailureOr<LoopSharding> loops =
      deriveLoopSharding(matmul, *rule, operands, results, mesh);
  ASSERT_TRUE(succeeded(loops));
  // The contraction takes the partial axis the lhs already splits it by.
  EXPECT_EQ(loops->getOperandLayout(*rule, 1), layout({{1}, {}}));
  EXPECT_EQ(loops->getResultLayout(*rule, 0), layout({{0}, {}}, {1}));
  int64_t n = rule->operandDims[1][1];
  EXPECT_EQ(checkLoopSplit(matmul, *rule, n, {1}, mesh), "");
  EXPECT_EQ(checkLoopSplit(matmul, *rule, n, {0, 1}, mesh),
            "dimension 1 of size 4 is not divisible into 8 shards");
}

//===----------------------------------------------------------------------===//
// Layout maps
//===----------------------------------------------------------------------===//

/// Layout map errors are diagnostics: this keeps the last one's message.
class LayoutMapTest : public ::testing::Test {
protected:
  std::function<InFlightDiagnostic()> emitError = [this] {
    return mlir::emitError(UnknownLoc::get(&ctx));
  };
  MLIRContext ctx;
  std::string error;
  ScopedDiagnosticHandler handler{&ctx, [this](Diagnostic &diag) {
                                    error = diag.str();
                                    return success();
                                  }};
};

TEST_F(LayoutMapTest, FirstFoundPatternWins) {
  FailureOr<LayoutMap> map = LayoutMap::parse(
      R"({"fc1\\.weight": [null, "tp"], "layers\\..*": [["dp", "tp"], null]})",
      "map.json", emitError);
  ASSERT_TRUE(succeeded(map)) << error;
  ASSERT_EQ(map->getEntries().size(), 2u);
  const LayoutMap::Entry *entry = map->lookup("layers.3.mlp.fc1.weight.adam_m");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->pattern, "fc1\\.weight");
  entry = map->lookup("layers.3.mlp.fc2.weight");
  ASSERT_TRUE(entry);
  ASSERT_EQ(entry->dims.size(), 2u);
  EXPECT_EQ(entry->dims[0].size(), 2u);
  EXPECT_EQ(map->lookup("embed.tokens.weight"), nullptr);
}

TEST_F(LayoutMapTest, RequiredLiteralsAreNeededByEveryMatch) {
  using Literals = std::vector<std::string>;
  EXPECT_EQ(LayoutMap::getRequiredLiterals("\\.attn\\.qkv\\.weight"),
            Literals{".attn.qkv.weight"});
  EXPECT_EQ(LayoutMap::getRequiredLiterals("^layers\\.[0-9]*[02468]\\.weight"),
            (Literals{"layers.", ".weight"}));
  EXPECT_EQ(LayoutMap::getRequiredLiterals("ab?c+d*e{2}f"),
            (Literals{"a", "c", "f"}));
  EXPECT_EQ(LayoutMap::getRequiredLiterals("[]a]b[^]]c"), (Literals{"b", "c"}));
  EXPECT_EQ(LayoutMap::getRequiredLiterals("fc(1|2)\\.weight"), Literals{});
  EXPECT_EQ(LayoutMap::getRequiredLiterals("fc1|fc2"), Literals{});
  EXPECT_EQ(LayoutMap::getRequiredLiterals("x\\(y"), Literals{"x(y"});
  EXPECT_EQ(LayoutMap::getRequiredLiterals(".*"), Literals{});
  // The prefilter never changes a lookup: every pattern against names that
  // match it, miss a literal, or match only through a quantifier.
  std::vector<std::string> patterns = {"\\.attn\\.qkv\\.weight",
                                       "^layers\\.[0-9]*[02468]\\.weight",
                                       "ab?c+d*e{2}f",
                                       "[]a]b[^]]c",
                                       "fc(1|2)\\.weight",
                                       "x{0,1}yz$",
                                       "a\\+b",
                                       "\\[0\\]"};
  std::vector<std::string> names = {"layers.3.attn.qkv.weight",
                                    "layers.12.weight",
                                    "layers.13.weight",
                                    "acf",
                                    "abccdeef",
                                    "acccdddeef",
                                    "]b]c",
                                    "abxc",
                                    "fc2.weight",
                                    "yz",
                                    "xyz",
                                    "xyzw",
                                    "a+b",
                                    "aab",
                                    "p[0]",
                                    "p0",
                                    ""};
  for (const std::string &pattern : patterns) {
    LayoutMap map;
    map.addEntry(pattern, {});
    llvm::Regex regex(pattern);
    for (const std::string &name : names)
      EXPECT_EQ(map.lookup(name) != nullptr, regex.match(name))
          << pattern << " on " << name;
  }
}

TEST_F(LayoutMapTest, ErrorsNameThePlace) {
  EXPECT_TRUE(failed(
      LayoutMap::parse("{\n  \"a\": [null,\n  ]\n}", "m.json", emitError)));
  EXPECT_EQ(error.rfind("m.json:3:3: invalid JSON: ", 0), 0u) << error;
  EXPECT_TRUE(failed(LayoutMap::parse(R"({"a": "tp"})", "m.json", emitError)));
  EXPECT_EQ(
      error,
      "m.json: layout of \"a\" must be a list with one entry per dimension");
  EXPECT_TRUE(failed(LayoutMap::parse(R"({"a": [3]})", "m.json", emitError)));
  EXPECT_EQ(error,
            "m.json: layout of \"a\": each dimension is null, an axis name "
            "or a list of axis names");
  EXPECT_TRUE(failed(LayoutMap::parse(R"([])", "m.json", emitError)));
  EXPECT_TRUE(failed(LayoutMap::load("/nonexistent/map.json", emitError)));
  EXPECT_EQ(error.rfind("/nonexistent/map.json: cannot open layout map", 0),
            0u);
}

//===----------------------------------------------------------------------===//
// Meshes and partitioning onto sub-meshes
//===----------------------------------------------------------------------===//

TEST_F(ShardingIRTest, GetOrCreateMeshChecksExistingAxes) {
  auto module =
      parse("dist.mesh @world shape = [2, 4] axes = [\"dp\", \"tp\"]");
  ASSERT_TRUE(module);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  EXPECT_TRUE(succeeded(getOrCreateMesh(*module, "world", {{"tp", 4}})));
  EXPECT_TRUE(failed(getOrCreateMesh(*module, "world", {{"tp", 2}})));
  EXPECT_TRUE(failed(getOrCreateMesh(*module, "world", {{"pp", 0}})));
  FailureOr<MeshOp> created = getOrCreateMesh(*module, "dp_only", {{"dp", 8}});
  ASSERT_TRUE(succeeded(created));
  EXPECT_EQ(Mesh::fromOp(*created).getNumDevices(), 8);
}

TEST_F(ShardingIRTest, PartitionOntoStageSubMeshesSendsBetweenThem) {
  // Two pipeline stages (dist.stage) on a pp x dp mesh; each stage splits
  // the batch over its own dp slice.
  auto module = parse(R"mlir(
    dist.mesh @world shape = [2, 2] axes = ["pp", "dp"]
    func.func @f(%x: tensor<8x4xf32> {dist.sharding = #dist.sharding<@world, [["dp"], []]>},
                 %w: tensor<4x4xf32>) -> tensor<8x4xf32> {
      %h = dist.matmul %x, %w {dist.stage = 0 : i64} : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
      %r = dist.relu %h {dist.stage = 1 : i64} : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %s = dist.matmul %r, %w {dist.stage = 1 : i64} : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
      return %s : tensor<8x4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto func = first<func::FuncOp>(*module);
  ASSERT_TRUE(succeeded(propagateShardings(func)));
  Mesh world = Mesh::fromOp(first<MeshOp>(*module));
  SmallVector<Mesh> stages{world.getSlice({0}, {0}), world.getSlice({0}, {1})};
  PartitionOptions options;
  options.meshOf = [&](Operation *op) -> const Mesh * {
    auto stage = op->getAttrOfType<IntegerAttr>("dist.stage");
    return stage ? &stages[stage.getInt()] : nullptr;
  };
  ASSERT_TRUE(succeeded(partitionFunction(func, options)));
  ASSERT_TRUE(succeeded(verify(*module)));

  // Arguments live on the stage of their first user: devices 0 and 1.
  auto stage0 = DevicesAttr::get(&context, {0, 1});
  auto stage1 = DevicesAttr::get(&context, {2, 3});
  EXPECT_EQ(getPlacement(func.getArgument(0)), stage0);
  EXPECT_EQ(cast<RankedTensorType>(func.getArgument(0).getType()).getDimSize(0),
            4);
  // The activation and the weight cross to stage 1 with one send each.
  SmallVector<SendOp> sends;
  func.walk([&](SendOp send) { sends.push_back(send); });
  ASSERT_EQ(sends.size(), 2u);
  for (SendOp send : sends) {
    EXPECT_EQ(getPlacement(send.getInput()), stage0);
    EXPECT_EQ(send.getTo(), stage1);
  }
  SmallVector<MatmulOp> matmuls;
  func.walk([&](MatmulOp op) { matmuls.push_back(op); });
  ASSERT_EQ(matmuls.size(), 2u);
  EXPECT_EQ(getPlacement(matmuls[1].getType()), stage1);
  EXPECT_EQ(getPlacement(func.getResultTypes()[0]), stage1);
}

TEST_F(ShardingIRTest, OpCountDoesNotGrowWithTheMesh) {
  const char *program = R"mlir(
    dist.mesh @world shape = [%d] axes = ["dp"]
    func.func @f(%%x: tensor<1024x64xf32> {dist.sharding = #dist.sharding<@world, [["dp"], []]>},
                 %%w: tensor<64x64xf32>) -> (tensor<64x64xf32> {dist.sharding = #dist.sharding<@world, [[], []]>}) {
      %%h = dist.matmul %%x, %%w : (tensor<1024x64xf32>, tensor<64x64xf32>) -> tensor<1024x64xf32>
      %%g = dist.matmul %%x, %%h {transpose_a} : (tensor<1024x64xf32>, tensor<1024x64xf32>) -> tensor<64x64xf32>
      return %%g : tensor<64x64xf32>
    })mlir";
  SmallVector<int64_t> counts;
  for (int devices : {2, 64, 1024}) {
    char source[1024];
    snprintf(source, sizeof(source), program, devices);
    auto module = parse(source);
    ASSERT_TRUE(module);
    auto func = first<func::FuncOp>(*module);
    ASSERT_TRUE(succeeded(propagateShardings(func)));
    ASSERT_TRUE(succeeded(partitionFunction(func)));
    int64_t count = 0;
    func.walk([&](Operation *) { ++count; });
    counts.push_back(count);
  }
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(counts[1], counts[2]);
}

} // namespace
