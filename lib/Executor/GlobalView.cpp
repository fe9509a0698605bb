//===- GlobalView.cpp - Global values of placed signatures ----------------===//

#include "distir/Executor/GlobalView.h"

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Dialect/Dist/IR/Layout.h"
#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Kernels/Kernels.h"

#include "mlir/IR/SymbolTable.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::dist;
namespace k = distir::kernels;

namespace distir {

namespace {

using BlockKey = std::vector<int64_t>;

LogicalResult getBlockLayout(func::FuncOp func, Type type,
                             DictionaryAttr attributes, ShardingAttr sharding,
                             const std::string &what,
                             const std::string &defaultName,
                             GlobalLayout &layout) {
  layout = GlobalLayout();
  layout.name = defaultName;
  if (attributes) {
    if (auto name = attributes.getAs<StringAttr>(DistDialect::kNameAttrName))
      layout.name = name.getValue().str();
    if (auto bound = attributes.getAs<IntegerAttr>(DistDialect::kBoundAttrName))
      layout.bound = bound.getInt();
  }
  if (Status status =
          getHostTensorType(type, layout.elementType, layout.localShape);
      !status.ok())
    return func.emitOpError()
           << what << " ('" << layout.name << "'): " << status.message();
  layout.globalShape = layout.localShape;
  if (DevicesAttr devices = getPlacement(type))
    layout.devices.assign(devices.getIds().begin(), devices.getIds().end());
  const size_t numDevices = layout.devices.size();
  const int64_t rank = static_cast<int64_t>(layout.localShape.size());
  layout.blockOffsets.assign(numDevices, std::vector<int64_t>(rank, 0));
  layout.partialRanks.assign(numDevices, 0);

  // On an unplaced value a sharding is only a request to the partitioner.
  if (!sharding || numDevices == 0)
    return success();
  auto meshOp =
      SymbolTable::lookupNearestSymbolFrom<MeshOp>(func, sharding.getMesh());
  if (!meshOp)
    return func.emitOpError() << what << " ('" << layout.name
                              << "'): unknown mesh " << sharding.getMesh();
  Mesh mesh = Mesh::fromOp(meshOp);
  for (int64_t device : layout.devices)
    if (!mesh.contains(device))
      return func.emitOpError()
             << what << " ('" << layout.name << "'): device " << device
             << " is not in mesh " << sharding.getMesh();
  if (sharding.getRank() != rank)
    return func.emitOpError()
           << what << " ('" << layout.name << "'): sharding of rank "
           << sharding.getRank() << " for a tensor of rank " << rank;
  FailureOr<Layout> resolved = getLayout(sharding, mesh, [&] {
    return func.emitOpError() << what << " ('" << layout.name << "'): ";
  });
  if (failed(resolved))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t factor = resolved->getShards(d, mesh);
    layout.globalShape[d] *= factor;
    layout.numBlocks *= factor;
    if (resolved->dims[d].empty())
      continue;
    for (size_t i = 0; i < numDevices; ++i)
      layout.blockOffsets[i][d] =
          mesh.getRankAlong(layout.devices[i], resolved->dims[d]) *
          layout.localShape[d];
  }
  // Ranks along the partial axes in the order the attribute names them (a
  // Layout sorts them): the order in which assembleGlobal sums the partials.
  SmallVector<int64_t> partialAxes;
  for (StringRef name : sharding.getPartial())
    partialAxes.push_back(*mesh.getAxisIndex(name));
  if (!partialAxes.empty())
    for (size_t i = 0; i < numDevices; ++i)
      layout.partialRanks[i] =
          mesh.getRankAlong(layout.devices[i], partialAxes);
  if (Status status = checkShape(layout.globalShape, layout.elementType);
      !status.ok())
    return func.emitOpError() << what << " ('" << layout.name
                              << "'): global shape: " << status.message();
  return success();
}

/// The layout of a placed argument or result: the blocks its sharding
/// gives, each split further into flat parts for a `dist.flat_shard`.
LogicalResult getGlobalLayout(func::FuncOp func, Type type,
                              DictionaryAttr attributes,
                              const std::string &what,
                              const std::string &defaultName,
                              GlobalLayout &layout) {
  auto emitError = [&] { return func.emitOpError() << what << ": "; };
  FailureOr<std::optional<FlatShard>> flat =
      getFlatShard(attributes, emitError);
  if (failed(flat))
    return failure();
  ShardingAttr sharding =
      attributes
          ? attributes.getAs<ShardingAttr>(DistDialect::kShardingAttrName)
          : ShardingAttr();
  DevicesAttr devices = getPlacement(type);
  if (!*flat || !devices)
    return getBlockLayout(func, type, attributes, sharding, what, defaultName,
                          layout);
  auto tensor = dyn_cast<RankedTensorType>(type);
  MeshOp meshOp;
  if (auto meshName =
          func->getAttrOfType<FlatSymbolRefAttr>(DistDialect::kMeshAttrName))
    meshOp = SymbolTable::lookupNearestSymbolFrom<MeshOp>(func, meshName);
  if (!meshOp)
    return emitError() << "a flat shard needs the function's dist.mesh";
  Mesh mesh = Mesh::fromOp(meshOp);
  std::optional<int64_t> axis = mesh.getAxisIndex((*flat)->axis);
  if (!axis)
    return emitError() << "flat shard over unknown mesh axis \""
                       << (*flat)->axis << "\"";
  auto blockType = RankedTensorType::get((*flat)->blockShape,
                                         tensor.getElementType(), devices);
  if (failed(getBlockLayout(func, blockType, attributes, (*flat)->sharding,
                            what, defaultName, layout)))
    return failure();
  int64_t parts = mesh.getAxisSize(*axis);
  int64_t elements = blockType.getNumElements();
  if (tensor.getRank() != 1 ||
      tensor.getDimSize(0) != llvm::divideCeilSigned(elements, parts))
    return emitError() << "a flat shard of a block of " << elements
                       << " elements over " << parts
                       << " devices has type tensor<"
                       << llvm::divideCeilSigned(elements, parts) << ">, not "
                       << type;
  layout.flatParts = parts;
  for (int64_t device : layout.devices)
    layout.flatRanks.push_back(mesh.getRankAlong(device, {*axis}));
  return success();
}

/// Where device `i`'s value lies: its block's offsets, then its flat part.
BlockKey getKey(const GlobalLayout &layout, size_t i) {
  BlockKey key = layout.blockOffsets[i];
  if (layout.flatParts > 0)
    key.push_back(layout.flatRanks[i]);
  return key;
}

/// Part `rank` of `block` flattened and zero-padded to `parts` equal parts.
Status takeFlatPart(const HostTensor &block, int64_t parts, int64_t rank,
                    HostTensor &part) {
  int64_t elements = block.getNumElements();
  int64_t size = llvm::divideCeilSigned(elements, parts);
  HostTensor flat, padded;
  DISTIR_RETURN_IF_ERROR(k::reshape(block, {elements}, flat));
  DISTIR_RETURN_IF_ERROR(
      k::pad(flat, {0}, {size * parts - elements}, {0}, padded));
  return k::slice(padded, {rank * size}, {(rank + 1) * size}, {1}, part);
}

/// The block the flat parts `parts` (in rank order) make, padding dropped.
Status joinFlatParts(const k::TensorList &parts,
                     const std::vector<int64_t> &blockShape,
                     HostTensor &block) {
  int64_t elements = 1;
  for (int64_t size : blockShape)
    elements *= size;
  HostTensor padded, flat;
  DISTIR_RETURN_IF_ERROR(k::concat(parts, 0, padded));
  DISTIR_RETURN_IF_ERROR(k::slice(padded, {0}, {elements}, {1}, flat));
  return k::reshape(flat, blockShape, block);
}

/// Per block: the lowest partial rank among the devices holding it.
std::map<BlockKey, int64_t> getOwnerRanks(const GlobalLayout &layout) {
  std::map<BlockKey, int64_t> owners;
  for (size_t i = 0; i < layout.devices.size(); ++i) {
    auto [it, inserted] =
        owners.try_emplace(layout.blockOffsets[i], layout.partialRanks[i]);
    if (!inserted)
      it->second = std::min(it->second, layout.partialRanks[i]);
  }
  return owners;
}

std::string formatError(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3g", value);
  return buffer;
}

} // namespace

