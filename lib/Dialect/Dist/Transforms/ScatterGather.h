//===- ScatterGather.h - pipeline sends as slices plus an all-gather -*- C++
//-*-===//
//
// Megatron-LM's scatter/gather optimization of pipeline point-to-point
// communication (Narayanan et al., SC'21, §4.1;
// --scatter-gather-tensors-in-pipeline): a value that crosses stages
// replicated over the tp ranks of the sending stage is sent as tp slices,
// each tp rank its own over its own link, and the receiving stage
// all-gathers the slices over tp (NVLink inside a node). The partitioner
// builds it for the values it sends (PartitionOptions::scatterGatherAxis).
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_LIB_DIALECT_DIST_TRANSFORMS_SCATTERGATHER_H
#define DISTIR_LIB_DIALECT_DIST_TRANSFORMS_SCATTERGATHER_H

#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::dist {

/// The dimension a local tensor of `type` is cut into `parts` slices along:
/// the last one whose size `parts` divides, never dimension 0 (the batch,
/// which the microbatch split divides afterwards). nullopt: the tensor is
/// sent whole.
std::optional<int64_t> getScatterGatherDim(RankedTensorType type,
                                           int64_t parts);

/// The block of `value` (replicated over each group of `groups`) along
/// `dim` that the calling device holds: block i at position i of its group,
/// cut locally (`dist.group_rank`, a view of the dimension as
/// [parts, size / parts] and a `dist.take` of the rank). `tag` gives the new
/// ops their hints.
Value takeGroupBlock(OpBuilder &builder, Location loc, Value value, int64_t dim,
                     DeviceGroupsAttr groups,
                     llvm::function_ref<void(Operation *)> tag);

/// Sends `value`, replicated over each group of `sourceGroups`, to the
/// devices `to` as slices along `dim`: the device at position i of its group
/// sends its block i (`dist.group_rank`, a view of the dimension as
/// [parts, size / parts] and a `dist.take` of the rank), the receivers
/// all-gather the blocks over `targetGroups` (group i of the target sits at
/// the same mesh coordinates as group i of the source). `tagSending` and
/// `tagReceiving` give the new ops of each side their hints (stage, phase).
/// Returns the gathered value, of `value`'s shape placed on `to`.
Value sendScatterGather(OpBuilder &builder, Location loc, Value value,
                        int64_t dim, DevicesAttr to,
                        DeviceGroupsAttr sourceGroups,
                        DeviceGroupsAttr targetGroups,
                        llvm::function_ref<void(Operation *)> tagSending,
                        llvm::function_ref<void(Operation *)> tagReceiving);

} // namespace mlir::dist

#endif // DISTIR_LIB_DIALECT_DIST_TRANSFORMS_SCATTERGATHER_H
