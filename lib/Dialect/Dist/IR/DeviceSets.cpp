//===- DeviceSets.cpp - #dist.devices and #dist.groups as runs -----------===//
//
// Device sets and the groups of a collective hold runs `start, start + step,
// ...` (DeviceRun), never expanded ids: parsing, printing, verification,
// membership, unions and roots work run by run, so `[0:1048576]` costs what
// one id costs however often it is used. The one computation that may need
// ids is the union of groups whose runs interleave irregularly (groups
// [[0:12:4], [1:12:4]]: their union is no run); it is bounded by the
// dialect's kMaxDevices.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/IR/Mesh.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

int64_t DeviceIdRange::size() const {
  int64_t total = 0;
  for (const DeviceRun &run : runs)
    total += run.count;
  return total;
}

int64_t DeviceIdRange::operator[](int64_t position) const {
  for (const DeviceRun &run : runs) {
    if (position < run.count)
      return run.start + position * run.step;
    position -= run.count;
  }
  llvm_unreachable("device position out of range");
}

std::string mlir::dist::validateDeviceRuns(ArrayRef<DeviceRun> runs) {
  for (const DeviceRun &run : runs) {
    if (run.start < 0)
      return "device id " + std::to_string(run.start) + " is negative";
    if (run.step <= 0 || run.count <= 0)
      return "a device run needs a positive step and count";
    if (run.count - 1 >
        (std::numeric_limits<int64_t>::max() - run.start) / run.step)
      return "device run from " + std::to_string(run.start) + " passes 2^63-1";
  }
  return "";
}

/// The step between two ids, or 0 when it is not positive or does not fit.
static int64_t stepBetween(int64_t from, int64_t to) {
  int64_t step;
  if (llvm::SubOverflow(to, from, step) || step <= 0)
    return 0;
  return step;
}

namespace {
/// A position in the id sequence of valid runs.
struct RunCursor {
  ArrayRef<DeviceRun> runs;
  size_t run = 0;
  int64_t offset = 0;

  bool atEnd() const { return run == runs.size(); }
  int64_t value() const { return runs[run].start + offset * runs[run].step; }
  void advance(int64_t n) {
    while (n > 0) {
      int64_t left = runs[run].count - offset;
      if (n < left) {
        offset += n;
        return;
      }
      n -= left;
      ++run;
      offset = 0;
    }
  }
  /// How many ids after the current one continue it by `step` each, found by
  /// jumping over whole runs.
  int64_t countContinuing(int64_t step) const {
    int64_t more = 0;
    size_t r = run;
    int64_t k = offset;
    while (true) {
      if (k + 1 < runs[r].count) {
        if (runs[r].step != step)
          return more;
        more += runs[r].count - 1 - k;
        k = runs[r].count - 1;
        continue;
      }
      if (r + 1 == runs.size() ||
          stepBetween(runs[r].last(), runs[r + 1].start) != step)
        return more;
      ++r;
      k = 0;
      ++more;
    }
  }
};
} // namespace

SmallVector<DeviceRun>
mlir::dist::canonicalDeviceRuns(ArrayRef<DeviceRun> runs) {
  SmallVector<DeviceRun> result;
  RunCursor at{runs};
  while (!at.atEnd()) {
    int64_t first = at.value();
    RunCursor next = at;
    next.advance(1);
    int64_t step = next.atEnd() ? 0 : stepBetween(first, next.value());
    int64_t length = 1;
    if (step > 0) {
      length = 2 + next.countContinuing(step);
      // A run prints its exclusive end, last + step, which must fit in
      // int64: near 2^63 the last id is left on its own.
      if (first + (length - 1) * step >
          std::numeric_limits<int64_t>::max() - step)
        --length;
    }
    // Step-1 runs from two ids on, other steps from three, so that `[0, 5]`
    // stays readable.
    if (step > 0 && ((step == 1 && length >= 2) || length >= 3)) {
      result.push_back({first, step, length});
      at.advance(length);
      continue;
    }
    result.push_back({first, 1, 1});
    at.advance(1);
  }
  return result;
}

SmallVector<DeviceRun> mlir::dist::canonicalDeviceRuns(ArrayRef<int64_t> ids) {
  SmallVector<DeviceRun> singles;
  singles.reserve(ids.size());
  for (int64_t id : ids)
    singles.push_back({id, 1, 1});
  // Ids outside [0, 2^63) stay single ids for the verifier to refuse.
  if (!validateDeviceRuns(singles).empty())
    return singles;
  return canonicalDeviceRuns(ArrayRef<DeviceRun>(singles));
}

void mlir::dist::printDeviceRuns(llvm::raw_ostream &os,
                                 ArrayRef<DeviceRun> runs) {
  llvm::interleaveComma(runs, os, [&](const DeviceRun &run) {
    if (run.count == 1) {
      os << run.start;
      return;
    }
    os << run.start << ":" << run.last() + run.step;
    if (run.step != 1)
      os << ":" << run.step;
  });
}

