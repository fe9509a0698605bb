//===- DistDialect.cpp - dist dialect and its attributes -----------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <string_view>
#include <type_traits>

using namespace mlir;
using namespace mlir::dist;

#include "distir/Dialect/Dist/IR/DistAttrEnums.cpp.inc"
#include "distir/Dialect/Dist/IR/DistDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "distir/Dialect/Dist/IR/DistAttrs.cpp.inc"

namespace {
/// Every dist op is a pure function of its operands (or a symbol that is
/// never inlined), so calls between functions may always be inlined.
struct DistInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

template <typename OpT> struct OpTag {
  using type = OpT;
};

/// Calls `fn(OpTag<OpT>())` for each op type of the pack.
template <typename... OpTs, typename Fn> void forEachOpType(Fn &&fn) {
  (fn(OpTag<OpTs>()), ...);
}
} // namespace

void DistDialect::initialize() {
  addInterfaces<DistInlinerInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "distir/Dialect/Dist/IR/DistAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "distir/Dialect/Dist/IR/DistOps.cpp.inc"
      >();
  // Gradients (beside autodiff) and reference kernels (the executor) are
  // external models registered by their owners. Promising them, as upstream
  // dialects promise their external models, makes a tool that forgot a
  // registration fail loudly instead of finding no interface.
  forEachOpType<
#define GET_OP_LIST
#include "distir/Dialect/Dist/IR/DistOps.cpp.inc"
      >([this](auto tag) {
    using OpT = typename decltype(tag)::type;
    // Compute ops (Dist_ComputeOp) are the ones placed like their operands.
    constexpr bool isCompute = OpT::template hasTrait<SamePlacement>();
    constexpr bool isCommunication =
        std::is_same_v<OpT, SendOp> ||
        OpT::template hasTrait<CollectiveOpInterface::Trait>();
    if constexpr (isCompute)
      declarePromisedInterface<ExecutableOpInterface, OpT>();
    if constexpr (isCompute || isCommunication)
      declarePromisedInterface<GradientOpInterface, OpT>();
  });
}

//===----------------------------------------------------------------------===//
// Placements (the device sets themselves are in DeviceSets.cpp)
//===----------------------------------------------------------------------===//

// The builders of the device attributes live here, beside their storage
// classes (DistAttrs.cpp.inc); their algorithms are in DeviceSets.cpp.

/// The canonical form of `runs` when they are valid; otherwise `runs` as
/// given, for the verifier to refuse.
static SmallVector<DeviceRun> canonicalIfValid(ArrayRef<DeviceRun> runs) {
  if (!validateDeviceRuns(runs).empty())
    return SmallVector<DeviceRun>(runs);
  return canonicalDeviceRuns(runs);
}

DevicesAttr DevicesAttr::getFromRuns(MLIRContext *ctx,
                                     ArrayRef<DeviceRun> runs) {
  SmallVector<DeviceRun> canonical = canonicalIfValid(runs);
  return Base::get(ctx, ArrayRef<DeviceRun>(canonical));
}

DevicesAttr
DevicesAttr::getCheckedFromRuns(function_ref<InFlightDiagnostic()> emitError,
                                MLIRContext *ctx, ArrayRef<DeviceRun> runs) {
  SmallVector<DeviceRun> canonical = canonicalIfValid(runs);
  return Base::getChecked(emitError, ctx, ArrayRef<DeviceRun>(canonical));
}

/// The flat runs and group starts of `groups`, each group canonical when its
/// runs are valid.
static std::pair<SmallVector<DeviceRun>, SmallVector<int64_t>>
flattenGroups(ArrayRef<SmallVector<DeviceRun>> groups) {
  SmallVector<DeviceRun> runs;
  SmallVector<int64_t> starts;
  for (const auto &group : groups) {
    starts.push_back(runs.size());
    runs.append(canonicalIfValid(group));
  }
  return {std::move(runs), std::move(starts)};
}

static int64_t firstGroupSize(ArrayRef<SmallVector<DeviceRun>> groups) {
  return groups.empty() ? 0 : DeviceIdRange(groups.front()).size();
}

