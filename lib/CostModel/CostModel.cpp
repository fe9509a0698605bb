//===- CostModel.cpp - Roofline, hierarchical alpha-beta, profiles --------===//

#include "distir/CostModel/CostModel.h"
#include "distir/Support/ControlCharacters.h"
#include "distir/Topology/JsonSupport.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace distir {
namespace cost {

//===----------------------------------------------------------------------===//
// Constants. The only data they were fitted on is the marginal GPT-22B layer
// of Korthikanti et al. 2022, Table 4 (../shared/data/REFERENCE.md): tp=8 on
// one DGX A100, fp16, forward 7.7 ms and forward+backward 19.6 ms per layer,
// baseline (no recompute). The marginal layer is the 8-layer minus the
// 4-layer dist-gen program, per layer, timed with --framework megatron-2022
// (the code of those runs), so that the embedding, head, loss and start-up
// are left out. bench/fidelity/run.sh reproduces the fit and checks the
// other rows; docs/dist-sim.md ("Calibration") gives the figures.
//===----------------------------------------------------------------------===//

// Fraction of the tensor-core peak a large GEMM reaches: the one constant
// fitted (least maximum relative error over the marginal forward and
// forward+backward time: 7.82 ms, +1.5 %, and 19.38 ms, -1.1 %; every other
// constant fixed). The programs are dist-gen gpt's with Megatron-LM's
// dropout (0.1, its default) and Table 4's fwd/bwd only (no optimizer step):
//   bash bench/fidelity/run.sh table4
// (dist-gen gpt --layers 4|8 --hidden 6144 --heads 64 --seq 2048 --vocab 64
//  --batch 4 --dtype f16 | dist-opt [--dist-autodiff=optimizer=none]
//  --dist-parallelize=tp=8 | dist-sim --cluster dgx-a100
//  --framework megatron-2022), with this constant set to 0.67, 0.68, 0.685,
// 0.69 in turn. It was 0.63 when the programs had no dropout, which it then
// absorbed. Only one GEMM parameter is fitted: forward and backward both
// scale with the GEMM time in the same 1:2 ratio, so a second GEMM parameter
// (the ramp, or an efficiency of small GEMMs) is not identifiable from these
// two figures. For comparison only, not used: the H100 measurement in
// REFERENCE.md (798 of 989 TFLOP/s) is 0.81, a newer cuBLAS on a larger GEMM.
static constexpr double kMatrixEfficiency = 0.685;

// Fraction of the tensor-core peak a fused attention kernel reaches
// (dist.attention and dist.attention_grad), FlashAttention-2's own figures on
// an A100 80GB SXM4 (Dao 2023, arXiv:2307.08691, section 1: "reaching up to
// 73% of the theoretical max throughput in the forward pass, and up to 63%
// of the theoretical max throughput in the backward pass"; section 4.1
// counts FLOPs as these ops do: 4 s^2 d per head forward, halved with the
// causal mask, 2.5 times that backward). Physical figures, not fitted; the
// same ramp as a GEMM.
static constexpr double kAttentionForwardEfficiency = 0.73;
static constexpr double kAttentionBackwardEfficiency = 0.63;

// Fraction of the datasheet memory bandwidth a large streaming kernel
// reaches. Not fitted (Table 4 cannot separate it from the GEMM efficiency):
// the H100 device-copy measurement in REFERENCE.md, 3.0 of 3.35 TB/s.
static constexpr double kMemoryEfficiency = 0.90;

// Fraction of the link bandwidth NCCL's collectives reach as bus bandwidth
// (nccl-tests' busbw for large messages), one figure per kind of link. Not
// fitted; physical figures with their sources (docs/dist-sim.md):
//  - NVLink/NVSwitch: NCCL's own tuning model caps the bus bandwidth of
//    compute capability 8.0 (A100) at 235 GB/s (src/graph/tuning.cc:
//    "if (compCapIndex == AMPERE_COMPCAP_IDX) busBw = std::min(busBw,
//    235.0f)"), of the 300 GB/s per direction of NVLink3.
//  - InfiniBand: NVIDIA measures 192 GB/s all-reduce bus bandwidth between
//    DGX A100 nodes with 8 x HDR 200 Gb/s NICs (200 GB/s per node), an NCCL
//    maintainer in github.com/NVIDIA/nccl/issues/812 (2023-03-31).
// Both come from A100 systems; the dgx-h100 preset uses them too (NCCL's cap
// for Hopper NVLink, 370 of 450 GB/s, would be 0.82).
static constexpr double kNvlinkBusEfficiency = 235.0 / 300.0;
static constexpr double kNetworkBusEfficiency = 192.0 / 200.0;

// Efficiency curves: a kernel whose ideal time (work / (peak * efficiency))
// is t reaches efficiency * t / (t + ramp), i.e. it pays a fixed ramp-up
// (filling the SMs, the first and last wave) on top of its ideal time. These
// are assumptions, not fitted: every kernel of the calibration layer is far
// above them, so Table 4 cannot constrain them.
static constexpr double kMatrixRampS = 4e-6;
static constexpr double kMemoryRampS = 2e-6;

//===----------------------------------------------------------------------===//

static constexpr std::array<std::string_view, 9> kCollectiveNames = {
    "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast",
    "scatter",    "gather",     "reduce",         "send"};

std::string_view collectiveKindName(CollectiveKind kind) {
  return kCollectiveNames[static_cast<size_t>(kind)];
}

std::optional<CollectiveKind> parseCollectiveKind(std::string_view name) {
  for (size_t i = 0; i < kCollectiveNames.size(); ++i)
    if (kCollectiveNames[i] == name)
      return static_cast<CollectiveKind>(i);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// ProfileTable
//===----------------------------------------------------------------------===//

std::string ProfileTable::key(std::string_view kind, DataType dtype,
                              const std::vector<std::vector<int64_t>> &shapes) {
  std::string result(kind);
  result += '|';
  result += topology::dataTypeName(dtype);
  for (const std::vector<int64_t> &shape : shapes) {
    result += '|';
    for (size_t i = 0; i < shape.size(); ++i) {
      if (i)
        result += 'x';
      result += std::to_string(shape[i]);
    }
  }
  return result;
}

void ProfileTable::add(std::string_view kind, DataType dtype,
                       const std::vector<std::vector<int64_t>> &shapes,
                       double seconds) {
  entries[key(kind, dtype, shapes)] = seconds;
}

std::optional<double> ProfileTable::lookup(const OpWork &work) const {
  if (entries.empty())
    return std::nullopt;
  auto it = entries.find(key(work.kind, work.dtype, work.shapes));
  if (it == entries.end())
    return std::nullopt;
  return it->second;
}

StatusOr<ProfileTable> ProfileTable::parse(std::string_view text,
                                           std::string_view sourceName,
                                           const KindFilter &isKnownKind) {
  StatusOr<nlohmann::json> document = topology::parseJsonText(text, sourceName);
  if (!document)
    return document.status();
  std::string source(sourceName);
  // Keys and values are quoted: their control characters are escaped.
  auto fail = [&](const std::string &where, const std::string &message) {
    return Status::error(
        escapeControlCharacters(source + ": " + where + ": " + message));
  };
  if (!document->is_object() || !document->contains("entries") ||
      !(*document)["entries"].is_array())
    return fail("entries", "expected {\"entries\": [...]}");
  for (auto it = document->begin(); it != document->end(); ++it)
    if (it.key() != "entries")
      return fail(it.key(), "unknown key (expected: entries)");

  ProfileTable table;
  std::unordered_map<std::string, size_t> firstEntryOfKey;
  const nlohmann::json &entries = (*document)["entries"];
  for (size_t i = 0; i < entries.size(); ++i) {
    const nlohmann::json &entry = entries[i];
    std::string where = "entries[" + std::to_string(i) + "]";
    if (!entry.is_object())
      return fail(where, "expected an object");
    for (auto it = entry.begin(); it != entry.end(); ++it)
      if (it.key() != "kind" && it.key() != "dtype" && it.key() != "shapes" &&
          it.key() != "seconds")
        return fail(where + "." + it.key(),
                    "unknown key (expected one of: kind, dtype, shapes, "
                    "seconds)");
    if (!entry.contains("kind") || !entry["kind"].is_string())
      return fail(where + ".kind", "expected a string");
    const std::string &kind = entry["kind"].get_ref<const std::string &>();
    if (isKnownKind && !isKnownKind(kind))
      return fail(where + ".kind",
                  "unknown op kind '" + kind +
                      "' (expected a compute op of the dist dialect without "
                      "its prefix, e.g. matmul; collectives and sends are "
                      "timed by the network model)");
    if (!entry.contains("dtype") || !entry["dtype"].is_string())
      return fail(where + ".dtype", "expected a string");
    std::optional<DataType> dtype =
        topology::parseDataType(entry["dtype"].get<std::string>());
    if (!dtype)
      return fail(where + ".dtype", "unknown element type '" +
                                        entry["dtype"].get<std::string>() +
                                        "' (expected f16, bf16, f32, ...)");
    if (!entry.contains("seconds") || !entry["seconds"].is_number() ||
        !(entry["seconds"].get<double>() >= 0))
      return fail(where + ".seconds", "expected a non-negative number");
    if (!entry.contains("shapes") || !entry["shapes"].is_array())
      return fail(where + ".shapes", "expected a list of shapes");
    std::vector<std::vector<int64_t>> shapes;
    for (const nlohmann::json &shape : entry["shapes"]) {
      if (!shape.is_array())
        return fail(where + ".shapes", "expected a list of lists of sizes");
      std::vector<int64_t> dims;
      for (const nlohmann::json &dim : shape) {
        if (!dim.is_number_integer() || dim.get<int64_t>() < 0)
          return fail(where + ".shapes", "sizes must be non-negative integers");
        dims.push_back(dim.get<int64_t>());
      }
      shapes.push_back(std::move(dims));
    }
    auto [first, isNew] =
        firstEntryOfKey.try_emplace(key(kind, *dtype, shapes), i);
    if (!isNew)
      return fail(where, "same kind, dtype and shapes as entries[" +
                             std::to_string(first->second) + "]");
    table.add(kind, *dtype, shapes, entry["seconds"].get<double>());
  }
  return table;
}

StatusOr<ProfileTable> ProfileTable::load(const std::string &path,
                                          const KindFilter &isKnownKind) {
  DISTIR_ASSIGN_OR_RETURN(std::string text,
                          topology::readTextFile(path, "profile file"));
  return parse(text, path, isKnownKind);
}

//===----------------------------------------------------------------------===//
// CostModel
//===----------------------------------------------------------------------===//

CostModel::CostModel(Cluster cluster,
                     std::shared_ptr<const ProfileTable> profile)
    : cluster(std::move(cluster)), profile(std::move(profile)) {}

bool CostModel::isMatrixKind(std::string_view kind) {
  return kind == "matmul" || kind == "conv" || kind == "conv_grad_input" ||
         kind == "conv_grad_filter";
}

/// The efficiency of a fused attention kernel, by direction; none for
/// other kinds.
static std::optional<double> attentionEfficiency(std::string_view kind) {
  if (kind == "attention")
    return kAttentionForwardEfficiency;
  if (kind == "attention_grad")
    return kAttentionBackwardEfficiency;
  return std::nullopt;
}

/// efficiency * t / (t + ramp) for ideal time t = work / (peak * efficiency).
static double rampedEfficiency(double work, double peak, double efficiency,
                               double rampS) {
  double ideal = work / (peak * efficiency);
  return efficiency * ideal / (ideal + rampS);
}

double CostModel::matrixEfficiency(double flops, DataType dtype) const {
  return rampedEfficiency(flops, cluster.device.matrixPeak(dtype),
                          kMatrixEfficiency, kMatrixRampS);
}

double CostModel::memoryEfficiency(double bytes) const {
  return rampedEfficiency(bytes, cluster.device.memoryBandwidth,
                          kMemoryEfficiency, kMemoryRampS);
}

double CostModel::computeTime(const OpWork &work) const {
  if (profile)
    if (std::optional<double> measured = profile->lookup(work))
      return *measured;
  double bytes = static_cast<double>(work.bytesRead) +
                 static_cast<double>(work.bytesWritten);
  // Views (reshape) launch no kernel.
  if (work.flops <= 0 && bytes <= 0)
    return 0;
  const topology::DeviceSpec &device = cluster.device;
  double flopTime = 0;
  if (work.flops > 0) {
    // Element-wise and reduction kernels do not use the tensor cores: their
    // FLOPs run at the vector peak at full efficiency (they are memory-bound
    // in practice, and their FLOP counts are approximate anyway).
    double peak = device.matrixPeak(work.dtype);
    if (std::optional<double> attention = attentionEfficiency(work.kind))
      flopTime =
          work.flops /
          (peak * rampedEfficiency(work.flops, peak, *attention, kMatrixRampS));
    else if (isMatrixKind(work.kind))
      flopTime = work.flops / (peak * matrixEfficiency(work.flops, work.dtype));
    else
      flopTime = work.flops / device.vectorFlops;
  }
  double memoryTime =
      bytes > 0 ? bytes / (device.memoryBandwidth * memoryEfficiency(bytes))
                : 0;
  return device.launchOverheadS + std::max(flopTime, memoryTime);
}

GroupShape CostModel::groupShape(const std::vector<int64_t> &group) const {
  GroupShape shape;
  shape.size = static_cast<int64_t>(group.size());
  std::vector<int64_t> nodes;
  nodes.reserve(group.size());
  for (int64_t device : group)
    nodes.push_back(cluster.nodeOf(device));
  std::sort(nodes.begin(), nodes.end());
  for (size_t i = 0; i < nodes.size();) {
    size_t j = i;
    while (j < nodes.size() && nodes[j] == nodes[i])
      ++j;
    ++shape.nodes;
    shape.perNode = std::max<int64_t>(shape.perNode, int64_t(j - i));
    i = j;
  }
  return shape;
}

double CostModel::collectiveTime(CollectiveKind kind, int64_t bytes,
                                 const std::vector<int64_t> &group) const {
  if (kind == CollectiveKind::Send && group.size() == 2)
    return sendTime(bytes, group[0], group[1]);
  return collectiveTimeOnShape(kind, bytes, groupShape(group));
}

// Hierarchical ring algorithms (NCCL's, and the "2D" all-reduce of Megatron
// and Horovod): inside a node a ring over the NVSwitch, across nodes g
// parallel rings (one per local rank, each through that GPU's own NIC) over
// 1/g of the data. Each phase costs steps * alpha + moved bytes / bandwidth.
double CostModel::collectiveTimeOnShape(CollectiveKind kind, int64_t bytes,
                                        const GroupShape &shape) const {
  int64_t n = shape.size;
  if (n <= 1 || bytes <= 0)
    return 0;
  double s = static_cast<double>(bytes);
  double g = static_cast<double>(shape.perNode);
  double k = static_cast<double>(shape.nodes);
  double intraBw = busBandwidth(LinkKind::IntraNode);
  double interBw = busBandwidth(LinkKind::InterNode);
  double intraAlpha = cluster.intraNode.latencyS;
  double interAlpha = cluster.interNode.latencyS;

  // One ring phase over the node-local members moving `fraction` of `size`.
  auto intraRing = [&](double steps, double moved) {
    return shape.perNode > 1 ? steps * intraAlpha + moved / intraBw : 0.0;
  };
  auto interRing = [&](double steps, double moved) {
    return shape.nodes > 1 ? steps * interAlpha + moved / interBw : 0.0;
  };

  double time = 0;
  switch (kind) {
  case CollectiveKind::AllReduce:
    // reduce-scatter in the node, all-reduce of a 1/g shard across nodes,
    // all-gather in the node.
    time = 2 * intraRing(g - 1, (g - 1) / g * s) +
           interRing(2 * (k - 1), 2 * (k - 1) / k * (s / g));
    break;
  case CollectiveKind::AllGather:
  case CollectiveKind::ReduceScatter:
    time = intraRing(g - 1, (g - 1) / g * s) +
           interRing(k - 1, (k - 1) / k * (s / g));
    break;
  case CollectiveKind::Broadcast:
  case CollectiveKind::Reduce: {
    // Pipelined chain: every byte crosses each hop once; the slowest hop
    // (the node's g NICs in parallel, or NVLink) bounds the rate.
    double rate = shape.perNode > 1 ? intraBw : INFINITY;
    if (shape.nodes > 1)
      rate = std::min(rate, g * interBw);
    time = (shape.perNode > 1 ? (g - 1) * intraAlpha : 0) +
           (shape.nodes > 1 ? (k - 1) * interAlpha : 0) + s / rate;
    break;
  }
  case CollectiveKind::Scatter:
  case CollectiveKind::Gather: {
    // The root's node exchanges (n-g)/n of S with other nodes through its g
    // NICs, and (g-1)/n of S with its node-mates over NVLink, concurrently.
    double nd = static_cast<double>(n);
    double local = shape.perNode > 1 ? (g - 1) / nd * s / intraBw : 0;
    double remote = shape.nodes > 1 ? (nd - g) / nd * s / (g * interBw) : 0;
    time = (shape.perNode > 1 ? (g - 1) * intraAlpha : 0) +
           (shape.nodes > 1 ? (k - 1) * interAlpha : 0) +
           std::max(local, remote);
    break;
  }
  case CollectiveKind::AllToAll: {
    // Each device keeps 1/n of its S and sends the rest, node-mates over
    // NVLink and remote devices through its own NIC, concurrently.
    double nd = static_cast<double>(n);
    double local = shape.perNode > 1 ? (g - 1) / nd * s / intraBw : 0;
    double remote = shape.nodes > 1 ? (nd - g) / nd * s / interBw : 0;
    time = (shape.perNode > 1 ? (g - 1) * intraAlpha : 0) +
           (shape.nodes > 1 ? (nd - g) * interAlpha : 0) +
           std::max(local, remote);
    break;
  }
  case CollectiveKind::Send: {
    LinkKind kind = shape.nodes > 1 ? LinkKind::InterNode : LinkKind::IntraNode;
    time = linkOf(kind).latencyS + s / busBandwidth(kind);
    break;
  }
  }
  // The collective is one kernel on the device.
  return cluster.device.launchOverheadS + time;
}

int64_t CostModel::bytesSentPerDevice(CollectiveKind kind, int64_t bytes,
                                      int64_t groupSize) {
  if (groupSize <= 1 || bytes <= 0)
    return kind == CollectiveKind::Send ? std::max<int64_t>(bytes, 0) : 0;
  // (n-1)/n of S, twice for all-reduce; in 128-bit arithmetic so that a
  // trillion-parameter payload times a large group cannot overflow.
  __int128 share = static_cast<__int128>(bytes) * (groupSize - 1) / groupSize;
  switch (kind) {
  case CollectiveKind::AllReduce:
    return static_cast<int64_t>(2 * share);
  case CollectiveKind::Send:
  case CollectiveKind::Broadcast:
  case CollectiveKind::Reduce:
    // Pipelined chains: every member forwards the whole payload once.
    return bytes;
  default:
    return static_cast<int64_t>(share);
  }
}

double CostModel::sendTime(int64_t bytes, int64_t src, int64_t dst) const {
  if (bytes <= 0 || src == dst)
    return 0;
  LinkKind kind =
      cluster.sameNode(src, dst) ? LinkKind::IntraNode : LinkKind::InterNode;
  return cluster.device.launchOverheadS + linkOf(kind).latencyS +
         static_cast<double>(bytes) / busBandwidth(kind);
}

double CostModel::busEfficiency(LinkKind kind) {
  return kind == LinkKind::IntraNode ? kNvlinkBusEfficiency
                                     : kNetworkBusEfficiency;
}

double CostModel::busBandwidth(LinkKind kind) const {
  return linkOf(kind).bandwidth * busEfficiency(kind);
}

} // namespace cost
} // namespace distir
