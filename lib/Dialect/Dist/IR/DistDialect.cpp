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
// Device id lists
//===----------------------------------------------------------------------===//

/// The step between two ids, or 0 when it is not positive or does not fit.
static int64_t stepBetween(int64_t from, int64_t to) {
  int64_t step;
  if (llvm::SubOverflow(to, from, step) || step <= 0)
    return 0;
  return step;
}

void mlir::dist::printDeviceIdList(llvm::raw_ostream &os,
                                   ArrayRef<int64_t> ids) {
  size_t i = 0;
  bool first = true;
  while (i < ids.size()) {
    if (!first)
      os << ", ";
    first = false;
    // Longest arithmetic run from i. Step-1 runs print from two elements on,
    // other steps from three, so that `[0, 5]` stays readable.
    size_t end = i + 1;
    int64_t step = 0;
    if (i + 1 < ids.size()) {
      step = stepBetween(ids[i], ids[i + 1]);
      end = i + 2;
      while (end < ids.size() && step > 0 &&
             stepBetween(ids[end - 1], ids[end]) == step)
        ++end;
    }
    // A run prints its exclusive end, last + step, which must fit in int64:
    // near 2^63 the last id is left to print on its own.
    if (step > 0 && ids[end - 1] > std::numeric_limits<int64_t>::max() - step)
      --end;
    size_t len = end - i;
    if (step > 0 && ((step == 1 && len >= 2) || len >= 3)) {
      os << ids[i] << ":" << ids[end - 1] + step;
      if (step != 1)
        os << ":" << step;
      i = end;
      continue;
    }
    os << ids[i];
    ++i;
  }
}

ParseResult mlir::dist::parseDeviceIdList(AsmParser &parser,
                                          SmallVectorImpl<int64_t> &ids,
                                          int64_t maxIds) {
  auto tooMany = [&](SMLoc loc) {
    return parser.emitError(loc, "more than ")
           << kMaxDevices << " devices, the dialect's limit";
  };
  auto parseItem = [&]() -> ParseResult {
    int64_t start;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseInteger(start))
      return failure();
    if (start < 0)
      return parser.emitError(loc, "device id ") << start << " is negative";
    if (failed(parser.parseOptionalColon())) {
      if ((int64_t)ids.size() >= maxIds)
        return tooMany(loc);
      ids.push_back(start);
      return success();
    }
    int64_t end, step = 1;
    if (parser.parseInteger(end))
      return failure();
    if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(step))
      return failure();
    if (step <= 0)
      return parser.emitError(loc, "device range step must be positive");
    if (end <= start)
      return parser.emitError(loc, "empty device range ")
             << start << ":" << end;
    // 0 <= start < end: the distance and the count fit, and the ids
    // start + k * step stay below end, so nothing wraps.
    const int64_t count = (end - start - 1) / step + 1;
    if (count > maxIds - (int64_t)ids.size())
      return tooMany(loc);
    for (int64_t k = 0; k < count; ++k)
      ids.push_back(start + k * step);
    return success();
  };
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        parseItem);
}

//===----------------------------------------------------------------------===//
// DevicesAttr
//===----------------------------------------------------------------------===//

Attribute DevicesAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> ids;
  if (parser.parseLess() || parseDeviceIdList(parser, ids, kMaxDevices) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<DevicesAttr>(parser.getContext(), ids);
}

void DevicesAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  printDeviceIdList(printer.getStream(), getIds());
  printer << "]>";
}

LogicalResult DevicesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> ids) {
  if (ids.empty())
    return emitError() << "device set must not be empty";
  if ((int64_t)ids.size() > kMaxDevices)
    return emitError() << "device set has " << ids.size()
                       << " devices, more than the " << kMaxDevices
                       << " the dialect allows";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0)
      return emitError() << "device id " << ids[i] << " is negative";
    if (i > 0 && ids[i] <= ids[i - 1])
      return emitError() << "device ids must be unique and increasing, got "
                         << ids[i] << " after " << ids[i - 1];
  }
  return success();
}

bool DevicesAttr::contains(int64_t id) const { return indexOf(id) >= 0; }

int64_t DevicesAttr::indexOf(int64_t id) const {
  ArrayRef<int64_t> ids = getIds();
  const int64_t *it = llvm::lower_bound(ids, id);
  if (it == ids.end() || *it != id)
    return -1;
  return it - ids.begin();
}

DevicesAttr DevicesAttr::getFromUnsorted(MLIRContext *ctx,
                                         ArrayRef<int64_t> ids) {
  SmallVector<int64_t> sorted(ids);
  llvm::sort(sorted);
  sorted.erase(llvm::unique(sorted), sorted.end());
  return DevicesAttr::get(ctx, sorted);
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
// DeviceGroupsAttr
//===----------------------------------------------------------------------===//

static ParseResult
parseGroupList(AsmParser &parser,
               SmallVectorImpl<SmallVector<int64_t>> &groups) {
  // Groups are disjoint: all of them together hold at most kMaxDevices.
  int64_t total = 0;
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    groups.emplace_back();
    if (parseDeviceIdList(parser, groups.back(), kMaxDevices - total))
      return failure();
    total += groups.back().size();
    return success();
  });
}