DeviceGroupsAttr
DeviceGroupsAttr::getFromRuns(MLIRContext *ctx,
                              ArrayRef<SmallVector<DeviceRun>> groups) {
  auto [runs, starts] = flattenGroups(groups);
  return Base::get(ctx, ArrayRef<DeviceRun>(runs), ArrayRef<int64_t>(starts),
                   firstGroupSize(groups));
}

DeviceGroupsAttr DeviceGroupsAttr::getCheckedFromRuns(
    function_ref<InFlightDiagnostic()> emitError, MLIRContext *ctx,
    ArrayRef<SmallVector<DeviceRun>> groups) {
  auto [runs, starts] = flattenGroups(groups);
  return Base::getChecked(emitError, ctx, ArrayRef<DeviceRun>(runs),
                          ArrayRef<int64_t>(starts), firstGroupSize(groups));
}

DevicesAttr mlir::dist::getPlacement(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<DevicesAttr>(tensor.getEncoding());
}

RankedTensorType mlir::dist::withPlacement(RankedTensorType type,
                                           DevicesAttr devices) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), devices);
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   FlatSymbolRefAttr mesh,
                                   ArrayRef<AxisListAttr> dimAxes,
                                   AxisListAttr partialAxes) {
  if (!mesh)
    return emitError() << "sharding needs a mesh";
  if (!partialAxes || llvm::is_contained(dimAxes, AxisListAttr()))
    return emitError() << "sharding axis lists must not be null";
  llvm::SmallSet<StringRef, 8> seen;
  auto checkUnique = [&](AxisListAttr axes) -> LogicalResult {
    for (StringAttr axis : axes.getValue())
      if (!seen.insert(axis.getValue()).second)
        return emitError() << "mesh axis \"" << axis.getValue()
                           << "\" is used more than once in a sharding";
    return success();
  };
  for (AxisListAttr axes : dimAxes)
    if (failed(checkUnique(axes)))
      return failure();
  return checkUnique(partialAxes);
}

static SmallVector<StringRef> getAxisNames(AxisListAttr axes) {
  return llvm::map_to_vector(axes.getValue(),
                             [](StringAttr axis) { return axis.getValue(); });
}

SmallVector<StringRef> ShardingAttr::getAxesOfDim(int64_t dim) const {
  return getAxisNames(getDimAxes()[dim]);
}

SmallVector<StringRef> ShardingAttr::getPartial() const {
  return getAxisNames(getPartialAxes());
}

bool ShardingAttr::isReplicated() const {
  return getPartialAxes().getValue().empty() &&
         llvm::all_of(getDimAxes(), [](AxisListAttr axes) {
           return axes.getValue().empty();
         });
}

ShardingAttr ShardingAttr::get(MLIRContext *ctx, StringRef mesh,
                               ArrayRef<SmallVector<StringRef>> dims,
                               ArrayRef<StringRef> partial) {
  auto toAxisList = [&](ArrayRef<StringRef> names) {
    return AxisListAttr::get(ctx,
                             llvm::map_to_vector(names, [&](StringRef name) {
                               return StringAttr::get(ctx, name);
                             }));
  };
  SmallVector<AxisListAttr> dimAttrs;
  for (const auto &axes : dims)
    dimAttrs.push_back(toAxisList(axes));
  return get(ctx, FlatSymbolRefAttr::get(ctx, mesh), dimAttrs,
             toAxisList(partial));
}

//===----------------------------------------------------------------------===//
// Discardable attributes: typed access
//===----------------------------------------------------------------------===//

