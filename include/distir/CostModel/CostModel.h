//===- CostModel.h - Time of ops and collectives on a cluster ---*- C++ -*-===//
//
// The single place that turns an op's work (FLOPs, bytes) or a collective's
// payload into seconds on a modeled cluster. Used by the simulator, the
// dist-annotate-costs pass and the configuration search. Plain C++.
//
// Every constant is documented where it is defined (CostModel.cpp) and in
// docs/dist-sim.md, with the figure it was calibrated on.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_COSTMODEL_COSTMODEL_H
#define DISTIR_COSTMODEL_COSTMODEL_H

#include "distir/Support/Status.h"
#include "distir/Topology/Cluster.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace distir {
namespace cost {

using topology::Cluster;
using topology::DataType;

/// What one device does for one op; all figures are per device.
struct OpWork {
  /// Op kind as the dialect's getCostKind() spells it ("matmul", "gelu", ...).
  std::string_view kind;
  DataType dtype = DataType::F32;
  double flops = 0;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  /// Local operand shapes then result shapes; only used for profile lookups.
  std::vector<std::vector<int64_t>> shapes;
};

enum class CollectiveKind : uint8_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast,
  Scatter,
  Gather,
  Reduce,
  Send,
};

std::string_view collectiveKindName(CollectiveKind kind);
/// Accepts the dialect's op names ("all_reduce", ..., "send").
std::optional<CollectiveKind> parseCollectiveKind(std::string_view name);

/// Measured per-op times that replace the formula where they have an entry.
/// JSON: {"entries": [{"kind": "matmul", "dtype": "f16",
///                     "shapes": [[8192, 6144], [6144, 2304], [8192, 2304]],
///                     "seconds": 1.1e-3}, ...]}
class ProfileTable {
public:
  /// Whether a "kind" names an op the simulator times (the dialect decides;
  /// this library does not know it). Empty: every kind is accepted.
  using KindFilter = std::function<bool(std::string_view)>;

  /// An entry whose kind `isKnownKind` refuses, or that repeats the kind,
  /// dtype and shapes of an earlier entry, is an error: either would
  /// silently never apply or silently replace a measurement.
  static StatusOr<ProfileTable> parse(std::string_view text,
                                      std::string_view sourceName,
                                      const KindFilter &isKnownKind = {});
  static StatusOr<ProfileTable> load(const std::string &path,
                                     const KindFilter &isKnownKind = {});

  void add(std::string_view kind, DataType dtype,
           const std::vector<std::vector<int64_t>> &shapes, double seconds);
  std::optional<double> lookup(const OpWork &work) const;
  size_t size() const { return entries.size(); }

private:
  static std::string key(std::string_view kind, DataType dtype,
                         const std::vector<std::vector<int64_t>> &shapes);
  std::unordered_map<std::string, double> entries;
};

/// The two kinds of links of a cluster: through the node's switch (NVLink)
/// and through the devices' NICs (the network).
enum class LinkKind : uint8_t { IntraNode, InterNode };

/// How a hierarchical collective decomposes over a group of devices.
struct GroupShape {
  int64_t size = 0;    // devices in the group
  int64_t nodes = 0;   // distinct nodes the group touches
  int64_t perNode = 0; // most group members on one node
};

class CostModel {
public:
  explicit CostModel(Cluster cluster,
                     std::shared_ptr<const ProfileTable> profile = nullptr);

  const Cluster &getCluster() const { return cluster; }
  /// Whether computeTime may consult measured times (OpWork::shapes needed).
  bool hasProfile() const { return profile && profile->size() > 0; }

  /// Seconds one device spends on `work`: the profile entry if there is one,
  /// else the roofline with efficiency curves plus the launch overhead.
  double computeTime(const OpWork &work) const;

  /// Seconds for one collective over `group` (device ids) moving `bytes`,
  /// the full per-group payload S in NCCL's convention (the operand of
  /// all_reduce/reduce/broadcast, the gathered result of all_gather/gather,
  /// the operand of reduce_scatter/scatter/all_to_all).
  double collectiveTime(CollectiveKind kind, int64_t bytes,
                        const std::vector<int64_t> &group) const;
  double collectiveTimeOnShape(CollectiveKind kind, int64_t bytes,
                               const GroupShape &shape) const;

  /// Bytes one member of a group of `groupSize` sends for a collective with
  /// payload `bytes` under the ring algorithms (NCCL's accounting).
  static int64_t bytesSentPerDevice(CollectiveKind kind, int64_t bytes,
                                    int64_t groupSize);

  /// Seconds to send `bytes` from `src` to `dst` (alpha + bytes / bandwidth).
  double sendTime(int64_t bytes, int64_t src, int64_t dst) const;

  GroupShape groupShape(const std::vector<int64_t> &group) const;

  /// Bandwidth collectives and sends reach on a kind of link: its bandwidth
  /// times busEfficiency (NCCL bus bandwidth).
  double busBandwidth(LinkKind kind) const;
  /// Fraction of a link's bandwidth NCCL reaches (physical figures with
  /// their sources in CostModel.cpp and docs/dist-sim.md).
  static double busEfficiency(LinkKind kind);

  /// True for kinds that run on the matrix engines (tensor cores).
  static bool isMatrixKind(std::string_view kind);

  /// Fraction of peak FLOP/s reached by a matrix kernel of `flops` FLOPs.
  double matrixEfficiency(double flops, DataType dtype) const;
  /// Fraction of peak memory bandwidth reached by a kernel moving `bytes`.
  double memoryEfficiency(double bytes) const;

private:
  const topology::LinkSpec &linkOf(LinkKind kind) const {
    return kind == LinkKind::IntraNode ? cluster.intraNode : cluster.interNode;
  }

  Cluster cluster;
  std::shared_ptr<const ProfileTable> profile;
};

} // namespace cost
} // namespace distir

#endif // DISTIR_COSTMODEL_COSTMODEL_H
