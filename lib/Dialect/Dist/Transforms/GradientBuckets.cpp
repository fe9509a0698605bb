//===- GradientBuckets.cpp - data-parallel all-reduces in flat buckets ----===//
//
// PyTorch DDP (bucket_cap_mb, 25 MB by default) and Megatron-LM's DDP reduce
// gradients in flat buffers of many parameters rather than one collective
// per parameter: fewer latency terms, larger messages. Here the sum
// all-reduces of the optimizer phase (the data-parallel gradient reductions
// the partitioner inserts) with the same groups and element type are
// grouped, in the order their gradients are complete, into buckets of about
// the given size: each member is flattened and concatenated right after the
// last gradient of its bucket is produced (so a framework that overlaps the
// reduction can start it then), one all-reduce per bucket runs where the
// first of its members was used, and the result is split and reshaped back.
// A sum all-reduce is element-wise, so the bucketed program computes exactly
// what the unbucketed one does.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Sharding.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <limits>
#include <tuple>

using namespace mlir;
using namespace mlir::dist;

namespace {

/// A gradient reduction that may join a bucket.
struct Member {
  AllReduceOp reduction;
  /// Position of the op that produces the gradient (0: an argument).
  size_t readyAt;
  /// Position of the first user of the reduced value.
  size_t firstUse;
  int64_t bytes;
};

using BucketKey = std::tuple<Attribute, Type, Attribute>;

bool isGradientReduction(AllReduceOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  return op.getReduction() == ReductionKind::sum &&
         getPhase(op) == Phase::Optimizer && type && type.hasStaticShape() &&
         type.getElementType().isIntOrFloat() && !op->use_empty();
}

int64_t getBytes(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getNumElements() *
         ((type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

/// Replaces the members' reductions by one over their concatenation.
void buildBucket(MutableArrayRef<Member> bucket, ArrayRef<Operation *> opAt) {
  Member *last = &bucket.front(), *first = &bucket.front();
  for (Member &member : bucket) {
    if (member.readyAt > last->readyAt)
      last = &member;
    if (member.firstUse < first->firstUse)
      first = &member;
  }
  Value lastGradient = last->reduction.getInput();
  OpBuilder builder(lastGradient.getContext());
  if (Operation *producer = lastGradient.getDefiningOp())
    builder.setInsertionPointAfter(producer);
  else
    builder.setInsertionPointToStart(lastGradient.getParentBlock());
  Operation *hintsOfGradient = lastGradient.getDefiningOp();
  Location loc = first->reduction.getLoc();

  SmallVector<Value> flat;
  SmallVector<int64_t> sizes;
  for (Member &member : bucket) {
    Value gradient = member.reduction.getInput();
    int64_t elements =
        cast<RankedTensorType>(gradient.getType()).getNumElements();
    auto reshape =
        ReshapeOp::create(builder, loc, gradient, ArrayRef<int64_t>{elements});
    flat.push_back(reshape);
    sizes.push_back(elements);
  }
  auto concat = ConcatOp::create(builder, loc, flat, /*axis=*/0);
  if (hintsOfGradient)
    for (Value value : flat)
      copyDistHints(hintsOfGradient, value.getDefiningOp());
  if (hintsOfGradient)
    copyDistHints(hintsOfGradient, concat);

  builder.setInsertionPoint(opAt[first->firstUse]);
  AllReduceOp model = first->reduction;
  auto reduced = AllReduceOp::create(builder, loc, concat, model.getGroups(),
                                     ReductionKind::sum);
  copyDistHints(model, reduced);
  auto split = SplitOp::create(builder, loc, reduced, /*axis=*/0, sizes);
  copyDistHints(model, split);
  for (auto [member, part] : llvm::zip_equal(bucket, split.getResults())) {
    auto shape = cast<RankedTensorType>(member.reduction.getType()).getShape();
    auto reshape = ReshapeOp::create(builder, loc, part, shape);
    copyDistHints(model, reshape);
    member.reduction.replaceAllUsesWith(reshape.getResult());
    member.reduction.erase();
  }
}

} // namespace

void mlir::dist::copyDistHints(Operation *from, Operation *to) {
  for (NamedAttribute attr : from->getDiscardableAttrs()) {
    StringRef name = attr.getName().getValue();
    if (isa_and_nonnull<DistDialect>(attr.getNameDialect()) &&
        name != DistDialect::kShardingAttrName &&
        name != DistDialect::kShardingsAttrName)
      to->setAttr(attr.getName(), attr.getValue());
  }
}

void mlir::dist::bucketGradientReductions(func::FuncOp func,
                                          int64_t bucketBytes) {
  if (bucketBytes <= 0 || !func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  DenseMap<Operation *, size_t> position;
  SmallVector<Operation *> opAt;
  for (Operation &op : body) {
    position[&op] = opAt.size();
    opAt.push_back(&op);
  }

  // A reduction that reads another one (directly or not) stays alone: its
  // bucket could not be built before the other's.
  DenseSet<Operation *> readsReduction;
  llvm::MapVector<BucketKey, SmallVector<Member>> candidates;
  for (Operation &op : body) {
    bool tainted = llvm::any_of(op.getOperands(), [&](Value operand) {
      return readsReduction.contains(operand.getDefiningOp());
    });
    auto reduction = dyn_cast<AllReduceOp>(op);
    if (tainted)
      readsReduction.insert(&op);
    if (!reduction || tainted || !isGradientReduction(reduction))
      continue;
    readsReduction.insert(&op);
    Member member{reduction, 0, std::numeric_limits<size_t>::max(),
                  getBytes(reduction.getInput())};
    if (Operation *producer = reduction.getInput().getDefiningOp())
      member.readyAt = position.lookup(producer);
    for (Operation *user : reduction->getUsers())
      member.firstUse = std::min(member.firstUse, position.lookup(user));
    BucketKey key{reduction.getGroups(), reduction.getType().getElementType(),
                  reduction.getType().getEncoding()};
    candidates[key].push_back(member);
  }

  for (auto &[key, members] : candidates) {
    llvm::stable_sort(members, [](const Member &a, const Member &b) {
      return a.readyAt < b.readyAt;
    });
    SmallVector<Member> bucket;
    int64_t bytes = 0;
    size_t firstUse = std::numeric_limits<size_t>::max();
    auto flush = [&] {
      if (bucket.size() > 1)
        buildBucket(bucket, opAt);
      bucket.clear();
      bytes = 0;
      firstUse = std::numeric_limits<size_t>::max();
    };
    for (const Member &member : members) {
      // Full, or the new gradient is ready only after a member is used.
      if (!bucket.empty() &&
          (bytes + member.bytes > bucketBytes || member.readyAt >= firstUse ||
           bucket.back().readyAt >= member.firstUse))
        flush();
      bucket.push_back(member);
      bytes += member.bytes;
      firstUse = std::min(firstUse, member.firstUse);
    }
    flush();
  }
}
