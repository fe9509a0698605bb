//===- Calibration.cpp - dist-sim's cluster of the machine MPI runs on ----===//
//
// The calibration kernels are dist programs run by runGlobal with an
// MpiTransport, so they pay what dist-run --mpi pays (the interpreter's
// per-op work, the transport's copies and MPI) and use its kernels
// (OpenBLAS for matmul). Each parameter is fitted by weighted least squares
// (relative residuals: sizes span decades) against dist-sim's own formula,
// whose coefficients are read off CostModel by probing it, so that the
// written cluster reproduces the measurements through the model whatever its
// efficiency constants are.
//
//===----------------------------------------------------------------------===//

#include "distir/MpiRuntime/Calibration.h"

#include "distir/CostModel/CostModel.h"
#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Executor/Executor.h"
#include "distir/Executor/GlobalView.h"
#include "distir/Executor/Inputs.h"
#include "distir/MpiRuntime/MpiRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

using namespace mlir;
using json = nlohmann::json;

namespace distir::mpi {

//===----------------------------------------------------------------------===//
// OpProfile
//===----------------------------------------------------------------------===//

namespace {

/// The element type dist-sim keys an op's profile entry by: its first
/// result's, else its first operand's (Lowering's workOf).
std::optional<std::string> getProfileDataType(Operation *op) {
  Type typed = op->getNumResults()    ? op->getResult(0).getType()
               : op->getNumOperands() ? op->getOperand(0).getType()
                                      : Type();
  auto shaped = dyn_cast_or_null<ShapedType>(typed);
  if (!shaped)
    return std::nullopt;
  std::string name;
  llvm::raw_string_ostream os(name);
  shaped.getElementType().print(os);
  if (!topology::parseDataType(name))
    return std::nullopt;
  return name;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

void OpProfile::record(Operation *op, double seconds) {
  if (isa<dist::CollectiveOpInterface, dist::SendOp>(op) ||
      !isa<dist::CostOpInterface>(op))
    return;
  auto it = fastest.find(op);
  if (it != fastest.end()) {
    it->second.second = std::min(it->second.second, seconds);
    return;
  }
  std::optional<std::string> dtype = getProfileDataType(op);
  if (!dtype)
    return;
  json shapes = json::array();
  auto addShape = [&](Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      shapes.push_back(tensor.getShape().vec());
  };
  llvm::for_each(op->getOperandTypes(), addShape);
  llvm::for_each(op->getResultTypes(), addShape);
  json key = {{"kind", cast<dist::CostOpInterface>(op).getCostKind().str()},
              {"dtype", *dtype},
              {"shapes", shapes}};
  fastest.insert({op, {key.dump(), seconds}});
}

std::string OpProfile::toJson(bool gather) const {
  // One line per op: its key, a tab, its seconds.
  std::string lines;
  for (const auto &[op, entry] : fastest)
    lines +=
        entry.first + "\t" + llvm::formatv("{0:e}", entry.second).str() + "\n";
  std::vector<std::string> parts = {lines};
  if (gather) {
    parts = gatherToRoot(lines);
    if (getWorldRank() != 0)
      return "";
  }
  std::map<std::string, std::vector<double>> byKey;
  for (const std::string &part : parts)
    for (llvm::StringRef line : llvm::split(part, '\n')) {
      auto [key, seconds] = line.split('\t');
      double value = 0;
      if (!seconds.getAsDouble(value))
        byKey[key.str()].push_back(value);
    }
  // An entry a line, as docs/dist-sim.md shows them.
  std::string text = "{\"entries\": [";
  for (const auto &[key, seconds] : byKey) {
    json entry = json::parse(key);
    entry["seconds"] = median(seconds);
    text += (text.back() == '[' ? "\n  " : ",\n  ") + entry.dump();
  }
  return text + "\n]}\n";
}

//===----------------------------------------------------------------------===//
// The calibration programs
//===----------------------------------------------------------------------===//

namespace {

/// Square GEMM sizes, element-wise sizes (f32 elements) and message sizes
/// (f32 elements per rank): a few milliseconds each at the top.
constexpr int64_t kGemmSizes[] = {32, 64, 128, 192, 256, 384};
constexpr int64_t kElementwiseSizes[] = {1 << 10, 1 << 12, 1 << 14, 1 << 16,
                                         1 << 18, 1 << 20, 1 << 21};
constexpr int64_t kMessageSizes[] = {1 << 6,  1 << 8,  1 << 10, 1 << 12,
                                     1 << 14, 1 << 16, 1 << 18, 1 << 20};

std::string tensorType(llvm::ArrayRef<int64_t> shape, llvm::StringRef devices) {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + "f32, #dist.devices<" + devices.str() + ">>";
}

/// @main: every GEMM, add and gelu size on every device (replicated),
/// after a warm-up (the first op of a run pays for cold caches).
std::string buildComputeProgram(int64_t numDevices) {
  std::string all = "[0:" + std::to_string(numDevices) + "]";
  std::string arguments, body;
  llvm::raw_string_ostream args(arguments), os(body);
  int index = 0;
  std::string first = tensorType({kGemmSizes[0], kGemmSizes[0]}, all);
  os << "  %warm = dist.mul %a0, %a0 : (" << first << ", " << first << ") -> "
     << first << "\n";
  for (int64_t n : kGemmSizes) {
    std::string type = tensorType({n, n}, all);
    args << (index ? ", " : "") << "%a" << index << ": " << type;
    os << "  %m" << index << " = dist.matmul %a" << index << ", %a" << index
       << " : (" << type << ", " << type << ") -> " << type << "\n";
    ++index;
  }
  for (int64_t n : kElementwiseSizes) {
    std::string type = tensorType({n}, all);
    args << ", %a" << index << ": " << type;
    os << "  %s" << index << " = dist.add %a" << index << ", %a" << index
       << " : (" << type << ", " << type << ") -> " << type << "\n";
    os << "  %g" << index << " = dist.gelu %a" << index << " : (" << type
       << ") -> " << type << "\n";
    ++index;
  }
  return "func.func @main(" + arguments + ") {\n" + body + "  return\n}\n";
}

/// @main: per message size, an all_reduce, all_gather and reduce_scatter
/// over every device and a send from device 0 to device 1 (after a warm-up
/// all_reduce). Sizes are multiples of the device count.
std::string buildCommunicationProgram(int64_t numDevices) {
  std::string all = "[0:" + std::to_string(numDevices) + "]";
  std::string group = "[[";
  for (int64_t d = 0; d < numDevices; ++d)
    group += (d ? ", " : "") + std::to_string(d);
  group += "]]";
  std::string arguments, body;
  llvm::raw_string_ostream args(arguments), os(body);
  int index = 0;
  for (int64_t size : kMessageSizes) {
    int64_t n = (size + numDevices - 1) / numDevices * numDevices;
    std::string type = tensorType({n}, all);
    std::string gathered = tensorType({n * numDevices}, all);
    std::string scattered = tensorType({n / numDevices}, all);
    args << (index ? ", " : "") << "%v" << index << ": " << type << ", %p"
         << index << ": " << tensorType({n}, "[0]");
    if (index == 0)
      os << "  %warm = dist.all_reduce %v0 sum groups " << group << " : "
         << type << " -> " << type << "\n";
    os << "  %r" << index << " = dist.all_reduce %v" << index << " sum groups "
       << group << " : " << type << " -> " << type << "\n";
    os << "  %g" << index << " = dist.all_gather %v" << index
       << " dim 0 groups " << group << " : " << type << " -> " << gathered
       << "\n";
    os << "  %s" << index << " = dist.reduce_scatter %v" << index
       << " sum dim 0 groups " << group << " : " << type << " -> " << scattered
       << "\n";
    os << "  %q" << index << " = dist.send %p" << index
       << " to [1] : " << tensorType({n}, "[0]") << " -> "
       << tensorType({n}, "[1]") << "\n";
    ++index;
  }
  return "func.func @main(" + arguments + ") {\n" + body + "  return\n}\n";
}

/// One calibration program's ops in order, and each one's fastest run on
/// every rank (rank 0 only: [rank][op]; +inf where a rank ran nothing).
struct Timings {
  OwningOpRef<ModuleOp> module;
  std::vector<Operation *> ops;
  std::vector<std::vector<double>> seconds;
};

StatusOr<Timings> runTimed(MLIRContext &context, const std::string &text,
                           int64_t numDevices, unsigned repetitions,
                           OpProfile &profile) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module)
    return Status::error("the calibration program does not parse");
  auto func = module->lookupSymbol<func::FuncOp>("main");
  std::vector<GlobalLayout> layouts;
  if (failed(getArgumentLayouts(func, layouts)))
    return Status::error("the calibration program has no layout");
  InputSources sources;
  sources.seed = 1;
  std::vector<HostTensor> inputs;
  DISTIR_RETURN_IF_ERROR(makeInputs(func, layouts, sources, inputs));
  DISTIR_ASSIGN_OR_RETURN(auto transport, MpiTransport::create(numDevices, {}));

  Timings timings;
  timings.module = std::move(module);
  llvm::DenseMap<Operation *, size_t> indexOf;
  for (Operation &op : func.getBody().front().without_terminator()) {
    indexOf[&op] = timings.ops.size();
    timings.ops.push_back(&op);
  }
  std::vector<double> fastest(timings.ops.size(),
                              std::numeric_limits<double>::infinity());
  GlobalRunOptions options;
  options.repeat = repetitions;
  options.transport = transport.get();
  options.onOp = [&](Operation *op, double startS, double endS, int64_t) {
    auto it = indexOf.find(op);
    if (it == indexOf.end())
      return;
    fastest[it->second] = std::min(fastest[it->second], endS - startS);
    profile.record(op, endS - startS);
  };
  std::vector<HostTensor> outputs;
  std::vector<GlobalLayout> resultLayouts;
  DISTIR_RETURN_IF_ERROR(
      runGlobal(func, inputs, options, outputs, resultLayouts));
  std::vector<double> all = gatherToRoot(fastest);
  for (size_t offset = 0; offset < all.size(); offset += fastest.size())
    timings.seconds.emplace_back(all.begin() + offset,
                                 all.begin() + offset + fastest.size());
  return timings;
}

//===----------------------------------------------------------------------===//
// Fitting
//===----------------------------------------------------------------------===//

/// A measurement: t ~ fixed + p * a + q * b, with `fixed` and the
/// coefficients of the two parameters given by the model, t measured.
struct Sample {
  double fixed, a, b, seconds;
};

struct Fit {
  double p = 0, q = 0;
  /// Largest |model - measured| / measured.
  double worstError = 0;
};

/// Least squares of the relative residuals; p is held at 0 when the free
/// fit makes it negative (a latency or overhead cannot be).
Fit fitTwo(const std::vector<Sample> &samples) {
  double aa = 0, ab = 0, bb = 0, ay = 0, by = 0;
  for (const Sample &s : samples) {
    double w = 1 / (s.seconds * s.seconds), y = s.seconds - s.fixed;
    aa += w * s.a * s.a;
    ab += w * s.a * s.b;
    bb += w * s.b * s.b;
    ay += w * s.a * y;
    by += w * s.b * y;
  }
  Fit fit;
  double determinant = aa * bb - ab * ab;
  if (determinant > 0) {
    fit.p = (ay * bb - by * ab) / determinant;
    fit.q = (aa * by - ab * ay) / determinant;
  }
  if (!(fit.p > 0)) {
    fit.p = 0;
    fit.q = bb > 0 ? by / bb : 0;
  }
  for (const Sample &s : samples)
    fit.worstError = std::max(
        fit.worstError,
        std::fabs(s.fixed + fit.p * s.a + fit.q * s.b - s.seconds) / s.seconds);
  return fit;
}

/// dist-sim's compute time of `op` on `device` (a cluster of one device).
double modelComputeTime(Operation *op, const topology::DeviceSpec &device) {
  auto cost = cast<dist::CostOpInterface>(op);
  cost::OpWork work;
  work.kind = cost.getCostKind();
  work.flops = cost.getFlops();
  work.bytesRead = cost.getBytesRead();
  work.bytesWritten = cost.getBytesWritten();
  topology::Cluster cluster;
  cluster.device = device;
  return cost::CostModel(cluster).computeTime(work);
}

/// The model's time of `op` is affine in 1/`rate` (a peak or a bandwidth):
/// fixed + coefficient / rate. Probed at two rates far above any CPU's.
std::pair<double, double> probeAffine(
    Operation *op,
    const std::function<void(topology::DeviceSpec &, double)> &setRate) {
  constexpr double kRate = 1e15;
  topology::DeviceSpec device;
  device.vectorFlops = device.memoryBandwidth = 1e30;
  device.matrixFlops.fill(1e30);
  setRate(device, kRate);
  double once = modelComputeTime(op, device);
  setRate(device, 2 * kRate);
  double twice = modelComputeTime(op, device);
  double coefficient = 2 * (once - twice) * kRate;
  return {once - coefficient / kRate, coefficient};
}

std::string gigas(double perSecond) {
  return llvm::formatv("{0:f2}", perSecond / 1e9).str();
}
std::string micros(double seconds) {
  return llvm::formatv("{0:f1}", seconds * 1e6).str();
}
std::string percent(double fraction) {
  return llvm::formatv("{0:f0}", fraction * 100).str();
}

/// Fits the device from the compute program: GEMMs give the f32 matrix
/// peak, adds the memory bandwidth and the per-op overhead, gelus the
/// vector rate.
void fitDevice(const Timings &timings, topology::DeviceSpec &device,
               llvm::raw_ostream &summary) {
  std::vector<Sample> gemm, memory;
  std::vector<std::pair<Operation *, double>> gelus;
  for (auto [index, op] : llvm::enumerate(timings.ops)) {
    std::vector<double> ranks;
    for (const std::vector<double> &rank : timings.seconds)
      ranks.push_back(rank[index]);
    double seconds = median(ranks);
    if (isa<dist::MatmulOp>(op)) {
      auto [fixed, coefficient] =
          probeAffine(op, [](topology::DeviceSpec &d, double rate) {
            d.matrixFlops[static_cast<size_t>(topology::DataType::F32)] = rate;
          });
      gemm.push_back({fixed, 1, coefficient, seconds});
    } else if (isa<dist::AddOp>(op)) {
      auto [fixed, coefficient] =
          probeAffine(op, [](topology::DeviceSpec &d, double rate) {
            d.memoryBandwidth = rate;
          });
      memory.push_back({fixed, 1, coefficient, seconds});
    } else if (isa<dist::GeluOp>(op)) {
      gelus.emplace_back(op, seconds);
    }
  }
  Fit memoryFit = fitTwo(memory), gemmFit = fitTwo(gemm);
  device.launchOverheadS = memoryFit.p;
  device.memoryBandwidth = 1 / memoryFit.q;
  device.matrixFlops[static_cast<size_t>(topology::DataType::F32)] =
      1 / gemmFit.q;
  // gelu: the FLOPs beyond what the bandwidth explains set the vector rate.
  double ff = 0, ft = 0;
  for (auto [op, seconds] : gelus) {
    double flops = cast<dist::CostOpInterface>(op).getFlops();
    double w = 1 / (seconds * seconds);
    ff += w * flops * flops;
    ft += w * flops * (seconds - device.launchOverheadS);
  }
  device.vectorFlops =
      ft > 0 ? ff / ft : device.matrixPeak(topology::DataType::F32);
  summary << "calibrate: matmul f32: peak " << gigas(1 / gemmFit.q)
          << " GFLOP/s in dist-sim's efficiency curve, fixed cost "
          << micros(gemmFit.p) << " us, worst fit error "
          << percent(gemmFit.worstError) << " %\n";
  summary << "calibrate: add (memory-bound): bandwidth "
          << gigas(device.memoryBandwidth) << " GB/s, per-op overhead "
          << micros(device.launchOverheadS) << " us, worst fit error "
          << percent(memoryFit.worstError) << " %\n";
  summary << "calibrate: gelu: vector rate " << gigas(device.vectorFlops)
          << " GFLOP/s\n";
}

/// The model's coefficients of one communication op on a cluster of one
/// node of `numDevices`: of the link latency and of 1 / link bandwidth.
std::pair<double, double> probeCommunication(Operation *op,
                                             int64_t numDevices) {
  topology::Cluster cluster;
  cluster.devicesPerNode = numDevices;
  auto time = [&](double latency, double bandwidth) {
    cluster.intraNode = cluster.interNode = {bandwidth, latency};
    cost::CostModel model(cluster);
    if (auto send = dyn_cast<dist::SendOp>(op))
      return model.sendTime(
          dist::detail::getTensorBytes(send.getInput().getType()), 0, 1);
    auto collective = cast<dist::CollectiveOpInterface>(op);
    auto kind = cost::parseCollectiveKind(op->getName().stripDialect());
    dist::DeviceIdRange group = collective.getGroupsAttr().getGroup(0);
    return model.collectiveTime(
        *kind, collective.getPayloadBytes(),
        std::vector<int64_t>(group.begin(), group.end()));
  };
  return {time(1, 1e300), time(0, 1)};
}

/// Fits the links from the communication program: each kind alone (the
/// summary), then all together (the cluster has one latency and bandwidth).
void fitLinks(const Timings &timings, const topology::DeviceSpec &device,
              int64_t numDevices, topology::Cluster &cluster,
              llvm::raw_ostream &summary) {
  std::map<std::string, std::vector<Sample>> byKind;
  std::vector<Sample> all;
  for (auto [index, op] : llvm::enumerate(timings.ops)) {
    if (op->getName().stripDialect() == "all_reduce" && index == 0)
      continue; // the warm-up
    double seconds = std::numeric_limits<double>::infinity();
    if (isa<dist::SendOp>(op)) {
      // The receiver waits for the whole transfer; the sender only posts.
      seconds = timings.seconds[1][index];
    } else {
      // The last rank to arrive does not wait for the others.
      for (const std::vector<double> &rank : timings.seconds)
        seconds = std::min(seconds, rank[index]);
    }
    auto [steps, moved] = probeCommunication(op, numDevices);
    Sample sample{device.launchOverheadS, steps, moved, seconds};
    byKind[op->getName().stripDialect().str()].push_back(sample);
    all.push_back(sample);
  }
  for (const auto &[kind, samples] : byKind) {
    Fit fit = fitTwo(samples);
    summary << "calibrate: " << kind << " alone: latency " << micros(fit.p)
            << " us, bandwidth " << gigas(1 / fit.q)
            << " GB/s, worst fit error " << percent(fit.worstError) << " %\n";
  }
  Fit fit = fitTwo(all);
  cluster.intraNode = {1 / fit.q, fit.p};
  cluster.interNode = cluster.intraNode;
  summary << "calibrate: links (all kinds together, in the cluster): "
          << "latency " << micros(fit.p) << " us, bandwidth "
          << gigas(1 / fit.q) << " GB/s, worst fit error "
          << percent(fit.worstError) << " %\n";
}

} // namespace

StatusOr<Calibration> calibrate(MLIRContext &context,
                                const CalibrationOptions &options) {
  const int64_t numDevices = getWorldSize();
  if (numDevices < 2)
    return Status::error("--calibrate measures communication between ranks: "
                         "run it under mpirun -n N with N >= 2");
  auto start = std::chrono::steady_clock::now();
  Calibration result;
  OpProfile profile, unused;
  DISTIR_ASSIGN_OR_RETURN(Timings compute,
                          runTimed(context, buildComputeProgram(numDevices),
                                   numDevices, options.repetitions, profile));
  DISTIR_ASSIGN_OR_RETURN(Timings communication,
                          runTimed(context,
                                   buildCommunicationProgram(numDevices),
                                   numDevices, options.repetitions, unused));
  result.profileJson = profile.toJson(/*gather=*/true);
  if (getWorldRank() != 0)
    return result;

  topology::Cluster &cluster = result.cluster;
  cluster.name = "mpi-calibrated";
  cluster.numNodes = 1;
  cluster.devicesPerNode = numDevices;
  cluster.device.name = "dist-run --mpi rank";
  cluster.device.memoryBytes = getHostMemoryLimit() / numDevices;
  llvm::raw_string_ostream summary(result.summary);
  summary << "calibrate: " << numDevices << " ranks, the fastest of "
          << options.repetitions
          << " runs of each op (compute: the median over ranks; "
             "communication: the last rank to arrive)\n";
  fitDevice(compute, cluster.device, summary);
  fitLinks(communication, cluster.device, numDevices, cluster, summary);
  summary << "calibrate: "
          << llvm::formatv("{0:f1}",
                           std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count())
          << " s\n";
  return result;
}

} // namespace distir::mpi
