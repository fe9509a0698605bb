//===- MeshTest.cpp - mesh utilities --------------------------------------===//

#include "distir/Dialect/Dist/IR/Mesh.h"

#include "gtest/gtest.h"

using namespace mlir::dist;
using llvm::SmallVector;

namespace {

Mesh dpPpTp() { return Mesh({2, 2, 2}, {"dp", "pp", "tp"}); }

TEST(MeshTest, CoordinatesRoundTrip) {
  Mesh mesh = dpPpTp();
  EXPECT_EQ(mesh.getNumDevices(), 8);
  for (int64_t id = 0; id < 8; ++id) {
    auto coords = mesh.getCoordinates(id);
    ASSERT_TRUE(coords.has_value());
    EXPECT_EQ(mesh.getDevice(*coords), id);
  }
  // Row-major: the last axis varies fastest.
  EXPECT_EQ(*mesh.getCoordinates(5), (SmallVector<int64_t>{1, 0, 1}));
  EXPECT_FALSE(mesh.getCoordinates(8).has_value());
  EXPECT_FALSE(mesh.getCoordinates(-1).has_value());
}

TEST(MeshTest, ExplicitDevices) {
  Mesh mesh({3}, {"x"}, {4, 2, 9});
  EXPECT_EQ(*mesh.getCoordinates(2), (SmallVector<int64_t>{1}));
  EXPECT_EQ(mesh.getDevice({2}), 9);
  EXPECT_FALSE(mesh.contains(3));
  EXPECT_TRUE(mesh.contains(9));
}

TEST(MeshTest, GroupsAlongOneAxis) {
  Mesh mesh = dpPpTp();
  auto tp = mesh.getGroups({2});
  ASSERT_EQ(tp.size(), 4u);
  EXPECT_EQ(tp[0], (SmallVector<int64_t>{0, 1}));
  EXPECT_EQ(tp[3], (SmallVector<int64_t>{6, 7}));
  auto dp = mesh.getGroups({0});
  ASSERT_EQ(dp.size(), 4u);
  EXPECT_EQ(dp[0], (SmallVector<int64_t>{0, 4}));
  EXPECT_EQ(dp[1], (SmallVector<int64_t>{1, 5}));
  EXPECT_EQ(dp[2], (SmallVector<int64_t>{2, 6}));
}

TEST(MeshTest, GroupsAlongSeveralAxes) {
  Mesh mesh = dpPpTp();
  // dp x tp groups: one per pipeline stage.
  auto stages = mesh.getGroups({0, 2});
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0], (SmallVector<int64_t>{0, 1, 4, 5}));
  EXPECT_EQ(stages[1], (SmallVector<int64_t>{2, 3, 6, 7}));
  // The order of the axes orders the members.
  auto swapped = mesh.getGroups({2, 0});
  EXPECT_EQ(swapped[0], (SmallVector<int64_t>{0, 4, 1, 5}));
  // Every device appears exactly once over the groups.
  std::vector<int> seen(8, 0);
  for (auto &group : stages)
    for (int64_t id : group)
      ++seen[id];
  for (int count : seen)
    EXPECT_EQ(count, 1);
  // All axes: one group of everything.
  EXPECT_EQ(mesh.getGroups({0, 1, 2}).size(), 1u);
  EXPECT_EQ(mesh.getGroups({}).size(), 8u);
}

TEST(MeshTest, SliceIsAPipelineStage) {
  Mesh mesh = dpPpTp();
  Mesh stage1 = mesh.getSlice({1}, {1});
  EXPECT_EQ(stage1.getRank(), 2);
  EXPECT_EQ(stage1.getAxes()[0], "dp");
  EXPECT_EQ(stage1.getAxes()[1], "tp");
  EXPECT_EQ(llvm::ArrayRef<int64_t>(stage1.getDevices()),
            llvm::ArrayRef<int64_t>({2, 3, 6, 7}));
  // Groups inside the slice are the tp groups of that stage.
  auto tp = stage1.getGroups({1});
  EXPECT_EQ(tp[0], (SmallVector<int64_t>{2, 3}));
  EXPECT_EQ(tp[1], (SmallVector<int64_t>{6, 7}));
  EXPECT_EQ(*stage1.getCoordinates(6), (SmallVector<int64_t>{1, 0}));
}

TEST(MeshTest, RankAlongAxes) {
  Mesh mesh = dpPpTp();
  EXPECT_EQ(mesh.getRankAlong(5, {0}), 1);    // dp coordinate
  EXPECT_EQ(mesh.getRankAlong(5, {0, 2}), 3); // (dp=1, tp=1)
  EXPECT_EQ(mesh.getRankAlong(5, {2, 0}), 3);
  EXPECT_EQ(mesh.getRankAlong(4, {2, 0}), 1);
}

TEST(MeshTest, AxesSize) {
  Mesh mesh({2, 4, 8}, {"dp", "pp", "tp"});
  EXPECT_EQ(*mesh.getAxesSize({"dp", "tp"}), 16);
  EXPECT_EQ(*mesh.getAxesSize({}), 1);
  EXPECT_FALSE(mesh.getAxesSize({"ep"}).has_value());
  EXPECT_EQ(*mesh.getAxisIndex("tp"), 2);
}

TEST(MeshTest, VerifyRejectsBadMeshes) {
  EXPECT_TRUE(Mesh::verify({2, 2}, {"a"}, {}).has_value());
  EXPECT_TRUE(Mesh::verify({2, 2}, {"a", "a"}, {}).has_value());
  EXPECT_TRUE(Mesh::verify({0}, {"a"}, {}).has_value());
  EXPECT_TRUE(Mesh::verify({2}, {"a"}, {1, 1}).has_value());
  EXPECT_TRUE(Mesh::verify({2}, {"a"}, {1}).has_value());
  EXPECT_FALSE(Mesh::verify({2, 3}, {"a", "b"}, {}).has_value());
}

TEST(MeshTest, LargeMesh) {
  // 128 nodes x 8 GPUs: dp=8, pp=16, tp=8.
  Mesh mesh({16, 8, 8}, {"pp", "dp", "tp"});
  EXPECT_EQ(mesh.getNumDevices(), 1024);
  auto tp = mesh.getGroups({2});
  EXPECT_EQ(tp.size(), 128u);
  // tp innermost: a tp group is 8 consecutive ids, inside one node.
  for (auto &group : tp)
    EXPECT_EQ(group.back() - group.front(), 7);
  auto stage = mesh.getSlice({0}, {15});
  EXPECT_EQ(stage.getDevices().front(), 960);
  EXPECT_EQ(stage.getNumDevices(), 64);
}

} // namespace
