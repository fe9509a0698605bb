//===- DistAttrs.h - dist dialect attributes --------------------*- C++ -*-===//
#ifndef DISTIR_DIALECT_DIST_IR_DISTATTRS_H
#define DISTIR_DIALECT_DIST_IR_DISTATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include <string>

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <iterator>

#include "distir/Dialect/Dist/IR/DistAttrEnums.h.inc"

namespace mlir::dist {

/// `count` device ids `start, start + step, ...`: the unit in which device
/// sets and groups are stored, so that a range of a million devices is one
/// run, not a million ids. A valid run has start >= 0, step >= 1, count >= 1
/// and a last id that fits in int64. Singletons have step 1.
struct DeviceRun {
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 1;
  int64_t last() const { return start + (count - 1) * step; }
  bool operator==(const DeviceRun &other) const {
    return start == other.start && step == other.step && count == other.count;
  }
};
inline llvm::hash_code hash_value(const DeviceRun &run) {
  return llvm::hash_combine(run.start, run.step, run.count);
}

/// The ids of a sequence of runs, in order, without expanding them.
class DeviceIdRange {
public:
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const int64_t *;
    using reference = int64_t;
    iterator(const DeviceRun *run, int64_t offset) : run(run), offset(offset) {}
    int64_t operator*() const { return run->start + offset * run->step; }
    iterator &operator++() {
      if (++offset == run->count) {
        ++run;
        offset = 0;
      }
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator &other) const {
      return run == other.run && offset == other.offset;
    }
    bool operator!=(const iterator &other) const { return !(*this == other); }

  private:
    const DeviceRun *run;
    int64_t offset;
  };

  DeviceIdRange() = default;
  explicit DeviceIdRange(llvm::ArrayRef<DeviceRun> runs) : runs(runs) {}
  iterator begin() const { return iterator(runs.begin(), 0); }
  iterator end() const { return iterator(runs.end(), 0); }
  llvm::ArrayRef<DeviceRun> getRuns() const { return runs; }
  bool empty() const { return runs.empty(); }
  /// The number of ids: O(number of runs).
  int64_t size() const;
  int64_t front() const { return runs.front().start; }
  int64_t back() const { return runs.back().last(); }
  /// The id at `position` (0 <= position < size()): O(number of runs).
  int64_t operator[](int64_t position) const;
  /// Every id, expanded: for the consumers that work device by device.
  llvm::SmallVector<int64_t> toVector() const {
    return llvm::SmallVector<int64_t>(begin(), end());
  }

private:
  llvm::ArrayRef<DeviceRun> runs;
};

/// The canonical runs of the id sequence `runs` describe: the longest
/// arithmetic run greedily from each id (step-1 runs from two ids on, other
/// steps from three, a run's exclusive end fitting in int64), single ids
/// otherwise. Two descriptions of one sequence have the same canonical runs,
/// which are what the attributes store and print. O(number of runs). `runs`
/// must be valid (validateDeviceRuns).
llvm::SmallVector<DeviceRun>
canonicalDeviceRuns(llvm::ArrayRef<DeviceRun> runs);
/// The canonical runs of an id sequence.
llvm::SmallVector<DeviceRun> canonicalDeviceRuns(llvm::ArrayRef<int64_t> ids);
/// Why `runs` are not valid runs (see DeviceRun), or an empty string.
std::string validateDeviceRuns(llvm::ArrayRef<DeviceRun> runs);

} // namespace mlir::dist

#define GET_ATTRDEF_CLASSES
#include "distir/Dialect/Dist/IR/DistAttrs.h.inc"

namespace mlir::dist {

/// The placement of a value: the devices attribute in the encoding of its
/// ranked tensor type, or null for an unplaced value.
DevicesAttr getPlacement(Type type);
inline DevicesAttr getPlacement(Value value) {
  return getPlacement(value.getType());
}

/// `type` with its placement replaced by `devices` (null: unplaced).
RankedTensorType withPlacement(RankedTensorType type, DevicesAttr devices);

/// Prints runs as `start:end[:step]` (end excluded) and single ids, without
/// brackets; parses the same, with brackets, into runs as written (nothing
/// is expanded). Parsing refuses negative ids, empty ranges and a list of
/// more than `maxIds` ids.
void printDeviceRuns(llvm::raw_ostream &os, llvm::ArrayRef<DeviceRun> runs);
ParseResult parseDeviceRuns(AsmParser &parser,
                            llvm::SmallVectorImpl<DeviceRun> &runs,
                            int64_t maxIds);

} // namespace mlir::dist

#endif