ParseResult mlir::dist::parseDeviceRuns(AsmParser &parser,
                                        SmallVectorImpl<DeviceRun> &runs,
                                        int64_t maxIds) {
  int64_t total = 0;
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
      if (total >= maxIds)
        return tooMany(loc);
      runs.push_back({start, 1, 1});
      ++total;
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
    if (count > maxIds - total)
      return tooMany(loc);
    runs.push_back({start, count == 1 ? 1 : step, count});
    total += count;
    return success();
  };
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        parseItem);
}

/// The sorted union of `runs` (valid, at most kMaxDevices ids in all), or
/// nullopt with `repeated` set to the first id, in the order of `runs`, that
/// appears twice. Runs are merged as runs; only a cluster of runs whose
/// ranges overlap and which do not interleave into one run sends the whole
/// computation id by id.
static std::optional<SmallVector<DeviceRun>>
unionOfRuns(ArrayRef<DeviceRun> runs, int64_t &repeated) {
  SmallVector<DeviceRun> sorted(runs);
  llvm::sort(sorted, [](const DeviceRun &a, const DeviceRun &b) {
    return a.start < b.start;
  });
  // Runs of one step s and one count whose starts are s consecutive ids
  // (the groups along an inner mesh axis) are together one step-1 run.
  auto interleaved =
      [](ArrayRef<DeviceRun> cluster) -> std::optional<DeviceRun> {
    const DeviceRun &first = cluster.front();
    if ((int64_t)cluster.size() != first.step)
      return std::nullopt;
    for (auto [i, run] : llvm::enumerate(cluster))
      if (run.step != first.step || run.count != first.count ||
          run.start != first.start + (int64_t)i)
        return std::nullopt;
    return DeviceRun{first.start, 1, first.step * first.count};
  };
  SmallVector<DeviceRun> merged;
  for (size_t i = 0; i < sorted.size();) {
    int64_t reach = sorted[i].last();
    size_t j = i + 1;
    while (j < sorted.size() && sorted[j].start <= reach)
      reach = std::max(reach, sorted[j++].last());
    std::optional<DeviceRun> run =
        j == i + 1 ? std::optional<DeviceRun>(sorted[i])
                   : interleaved(ArrayRef<DeviceRun>(sorted).slice(i, j - i));
    if (!run) {
      merged.clear();
      break;
    }
    merged.push_back(*run);
    i = j;
  }
  if (!merged.empty())
    return canonicalDeviceRuns(merged);
  llvm::DenseSet<int64_t> seen;
  SmallVector<int64_t> ids;
  for (int64_t id : DeviceIdRange(runs)) {
    if (!seen.insert(id).second) {
      repeated = id;
      return std::nullopt;
    }
    ids.push_back(id);
  }
  llvm::sort(ids);
  return canonicalDeviceRuns(ArrayRef<int64_t>(ids));
}

//===----------------------------------------------------------------------===//
// DevicesAttr
//===----------------------------------------------------------------------===//

Attribute DevicesAttr::parse(AsmParser &parser, Type) {
  SmallVector<DeviceRun> runs;
  if (parser.parseLess() || parseDeviceRuns(parser, runs, kMaxDevices) ||
      parser.parseGreater())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  return getCheckedFromRuns([&] { return parser.emitError(loc); },
                            parser.getContext(), runs);
}

void DevicesAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  printDeviceRuns(printer.getStream(), getRuns());
  printer << "]>";
}

LogicalResult DevicesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<DeviceRun> runs) {
  if (runs.empty())
    return emitError() << "device set must not be empty";
  if (std::string invalid = validateDeviceRuns(runs); !invalid.empty())
    return emitError() << invalid;
  int64_t total = 0;
  for (auto [i, run] : llvm::enumerate(runs)) {
    if (i > 0 && run.start <= runs[i - 1].last())
      return emitError() << "device ids must be unique and increasing, got "
                         << run.start << " after " << runs[i - 1].last();
    if (run.count > kMaxDevices - total)
      return emitError() << "device set has more than " << kMaxDevices
                         << " devices, the dialect's limit";
    total += run.count;
  }
  if (ArrayRef<DeviceRun>(canonicalDeviceRuns(runs)) != runs)
    return emitError() << "device runs are not in canonical form";
  return success();
}

int64_t DevicesAttr::indexOf(int64_t id) const {
  int64_t position = 0;
  for (const DeviceRun &run : getRuns()) {
    if (id < run.start)
      return -1;
    if (id <= run.last())
      return (id - run.start) % run.step == 0
                 ? position + (id - run.start) / run.step
                 : -1;
    position += run.count;
  }
  return -1;
}

DevicesAttr DevicesAttr::getFromUnsorted(MLIRContext *ctx,
                                         ArrayRef<int64_t> ids) {
  SmallVector<int64_t> sorted(ids);
  llvm::sort(sorted);
  sorted.erase(llvm::unique(sorted), sorted.end());
  return DevicesAttr::get(ctx, sorted);
}