// The names spelled for argument and result dictionaries are the declared
// discardable attributes' names.
static constexpr bool sameName(StringLiteral a, StringLiteral b) {
  return std::string_view(a.data(), a.size()) ==
         std::string_view(b.data(), b.size());
}
#define DIST_CHECK_ATTR_NAME(constant, helper)                                 \
  static_assert(                                                               \
      sameName(DistDialect::constant, DistDialect::helper::getNameStr()),      \
      #constant " must be the name of " #helper);
DIST_CHECK_ATTR_NAME(kRoleAttrName, RoleAttrHelper)
DIST_CHECK_ATTR_NAME(kNameAttrName, NameAttrHelper)
DIST_CHECK_ATTR_NAME(kBoundAttrName, BoundAttrHelper)
DIST_CHECK_ATTR_NAME(kShardingAttrName, ShardingAttrHelper)
DIST_CHECK_ATTR_NAME(kMeshAttrName, MeshAttrHelper)
DIST_CHECK_ATTR_NAME(kPhaseAttrName, PhaseAttrHelper)
DIST_CHECK_ATTR_NAME(kLayerAttrName, LayerAttrHelper)
DIST_CHECK_ATTR_NAME(kStageAttrName, StageAttrHelper)
DIST_CHECK_ATTR_NAME(kMicrobatchAttrName, MicrobatchAttrHelper)
DIST_CHECK_ATTR_NAME(kRecomputedAttrName, RecomputedAttrHelper)
DIST_CHECK_ATTR_NAME(kNoRecomputeAttrName, NoRecomputeAttrHelper)
DIST_CHECK_ATTR_NAME(kMicrobatchScaleAttrName, MicrobatchScaleAttrHelper)
DIST_CHECK_ATTR_NAME(kShardingsAttrName, ShardingsAttrHelper)
DIST_CHECK_ATTR_NAME(kCostAttrName, CostSAttrHelper)
#undef DIST_CHECK_ATTR_NAME

std::optional<Role> mlir::dist::getRole(DictionaryAttr attrs) {
  if (!attrs)
    return std::nullopt;
  auto role = attrs.getAs<StringAttr>(DistDialect::kRoleAttrName);
  return role ? symbolizeRole(role.getValue()) : std::nullopt;
}

std::optional<Role> mlir::dist::getArgRole(FunctionOpInterface func,
                                           unsigned index) {
  return getRole(func.getArgAttrDict(index));
}

std::optional<Role> mlir::dist::getResultRole(FunctionOpInterface func,
                                              unsigned index) {
  return getRole(func.getResultAttrDict(index));
}

StringAttr mlir::dist::getRoleAttr(MLIRContext *ctx, Role role) {
  return StringAttr::get(ctx, stringifyRole(role));
}

NamedAttribute mlir::dist::getRoleNamedAttr(MLIRContext *ctx, Role role) {
  return NamedAttribute(StringAttr::get(ctx, DistDialect::kRoleAttrName),
                        getRoleAttr(ctx, role));
}

void mlir::dist::setArgRole(FunctionOpInterface func, unsigned index,
                            Role role) {
  func.setArgAttr(index, DistDialect::kRoleAttrName,
                  getRoleAttr(func->getContext(), role));
}

void mlir::dist::setResultRole(FunctionOpInterface func, unsigned index,
                               Role role) {
  func.setResultAttr(index, DistDialect::kRoleAttrName,
                     getRoleAttr(func->getContext(), role));
}

std::optional<Phase> mlir::dist::getPhase(Operation *op) {
  auto phase = op->getAttrOfType<StringAttr>(DistDialect::kPhaseAttrName);
  return phase ? symbolizePhase(phase.getValue()) : std::nullopt;
}

StringAttr mlir::dist::getPhaseAttr(MLIRContext *ctx, Phase phase) {
  return StringAttr::get(ctx, stringifyPhase(phase));
}

void mlir::dist::setPhase(Operation *op, Phase phase) {
  op->setAttr(DistDialect::kPhaseAttrName,
              getPhaseAttr(op->getContext(), phase));
}

static std::optional<int64_t> getIntAttr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

std::optional<int64_t> mlir::dist::getLayer(Operation *op) {
  return getIntAttr(op, DistDialect::kLayerAttrName);
}

std::optional<int64_t> mlir::dist::getStage(Operation *op) {
  return getIntAttr(op, DistDialect::kStageAttrName);
}

std::optional<int64_t> mlir::dist::getMicrobatch(Operation *op) {
  return getIntAttr(op, DistDialect::kMicrobatchAttrName);
}

//===----------------------------------------------------------------------===//
// Discardable attributes: verification
//===----------------------------------------------------------------------===//

/// `"a", "b", ... <last> "z"`: the spellings of an enum's cases, for
/// diagnostics that list what a vocabulary attribute accepts.
template <typename Enum>
static std::string quotedCases(unsigned maxValue, StringRef lastSeparator) {
  std::string text;
  for (unsigned value = 0; value <= maxValue; ++value) {
    if (value > 0)
      text += value == maxValue ? lastSeparator.str() : ", ";
    text += "\"" + stringifyEnum(static_cast<Enum>(value)).str() + "\"";
  }
  return text;
}

/// Finds the mesh `name` visible from `from`, reporting at `from` otherwise.
static FailureOr<MeshOp> lookupMesh(Operation *from, FlatSymbolRefAttr name) {
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, name);
  if (!mesh)
    return from->emitError() << "unknown mesh " << name;
  return mesh;
}

