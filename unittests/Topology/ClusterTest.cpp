//===- ClusterTest.cpp - Presets, JSON format and --cluster specs ---------===//

#include "distir/Topology/Cluster.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>

using namespace distir::topology;
using distir::StatusOr;

namespace {

TEST(Cluster, DgxA100PresetMatchesDatasheet) {
  std::optional<Cluster> cluster = clusterPreset("dgx-a100", 4);
  ASSERT_TRUE(cluster);
  EXPECT_EQ(cluster->numDevices(), 32);
  EXPECT_DOUBLE_EQ(cluster->device.matrixPeak(DataType::F16), 312e12);
  EXPECT_DOUBLE_EQ(cluster->device.matrixPeak(DataType::BF16), 312e12);
  // No tensor-core figure for f32 in the reference: the vector peak.
  EXPECT_DOUBLE_EQ(cluster->device.matrixPeak(DataType::F32), 19.5e12);
  EXPECT_EQ(cluster->device.memoryBytes, int64_t(80) << 30);
  EXPECT_DOUBLE_EQ(cluster->device.memoryBandwidth, 2.039e12);
  EXPECT_DOUBLE_EQ(cluster->intraNode.bandwidth, 300e9);
  EXPECT_DOUBLE_EQ(cluster->interNode.bandwidth, 25e9);
}

TEST(Cluster, DgxH100Preset) {
  std::optional<Cluster> cluster = clusterPreset("dgx-h100", 2);
  ASSERT_TRUE(cluster);
  EXPECT_EQ(cluster->numDevices(), 16);
  EXPECT_DOUBLE_EQ(cluster->device.matrixPeak(DataType::BF16), 989e12);
  EXPECT_DOUBLE_EQ(cluster->device.memoryBandwidth, 3.35e12);
  EXPECT_DOUBLE_EQ(cluster->intraNode.bandwidth, 450e9);
  EXPECT_DOUBLE_EQ(cluster->interNode.bandwidth, 50e9);
}

TEST(Cluster, DeviceIdsAreNodeMajor) {
  Cluster cluster = *clusterPreset("dgx-a100", 2);
  EXPECT_EQ(cluster.nodeOf(0), 0);
  EXPECT_EQ(cluster.nodeOf(7), 0);
  EXPECT_EQ(cluster.nodeOf(8), 1);
  EXPECT_TRUE(cluster.sameNode(3, 5));
  EXPECT_FALSE(cluster.sameNode(7, 8));
  EXPECT_EQ(&cluster.linkBetween(7, 8), &cluster.interNode);
  EXPECT_EQ(&cluster.linkBetween(1, 2), &cluster.intraNode);
}

TEST(Cluster, LargestClusterIsTheDialectsDeviceLimit) {
  StatusOr<Cluster> cluster = parseClusterSpec("dgx-h100:nodes=131072");
  ASSERT_TRUE(cluster) << cluster.message();
  EXPECT_EQ(cluster->numDevices(), int64_t{1} << 20);
  EXPECT_EQ(cluster->nodeOf((int64_t{1} << 20) - 1), 131071);
  StatusOr<Cluster> larger = parseClusterSpec("dgx-h100:nodes=131073");
  ASSERT_FALSE(larger);
  EXPECT_EQ(larger.message(),
            "cluster spec 'dgx-h100:nodes=131073': 131073 nodes are more than "
            "1048576 devices, the dialect's limit");
}

TEST(ClusterSpec, PresetWithNodes) {
  StatusOr<Cluster> cluster = parseClusterSpec("dgx-a100:nodes=4");
  ASSERT_TRUE(cluster) << cluster.message();
  EXPECT_EQ(cluster->numNodes, 4);
  EXPECT_EQ(cluster->name, "dgx-a100");
  StatusOr<Cluster> single = parseClusterSpec("dgx-h100");
  ASSERT_TRUE(single) << single.message();
  EXPECT_EQ(single->numNodes, 1);
}

/// The error of a spec that must not parse ("" if it parsed).
std::string specError(std::string_view spec) {
  StatusOr<Cluster> cluster = parseClusterSpec(spec);
  return cluster ? "" : cluster.message();
}

TEST(ClusterSpec, Errors) {
  EXPECT_EQ(specError("dgx-b200"),
            "cluster spec 'dgx-b200': unknown preset 'dgx-b200' "
            "(known: dgx-a100, dgx-h100; or give a .json cluster file)");
  EXPECT_EQ(specError("dgx-a100:gpus=4"),
            "cluster spec 'dgx-a100:gpus=4': unknown option 'gpus' "
            "(expected nodes=N)");
  for (const char *bad :
       {"dgx-a100:nodes=0", "dgx-a100:nodes=-2", "dgx-a100:nodes=x",
        "dgx-a100:nodes=", "dgx-a100:nodes=3x"}) {
    std::string error = specError(bad);
    EXPECT_NE(error.find("for nodes (expected a positive integer)"),
              std::string::npos)
        << bad << ": " << error;
  }
  EXPECT_EQ(specError("/nonexistent/c.json"),
            "/nonexistent/c.json: cannot open cluster file");
}

TEST(ClusterJson, RoundTrip) {
  Cluster preset = *clusterPreset("dgx-h100", 3);
  StatusOr<Cluster> parsed = parseClusterJson(clusterToJson(preset), "rt.json");
  ASSERT_TRUE(parsed) << parsed.message();
  EXPECT_EQ(parsed->name, preset.name);
  EXPECT_EQ(parsed->numNodes, 3);
  EXPECT_EQ(parsed->devicesPerNode, 8);
  EXPECT_EQ(parsed->device.matrixFlops, preset.device.matrixFlops);
  EXPECT_EQ(parsed->device.memoryBytes, preset.device.memoryBytes);
  EXPECT_DOUBLE_EQ(parsed->device.launchOverheadS,
                   preset.device.launchOverheadS);
  EXPECT_DOUBLE_EQ(parsed->interNode.latencyS, preset.interNode.latencyS);
}

TEST(ClusterJson, FileThroughSpec) {
  std::string path = ::testing::TempDir() + "cluster-test.json";
  {
    std::ofstream out(path);
    out << R"({"nodes": 2, "devices_per_node": 4,
      "device": {"matrix_flops": {"bf16": 1e15}, "vector_flops": 5e13,
                 "memory_bytes": 2.4e10, "memory_bandwidth": 1e12},
      "intra_node": {"bandwidth": 1e11, "latency_s": 1e-6},
      "inter_node": {"bandwidth": 1e10, "latency_s": 5e-6}})";
  }
  StatusOr<Cluster> cluster = parseClusterSpec(path);
  ASSERT_TRUE(cluster) << cluster.message();
  EXPECT_EQ(cluster->numDevices(), 8);
  EXPECT_EQ(cluster->device.memoryBytes, 24000000000);
  EXPECT_DOUBLE_EQ(cluster->device.matrixPeak(DataType::BF16), 1e15);
  EXPECT_DOUBLE_EQ(cluster->device.matrixPeak(DataType::F16), 5e13);
  EXPECT_DOUBLE_EQ(cluster->device.launchOverheadS, 0);
  std::remove(path.c_str());
}

