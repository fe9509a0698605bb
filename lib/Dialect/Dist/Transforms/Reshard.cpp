//===- Reshard.cpp - plans from one layout to another ---------------------===//
//
// The collectives that turn a value laid out one way into another layout,
// and their cost in bytes (what propagation ranks its choices by).
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Reshard.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dist-reshard"

using namespace mlir;
using namespace mlir::dist;

/// Whether `axis` may be appended to dim `dim` of `current` on the way to
/// `target`: the current split is a prefix of the target's, whose next axis
/// is `axis`.
static bool isNextAxis(const Layout &current, const Layout &target, int64_t dim,
                       int64_t axis) {
  ArrayRef<int64_t> have = current.dims[dim], want = target.dims[dim];
  return have.size() < want.size() && want.take_front(have.size()) == have &&
         want[have.size()] == axis;
}

SmallVector<ReshardStep> mlir::dist::planReshard(const Layout &from,
                                                 const Layout &to) {
  using Kind = ReshardStep::Kind;
  assert(from.getRank() == to.getRank() && "resharding keeps the rank");
  SmallVector<ReshardStep> steps;
  Layout current = from;
  int64_t rank = current.getRank();

  // Pending sums: reduce-scatter straight into a split the target wants.
  SmallVector<int64_t, 2> reduce;
  for (int64_t axis : current.partial) {
    if (llvm::is_contained(to.partial, axis))
      continue;
    bool scattered = false;
    for (int64_t dim = 0; dim < rank && !scattered; ++dim) {
      if (!isNextAxis(current, to, dim, axis))
        continue;
      steps.push_back({Kind::ReduceScatter, {axis}, dim});
      current.dims[dim].push_back(axis);
      scattered = true;
    }
    if (!scattered)
      reduce.push_back(axis);
  }
  if (!reduce.empty())
    steps.push_back({Kind::AllReduce, reduce});
  llvm::erase_if(current.partial, [&](int64_t axis) {
    return !llvm::is_contained(to.partial, axis);
  });

  // Splits the target does not keep: move one axis with all_to_all where the
  // target wants it next on another dim, gather the rest.
  for (int64_t dim = 0; dim < rank; ++dim) {
    ArrayRef<int64_t> want = to.dims[dim];
    size_t keep = 0;
    while (keep < current.dims[dim].size() && keep < want.size() &&
           current.dims[dim][keep] == want[keep])
      ++keep;
    if (keep == current.dims[dim].size())
      continue;
    if (current.dims[dim].size() - keep == 1) {
      int64_t axis = current.dims[dim].back();
      bool moved = false;
      for (int64_t other = 0; other < rank && !moved; ++other) {
        if (other == dim || !isNextAxis(current, to, other, axis))
          continue;
        steps.push_back({Kind::AllToAll, {axis}, other, dim});
        current.dims[dim].pop_back();
        current.dims[other].push_back(axis);
        moved = true;
      }
      if (moved)
        continue;
    }
    SmallVector<int64_t, 2> gathered(current.dims[dim].begin() + keep,
                                     current.dims[dim].end());
    steps.push_back({Kind::AllGather, gathered, dim});
    current.dims[dim].resize(keep);
  }

  // New splits of replicated data.
  for (int64_t dim = 0; dim < rank; ++dim) {
    ArrayRef<int64_t> want = to.dims[dim];
    if (current.dims[dim].size() == want.size())
      continue;
    SmallVector<int64_t, 2> added(want.begin() + current.dims[dim].size(),
                                  want.end());
    steps.push_back({Kind::Slice, added, dim});
    current.dims[dim].assign(want.begin(), want.end());
  }

  SmallVector<int64_t, 2> made;
  for (int64_t axis : to.partial)
    if (!llvm::is_contained(from.partial, axis))
      made.push_back(axis);
  if (!made.empty())
    steps.push_back({Kind::MakePartial, made});
  LLVM_DEBUG(llvm::dbgs() << "plan from " << from << " to " << to << ": "
                          << steps.size() << " steps\n");
  return steps;
}

double mlir::dist::estimateReshardBytes(ArrayRef<int64_t> shape,
                                        int64_t elementBytes,
                                        const Layout &from, const Layout &to,
                                        const Mesh &mesh) {
  if (from == to)
    return 0;
  double globalBytes = elementBytes;
  for (int64_t size : shape)
    globalBytes *= ShapedType::isDynamic(size) ? 1 : size;
  Layout current = from;
  auto localBytes = [&]() {
    double bytes = globalBytes;
    for (int64_t dim = 0; dim < current.getRank(); ++dim)
      bytes /= current.getShards(dim, mesh);
    return bytes;
  };
  double total = 0;
  for (const ReshardStep &step : planReshard(from, to)) {
    double n = getNumShards(step.axes, mesh);
    double local = localBytes();
    switch (step.kind) {
    case ReshardStep::Kind::AllReduce:
      total += 2 * (n - 1) / n * local;
      break;
    case ReshardStep::Kind::ReduceScatter:
    case ReshardStep::Kind::Slice:
    case ReshardStep::Kind::AllToAll:
      total += (n - 1) / n * local;
      break;
    case ReshardStep::Kind::AllGather:
      total += (n - 1) * local;
      break;
    case ReshardStep::Kind::MakePartial:
      break;
    }
    switch (step.kind) {
    case ReshardStep::Kind::ReduceScatter:
    case ReshardStep::Kind::Slice:
      llvm::append_range(current.dims[step.dim], step.axes);
      break;
    case ReshardStep::Kind::AllGather:
      current.dims[step.dim].resize(current.dims[step.dim].size() -
                                    step.axes.size());
      break;
    case ReshardStep::Kind::AllToAll:
      current.dims[step.concatDim].pop_back();
      current.dims[step.dim].push_back(step.axes.front());
      break;
    default:
      break;
    }
  }
  return total;
}