LogicalResult getArgumentLayouts(func::FuncOp func,
                                 std::vector<GlobalLayout> &layouts) {
  layouts.resize(func.getNumArguments());
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (failed(getGlobalLayout(func, func.getArgumentTypes()[i],
                               func.getArgAttrDict(i),
                               "argument " + std::to_string(i),
                               "arg" + std::to_string(i), layouts[i])))
      return failure();
  return success();
}

LogicalResult getResultLayouts(func::FuncOp func,
                               std::vector<GlobalLayout> &layouts) {
  layouts.resize(func.getNumResults());
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (failed(getGlobalLayout(func, func.getResultTypes()[i],
                               func.getResultAttrDict(i),
                               "result " + std::to_string(i),
                               "result" + std::to_string(i), layouts[i])))
      return failure();
  return success();
}

Status distributeGlobal(const HostTensor &global, const GlobalLayout &layout,
                        PlacedValue &value) {
  if (global.getElementType() != layout.elementType ||
      global.getShape() != layout.globalShape)
    return Status::error("'" + layout.name + "' needs a global " +
                         formatShape(layout.globalShape) + " " +
                         getElementTypeName(layout.elementType) +
                         " tensor, got " + formatShape(global.getShape()) +
                         " " + getElementTypeName(global.getElementType()));
  value = PlacedValue();
  value.devices = layout.devices;
  if (layout.devices.empty()) {
    value.locals.push_back(std::make_shared<const HostTensor>(global));
    return Status::success();
  }
  std::map<BlockKey, int64_t> owners = getOwnerRanks(layout);
  // Replicas share one buffer.
  std::map<BlockKey, std::shared_ptr<const HostTensor>> blocks, zeros;
  for (size_t i = 0; i < layout.devices.size(); ++i) {
    const BlockKey &offsets = layout.blockOffsets[i];
    const bool owner = layout.partialRanks[i] == owners[offsets];
    auto &cache = owner ? blocks : zeros;
    BlockKey key = getKey(layout, i);
    auto it = cache.find(key);
    if (it == cache.end()) {
      HostTensor block(layout.elementType, layout.localShape);
      if (owner) {
        k::Shape limits(offsets.size()), strides(offsets.size(), 1);
        for (size_t d = 0; d < offsets.size(); ++d)
          limits[d] = offsets[d] + layout.localShape[d];
        DISTIR_RETURN_IF_ERROR(
            k::slice(global, offsets, limits, strides, block));
      }
      if (layout.flatParts > 0) {
        HostTensor part;
        DISTIR_RETURN_IF_ERROR(
            takeFlatPart(block, layout.flatParts, layout.flatRanks[i], part));
        block = std::move(part);
      }
      it = cache
               .emplace(key,
                        std::make_shared<const HostTensor>(std::move(block)))
               .first;
    }
    value.locals.push_back(it->second);
  }
  return Status::success();
}

