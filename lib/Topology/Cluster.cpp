//===- Cluster.cpp - Cluster presets, JSON format and --cluster specs -----===//

#include "distir/Topology/Cluster.h"
#include "distir/Topology/JsonSupport.h"

#include "distir/Support/ControlCharacters.h"
#include "distir/Support/JsonKeys.h"
#include "distir/Support/PresetSpec.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace distir {
namespace topology {

using json = nlohmann::json;

static constexpr std::array<std::string_view, kNumDataTypes> kDataTypeNames = {
    "f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64"};

std::string_view dataTypeName(DataType type) {
  return kDataTypeNames[static_cast<size_t>(type)];
}

std::optional<DataType> parseDataType(std::string_view name) {
  for (size_t i = 0; i < kNumDataTypes; ++i)
    if (kDataTypeNames[i] == name)
      return static_cast<DataType>(i);
  return std::nullopt;
}

int64_t dataTypeBytes(DataType type) {
  switch (type) {
  case DataType::F16:
  case DataType::BF16:
    return 2;
  case DataType::F32:
  case DataType::I32:
    return 4;
  case DataType::F64:
  case DataType::I64:
    return 8;
  case DataType::I1:
  case DataType::I8:
    return 1;
  }
  return 1;
}

double DeviceSpec::matrixPeak(DataType type) const {
  double peak = matrixFlops[static_cast<size_t>(type)];
  return peak > 0 ? peak : vectorFlops;
}

//===----------------------------------------------------------------------===//
// Presets. Every figure comes from ../shared/data/REFERENCE.md (NVIDIA
// datasheets) except the latencies, which are NCCL's own per-step hardware
// latencies for the ring/Simple protocol (NCCL src/graph/tuning.cc, hwLat:
// NVLink 3.4 us, network 9.6 us), and the kernel launch overhead, an
// assumption (typical CUDA back-to-back kernel gap) that the calibration layer
// is insensitive to (~30 kernels per 7.7 ms forward).
//===----------------------------------------------------------------------===//

// "80 GB" on the datasheets is 80 GiB of HBM (81920 MiB as nvidia-smi shows).
static constexpr int64_t k80GiB = int64_t(80) << 30;
static constexpr double kLaunchOverheadS = 3e-6;
static constexpr double kNvlinkStepLatencyS = 3.4e-6;
static constexpr double kNetworkStepLatencyS = 9.6e-6;

/// What distinguishes the DGX presets; everything else is shared.
struct DgxFigures {
  const char *name;
  const char *deviceName;
  double tensorFlops;     // dense f16 and bf16
  double vectorFlops;     // fp32 non-tensor
  double memoryBandwidth; // bytes/s
  double nvlinkBandwidth; // per GPU, per direction
  double nicBandwidth;    // per GPU, per direction
};

// DGX A100: NVLink3/NVSwitch 600 GB/s total = 300 GB/s each direction;
// 8 x HDR InfiniBand 200 Gb/s, one per GPU = 25 GB/s per direction.
// DGX H100: NVLink4 900 GB/s total = 450 GB/s each direction; 8 x NDR
// 400 Gb/s = 50 GB/s per direction.
static constexpr DgxFigures kDgxA100 = {
    "dgx-a100", "A100-SXM4-80GB", 312e12, 19.5e12, 2.039e12, 300e9, 25e9};
static constexpr DgxFigures kDgxH100 = {
    "dgx-h100", "H100-SXM5-80GB", 989e12, 67e12, 3.35e12, 450e9, 50e9};

/// The most devices a cluster may have: the dist dialect's limit on a mesh
/// or a device set (kMaxDevices in Dialect/Dist/IR/Mesh.h), stated again
/// here because this library does not depend on MLIR.
constexpr int64_t kMaxClusterDevices = int64_t{1} << 20;

static Cluster makeDgx(const DgxFigures &figures, int64_t nodes) {
  Cluster cluster;
  cluster.name = figures.name;
  cluster.numNodes = nodes;
  cluster.devicesPerNode = 8;
  DeviceSpec &device = cluster.device;
  device.name = figures.deviceName;
  device.matrixFlops[static_cast<size_t>(DataType::F16)] = figures.tensorFlops;
  device.matrixFlops[static_cast<size_t>(DataType::BF16)] = figures.tensorFlops;
  device.vectorFlops = figures.vectorFlops;
  device.memoryBytes = k80GiB;
  device.memoryBandwidth = figures.memoryBandwidth;
  device.launchOverheadS = kLaunchOverheadS;
  cluster.intraNode = {figures.nvlinkBandwidth, kNvlinkStepLatencyS};
  cluster.interNode = {figures.nicBandwidth, kNetworkStepLatencyS};
  return cluster;
}

static constexpr std::array<const DgxFigures *, 2> kPresets = {&kDgxA100,
                                                               &kDgxH100};

std::vector<std::string> clusterPresetNames() {
  std::vector<std::string> names;
  for (const DgxFigures *preset : kPresets)
    names.emplace_back(preset->name);
  return names;
}

std::optional<Cluster> clusterPreset(std::string_view name, int64_t nodes) {
  for (const DgxFigures *preset : kPresets)
    if (name == preset->name)
      return makeDgx(*preset, nodes);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// JSON format
//===----------------------------------------------------------------------===//

namespace {
/// Reads one JSON object, remembering which keys were consumed so that a
/// misspelt key is an error instead of a silently ignored setting. The
/// readers of a document share one Status: the first error wins.
class ObjectReader {
public:
  ObjectReader(const json &object, std::string path, Status &status)
      : object(object), path(std::move(path)), status(status) {
    if (!object.is_object())
      fail(this->path.empty() ? "expected a JSON object"
                              : "expected an object");
  }

  bool ok() const { return status.ok(); }

  const json *get(const char *key, bool required) {
    if (!ok())
      return nullptr;
    seen.push_back(key);
    auto it = object.find(key);
    if (it == object.end()) {
      if (required)
        fail((path.empty() ? "" : path + ": ") + "missing required key '" +
             key + "'");
      return nullptr;
    }
    return &*it;
  }

  void readPositive(const char *key, double &value, bool required = true) {
    const json *node = get(key, required);
    if (!node)
      return;
    if (!node->is_number() || !(node->get<double>() > 0) ||
        !std::isfinite(node->get<double>()))
      return failAt(key, "expected a positive number");
    value = node->get<double>();
  }

  void readNonNegative(const char *key, double &value, bool required = true) {
    const json *node = get(key, required);
    if (!node)
      return;
    if (!node->is_number() || !(node->get<double>() >= 0) ||
        !std::isfinite(node->get<double>()))
      return failAt(key, "expected a non-negative number");
    value = node->get<double>();
  }

  void readPositiveInt(const char *key, int64_t &value, bool required = true) {
    const json *node = get(key, required);
    if (!node)
      return;
    // Byte sizes are often written as 8.0e10 in hand-made files: accept any
    // number that is an exact positive integer within int64.
    double asDouble = node->is_number() ? node->get<double>() : 0;
    if (!node->is_number() || !(asDouble >= 1) || asDouble >= 9.2e18 ||
        std::floor(asDouble) != asDouble)
      return failAt(key, "expected a positive integer");
    value = node->is_number_float() ? static_cast<int64_t>(asDouble)
                                    : node->get<int64_t>();
  }

  void readString(const char *key, std::string &value, bool required) {
    const json *node = get(key, required);
    if (!node)
      return;
    if (!node->is_string())
      return failAt(key, "expected a string");
    value = node->get<std::string>();
  }

  std::string childPath(const char *key) const {
    return path.empty() ? key : path + "." + key;
  }

  /// Rejects keys nobody asked for.
  void finish() {
    if (!ok())
      return;
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      for (const std::string &key : seen)
        known |= key == it.key();
      if (!known) {
        std::string list;
        for (const std::string &key : seen)
          list += (list.empty() ? "" : ", ") + key;
        return failAt(it.key().c_str(),
                      "unknown key (expected one of: " + list + ")");
      }
    }
  }

  void failAt(const char *key, const std::string &message) {
    fail(childPath(key) + ": " + message);
  }
  void fail(const std::string &message) {
    if (status.ok())
      status = Status::error(message);
  }

private:
  const json &object;
  std::string path;
  Status &status;
  std::vector<std::string> seen;
};
} // namespace

static void readLink(ObjectReader &parent, const char *key, LinkSpec &link,
                     Status &status) {
  const json *node = parent.get(key, /*required=*/true);
  if (!node)
    return;
  ObjectReader reader(*node, parent.childPath(key), status);
  reader.readPositive("bandwidth", link.bandwidth);
  reader.readNonNegative("latency_s", link.latencyS);
  reader.finish();
}

static void readDevice(ObjectReader &parent, DeviceSpec &device,
                       Status &status) {
  const json *node = parent.get("device", /*required=*/true);
  if (!node)
    return;
  ObjectReader reader(*node, parent.childPath("device"), status);
  reader.readString("name", device.name, /*required=*/false);
  if (const json *peaks = reader.get("matrix_flops", /*required=*/false)) {
    ObjectReader peakReader(*peaks, reader.childPath("matrix_flops"), status);
    for (size_t i = 0; i < kNumDataTypes && peakReader.ok(); ++i)
      peakReader.readPositive(kDataTypeNames[i].data(), device.matrixFlops[i],
                              /*required=*/false);
    peakReader.finish();
  }
  reader.readPositive("vector_flops", device.vectorFlops);
  reader.readPositiveInt("memory_bytes", device.memoryBytes);
  reader.readPositive("memory_bandwidth", device.memoryBandwidth);
  reader.readNonNegative("launch_overhead_s", device.launchOverheadS,
                         /*required=*/false);
  reader.finish();
}

namespace {
/// nlohmann's DOM parser that keeps the first error and where it is instead
/// of throwing: besides syntax errors, a number beyond double range
/// ("1e999", out_of_range.406) reaches parse_error with its position; a key
/// given twice in one object is an error too (JsonKeys.h).
struct LocatingDomParser : nlohmann::detail::json_sax_dom_parser<json> {
  LocatingDomParser(json &root, std::string_view text)
      : json_sax_dom_parser(root, /*allow_exceptions_=*/false),
        duplicates(text) {}
  template <class Exception>
  bool parse_error(std::size_t position, const std::string &token,
                   const Exception &ex) {
    // nlohmann reports the offset one past the offending byte.
    offset = position > 0 ? position - 1 : 0;
    reason = ex.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line
    // 1, column 2: " prefix; the location is ours.
    size_t colon = reason.find(": ");
    if (colon != std::string::npos)
      reason = reason.substr(colon + 2);
    else if (size_t bracket = reason.find("] "); bracket != std::string::npos)
      reason = reason.substr(bracket + 2);
    return json_sax_dom_parser::parse_error(position, token, ex);
  }
  bool start_object(std::size_t length) {
    duplicates.startObject();
    return json_sax_dom_parser::start_object(length);
  }
  bool end_object() {
    duplicates.endObject();
    return json_sax_dom_parser::end_object();
  }
  bool key(std::string &name) {
    if (duplicates.addKey(name))
      return json_sax_dom_parser::key(name);
    offset = duplicates.getOffset();
    reason = duplicates.getReason();
    duplicateKey = true;
    return false;
  }
  bool is_errored() const {
    return duplicateKey || json_sax_dom_parser::is_errored();
  }