/// The first id of `runs`, in their order, that `mesh` lacks. A mesh of ids
/// 0 .. n-1 is checked run by run; one with explicit ids, id by id.
static std::optional<int64_t> findDeviceNotIn(const Mesh &mesh,
                                              ArrayRef<DeviceRun> runs) {
  const int64_t numDevices = mesh.getNumDevices();
  for (const DeviceRun &run : runs) {
    if (!mesh.hasIdentityDevices()) {
      for (int64_t id : DeviceIdRange(run))
        if (!mesh.contains(id))
          return id;
      continue;
    }
    if (run.last() < numDevices)
      continue;
    if (run.start >= numDevices)
      return run.start;
    return run.start +
           llvm::divideCeil(numDevices - run.start, run.step) * run.step;
  }
  return std::nullopt;
}

/// Checks a sharding against the mesh it names and the type it lays out:
/// axes exist, rank matches, and for an unplaced (global) type, every split
/// dimension is divisible by the product of its axes.
LogicalResult mlir::dist::verifyShardingOfType(Operation *op,
                                               ShardingAttr sharding, Type type,
                                               StringRef what) {
  FailureOr<MeshOp> meshOp = lookupMesh(op, sharding.getMesh());
  if (failed(meshOp))
    return failure();
  Mesh mesh = Mesh::fromOp(*meshOp);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return op->emitError() << what << ": a sharding needs a ranked tensor";
  if (sharding.getRank() != tensor.getRank())
    return op->emitError() << what << ": sharding has " << sharding.getRank()
                           << " dimensions but the tensor has rank "
                           << tensor.getRank();
  for (StringRef axis : sharding.getPartial())
    if (!mesh.getAxisIndex(axis))
      return op->emitError() << what << ": mesh " << sharding.getMesh()
                             << " has no axis \"" << axis << "\"";
  for (int64_t dim = 0; dim < tensor.getRank(); ++dim) {
    SmallVector<StringRef> axes = sharding.getAxesOfDim(dim);
    for (StringRef axis : axes)
      if (!mesh.getAxisIndex(axis))
        return op->emitError() << what << ": mesh " << sharding.getMesh()
                               << " has no axis \"" << axis << "\"";
    int64_t parts = *mesh.getAxesSize(axes);
    if (!getPlacement(tensor) && !tensor.isDynamicDim(dim) &&
        tensor.getDimSize(dim) % parts != 0)
      return op->emitError()
             << what << ": dimension " << dim << " of size "
             << tensor.getDimSize(dim) << " is not divisible by the " << parts
             << " shards of its mesh axes";
  }
  if (DevicesAttr devices = getPlacement(tensor))
    if (std::optional<int64_t> id = findDeviceNotIn(mesh, devices.getRuns()))
      return op->emitError() << what << ": device " << *id << " is not in mesh "
                             << sharding.getMesh();
  return success();
}

static LogicalResult verifyValueAttribute(Operation *op, Type type,
                                          NamedAttribute attr, StringRef what) {
  StringRef name = attr.getName().getValue();
  if (name == DistDialect::kShardingAttrName) {
    auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
    if (!sharding)
      return op->emitError()
             << what << ": '" << name << "' must be a #dist.sharding";
    return verifyShardingOfType(op, sharding, type, what);
  }
  if (name == DistDialect::kNameAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << what << ": '" << name << "' must be a string";
    return success();
  }
  if (name == DistDialect::kRoleAttrName) {
    auto role = dyn_cast<StringAttr>(attr.getValue());
    if (!role || !symbolizeRole(role.getValue()))
      return op->emitError() << what << ": '" << name << "' must be one of "
                             << quotedCases<Role>(getMaxEnumValForRole(), ", ");
    return success();
  }
  if (name == DistDialect::kBoundAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << what << ": '" << name << "' must be an integer";
    return success();
  }
  return success();
}