Status assembleGlobal(const PlacedValue &value, const GlobalLayout &layout,
                      double rtol, double atol, HostTensor &global) {
  if (layout.devices.empty()) {
    global = *value.locals[0];
    return Status::success();
  }
  // Block -> partial rank -> index of the first device holding it.
  std::map<BlockKey, std::map<int64_t, size_t>> holders;
  for (size_t i = 0; i < value.devices.size(); ++i) {
    auto [it, inserted] =
        holders[getKey(layout, i)].try_emplace(layout.partialRanks[i], i);
    if (inserted)
      continue;
    const size_t first = it->second;
    TensorDifference difference;
    DISTIR_RETURN_IF_ERROR(compareTensors(
        *value.locals[i], *value.locals[first], rtol, atol, difference));
    if (difference.numMismatches > 0)
      return Status::error("'" + layout.name + "': replicas on devices " +
                           std::to_string(value.devices[first]) + " and " +
                           std::to_string(value.devices[i]) +
                           " differ (max_abs_err " +
                           formatError(difference.maxAbsErr) + ")");
  }
  const int64_t parts = std::max<int64_t>(layout.flatParts, 1);
  if (static_cast<int64_t>(holders.size()) != layout.numBlocks * parts)
    return Status::error("'" + layout.name + "': its devices hold " +
                         std::to_string(holders.size()) + " of the " +
                         std::to_string(layout.numBlocks * parts) +
                         " blocks of the global tensor");
  HostTensor result(layout.elementType, layout.globalShape);
  if (layout.flatParts > 0) {
    // Keys sort by block offsets, then flat rank: each block's parts are
    // consecutive and in order.
    k::TensorList flatParts;
    for (const auto &[key, partials] : holders) {
      flatParts.push_back(value.locals[partials.begin()->second].get());
      if (static_cast<int64_t>(flatParts.size()) < parts)
        continue;
      HostTensor block;
      DISTIR_RETURN_IF_ERROR(
          joinFlatParts(flatParts, layout.localShape, block));
      BlockKey offsets(key.begin(), key.end() - 1);
      DISTIR_RETURN_IF_ERROR(k::insertSlice(block, offsets, result));
      flatParts.clear();
    }
    global = std::move(result);
    return Status::success();
  }
  for (const auto &[offsets, partials] : holders) {
    k::TensorList parts;
    for (const auto &[rank, index] : partials)
      parts.push_back(value.locals[index].get());
    if (parts.size() == 1) {
      DISTIR_RETURN_IF_ERROR(k::insertSlice(*parts[0], offsets, result));
      continue;
    }
    HostTensor sum;
    DISTIR_RETURN_IF_ERROR(k::reduceTensors(parts, k::ReductionKind::Sum, sum));
    DISTIR_RETURN_IF_ERROR(k::insertSlice(sum, offsets, result));
  }
  global = std::move(result);
  return Status::success();
}

