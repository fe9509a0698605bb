//===- CostModelTest.cpp - Roofline, collectives, profiles ----------------===//

#include "distir/CostModel/CostModel.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

using namespace distir;
using namespace distir::cost;
using topology::DataType;

namespace {

CostModel a100(int64_t nodes = 1) {
  return CostModel(*topology::clusterPreset("dgx-a100", nodes));
}

std::vector<int64_t> range(int64_t begin, int64_t end) {
  std::vector<int64_t> ids;
  for (int64_t i = begin; i < end; ++i)
    ids.push_back(i);
  return ids;
}

TEST(CostModel, RingAllReduceInsideOneNode) {
  CostModel model = a100();
  const topology::Cluster &cluster = model.getCluster();
  double bandwidth = model.busBandwidth(LinkKind::IntraNode);
  double alpha = cluster.intraNode.latencyS;
  int64_t bytes = int64_t(1) << 30;
  for (int64_t n : {2, 4, 8}) {
    double expected = cluster.device.launchOverheadS + 2 * (n - 1) * alpha +
                      2.0 * (n - 1) / n * bytes / bandwidth;
    EXPECT_NEAR(
        model.collectiveTime(CollectiveKind::AllReduce, bytes, range(0, n)),
        expected, 1e-12 * expected)
        << "n = " << n;
  }
  // All-gather and reduce-scatter move half of what all-reduce moves.
  double allGather =
      model.collectiveTime(CollectiveKind::AllGather, bytes, range(0, 8));
  EXPECT_NEAR(allGather,
              cluster.device.launchOverheadS + 7 * alpha +
                  7.0 / 8 * bytes / bandwidth,
              1e-9);
  EXPECT_DOUBLE_EQ(
      allGather,
      model.collectiveTime(CollectiveKind::ReduceScatter, bytes, range(0, 8)));
}

TEST(CostModel, AcrossNodesTheNicIsTheBottleneck) {
  CostModel model = a100(2);
  const topology::Cluster &cluster = model.getCluster();
  int64_t bytes = int64_t(1) << 30;
  // One device on each of two nodes: a ring of two over the NICs.
  double across =
      model.collectiveTime(CollectiveKind::AllReduce, bytes, {0, 8});
  double nic = model.busBandwidth(LinkKind::InterNode);
  double expected = cluster.device.launchOverheadS +
                    2 * cluster.interNode.latencyS + 1.0 * bytes / nic;
  EXPECT_NEAR(across, expected, 1e-12 * expected);
  double inside =
      model.collectiveTime(CollectiveKind::AllReduce, bytes, {0, 1});
  double linkRatio = model.busBandwidth(LinkKind::IntraNode) /
                     model.busBandwidth(LinkKind::InterNode);
  EXPECT_NEAR(across / inside, linkRatio, 0.05 * linkRatio);

  // Sixteen devices on two nodes: only a 1/8 shard crosses the NICs, yet
  // that phase nearly doubles the time of the one-node all-reduce.
  double sixteen =
      model.collectiveTime(CollectiveKind::AllReduce, bytes, range(0, 16));
  double eight =
      model.collectiveTime(CollectiveKind::AllReduce, bytes, range(0, 8));
  double interPhase = (bytes / 8.0) / nic;
  EXPECT_GT(sixteen, 1.5 * eight);
  EXPECT_NEAR(sixteen, eight + interPhase + 2 * cluster.interNode.latencyS,
              1e-9);
}

// The two bus efficiencies are physical figures (docs/dist-sim.md): NCCL's
// A100 NVLink cap, 235 of 300 GB/s, and NVIDIA's 192 of 200 GB/s between
// DGX A100 nodes over 8 x HDR.
TEST(CostModel, BusEfficiencyPerKindOfLink) {
  EXPECT_DOUBLE_EQ(CostModel::busEfficiency(LinkKind::IntraNode), 235.0 / 300);
  EXPECT_DOUBLE_EQ(CostModel::busEfficiency(LinkKind::InterNode), 0.96);
  CostModel model = a100(2);
  EXPECT_DOUBLE_EQ(model.busBandwidth(LinkKind::InterNode), 24e9);
  EXPECT_DOUBLE_EQ(model.busBandwidth(LinkKind::IntraNode), 235e9);
}

TEST(CostModel, GroupShape) {
  CostModel model = a100(4);
  GroupShape shape = model.groupShape({0, 8, 16, 24});
  EXPECT_EQ(shape.size, 4);
  EXPECT_EQ(shape.nodes, 4);
  EXPECT_EQ(shape.perNode, 1);
  shape = model.groupShape(range(0, 32));
  EXPECT_EQ(shape.nodes, 4);
  EXPECT_EQ(shape.perNode, 8);
}

TEST(CostModel, SendUsesTheLinkBetweenTheDevices) {
  CostModel model = a100(2);
  const topology::Cluster &cluster = model.getCluster();
  int64_t bytes = 100 << 20;
  EXPECT_NEAR(model.sendTime(bytes, 0, 1),
              cluster.device.launchOverheadS + cluster.intraNode.latencyS +
                  bytes / model.busBandwidth(LinkKind::IntraNode),
              1e-12);
  EXPECT_NEAR(model.sendTime(bytes, 7, 8),
              cluster.device.launchOverheadS + cluster.interNode.latencyS +
                  bytes / model.busBandwidth(LinkKind::InterNode),
              1e-12);
  EXPECT_EQ(model.sendTime(bytes, 3, 3), 0);
  EXPECT_DOUBLE_EQ(model.collectiveTime(CollectiveKind::Send, bytes, {7, 8}),
                   model.sendTime(bytes, 7, 8));
}

TEST(CostModel, TrivialCollectivesAreFree) {
  CostModel model = a100();
  EXPECT_EQ(model.collectiveTime(CollectiveKind::AllReduce, 1 << 20, {3}), 0);
  EXPECT_EQ(model.collectiveTime(CollectiveKind::AllGather, 0, {0, 1}), 0);
}

TEST(CostModel, RooflineComputeBoundMatmul) {
  CostModel model = a100();
  const topology::DeviceSpec &device = model.getCluster().device;
  OpWork matmul{"matmul",
                DataType::F16,
                2.0 * 8192 * 8192 * 8192,
                3 * 8192 * 8192 * 2,
                8192 * 8192 * 2,
                {}};
  double time = model.computeTime(matmul);
  double atPeak = matmul.flops / device.matrixPeak(DataType::F16);
  // Compute-bound: slower than peak, but within the efficiency band.
  EXPECT_GT(time, atPeak / 0.95);
  EXPECT_LT(time, atPeak / 0.6);
  // The same FLOPs in f32 run on the vector units: 16x slower.
  OpWork f32 = matmul;
  f32.dtype = DataType::F32;
  EXPECT_GT(model.computeTime(f32), 10 * time);
}

TEST(CostModel, RooflineMemoryBoundElementwise) {
  CostModel model = a100();
  const topology::DeviceSpec &device = model.getCluster().device;
  int64_t bytes = int64_t(256) << 20;
  OpWork gelu{"gelu", DataType::F16, 8.0 * bytes / 2, bytes, bytes, {}};
  double time = model.computeTime(gelu);
  double atPeak = 2.0 * bytes / device.memoryBandwidth;
  EXPECT_GT(time, atPeak);
  EXPECT_LT(time, atPeak / 0.7);
  // Memory-bound: doubling the FLOPs changes nothing.
  OpWork heavier = gelu;
  heavier.flops *= 2;
  EXPECT_DOUBLE_EQ(model.computeTime(heavier), time);
}

TEST(CostModel, EfficiencyGrowsWithSize) {
  CostModel model = a100();
  double previous = 0;
  for (double flops = 1e6; flops < 1e14; flops *= 10) {
    double efficiency = model.matrixEfficiency(flops, DataType::F16);
    EXPECT_GT(efficiency, previous);
    EXPECT_LT(efficiency, 1.0);
    previous = efficiency;
  }
  EXPECT_LT(model.memoryEfficiency(4096), 0.1);
  EXPECT_GT(model.memoryEfficiency(1e10), 0.85);
}

TEST(CostModel, SmallKernelsPayTheLaunchOverhead) {
  CostModel model = a100();
  OpWork tiny{"add", DataType::F32, 16, 128, 64, {}};
  EXPECT_GE(model.computeTime(tiny), model.getCluster().device.launchOverheadS);
  OpWork view{"reshape", DataType::F32, 0, 0, 0, {}};
  EXPECT_EQ(model.computeTime(view), 0);
}

TEST(ProfileTable, OverridesTheFormulaWhereItHasAnEntry) {
  StatusOr<ProfileTable> table = ProfileTable::parse(
      R"({"entries": [{"kind": "matmul", "dtype": "f16",
                       "shapes": [[64, 32], [32, 16], [64, 16]],
                       "seconds": 0.25}]})",
      "p.json");
  ASSERT_TRUE(table) << table.message();
  EXPECT_EQ(table->size(), 1u);
  CostModel model(*topology::clusterPreset("dgx-a100"),
                  std::make_shared<ProfileTable>(*table));
  OpWork hit{"matmul",
             DataType::F16,
             2.0 * 64 * 32 * 16,
             0,
             0,
             {{64, 32}, {32, 16}, {64, 16}}};
  EXPECT_EQ(model.computeTime(hit), 0.25);
  OpWork otherDtype = hit;
  otherDtype.dtype = DataType::BF16;
  EXPECT_LT(model.computeTime(otherDtype), 1e-3);
  OpWork otherShape = hit;
  otherShape.shapes[0] = {64, 33};
  EXPECT_LT(model.computeTime(otherShape), 1e-3);
}

