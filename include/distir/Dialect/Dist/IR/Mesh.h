//===- Mesh.h - logical device meshes ---------------------------*- C++ -*-===//
//
// A mesh lays device ids out over named axes in row-major order (the last axis
// varies fastest). These utilities answer the questions every transform asks:
// where a device sits, which devices form the groups along some axes, and which
// devices make up a slice of the mesh (a pipeline stage's dp x tp sub-mesh).
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_IR_MESH_H
#define DISTIR_DIALECT_DIST_IR_MESH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir::dist {
class MeshOp;

/// The most devices a mesh, a device set or the groups of a collective may
/// hold (2^20, stated in docs/dialect/Dist.md), checked by the parsers as
/// they read runs. Sets and groups stay runs (DeviceRun), so a set of that
/// many devices costs what one id costs; the limit bounds what works device
/// by device (the executor, the simulator's device sets).
inline constexpr int64_t kMaxDevices = int64_t{1} << 20;

class Mesh {
public:
  /// `devices` empty means 0 .. product(shape) - 1. The caller guarantees
  /// validity (see `Mesh::verify`).
  Mesh(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<std::string> axes,
       llvm::ArrayRef<int64_t> devices = {});
  static Mesh fromOp(MeshOp op);

  /// Why (shape, axes, devices) cannot form a mesh, or nullopt if they can.
  static std::optional<std::string> verify(llvm::ArrayRef<int64_t> shape,
                                           llvm::ArrayRef<std::string> axes,
                                           llvm::ArrayRef<int64_t> devices);

  int64_t getRank() const { return shape.size(); }
  int64_t getNumDevices() const { return numDevices; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  llvm::ArrayRef<std::string> getAxes() const { return axes; }
  /// The ids in row-major order; for ids 0 .. n-1, listed on first use only
  /// (a mesh of 2^20 devices is built for every function it verifies).
  llvm::ArrayRef<int64_t> getDevices() const;

  std::optional<int64_t> getAxisIndex(llvm::StringRef axis) const;
  int64_t getAxisSize(int64_t axis) const { return shape[axis]; }
  /// Product of the sizes of the named axes; nullopt if one is unknown.
  std::optional<int64_t>
  getAxesSize(llvm::ArrayRef<llvm::StringRef> names) const;
  /// Whether the devices are 0 .. n-1 in order.
  bool hasIdentityDevices() const { return identityDevices; }
  bool contains(int64_t device) const {
    return getLinearIndex(device).has_value();
  }

  /// Coordinates of `device`, or nullopt if it is not in the mesh.
  std::optional<llvm::SmallVector<int64_t>>
  getCoordinates(int64_t device) const;
  /// The device at `coords` (each within its axis).
  int64_t getDevice(llvm::ArrayRef<int64_t> coords) const;

  /// The groups of devices that differ only in their coordinates along
  /// `groupAxes`: one group per combination of the other coordinates, in
  /// row-major order of those; inside a group, devices in row-major order of
  /// `groupAxes` taken in the order given (the first varies slowest).
  llvm::SmallVector<llvm::SmallVector<int64_t>>
  getGroups(llvm::ArrayRef<int64_t> groupAxes) const;

  /// The sub-mesh where axis `fixedAxes[i]` has coordinate `fixedCoords[i]`:
  /// the remaining axes in order, with their devices.
  Mesh getSlice(llvm::ArrayRef<int64_t> fixedAxes,
                llvm::ArrayRef<int64_t> fixedCoords) const;

  /// Position of a device along the combined `groupAxes` (row-major in the
  /// order given): its rank inside its group of `getGroups(groupAxes)`.
  int64_t getRankAlong(int64_t device, llvm::ArrayRef<int64_t> groupAxes) const;

private:
  std::optional<int64_t> getLinearIndex(int64_t device) const;

  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<std::string> axes;
  int64_t numDevices = 0;
  /// The ids, when they are not 0 .. n-1 (then filled by getDevices()).
  mutable llvm::SmallVector<int64_t> devices;
  /// Device id -> linear index when the ids are not 0 .. n-1 (ids may be any
  /// non-negative int64, so no dense table).
  llvm::DenseMap<int64_t, int64_t> indexOfDevice;
  bool identityDevices = false;
};

} // namespace mlir::dist

#endif