LogicalResult DistDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return success();
  std::string what = "argument " + std::to_string(argIndex);
  return verifyValueAttribute(op, func.getArgumentTypes()[argIndex], attr,
                              what);
}

LogicalResult DistDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return success();
  std::string what = "result " + std::to_string(resultIndex);
  return verifyValueAttribute(op, func.getResultTypes()[resultIndex], attr,
                              what);
}

/// Every device a function mentions (placements, groups, send targets) must
/// be in the mesh the function names.
static LogicalResult verifyDevicesInMesh(Operation *func, const Mesh &mesh,
                                         FlatSymbolRefAttr meshName) {
  // Device sets and groups are uniqued attributes shared by many ops: check
  // each once (this verifier runs after every pass on programs of 10^5 ops).
  llvm::DenseSet<Attribute> checked;
  auto checkRuns = [&](Operation *at, Attribute attr,
                       ArrayRef<DeviceRun> runs) -> LogicalResult {
    if (!attr || !checked.insert(attr).second)
      return success();
    if (std::optional<int64_t> id = findDeviceNotIn(mesh, runs))
      return at->emitOpError()
             << "uses device " << *id << " which is not in mesh " << meshName;
    return success();
  };
  auto checkDevices = [&](Operation *at, DevicesAttr devices) {
    return devices ? checkRuns(at, devices, devices.getRuns()) : success();
  };
  for (Type type : cast<FunctionOpInterface>(func).getArgumentTypes())
    if (failed(checkDevices(func, getPlacement(type))))
      return failure();
  WalkResult result = func->walk([&](Operation *op) -> WalkResult {
    for (Type type : op->getResultTypes())
      if (failed(checkDevices(op, getPlacement(type))))
        return WalkResult::interrupt();
    if (auto collective = dyn_cast<CollectiveOpInterface>(op)) {
      DeviceGroupsAttr groups = collective.getGroupsAttr();
      if (failed(checkRuns(op, groups, groups.getRuns())))
        return WalkResult::interrupt();
    }
    if (auto send = dyn_cast<SendOp>(op))
      if (failed(checkDevices(op, send.getTo())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kMeshAttrName) {
    auto meshName = dyn_cast<FlatSymbolRefAttr>(attr.getValue());
    if (!meshName)
      return op->emitError() << "'" << name << "' must name a dist.mesh symbol";
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' belongs on a function";
    FailureOr<MeshOp> mesh = lookupMesh(op, meshName);
    if (failed(mesh))
      return failure();
    return verifyDevicesInMesh(op, Mesh::fromOp(*mesh), meshName);
  }
  if (name == kLayerAttrName) {
    auto layer = dyn_cast<IntegerAttr>(attr.getValue());
    if (!layer || layer.getInt() < 0)
      return op->emitError()
             << "'" << name << "' must be a non-negative integer layer index";
    return success();
  }
  if (name == kPhaseAttrName) {
    auto phase = dyn_cast<StringAttr>(attr.getValue());
    if (!phase || !symbolizePhase(phase.getValue()))
      return op->emitError()
             << "'" << name << "' must be "
             << quotedCases<Phase>(getMaxEnumValForPhase(), " or ");
    return success();
  }
  if (name == kMicrobatchScaleAttrName && !isa<ConstantOp>(op))
    return op->emitError() << "'" << name << "' belongs on a dist.constant";
  if (name == kShardingAttrName) {
    // On an op: the sharding of its (single) result, as left by propagation.
    if (op->getNumResults() != 1)
      return op->emitError() << "'" << name << "' on an op needs one result";
    auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
    if (!sharding)
      return op->emitError() << "'" << name << "' must be a #dist.sharding";
    return verifyShardingOfType(op, sharding, op->getResult(0).getType(),
                                "result");
  }
  return success();
}