TEST(ClusterJson, SyntaxErrorHasLineAndColumnOnOneLine) {
  StatusOr<Cluster> cluster =
      parseClusterJson("{\n  \"nodes\": 2,\n  oops\n}", "c.json");
  ASSERT_FALSE(cluster);
  const std::string &error = cluster.message();
  EXPECT_EQ(error.rfind("c.json:3:3: invalid JSON: syntax error", 0), 0u)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

struct BadJson {
  /// The test's name: what is wrong.
  const char *name;
  const char *text;
  const char *error;
};

void PrintTo(const BadJson &c, std::ostream *os) { *os << c.name; }

class ClusterJsonErrors : public ::testing::TestWithParam<BadJson> {};

TEST_P(ClusterJsonErrors, OneLineErrorNamingThePlace) {
  StatusOr<Cluster> cluster = parseClusterJson(GetParam().text, "c.json");
  ASSERT_FALSE(cluster);
  EXPECT_EQ(cluster.message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ClusterJsonErrors,
    ::testing::Values(
        BadJson{"NotAnObject", "[1, 2]", "c.json: expected a JSON object"},
        BadJson{"MissingNodes", R"({"devices_per_node": 8})",
                "c.json: missing required key 'nodes'"},
        BadJson{"ZeroNodes", R"({"nodes": 0, "devices_per_node": 8})",
                "c.json: nodes: expected a positive integer"},
        BadJson{"FractionalNodes", R"({"nodes": 1.5, "devices_per_node": 8})",
                "c.json: nodes: expected a positive integer"},
        BadJson{"DeviceWithoutVectorFlops",
                R"({"nodes": 1, "devices_per_node": 8, "device": {}})",
                "c.json: device: missing required key 'vector_flops'"},
        BadJson{"NegativeVectorFlops",
                R"({"nodes": 1, "devices_per_node": 8, "device":
                  {"vector_flops": -1}})",
                "c.json: device.vector_flops: expected a positive number"},
        BadJson{"UnknownMatrixDataType",
                R"({"nodes": 1, "devices_per_node": 8, "device":
                  {"vector_flops": 1, "memory_bytes": 1,
                   "memory_bandwidth": 1, "matrix_flops": {"fp16": 1}}})",
                "c.json: device.matrix_flops.fp16: unknown key (expected one "
                "of: f16, bf16, f32, f64, i1, i8, i32, i64)"},
        BadJson{"IntraNodeWithoutLatency",
                R"({"nodes": 1, "devices_per_node": 8, "device":
                  {"vector_flops": 1, "memory_bytes": 1,
                   "memory_bandwidth": 1},
                  "intra_node": {"bandwidth": 1, "latency": 0}})",
                "c.json: intra_node: missing required key 'latency_s'"},
        BadJson{"UnknownTopLevelKey",
                R"({"nodes": 1, "devices_per_node": 8, "device":
                  {"vector_flops": 1, "memory_bytes": 1,
                   "memory_bandwidth": 1},
                  "intra_node": {"bandwidth": 1, "latency_s": 0},
                  "inter_node": {"bandwidth": 1, "latency_s": 0},
                  "gpus": 3})",
                "c.json: gpus: unknown key (expected one of: name, nodes, "
                "devices_per_node, device, intra_node, inter_node)"}),
    [](const ::testing::TestParamInfo<BadJson> &info) {
      return std::string(info.param.name);
    });

TEST(DataType, NamesAndSizes) {
  EXPECT_EQ(parseDataType("bf16"), DataType::BF16);
  EXPECT_FALSE(parseDataType("fp16"));
  EXPECT_EQ(dataTypeName(DataType::I64), "i64");
  EXPECT_EQ(dataTypeBytes(DataType::F16), 2);
  EXPECT_EQ(dataTypeBytes(DataType::F64), 8);
  EXPECT_EQ(dataTypeBytes(DataType::I1), 1);
}

} // namespace