Status runGlobal(func::FuncOp func, const std::vector<HostTensor> &inputs,
                 const GlobalRunOptions &options,
                 std::vector<HostTensor> &outputs,
                 std::vector<GlobalLayout> &resultLayouts) {
  Status failed = Status::error("@" + func.getSymName().str() + " failed");
  std::vector<GlobalLayout> argumentLayouts;
  if (mlir::failed(getArgumentLayouts(func, argumentLayouts)) ||
      mlir::failed(getResultLayouts(func, resultLayouts)))
    return failed;
  if (inputs.size() != argumentLayouts.size())
    return Status::error("@" + func.getSymName().str() + " takes " +
                         std::to_string(argumentLayouts.size()) +
                         " arguments, got " + std::to_string(inputs.size()));
  DeviceTransport *transport = options.transport;
  std::vector<PlacedValue> arguments(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (Status status =
            distributeGlobal(inputs[i], argumentLayouts[i], arguments[i]);
        !status.ok())
      return Status::error("argument " + std::to_string(i) + ": " +
                           status.message());
    // Every process lays out the whole input and keeps its devices' part.
    for (size_t d = 0; transport && d < arguments[i].devices.size(); ++d)
      if (!transport->isLocal(arguments[i].devices[d]))
        arguments[i].locals[d].reset();
  }
  InterpreterOptions interpreterOptions;
  interpreterOptions.transport = transport;
  interpreterOptions.onOp = options.onOp;
  Interpreter interpreter(func->getParentOfType<ModuleOp>(),
                          interpreterOptions);
  std::vector<PlacedValue> results;
  for (unsigned run = 0; run < std::max(1u, options.repeat); ++run) {
    if (transport)
      transport->beginRun();
    interpreter.resetPeakLiveBytes();
    auto start = std::chrono::steady_clock::now();
    if (mlir::failed(interpreter.run(func, arguments, results)))
      return failed;
    if (transport)
      transport->endRun();
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    if (options.onRun)
      options.onRun(run, elapsed.count(), interpreter.getPeakLiveBytes());
  }
  if (transport) {
    for (size_t i = 0; i < results.size(); ++i)
      if (Status status = transport->collectResult(
              results[i], func.getFunctionType().getResult(i));
          !status.ok())
        return Status::error("result " + std::to_string(i) + ": " +
                             status.message());
    if (!transport->holdsResults())
      return Status::success();
  }
  outputs.resize(results.size());
  for (size_t i = 0; i < results.size(); ++i)
    if (Status status = assembleGlobal(results[i], resultLayouts[i],
                                       options.rtol, options.atol, outputs[i]);
        !status.ok())
      return Status::error("result " + std::to_string(i) + ": " +
                           status.message());
  return Status::success();
}

} // namespace distir