  size_t offset = 0;
  std::string reason;

private:
  DuplicateJsonKeys duplicates;
  bool duplicateKey = false;
};
} // namespace

StatusOr<json> parseJsonText(std::string_view text,
                             std::string_view sourceName) {
  json document;
  LocatingDomParser parser(document, text);
  if (json::sax_parse(text.begin(), text.end(), &parser) &&
      !parser.is_errored())
    return document;
  auto [line, column] = jsonLineColumn(text, parser.offset);
  return Status::error(escapeControlCharacters(
      std::string(sourceName) + ":" + std::to_string(line) + ":" +
      std::to_string(column) + ": invalid JSON: " + parser.reason));
}

StatusOr<Cluster> parseClusterJson(std::string_view text,
                                   std::string_view sourceName) {
  DISTIR_ASSIGN_OR_RETURN(json document, parseJsonText(text, sourceName));
  Cluster cluster;
  Status content = Status::success();
  ObjectReader reader(document, "", content);
  reader.readString("name", cluster.name, /*required=*/false);
  reader.readPositiveInt("nodes", cluster.numNodes);
  reader.readPositiveInt("devices_per_node", cluster.devicesPerNode);
  readDevice(reader, cluster.device, content);
  readLink(reader, "intra_node", cluster.intraNode, content);
  readLink(reader, "inter_node", cluster.interNode, content);
  reader.finish();
  if (content.ok() &&
      cluster.numNodes > kMaxClusterDevices / cluster.devicesPerNode)
    content = Status::error("nodes * devices_per_node is more than " +
                            std::to_string(kMaxClusterDevices) +
                            " devices, the dialect's limit");
  if (content.ok() &&
      cluster.name.find_first_of(kControlCharacters) != std::string::npos)
    content = Status::error("name: control characters are not allowed");
  // Unknown keys are quoted: their control characters are escaped.
  if (!content.ok())
    return Status::error(escapeControlCharacters(std::string(sourceName) +
                                                 ": " + content.message()));
  if (cluster.name.empty())
    cluster.name = std::string(sourceName);
  return cluster;
}

StatusOr<std::string> readTextFile(const std::string &path,
                                   std::string_view what) {
  // Read whole: a device or a FIFO (/dev/zero) would never end.
  std::error_code error;
  if (std::filesystem::exists(path, error) &&
      !std::filesystem::is_regular_file(path, error))
    return Status::error(path + ": " + std::string(what) +
                         " is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error(path + ": cannot open " + std::string(what));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

StatusOr<Cluster> loadClusterFile(const std::string &path) {
  DISTIR_ASSIGN_OR_RETURN(std::string text, readTextFile(path, "cluster file"));
  return parseClusterJson(text, path);
}

static bool fileExists(const std::string &path) {
  std::ifstream in(path);
  return static_cast<bool>(in);
}

StatusOr<Cluster> parseClusterSpec(std::string_view spec) {
  std::string specText(spec);
  auto endsWith = [&](std::string_view suffix) {
    return spec.size() >= suffix.size() &&
           spec.substr(spec.size() - suffix.size()) == suffix;
  };
  if (endsWith(".json") || fileExists(specText))
    return loadClusterFile(specText);

  PresetSpec parts = splitPresetSpec(spec);
  std::string_view name = parts.name;
  int64_t nodes = 1;
  bool nodesGiven = false;
  for (auto [key, value] : parts.options) {
    if (key != "nodes")
      return Status::error("cluster spec '" + specText + "': unknown option '" +
                           std::string(key) + "' (expected nodes=N)");
    if (std::exchange(nodesGiven, true))
      return Status::error("cluster spec '" + specText +
                           "': 'nodes' given twice");
    auto [end, ec] =
        std::from_chars(value.data(), value.data() + value.size(), nodes);
    if (value.empty() || ec != std::errc() ||
        end != value.data() + value.size() || nodes <= 0 ||
        nodes > (int64_t(1) << 40))
      return Status::error("cluster spec '" + specText + "': invalid value '" +
                           std::string(value) +
                           "' for nodes (expected a positive integer)");
  }
  std::optional<Cluster> cluster = clusterPreset(name, nodes);
  if (cluster &&
      cluster->numNodes > kMaxClusterDevices / cluster->devicesPerNode)
    return Status::error(
        "cluster spec '" + specText + "': " + std::to_string(nodes) +
        " nodes are more than " + std::to_string(kMaxClusterDevices) +
        " devices, the dialect's limit");
  if (cluster)
    return *std::move(cluster);
  std::string known;
  for (const std::string &preset : clusterPresetNames())
    known += (known.empty() ? "" : ", ") + preset;
  return Status::error("cluster spec '" + specText + "': unknown preset '" +
                       std::string(name) + "' (known: " + known +
                       "; or give a .json cluster file)");
}

std::string clusterToJson(const Cluster &cluster) {
  json peaks = json::object();
  for (size_t i = 0; i < kNumDataTypes; ++i)
    if (cluster.device.matrixFlops[i] > 0)
      peaks[std::string(kDataTypeNames[i])] = cluster.device.matrixFlops[i];
  json document = {{"name", cluster.name},
                   {"nodes", cluster.numNodes},
                   {"devices_per_node", cluster.devicesPerNode},
                   {"device",
                    {{"name", cluster.device.name},
                     {"matrix_flops", peaks},
                     {"vector_flops", cluster.device.vectorFlops},
                     {"memory_bytes", cluster.device.memoryBytes},
                     {"memory_bandwidth", cluster.device.memoryBandwidth},
                     {"launch_overhead_s", cluster.device.launchOverheadS}}},
                   {"intra_node",
                    {{"bandwidth", cluster.intraNode.bandwidth},
                     {"latency_s", cluster.intraNode.latencyS}}},
                   {"inter_node",
                    {{"bandwidth", cluster.interNode.bandwidth},
                     {"latency_s", cluster.interNode.latencyS}}}};
  return document.dump(2) + "\n";
}

} // namespace topology
} // namespace distir