//===----------------------------------------------------------------------===//
// DeviceGroupsAttr
//===----------------------------------------------------------------------===//

static ParseResult
parseGroupList(AsmParser &parser,
               SmallVectorImpl<SmallVector<DeviceRun>> &groups) {
  // Groups are disjoint: all of them together hold at most kMaxDevices.
  int64_t total = 0;
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    groups.emplace_back();
    if (parseDeviceRuns(parser, groups.back(), kMaxDevices - total))
      return failure();
    total += DeviceIdRange(groups.back()).size();
    return success();
  });
}

static void printGroupList(llvm::raw_ostream &os, DeviceGroupsAttr groups) {
  os << "[";
  for (int64_t g = 0, e = groups.getNumGroups(); g < e; ++g) {
    if (g)
      os << ", ";
    os << "[";
    printDeviceRuns(os, groups.getGroup(g).getRuns());
    os << "]";
  }
  os << "]";
}

/// Builds the attribute from parsed groups, reporting unequal sizes at `loc`.
static DeviceGroupsAttr buildGroups(AsmParser &parser, SMLoc loc,
                                    ArrayRef<SmallVector<DeviceRun>> groups) {
  if (groups.empty()) {
    parser.emitError(loc, "expected at least one device group");
    return {};
  }
  int64_t size = DeviceIdRange(groups.front()).size();
  for (const auto &group : groups)
    if (int64_t other = DeviceIdRange(group).size(); other != size) {
      parser.emitError(loc, "device groups must have equal sizes, got ")
          << size << " and " << other;
      return {};
    }
  return DeviceGroupsAttr::getCheckedFromRuns(
      [&] { return parser.emitError(loc); }, parser.getContext(), groups);
}

Attribute DeviceGroupsAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<DeviceRun>> groups;
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
                         ArrayRef<DeviceRun> runs,
                         ArrayRef<int64_t> groupStarts, int64_t groupSize) {
  if (groupSize <= 0 || groupStarts.empty() || runs.empty())
    return emitError() << "device groups must not be empty";
  if (std::string invalid = validateDeviceRuns(runs); !invalid.empty())
    return emitError() << invalid;
  if (groupStarts.front() != 0)
    return emitError() << "the first device group must start at run 0";
  int64_t total = 0;
  for (auto [g, start] : llvm::enumerate(groupStarts)) {
    int64_t end =
        g + 1 < groupStarts.size() ? groupStarts[g + 1] : (int64_t)runs.size();
    if (end <= start || end > (int64_t)runs.size())
      return emitError() << "device group starts must increase within the runs";
    ArrayRef<DeviceRun> group = runs.slice(start, end - start);
    int64_t size = 0;
    for (const DeviceRun &run : group) {
      if (run.count > kMaxDevices - total - size)
        return emitError() << "device groups hold more than " << kMaxDevices
                           << " devices, the dialect's limit";
      size += run.count;
    }
    if (size != groupSize)
      return emitError() << "device groups must have equal sizes";
    if (ArrayRef<DeviceRun>(canonicalDeviceRuns(group)) != group)
      return emitError() << "device group runs are not in canonical form";
    total += size;
  }
  int64_t repeated = 0;
  if (!unionOfRuns(runs, repeated))
    return emitError() << "device " << repeated
                       << " appears more than once in the groups";
  return success();
}

DevicesAttr DeviceGroupsAttr::getUnion() const {
  int64_t repeated = 0;
  std::optional<SmallVector<DeviceRun>> all = unionOfRuns(getRuns(), repeated);
  assert(all && "verified groups are disjoint");
  return DevicesAttr::getFromRuns(getContext(), *all);
}

DevicesAttr DeviceGroupsAttr::getRoots(int64_t rank) const {
  SmallVector<int64_t> roots;
  for (int64_t g = 0, e = getNumGroups(); g < e; ++g)
    roots.push_back(getGroup(g)[rank]);
  return DevicesAttr::getFromUnsorted(getContext(), roots);
}

//===----------------------------------------------------------------------===//
// Op syntax
//===----------------------------------------------------------------------===//

ParseResult mlir::dist::parseDeviceGroups(OpAsmParser &parser,
                                          DeviceGroupsAttr &groups) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<SmallVector<DeviceRun>> list;
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
  SmallVector<DeviceRun> runs;
  if (parseDeviceRuns(parser, runs, kMaxDevices))
    return failure();
  devices = DevicesAttr::getCheckedFromRuns(
      [&] { return parser.emitError(loc); }, parser.getContext(), runs);
  return success(static_cast<bool>(devices));
}

void mlir::dist::printDeviceSet(OpAsmPrinter &printer, Operation *,
                                DevicesAttr devices) {
  printer << "[";
  printDeviceRuns(printer.getStream(), devices.getRuns());
  printer << "]";
}
