//===- DeviceRunsTest.cpp - device sets and groups stored as runs --------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MathExtras.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::dist;

namespace {

/// The id-by-id greedy split that the printer used before sets were stored
/// as runs: the reference the run-by-run canonical form must equal.
SmallVector<DeviceRun> referenceRuns(ArrayRef<int64_t> ids) {
  auto stepBetween = [](int64_t from, int64_t to) -> int64_t {
    int64_t step;
    if (llvm::SubOverflow(to, from, step) || step <= 0)
      return 0;
    return step;
  };
  SmallVector<DeviceRun> runs;
  size_t i = 0;
  while (i < ids.size()) {
    size_t end = i + 1;
    int64_t step = 0;
    if (i + 1 < ids.size()) {
      step = stepBetween(ids[i], ids[i + 1]);
      end = i + 2;
      while (end < ids.size() && step > 0 &&
             stepBetween(ids[end - 1], ids[end]) == step)
        ++end;
    }
    if (step > 0 && ids[end - 1] > std::numeric_limits<int64_t>::max() - step)
      --end;
    int64_t len = end - i;
    if (step > 0 && ((step == 1 && len >= 2) || len >= 3)) {
      runs.push_back({ids[i], step, len});
      i = end;
      continue;
    }
    runs.push_back({ids[i], 1, 1});
    ++i;
  }
  return runs;
}

/// Random ids: runs of random steps and lengths, some near 2^63.
SmallVector<int64_t> randomIds(std::mt19937_64 &rng, bool sorted) {
  SmallVector<int64_t> ids;
  int64_t base = rng() % 4 == 0 ? std::numeric_limits<int64_t>::max() - 200
                                : int64_t(rng() % 50);
  int64_t next = base;
  for (int pieces = rng() % 6 + 1; pieces > 0; --pieces) {
    int64_t step = rng() % 4 + 1, count = rng() % 5 + 1;
    for (int64_t k = 0; k < count && next >= 0 &&
                        next <= std::numeric_limits<int64_t>::max() - step;
         ++k, next += step)
      ids.push_back(next);
    if (next > std::numeric_limits<int64_t>::max() - 8)
      break;
    next += rng() % 3;
  }
  if (!sorted)
    std::shuffle(ids.begin(), ids.end(), rng);
  return ids;
}

TEST(DeviceRunsTest, CanonicalRunsEqualTheIdByIdSplit) {
  std::mt19937_64 rng(14);
  for (int trial = 0; trial < 20000; ++trial) {
    bool sorted = trial % 2 == 0;
    SmallVector<int64_t> ids = randomIds(rng, sorted);
    if (ids.empty())
      continue;
    SmallVector<DeviceRun> expected = referenceRuns(ids);
    EXPECT_EQ(canonicalDeviceRuns(ArrayRef<int64_t>(ids)), expected);
    // The same sequence described by other runs canonicalizes the same way.
    EXPECT_EQ(canonicalDeviceRuns(ArrayRef<DeviceRun>(expected)), expected);
    SmallVector<int64_t> back(DeviceIdRange(expected).begin(),
                              DeviceIdRange(expected).end());
    EXPECT_EQ(back, ids);
  }
}

TEST(DeviceRunsTest, HugeRangeIsOneRun) {
  MLIRContext context;
  context.loadDialect<DistDialect>();
  const int64_t n = kMaxDevices;
  DevicesAttr all = DevicesAttr::getFromRuns(&context, {{0, 1, n}});
  ASSERT_EQ(all.getRuns().size(), 1u);
  EXPECT_EQ(all.size(), size_t(n));
  EXPECT_EQ(all.indexOf(n - 1), n - 1);
  EXPECT_FALSE(all.contains(n));
  // Written as two adjacent runs, it is the same attribute.
  EXPECT_EQ(DevicesAttr::getFromRuns(&context, {{0, 1, 10}, {10, 1, n - 10}}),
            all);
  const int64_t far = int64_t(1) << 40;
  DevicesAttr strided = DevicesAttr::getFromRuns(&context, {{7, far, n}});
  EXPECT_EQ(strided.indexOf(7 + 5 * far), 5);
  EXPECT_EQ(strided.indexOf(8 + 5 * far), -1);
}

TEST(DeviceRunsTest, GroupsAlongAnInnerAxisUniteToOneRun) {
  MLIRContext context;
  context.loadDialect<DistDialect>();
  const int64_t n = kMaxDevices;
  auto groups = DeviceGroupsAttr::getFromRuns(
      &context,
      {{{0, 4, n / 4}}, {{1, 4, n / 4}}, {{2, 4, n / 4}}, {{3, 4, n / 4}}});
  ASSERT_TRUE(groups);
  EXPECT_EQ(groups.getNumGroups(), 4);
  EXPECT_EQ(groups.getGroupSize(), n / 4);
  EXPECT_EQ(groups.getUnion(), DevicesAttr::getFromRuns(&context, {{0, 1, n}}));
  EXPECT_EQ(groups.getRoots(1), DevicesAttr::get(&context, {4, 5, 6, 7}));
  // Interleaved runs whose union is no run: computed id by id.
  auto sparse =
      DeviceGroupsAttr::getFromRuns(&context, {{{0, 4, 3}}, {{1, 4, 3}}});
  EXPECT_EQ(sparse.getUnion(), DevicesAttr::get(&context, {0, 1, 4, 5, 8, 9}));
}

} // namespace
