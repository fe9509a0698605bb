//===- Mesh.cpp - logical device meshes ----------------------------------===//

#include "distir/Dialect/Dist/IR/Mesh.h"
#include "distir/Dialect/Dist/IR/DistOps.h"

#include "llvm/ADT/STLExtras.h"
#include <numeric>

using namespace mlir;
using namespace mlir::dist;

static int64_t product(ArrayRef<int64_t> values) {
  return std::accumulate(values.begin(), values.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

Mesh::Mesh(ArrayRef<int64_t> shape, ArrayRef<std::string> axes,
           ArrayRef<int64_t> devices)
    : shape(shape), axes(axes.begin(), axes.end()) {
  numDevices = devices.empty() ? product(shape) : (int64_t)devices.size();
  identityDevices = true;
  for (auto [index, id] : llvm::enumerate(devices))
    identityDevices &= id == (int64_t)index;
  if (identityDevices)
    return;
  this->devices.assign(devices.begin(), devices.end());
  for (auto [index, id] : llvm::enumerate(this->devices))
    indexOfDevice[id] = index;
}

ArrayRef<int64_t> Mesh::getDevices() const {
  if (identityDevices && (int64_t)devices.size() != numDevices) {
    devices.resize(numDevices);
    std::iota(devices.begin(), devices.end(), 0);
  }
  return devices;
}

Mesh Mesh::fromOp(MeshOp op) {
  SmallVector<std::string> axes;
  for (Attribute axis : op.getAxes())
    axes.push_back(cast<StringAttr>(axis).getValue().str());
  ArrayRef<int64_t> devices;
  if (std::optional<ArrayRef<int64_t>> explicitDevices = op.getDevices())
    devices = *explicitDevices;
  return Mesh(op.getShape(), axes, devices);
}

std::optional<std::string> Mesh::verify(ArrayRef<int64_t> shape,
                                        ArrayRef<std::string> axes,
                                        ArrayRef<int64_t> devices) {
  if (shape.empty())
    return std::string("a mesh needs at least one axis");
  if (shape.size() != axes.size())
    return "mesh has " + std::to_string(shape.size()) + " sizes but " +
           std::to_string(axes.size()) + " axis names";
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size <= 0)
      return "mesh axis sizes must be positive, got " + std::to_string(size);
    if (count > kMaxDevices / size)
      return "mesh has more than " + std::to_string(kMaxDevices) +
             " devices, the dialect's limit";
    count *= size;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].empty())
      return std::string("mesh axis names must not be empty");
    for (size_t j = 0; j < i; ++j)
      if (axes[i] == axes[j])
        return "mesh axis \"" + axes[i] + "\" is named twice";
  }
  if (!devices.empty()) {
    if ((int64_t)devices.size() != count)
      return "mesh of " + std::to_string(count) + " devices lists " +
             std::to_string(devices.size()) + " device ids";
    SmallVector<int64_t> sorted(devices);
    llvm::sort(sorted);
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (sorted[i] < 0)
        return "device id " + std::to_string(sorted[i]) + " is negative";
      if (i && sorted[i] == sorted[i - 1])
        return "device " + std::to_string(sorted[i]) +
               " appears twice in the mesh";
    }
  }
  return std::nullopt;
}

std::optional<int64_t> Mesh::getAxisIndex(StringRef axis) const {
  for (auto [index, name] : llvm::enumerate(axes))
    if (name == axis)
      return index;
  return std::nullopt;
}

std::optional<int64_t> Mesh::getAxesSize(ArrayRef<StringRef> names) const {
  int64_t size = 1;
  for (StringRef name : names) {
    std::optional<int64_t> index = getAxisIndex(name);
    if (!index)
      return std::nullopt;
    size *= shape[*index];
  }
  return size;
}

std::optional<int64_t> Mesh::getLinearIndex(int64_t device) const {
  if (identityDevices) {
    if (device < 0 || device >= getNumDevices())
      return std::nullopt;
    return device;
  }
  auto it = indexOfDevice.find(device);
  if (it == indexOfDevice.end())
    return std::nullopt;
  return it->second;
}