struct BadProfile {
  /// The test's name: what is wrong.
  const char *name;
  const char *text;
  const char *error;
};

void PrintTo(const BadProfile &c, std::ostream *os) { *os << c.name; }
class ProfileErrors : public ::testing::TestWithParam<BadProfile> {};

TEST_P(ProfileErrors, OneLineError) {
  StatusOr<ProfileTable> table = ProfileTable::parse(GetParam().text, "p.json");
  ASSERT_FALSE(table);
  EXPECT_EQ(table.message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ProfileErrors,
    ::testing::Values(
        BadProfile{"SyntaxError", "{\"entries\": [}",
                   "p.json:1:14: invalid JSON: syntax "
                   "error while parsing value - "
                   "unexpected '}'; expected '[', '{', "
                   "or a literal"},
        BadProfile{"NoEntries", "{}",
                   "p.json: entries: expected {\"entries\": [...]}"},
        BadProfile{"UnknownTopLevelKey", R"({"entries": [], "x": 1})",
                   "p.json: x: unknown key (expected: entries)"},
        BadProfile{"UnknownDataType",
                   R"({"entries": [{"kind": "matmul", "dtype": "fp16",
                     "shapes": [], "seconds": 1}]})",
                   "p.json: entries[0].dtype: unknown element type 'fp16' "
                   "(expected f16, bf16, f32, ...)"},
        BadProfile{"NegativeSize",
                   R"({"entries": [{"kind": "matmul", "dtype": "f16",
                     "shapes": [[2, -1]], "seconds": 1}]})",
                   "p.json: entries[0].shapes: sizes must be non-negative "
                   "integers"},
        BadProfile{"NegativeSeconds",
                   R"({"entries": [{"kind": "matmul", "dtype": "f16",
                     "shapes": [], "seconds": -1}]})",
                   "p.json: entries[0].seconds: expected a non-negative "
                   "number"},
        BadProfile{"UnknownEntryKey",
                   R"({"entries": [{"kind": "matmul", "dtype": "f16",
                     "shapes": [], "seconds": 1, "second": 2}]})",
                   "p.json: entries[0].second: unknown key (expected one of: "
                   "kind, dtype, shapes, seconds)"}),
    [](const ::testing::TestParamInfo<BadProfile> &info) {
      return std::string(info.param.name);
    });

TEST(CollectiveKind, Names) {
  EXPECT_EQ(parseCollectiveKind("reduce_scatter"),
            CollectiveKind::ReduceScatter);
  EXPECT_EQ(collectiveKindName(CollectiveKind::AllToAll), "all_to_all");
  EXPECT_FALSE(parseCollectiveKind("allreduce"));
}

} // namespace