static void printGroupList(llvm::raw_ostream &os, DeviceGroupsAttr groups) {
  os << "[";
  for (int64_t g = 0, e = groups.getNumGroups(); g < e; ++g) {
    if (g)
      os << ", ";
    os << "[";
    printDeviceIdList(os, groups.getGroup(g));
    os << "]";
  }
  os << "]";
}

/// Builds the attribute from parsed groups, reporting unequal sizes at `loc`.
static DeviceGroupsAttr buildGroups(AsmParser &parser, SMLoc loc,
                                    ArrayRef<SmallVector<int64_t>> groups) {
  if (groups.empty()) {
    parser.emitError(loc, "expected at least one device group");
    return {};
  }
  for (const auto &group : groups)
    if (group.size() != groups.front().size()) {
      parser.emitError(loc, "device groups must have equal sizes, got ")
          << groups.front().size() << " and " << group.size();
      return {};
    }
  SmallVector<int64_t> flat;
  for (const auto &group : groups)
    flat.append(group.begin(), group.end());
  return parser.getChecked<DeviceGroupsAttr>(loc, parser.getContext(), flat,
                                             (int64_t)groups.front().size());
}

Attribute DeviceGroupsAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<int64_t>> groups;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parseGroupList(parser, groups) || parser.parseGreater())
    return {};
  return buildGroups(parser, loc, groups);
}

void DeviceGroupsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printGroupList(printer.getStream(), *this);
  printer << ">";
}

LogicalResult
DeviceGroupsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> ids, int64_t groupSize) {
  if (groupSize <= 0 || ids.empty())
    return emitError() << "device groups must not be empty";
  if (ids.size() % groupSize != 0)
    return emitError() << "device groups must have equal sizes";
  if ((int64_t)ids.size() > kMaxDevices)
    return emitError() << "device groups hold " << ids.size()
                       << " devices, more than the " << kMaxDevices
                       << " the dialect allows";
  llvm::SmallSet<int64_t, 16> seen;
  for (int64_t id : ids) {
    if (id < 0)
      return emitError() << "device id " << id << " is negative";
    if (!seen.insert(id).second)
      return emitError() << "device " << id
                         << " appears more than once in the groups";
  }
  return success();
}

DeviceGroupsAttr DeviceGroupsAttr::get(MLIRContext *ctx,
                                       ArrayRef<SmallVector<int64_t>> groups) {
  SmallVector<int64_t> flat;
  for (const auto &group : groups)
    flat.append(group.begin(), group.end());
  return get(ctx, flat, groups.empty() ? 0 : groups.front().size());
}

DevicesAttr DeviceGroupsAttr::getUnion() const {
  return DevicesAttr::getFromUnsorted(getContext(), getIds());
}

DevicesAttr DeviceGroupsAttr::getRoots(int64_t rank) const {
  SmallVector<int64_t> roots;
  for (int64_t g = 0, e = getNumGroups(); g < e; ++g)
    roots.push_back(getGroup(g)[rank]);
  return DevicesAttr::getFromUnsorted(getContext(), roots);
}

ParseResult mlir::dist::parseDeviceGroups(OpAsmParser &parser,
                                          DeviceGroupsAttr &groups) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<SmallVector<int64_t>> list;
  if (parseGroupList(parser, list))
    return failure();
  groups = buildGroups(parser, loc, list);
  return success(static_cast<bool>(groups));
}

void mlir::dist::printDeviceGroups(OpAsmPrinter &printer, Operation *,
                                   DeviceGroupsAttr groups) {
  printGroupList(printer.getStream(), groups);
}

ParseResult mlir::dist::parseDeviceSet(OpAsmParser &parser,
                                       DevicesAttr &devices) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> ids;
  if (parseDeviceIdList(parser, ids, kMaxDevices))
    return failure();
  devices = parser.getChecked<DevicesAttr>(loc, parser.getContext(), ids);
  return success(static_cast<bool>(devices));
}

void mlir::dist::printDeviceSet(OpAsmPrinter &printer, Operation *,
                                DevicesAttr devices) {
  printer << "[";
  printDeviceIdList(printer.getStream(), devices.getIds());
  printer << "]";
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
    for (int64_t id : devices.getIds())
      if (!mesh.contains(id))
        return op->emitError() << what << ": device " << id
                               << " is not in mesh " << sharding.getMesh();
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
  auto checkIds = [&](Operation *at, Attribute attr,
                      ArrayRef<int64_t> ids) -> LogicalResult {
    if (!attr || !checked.insert(attr).second)
      return success();
    for (int64_t id : ids)
      if (!mesh.contains(id))
        return at->emitOpError()
               << "uses device " << id << " which is not in mesh " << meshName;
    return success();
  };
  auto checkDevices = [&](Operation *at, DevicesAttr devices) {
    return devices ? checkIds(at, devices, devices.getIds()) : success();
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
      if (failed(checkIds(op, groups, groups.getIds())))
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