std::optional<SmallVector<int64_t>> Mesh::getCoordinates(int64_t device) const {
  std::optional<int64_t> linear = getLinearIndex(device);
  if (!linear)
    return std::nullopt;
  SmallVector<int64_t> coords(shape.size());
  int64_t rest = *linear;
  for (int64_t axis = getRank() - 1; axis >= 0; --axis) {
    coords[axis] = rest % shape[axis];
    rest /= shape[axis];
  }
  return coords;
}

int64_t Mesh::getDevice(ArrayRef<int64_t> coords) const {
  int64_t linear = 0;
  for (int64_t axis = 0; axis < getRank(); ++axis)
    linear = linear * shape[axis] + coords[axis];
  return identityDevices ? linear : devices[linear];
}

SmallVector<SmallVector<int64_t>>
Mesh::getGroups(ArrayRef<int64_t> groupAxes) const {
  SmallVector<int64_t> otherAxes;
  for (int64_t axis = 0; axis < getRank(); ++axis)
    if (!llvm::is_contained(groupAxes, axis))
      otherAxes.push_back(axis);
  auto sizesOf = [&](ArrayRef<int64_t> which) {
    SmallVector<int64_t> sizes;
    for (int64_t axis : which)
      sizes.push_back(shape[axis]);
    return sizes;
  };
  SmallVector<int64_t> otherSizes = sizesOf(otherAxes);
  SmallVector<int64_t> groupSizes = sizesOf(groupAxes);
  // Enumerates coordinates of `which` axes in row-major order.
  auto unflatten = [](int64_t linear, ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> coords(sizes.size());
    for (int64_t i = sizes.size() - 1; i >= 0; --i) {
      coords[i] = linear % sizes[i];
      linear /= sizes[i];
    }
    return coords;
  };
  SmallVector<SmallVector<int64_t>> groups;
  SmallVector<int64_t> coords(getRank());
  for (int64_t g = 0, ge = product(otherSizes); g < ge; ++g) {
    SmallVector<int64_t> outer = unflatten(g, otherSizes);
    for (auto [i, axis] : llvm::enumerate(otherAxes))
      coords[axis] = outer[i];
    SmallVector<int64_t> group;
    for (int64_t m = 0, me = product(groupSizes); m < me; ++m) {
      SmallVector<int64_t> inner = unflatten(m, groupSizes);
      for (auto [i, axis] : llvm::enumerate(groupAxes))
        coords[axis] = inner[i];
      group.push_back(getDevice(coords));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

Mesh Mesh::getSlice(ArrayRef<int64_t> fixedAxes,
                    ArrayRef<int64_t> fixedCoords) const {
  SmallVector<int64_t> freeAxes;
  SmallVector<int64_t> freeShape;
  SmallVector<std::string> freeNames;
  for (int64_t axis = 0; axis < getRank(); ++axis)
    if (!llvm::is_contained(fixedAxes, axis)) {
      freeAxes.push_back(axis);
      freeShape.push_back(shape[axis]);
      freeNames.push_back(axes[axis]);
    }
  SmallVector<int64_t> coords(getRank());
  for (auto [axis, coord] : llvm::zip(fixedAxes, fixedCoords))
    coords[axis] = coord;
  // The one group along the free axes that has the fixed coordinates.
  SmallVector<int64_t> sliceDevices;
  int64_t count = product(freeShape);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t rest = linear;
    for (int64_t i = freeAxes.size() - 1; i >= 0; --i) {
      coords[freeAxes[i]] = rest % freeShape[i];
      rest /= freeShape[i];
    }
    sliceDevices.push_back(getDevice(coords));
  }
  if (freeShape.empty()) {
    // Every axis fixed: a mesh of one device along a unit axis.
    freeShape.push_back(1);
    freeNames.push_back("_");
  }
  return Mesh(freeShape, freeNames, sliceDevices);
}

int64_t Mesh::getRankAlong(int64_t device, ArrayRef<int64_t> groupAxes) const {
  SmallVector<int64_t> coords = *getCoordinates(device);
  int64_t rank = 0;
  for (int64_t axis : groupAxes)
    rank = rank * shape[axis] + coords[axis];
  return rank;
}
