//===- Cluster.h - Model of a GPU cluster -----------------------*- C++ -*-===//
//
// The hardware a distributed program is simulated on: identical devices
// grouped in nodes, a switched intra-node fabric (NVLink/NVSwitch) and one NIC
// per device into the inter-node network. Plain C++ (no MLIR), shared by the
// cost model, the simulator, the cost pass and the search.
//
// Device ids are node-major: device d lives on node d / devicesPerNode.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_TOPOLOGY_CLUSTER_H
#define DISTIR_TOPOLOGY_CLUSTER_H

#include "distir/Support/Status.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distir {
namespace topology {

/// Element types the hardware distinguishes for peak throughput and size.
enum class DataType : uint8_t { F16, BF16, F32, F64, I1, I8, I32, I64 };
inline constexpr size_t kNumDataTypes = 8;

/// "f16", "bf16", "f32", ... (the spelling of MLIR's builtin element types).
std::string_view dataTypeName(DataType type);
std::optional<DataType> parseDataType(std::string_view name);
/// Storage size of one element; i1 is stored as a byte.
int64_t dataTypeBytes(DataType type);

/// One accelerator. Throughputs are per second; sizes in bytes.
struct DeviceSpec {
  std::string name;
  /// Dense matrix-engine peak per element type (tensor cores); 0 when the
  /// device has no matrix path for that type, which then falls back to
  /// vectorFlops.
  std::array<double, kNumDataTypes> matrixFlops{};
  /// Peak of the general-purpose (non-tensor) units, used by element-wise
  /// and reduction kernels.
  double vectorFlops = 0;
  int64_t memoryBytes = 0;
  double memoryBandwidth = 0;
  /// Fixed cost of one kernel on the device timeline (launch and tail).
  double launchOverheadS = 0;

  /// Peak for matrix kernels of `type`, falling back to the vector units.
  double matrixPeak(DataType type) const;
};

/// A point-to-point path, per device and per direction.
struct LinkSpec {
  double bandwidth = 0; // bytes per second, one direction
  double latencyS = 0;  // per message / per algorithm step
};

struct Cluster {
  std::string name;
  DeviceSpec device;
  int64_t numNodes = 1;
  int64_t devicesPerNode = 1;
  /// Between two devices of one node (through the switch).
  LinkSpec intraNode;
  /// Between devices of different nodes: each device has its own NIC.
  LinkSpec interNode;

  int64_t numDevices() const { return numNodes * devicesPerNode; }
  int64_t nodeOf(int64_t device) const { return device / devicesPerNode; }
  bool sameNode(int64_t a, int64_t b) const { return nodeOf(a) == nodeOf(b); }
  /// The link a message from `src` to `dst` travels over.
  const LinkSpec &linkBetween(int64_t src, int64_t dst) const {
    return sameNode(src, dst) ? intraNode : interNode;
  }
};

/// Names of the built-in presets, for help texts and error messages.
std::vector<std::string> clusterPresetNames();

/// A built-in preset with `nodes` nodes; std::nullopt for an unknown name.
std::optional<Cluster> clusterPreset(std::string_view name, int64_t nodes = 1);

/// Parses the JSON cluster format (docs/dist-sim.md). `sourceName` prefixes
/// errors ("file.json:3:7: ..." for syntax, "file.json: device.memory_bytes:
/// ..." for content).
StatusOr<Cluster> parseClusterJson(std::string_view text,
                                   std::string_view sourceName);

/// Reads and parses a cluster file.
StatusOr<Cluster> loadClusterFile(const std::string &path);

/// `--cluster` syntax: `dgx-a100`, `dgx-h100:nodes=2` or a path to a JSON
/// file (anything ending in ".json" or naming an existing file).
StatusOr<Cluster> parseClusterSpec(std::string_view spec);

/// Serialises to the JSON cluster format (round-trips through
/// parseClusterJson).
std::string clusterToJson(const Cluster &cluster);

} // namespace topology
} // namespace distir

#endif // DISTIR_TOPOLOGY_CLUSTER_H
