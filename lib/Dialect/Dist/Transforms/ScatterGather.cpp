//===- ScatterGather.cpp - pipeline sends as slices plus an all-gather ----===//
//
// The ops are existing ones so that the executor, the microbatch split and
// the simulator need nothing new: the rank-dependent slice is a take of the
// device's `dist.group_rank` along a reshaped view (the form vocab-parallel
// lookups use for their block), the send moves 1/parts of the bytes, and the
// all-gather is a tp collective of the receiving stage.
//
//===----------------------------------------------------------------------===//

#include "ScatterGather.h"

using namespace mlir;
using namespace mlir::dist;

std::optional<int64_t> mlir::dist::getScatterGatherDim(RankedTensorType type,
                                                       int64_t parts) {
  if (parts <= 1 || !type.hasStaticShape())
    return std::nullopt;
  for (int64_t dim = type.getRank() - 1; dim >= 1; --dim)
    if (type.getDimSize(dim) % parts == 0)
      return dim;
  return std::nullopt;
}

Value mlir::dist::takeGroupBlock(OpBuilder &builder, Location loc, Value value,
                                 int64_t dim, DeviceGroupsAttr groups,
                                 llvm::function_ref<void(Operation *)> tag) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t parts = groups.getGroupSize();
  assert(type.getDimSize(dim) % parts == 0 && "the groups divide the dim");
  auto rank = GroupRankOp::create(
      builder, loc,
      RankedTensorType::get({}, builder.getI64Type(), groups.getUnion()),
      groups);
  SmallVector<int64_t> viewShape(type.getShape());
  viewShape[dim] = type.getDimSize(dim) / parts;
  viewShape.insert(viewShape.begin() + dim, parts);
  auto view = ReshapeOp::create(builder, loc, value,
                                builder.getDenseI64ArrayAttr(viewShape));
  auto block = TakeOp::create(builder, loc, view, rank, dim);
  for (Operation *op :
       {rank.getOperation(), view.getOperation(), block.getOperation()})
    tag(op);
  return block;
}

Value mlir::dist::sendScatterGather(
    OpBuilder &builder, Location loc, Value value, int64_t dim, DevicesAttr to,
    DeviceGroupsAttr sourceGroups, DeviceGroupsAttr targetGroups,
    llvm::function_ref<void(Operation *)> tagSending,
    llvm::function_ref<void(Operation *)> tagReceiving) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t parts = sourceGroups.getGroupSize();
  assert(getScatterGatherDim(type, parts) == dim &&
         "the caller checked that the dimension divides");

  Value block =
      takeGroupBlock(builder, loc, value, dim, sourceGroups, tagSending);
  auto send = SendOp::create(builder, loc, block, to);
  tagSending(send);

  auto gather =
      AllGatherOp::create(builder, loc, send, targetGroups, (uint64_t)dim);
  tagReceiving(gather);
  return gather;
}
