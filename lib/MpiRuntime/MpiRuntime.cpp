//===- MpiRuntime.cpp - dist programs on MPI processes --------------------===//
//
// Deadlock freedom: every rank walks the same program in the same order, a
// send never blocks (MPI_Isend, completed lazily; the tensor is immutable and
// kept alive until then), and a rank blocks only on a receive or collective
// of the op it is at. The earliest op any rank is blocked at has all its
// senders past it or at it (they post their sends before waiting), so
// pipelines (GPipe, 1F1B, interleaved) cannot deadlock. Messages between two
// ranks are matched in posting order (MPI's non-overtaking rule), which both
// sides share: op by op, group by group, member by member.
//
//===----------------------------------------------------------------------===//

#include "distir/MpiRuntime/MpiRuntime.h"

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Kernels/Kernels.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <thread>

#include <unistd.h>

using namespace mlir;
using namespace mlir::dist;
namespace k = distir::kernels;

namespace distir::mpi {

void initialize(int *argc, char ***argv) { MPI_Init(argc, argv); }

int getWorldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int getWorldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

void barrier() { MPI_Barrier(MPI_COMM_WORLD); }

std::vector<double> gatherToRoot(const std::vector<double> &values) {
  int rank = getWorldRank();
  std::vector<double> all(rank == 0 ? values.size() * getWorldSize() : 0);
  MPI_Gather(values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
             all.data(), static_cast<int>(values.size()), MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  return all;
}

double estimateClockOffset() {
  auto now = [] {
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  constexpr int kRounds = 8;
  const int rank = getWorldRank(), size = getWorldSize();
  double offset = 0;
  if (rank != 0) {
    for (int round = 0; round < kRounds; ++round) {
      double sent = 0;
      MPI_Recv(&sent, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double mine = now();
      MPI_Send(&mine, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Recv(&offset, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return offset;
  }
  for (int peer = 1; peer < size; ++peer) {
    // The shortest round trip bounds the error by half of it.
    double shortest = 1e30;
    for (int round = 0; round < kRounds; ++round) {
      double sent = now(), theirs = 0;
      MPI_Send(&sent, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
      MPI_Recv(&theirs, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      double received = now();
      if (received - sent < shortest) {
        shortest = received - sent;
        offset = theirs - (sent + received) / 2;
      }
    }
    MPI_Send(&offset, 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD);
  }
  return 0;
}

double getMinimumOverRanks(double value) {
  double minimum = value;
  MPI_Allreduce(&value, &minimum, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return minimum;
}

std::vector<std::string> gatherToRoot(const std::string &text) {
  const int rank = getWorldRank();
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(rank == 0 ? getWorldSize() : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0,
             MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(),
              offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> parts;
  for (size_t i = 0; i < lengths.size(); ++i)
    parts.push_back(all.substr(offsets[i], lengths[i]));
  return parts;
}

void exitAll(int code) {
  llvm::outs().flush();
  llvm::errs().flush();
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  std::exit(code);
}

namespace {
/// What the SIGTERM handler prints: set before, read in the handler (which
/// may only call async-signal-safe functions).
char terminationPrefix[128];
/// The communication op this rank is in ("" outside one).
char waitingOp[64];
/// Shared by the ranks of one node: set by a rank that reports its own
/// failure (failAll) before it aborts the job, so that the ranks mpirun
/// then terminates on that node stay silent (the failure has its message).
volatile int *nodeFailureReported = nullptr;

extern "C" void onTermination(int) {
  if (nodeFailureReported && *nodeFailureReported)
    _exit(1);
  auto put = [](const char *text) {
    ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
    (void)ignored;
  };
  put(terminationPrefix);
  if (waitingOp[0]) {
    put(" while waiting in '");
    put(waitingOp);
    put("'");
  }
  put(": another rank failed or was killed\n");
  _exit(1);
}

/// Marks the rank as inside `op` (null: outside) for the handler.
void setWaitingOp(Operation *op) {
  if (!op) {
    waitingOp[0] = '\0';
    return;
  }
  llvm::StringRef name = op->getName().getStringRef();
  size_t length = std::min(name.size(), sizeof(waitingOp) - 1);
  std::copy_n(name.data(), length, waitingOp);
  waitingOp[length] = '\0';
}
} // namespace

void installTerminationHandler(const char *tool) {
  snprintf(terminationPrefix, sizeof(terminationPrefix),
           "%s: error: rank %d: stopped", tool, getWorldRank());
  // One int in memory shared by the node's ranks (collective over all).
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &node);
  int nodeRank = 0;
  MPI_Comm_rank(node, &nodeRank);
  void *mine = nullptr;
  MPI_Win window = MPI_WIN_NULL;
  MPI_Win_allocate_shared(nodeRank == 0 ? sizeof(int) : 0, sizeof(int),
                          MPI_INFO_NULL, node, &mine, &window);
  MPI_Aint size = 0;
  int unit = 0;
  void *flag = nullptr;
  MPI_Win_shared_query(window, 0, &size, &unit, &flag);
  nodeFailureReported = static_cast<volatile int *>(flag);
  if (nodeRank == 0)
    *nodeFailureReported = 0;
  MPI_Barrier(node);
  // The window and communicator live as long as the process.
  struct sigaction action{};
  action.sa_handler = onTermination;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
}

void failAll(const llvm::Twine &message) {
  int rank = getWorldRank();
  std::this_thread::sleep_for(
      std::chrono::milliseconds(std::min(rank, 8) * 500));
  llvm::outs().flush();
  llvm::errs() << message;
  llvm::errs().flush();
  if (nodeFailureReported)
    *nodeFailureReported = 1;
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

int64_t getNumDevices(ModuleOp module) {
  int64_t numDevices = 0;
  auto note = [&](Type type) {
    if (DevicesAttr devices = getPlacement(type))
      numDevices = std::max(numDevices, devices.getIds().back() + 1);
  };
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      note(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          note(argument.getType());
  });
  return numDevices;
}

namespace {

using TensorRef = std::shared_ptr<const HostTensor>;

/// Open MPI 4.1 has no 16-bit float types: f16 and bf16 travel as
/// MPI_UINT16_T and reduce with user-defined ops that widen to float,
/// combine and round back to nearest even, pair by pair.
template <float (*toFloat)(uint16_t), uint16_t (*fromFloat)(float),
          typename Combine>
void reduceHalf(void *in, void *inout, int *length, MPI_Datatype *) {
  const auto *a = static_cast<const uint16_t *>(in);
  auto *b = static_cast<uint16_t *>(inout);
  for (int i = 0; i < *length; ++i)
    b[i] = fromFloat(Combine()(toFloat(a[i]), toFloat(b[i])));
}

struct Add {
  float operator()(float a, float b) const { return a + b; }
};
struct Multiply {
  float operator()(float a, float b) const { return a * b; }
};
struct Minimum {
  float operator()(float a, float b) const { return std::min(a, b); }
};
struct Maximum {
  float operator()(float a, float b) const { return std::max(a, b); }
};

template <float (*toFloat)(uint16_t), uint16_t (*fromFloat)(float)>
std::array<MPI_Op, 4> createHalfOps() {
  std::array<MPI_Op, 4> ops;
  MPI_Op_create(&reduceHalf<toFloat, fromFloat, Add>, 1, &ops[0]);
  MPI_Op_create(&reduceHalf<toFloat, fromFloat, Multiply>, 1, &ops[1]);
  MPI_Op_create(&reduceHalf<toFloat, fromFloat, Minimum>, 1, &ops[2]);
  MPI_Op_create(&reduceHalf<toFloat, fromFloat, Maximum>, 1, &ops[3]);
  return ops;
}

/// Position of a reduction in the op tables; -1: no MPI op (avg).
int getReductionIndex(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::sum:
    return 0;
  case ReductionKind::prod:
    return 1;
  case ReductionKind::min:
    return 2;
  case ReductionKind::max:
    return 3;
  case ReductionKind::avg:
    return -1;
  }
  return -1;
}

/// The communicator of one op's groups when MPI collectives can run them:
/// every group's devices are on distinct ranks and no rank is in two groups.
struct GroupComm {
  /// MPI_COMM_NULL on ranks outside every group.
  MPI_Comm comm = MPI_COMM_NULL;
  /// This rank's group and position in it (its rank in `comm`).
  int64_t group = -1;
  int64_t position = -1;
};

} // namespace

struct MpiTransport::Impl {
  int rank = 0;
  int size = 1;
  int64_t devicesPerRank = 1;
  bool deterministic = false;
  /// Point-to-point traffic, apart from the collectives' communicators.
  MPI_Comm p2p = MPI_COMM_NULL;
  /// By the owner ranks of each group of a collective.
  std::map<std::vector<std::vector<int64_t>>, GroupComm> comms;
  std::array<MPI_Op, 4> halfOps{}, bfloatOps{};
  struct PendingSend {
    MPI_Request request;
    TensorRef tensor;
  };
  std::vector<PendingSend> pendingSends;
  CommunicationStats stats;
  std::chrono::steady_clock::time_point runStart;
  double runStartCpu = 0;

  int owner(int64_t device) const {
    return static_cast<int>(device / devicesPerRank);
  }
  bool ownsAny(ArrayRef<int64_t> group) const {
    return llvm::any_of(group,
                        [&](int64_t device) { return owner(device) == rank; });
  }

  Status postSend(const TensorRef &tensor, int destination);
  Status postReceive(HostTensor &tensor, int source,
                     std::vector<MPI_Request> &requests);
  void wait(std::vector<MPI_Request> &requests);
  void reapSends();

  /// `rootsOnly`: the input lives on the groups' roots alone (scatter).
  std::optional<GroupComm> getGroupComm(DeviceGroupsAttr groups,
                                        const PlacedValue &input,
                                        bool rootsOnly);
  /// Receives the locals at each (index, source rank) of `into`, of `type`,
  /// all posted at once (after this op's sends).
  LogicalResult receiveLocals(Operation *op, Type type,
                              ArrayRef<std::pair<size_t, int>> sources,
                              PlacedValue &into);
  LogicalResult runSend(Operation *op, const PlacedValue &input,
                        PlacedValue &result);
  LogicalResult fetchByMessages(Operation *op, DeviceGroupsAttr groups,
                                PlacedValue &fetched);
  LogicalResult fetchByAllgather(Operation *op, const GroupComm &plan,
                                 ArrayRef<int64_t> group, PlacedValue &fetched);
  std::optional<LogicalResult>
  reduceNatively(Operation *op, const GroupComm &plan, ArrayRef<int64_t> group,
                 const PlacedValue &input, PlacedValue &result);
  std::optional<LogicalResult> moveBlocksNatively(Operation *op,
                                                  const GroupComm &plan,
                                                  ArrayRef<int64_t> group,
                                                  const PlacedValue &input,
                                                  PlacedValue &result);
  LogicalResult runAllToAll(AllToAllOp op, const GroupComm &plan,
                            ArrayRef<int64_t> group, const HostTensor &mine,
                            HostTensor &joined);
  LogicalResult runScatter(ScatterOp op, const GroupComm &plan,
                           ArrayRef<int64_t> group, const PlacedValue &input,
                           HostTensor &block);
  LogicalResult runGather(GatherOp op, const GroupComm &plan,
                          ArrayRef<int64_t> group, const HostTensor &mine,
                          HostTensor &gathered);
  LogicalResult runCollective(Operation *op, const PlacedValue &input,
                              PlacedValue &result);
};

namespace {

/// CPU seconds this process has used.
double getProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * now.tv_nsec;
}

LogicalResult report(Operation *op, const Status &status) {
  if (status.ok())
    return success();
  return op->emitOpError() << status.message();
}

/// MPI counts are ints: larger tensors would need derived datatypes.
Status getByteCount(const HostTensor &tensor, int &count) {
  if (tensor.getByteSize() > INT_MAX)
    return Status::error("a message of " +
                         std::to_string(tensor.getByteSize()) +
                         " bytes is larger than MPI's int count");
  count = static_cast<int>(tensor.getByteSize());
  return Status::success();
}

/// An uninitialized local of `type` (the receiver of a message).
Status makeLocal(Type type, HostTensor &tensor) {
  ElementType elementType;
  std::vector<int64_t> shape;
  DISTIR_RETURN_IF_ERROR(getHostTensorType(type, elementType, shape));
  tensor = HostTensor::uninitialized(elementType, std::move(shape));
  return Status::success();
}

TensorRef share(HostTensor &&tensor) {
  return std::make_shared<const HostTensor>(std::move(tensor));
}

/// `tensor` split into `parts` equal blocks along `dim`, laid end to end in
/// `buffer` (block i at i * `blockBytes`): the send buffer of MPI's
/// block collectives.
Status packBlocks(const HostTensor &tensor, int64_t dim, int64_t parts,
                  std::vector<char> &buffer, int &blockBytes) {
  std::vector<HostTensor> blocks(parts);
  k::ResultList targets;
  for (HostTensor &block : blocks)
    targets.push_back(&block);
  DISTIR_RETURN_IF_ERROR(k::splitEvenly(tensor, dim, parts, targets));
  DISTIR_RETURN_IF_ERROR(getByteCount(blocks.front(), blockBytes));
  buffer.resize(static_cast<size_t>(blockBytes) * parts);
  for (auto [i, block] : llvm::enumerate(blocks))
    std::copy_n(static_cast<const char *>(block.getRawData()), blockBytes,
                buffer.data() + i * blockBytes);
  return Status::success();
}

/// The `parts` blocks of `buffer` (each of `elementType` and `shape`)
/// joined along `dim` in order.
Status unpackAndConcat(const std::vector<char> &buffer, int64_t parts,
                       ElementType elementType,
                       const std::vector<int64_t> &shape, int64_t dim,
                       HostTensor &joined) {
  std::vector<HostTensor> blocks;
  k::TensorList inputs;
  for (int64_t i = 0; i < parts; ++i) {
    blocks.push_back(HostTensor::uninitialized(elementType, shape));
    const size_t bytes = blocks.back().getByteSize();
    std::copy_n(buffer.data() + i * bytes, bytes,
                static_cast<char *>(blocks.back().getRawData()));
  }
  for (const HostTensor &block : blocks)
    inputs.push_back(&block);
  return k::concat(inputs, dim, joined);
}

} // namespace

Status MpiTransport::Impl::postSend(const TensorRef &tensor, int destination) {
  int count = 0;
  DISTIR_RETURN_IF_ERROR(getByteCount(*tensor, count));
  PendingSend send{MPI_REQUEST_NULL, tensor};
  // MPI_Isend reads the buffer; the const_cast is for MPI-2 style headers.
  MPI_Isend(const_cast<void *>(tensor->getRawData()), count, MPI_BYTE,
            destination, 0, p2p, &send.request);
  pendingSends.push_back(std::move(send));
  ++stats.messagesSent;
  stats.bytesSent += count;
  return Status::success();
}

Status MpiTransport::Impl::postReceive(HostTensor &tensor, int source,
                                       std::vector<MPI_Request> &requests) {
  int count = 0;
  DISTIR_RETURN_IF_ERROR(getByteCount(tensor, count));
  requests.push_back(MPI_REQUEST_NULL);
  MPI_Irecv(tensor.getRawData(), count, MPI_BYTE, source, 0, p2p,
            &requests.back());
  return Status::success();
}

void MpiTransport::Impl::wait(std::vector<MPI_Request> &requests) {
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
              MPI_STATUSES_IGNORE);
  requests.clear();
}

void MpiTransport::Impl::reapSends() {
  llvm::erase_if(pendingSends, [](PendingSend &send) {
    int done = 0;
    MPI_Test(&send.request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

std::optional<GroupComm>
MpiTransport::Impl::getGroupComm(DeviceGroupsAttr groups,
                                 const PlacedValue &input, bool rootsOnly) {
  std::vector<std::vector<int64_t>> owners;
  std::vector<int> groupOfRank(size, -1);
  for (int64_t g = 0; g < groups.getNumGroups(); ++g) {
    std::vector<int64_t> &ranks = owners.emplace_back();
    for (int64_t device : groups.getGroup(g)) {
      int owner = this->owner(device);
      // MPI collectives need one member per rank, each contributing.
      if (groupOfRank[owner] != -1 || (input.indexOf(device) < 0 && !rootsOnly))
        return std::nullopt;
      groupOfRank[owner] = static_cast<int>(g);
      ranks.push_back(owner);
    }
  }
  auto [it, inserted] = comms.try_emplace(owners);
  GroupComm &plan = it->second;
  if (inserted) {
    // Collective over every rank: all walk the same ops in the same order.
    int color = groupOfRank[rank] == -1 ? MPI_UNDEFINED : groupOfRank[rank];
    int key = 0;
    if (color != MPI_UNDEFINED) {
      const std::vector<int64_t> &ranks = owners[color];
      key = static_cast<int>(llvm::find(ranks, rank) - ranks.begin());
      plan.group = color;
      plan.position = key;
    }
    MPI_Comm_split(p2p, color, key, &plan.comm);
  }
  return plan;
}

LogicalResult
MpiTransport::Impl::receiveLocals(Operation *op, Type type,
                                  ArrayRef<std::pair<size_t, int>> sources,
                                  PlacedValue &into) {
  // Allocated before any receive is posted: the buffers stay in place.
  std::vector<HostTensor> tensors(sources.size());
  for (HostTensor &tensor : tensors)
    if (failed(report(op, makeLocal(type, tensor))))
      return failure();
  std::vector<MPI_Request> requests;
  for (auto [tensor, source] : llvm::zip(tensors, sources))
    if (failed(report(op, postReceive(tensor, source.second, requests))))
      return failure();
  wait(requests);
  for (auto [tensor, source] : llvm::zip(tensors, sources))
    into.locals[source.first] = share(std::move(tensor));
  return success();
}

LogicalResult MpiTransport::Impl::runSend(Operation *op,
                                          const PlacedValue &input,
                                          PlacedValue &result) {
  // Position by position between sorted device sets: sends first, so that
  // two ranks sending to each other do not wait on each other.
  for (size_t i = 0; i < input.devices.size(); ++i) {
    int from = owner(input.devices[i]), to = owner(result.devices[i]);
    if (from == rank && to == rank)
      result.locals[i] = input.locals[i];
    else if (from == rank && failed(report(op, postSend(input.locals[i], to))))
      return failure();
  }
  std::vector<std::pair<size_t, int>> sources;
  for (size_t i = 0; i < input.devices.size(); ++i) {
    int from = owner(input.devices[i]), to = owner(result.devices[i]);
    if (to == rank && from != rank)
      sources.emplace_back(i, from);
  }
  return receiveLocals(op, op->getResult(0).getType(), sources, result);
}

LogicalResult MpiTransport::Impl::fetchByMessages(Operation *op,
                                                  DeviceGroupsAttr groups,
                                                  PlacedValue &fetched) {
  // Every rank holding a member of a group receives every member's local.
  auto ranksOf = [&](ArrayRef<int64_t> group) {
    std::vector<int> ranks;
    for (int64_t device : group)
      ranks.push_back(owner(device));
    llvm::sort(ranks);
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
  };
  for (int64_t g = 0; g < groups.getNumGroups(); ++g) {
    SmallVector<int64_t> group = groups.getGroup(g).toVector();
    std::vector<int> ranks = ranksOf(group);
    for (int64_t device : group) {
      int64_t index = fetched.indexOf(device);
      if (index < 0 || owner(device) != rank)
        continue;
      for (int to : ranks)
        if (to != rank &&
            failed(report(op, postSend(fetched.locals[index], to))))
          return failure();
    }
  }
  std::vector<std::pair<size_t, int>> sources;
  for (int64_t g = 0; g < groups.getNumGroups(); ++g) {
    SmallVector<int64_t> group = groups.getGroup(g).toVector();
    if (!ownsAny(group))
      continue;
    for (int64_t device : group) {
      int64_t index = fetched.indexOf(device);
      if (index >= 0 && owner(device) != rank)
        sources.emplace_back(index, owner(device));
    }
  }
  return receiveLocals(op, op->getOperand(0).getType(), sources, fetched);
}

LogicalResult MpiTransport::Impl::fetchByAllgather(Operation *op,
                                                   const GroupComm &plan,
                                                   ArrayRef<int64_t> group,
                                                   PlacedValue &fetched) {
  const HostTensor &mine =
      *fetched.locals[fetched.indexOf(group[plan.position])];
  int count = 0;
  if (failed(report(op, getByteCount(mine, count))))
    return failure();
  std::vector<char> buffer(static_cast<size_t>(count) * group.size());
  MPI_Allgather(mine.getRawData(), count, MPI_BYTE, buffer.data(), count,
                MPI_BYTE, plan.comm);
  stats.bytesSent += count;
  for (auto [position, device] : llvm::enumerate(group)) {
    if (static_cast<int64_t>(position) == plan.position)
      continue;
    HostTensor tensor =
        HostTensor::uninitialized(mine.getElementType(), mine.getShape());
    std::copy_n(buffer.data() + position * count, count,
                static_cast<char *>(tensor.getRawData()));
    fetched.locals[fetched.indexOf(device)] = share(std::move(tensor));
  }
  return success();
}

std::optional<LogicalResult> MpiTransport::Impl::reduceNatively(
    Operation *op, const GroupComm &plan, ArrayRef<int64_t> group,
    const PlacedValue &input, PlacedValue &result) {
  ReductionKind kind = ReductionKind::sum;
  if (auto allReduce = dyn_cast<AllReduceOp>(op))
    kind = allReduce.getReduction();
  else if (auto reduce = dyn_cast<ReduceOp>(op))
    kind = reduce.getReduction();
  else if (auto reduceScatter = dyn_cast<ReduceScatterOp>(op))
    kind = reduceScatter.getReduction();
  else
    return std::nullopt;
  int reduction = getReductionIndex(kind);
  int64_t device = group[plan.position];
  const HostTensor &mine = *input.locals[input.indexOf(device)];
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  MPI_Op mpiOp = MPI_OP_NULL;
  const MPI_Op builtins[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
  switch (mine.getElementType()) {
  case ElementType::F64:
    datatype = MPI_DOUBLE;
    break;
  case ElementType::F32:
    datatype = MPI_FLOAT;
    break;
  case ElementType::I64:
    datatype = MPI_INT64_T;
    break;
  case ElementType::I32:
    datatype = MPI_INT32_T;
    break;
  case ElementType::F16:
  case ElementType::BF16:
    datatype = MPI_UINT16_T;
    if (reduction >= 0)
      mpiOp =
          (mine.getElementType() == ElementType::F16 ? halfOps
                                                     : bfloatOps)[reduction];
    break;
  case ElementType::I1:
    return std::nullopt;
  }
  if (reduction < 0 || mine.getNumElements() > INT_MAX)
    return std::nullopt;
  if (mpiOp == MPI_OP_NULL)
    mpiOp = builtins[reduction];
  const int count = static_cast<int>(mine.getNumElements());
  HostTensor sum =
      HostTensor::uninitialized(mine.getElementType(), mine.getShape());
  stats.bytesSent += mine.getByteSize();
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    const int root = static_cast<int>(reduce.getRoot());
    MPI_Reduce(mine.getRawData(), sum.getRawData(), count, datatype, mpiOp,
               root, plan.comm);
    if (plan.position == root)
      result.locals[result.indexOf(device)] = share(std::move(sum));
    return success();
  }
  auto reduceScatter = dyn_cast<ReduceScatterOp>(op);
  if (!reduceScatter) {
    MPI_Allreduce(mine.getRawData(), sum.getRawData(), count, datatype, mpiOp,
                  plan.comm);
    result.locals[result.indexOf(device)] = share(std::move(sum));
    return success();
  }
  // Member i receives the sum of block i, as the sequential executor splits.
  std::vector<char> blocks;
  int blockBytes = 0;
  const int64_t parts = static_cast<int64_t>(group.size());
  if (failed(report(op, packBlocks(mine,
                                   static_cast<int64_t>(reduceScatter.getDim()),
                                   parts, blocks, blockBytes))))
    return failure();
  HostTensor block;
  if (failed(report(op, makeLocal(op->getResult(0).getType(), block))))
    return failure();
  MPI_Reduce_scatter_block(blocks.data(), block.getRawData(),
                           static_cast<int>(count / parts), datatype, mpiOp,
                           plan.comm);
  result.locals[result.indexOf(device)] = share(std::move(block));
  return success();
}

LogicalResult MpiTransport::Impl::runAllToAll(AllToAllOp op,
                                              const GroupComm &plan,
                                              ArrayRef<int64_t> group,
                                              const HostTensor &mine,
                                              HostTensor &joined) {
  // Member i's block j goes to member j, which joins them in member order.
  const int64_t parts = static_cast<int64_t>(group.size());
  std::vector<char> sent;
  int blockBytes = 0;
  if (failed(report(op, packBlocks(mine, static_cast<int64_t>(op.getSplitDim()),
                                   parts, sent, blockBytes))))
    return failure();
  std::vector<char> received(sent.size());
  MPI_Alltoall(sent.data(), blockBytes, MPI_BYTE, received.data(), blockBytes,
               MPI_BYTE, plan.comm);
  stats.bytesSent += static_cast<int64_t>(sent.size()) - blockBytes;
  std::vector<int64_t> blockShape = mine.getShape();
  blockShape[op.getSplitDim()] /= parts;
  return report(
      op, unpackAndConcat(received, parts, mine.getElementType(), blockShape,
                          static_cast<int64_t>(op.getConcatDim()), joined));
}

LogicalResult MpiTransport::Impl::runScatter(ScatterOp op,
                                             const GroupComm &plan,
                                             ArrayRef<int64_t> group,
                                             const PlacedValue &input,
                                             HostTensor &block) {
  const int root = static_cast<int>(op.getRoot());
  std::vector<char> sent;
  int blockBytes = 0;
  if (plan.position == root &&
      failed(report(op, packBlocks(*input.locals[input.indexOf(group[root])],
                                   static_cast<int64_t>(op.getDim()),
                                   static_cast<int64_t>(group.size()), sent,
                                   blockBytes))))
    return failure();
  if (failed(report(op, makeLocal(op->getResult(0).getType(), block))) ||
      failed(report(op, getByteCount(block, blockBytes))))
    return failure();
  MPI_Scatter(sent.data(), blockBytes, MPI_BYTE, block.getRawData(), blockBytes,
              MPI_BYTE, root, plan.comm);
  if (plan.position == root)
    stats.bytesSent += static_cast<int64_t>(sent.size()) - blockBytes;
  return success();
}

LogicalResult MpiTransport::Impl::runGather(GatherOp op, const GroupComm &plan,
                                            ArrayRef<int64_t> group,
                                            const HostTensor &mine,
                                            HostTensor &gathered) {
  const int root = static_cast<int>(op.getRoot());
  int bytes = 0;
  if (failed(report(op, getByteCount(mine, bytes))))
    return failure();
  std::vector<char> received(
      plan.position == root ? static_cast<size_t>(bytes) * group.size() : 0);
  MPI_Gather(mine.getRawData(), bytes, MPI_BYTE, received.data(), bytes,
             MPI_BYTE, root, plan.comm);
  if (plan.position != root) {
    stats.bytesSent += bytes;
    return success();
  }
  return report(op,
                unpackAndConcat(received, static_cast<int64_t>(group.size()),
                                mine.getElementType(), mine.getShape(),
                                static_cast<int64_t>(op.getDim()), gathered));
}

std::optional<LogicalResult> MpiTransport::Impl::moveBlocksNatively(
    Operation *op, const GroupComm &plan, ArrayRef<int64_t> group,
    const PlacedValue &input, PlacedValue &result) {
  const int64_t device = group[plan.position];
  HostTensor mine;
  LogicalResult status = success();
  if (auto allToAll = dyn_cast<AllToAllOp>(op))
    status = runAllToAll(allToAll, plan, group,
                         *input.locals[input.indexOf(device)], mine);
  else if (auto scatter = dyn_cast<ScatterOp>(op))
    status = runScatter(scatter, plan, group, input, mine);
  else if (auto gather = dyn_cast<GatherOp>(op))
    status = runGather(gather, plan, group,
                       *input.locals[input.indexOf(device)], mine);
  else
    return std::nullopt;
  if (failed(status))
    return failure();
  // A gather's result lives on its root only.
  if (!isa<GatherOp>(op) ||
      plan.position == static_cast<int64_t>(cast<GatherOp>(op).getRoot()))
    result.locals[result.indexOf(device)] = share(std::move(mine));
  return success();
}

LogicalResult MpiTransport::Impl::runCollective(Operation *op,
                                                const PlacedValue &input,
                                                PlacedValue &result) {
  DeviceGroupsAttr groups = cast<CollectiveOpInterface>(op).getGroupsAttr();
  std::optional<GroupComm> plan =
      getGroupComm(groups, input, /*rootsOnly=*/isa<ScatterOp>(op));
  auto selectMine = [&](ArrayRef<int64_t> group) { return ownsAny(group); };
  PlacedValue fetched = input;
  if (!plan) {
    if (failed(fetchByMessages(op, groups, fetched)))
      return failure();
    return runCollectiveGroups(op, fetched, result, selectMine);
  }
  if (plan->comm == MPI_COMM_NULL)
    return success();
  SmallVector<int64_t> group = groups.getGroup(plan->group).toVector();
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    const int root = static_cast<int>(broadcast.getRoot());
    HostTensor tensor;
    if (plan->position == root)
      tensor = *input.locals[input.indexOf(group[root])];
    else if (failed(report(op, makeLocal(op->getResult(0).getType(), tensor))))
      return failure();
    int count = 0;
    if (failed(report(op, getByteCount(tensor, count))))
      return failure();
    MPI_Bcast(tensor.getRawData(), count, MPI_BYTE, root, plan->comm);
    result.locals[result.indexOf(group[plan->position])] =
        share(std::move(tensor));
    return success();
  }
  if (!deterministic)
    if (std::optional<LogicalResult> reduced =
            reduceNatively(op, *plan, group, input, result))
      return *reduced;
  // Data movement is exact either way.
  if (std::optional<LogicalResult> moved =
          moveBlocksNatively(op, *plan, group, input, result))
    return *moved;
  // all_gather and deterministic reductions: every member's tensor, then
  // the sequential semantics, bit for bit.
  if (failed(fetchByAllgather(op, *plan, group, fetched)))
    return failure();
  return runCollectiveGroups(op, fetched, result, selectMine);
}

MpiTransport::MpiTransport(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}

MpiTransport::~MpiTransport() {
  completeSends();
  for (auto &[owners, plan] : impl->comms)
    if (plan.comm != MPI_COMM_NULL)
      MPI_Comm_free(&plan.comm);
  for (MPI_Op &op : impl->halfOps)
    MPI_Op_free(&op);
  for (MPI_Op &op : impl->bfloatOps)
    MPI_Op_free(&op);
  MPI_Comm_free(&impl->p2p);
}

StatusOr<std::unique_ptr<MpiTransport>>
MpiTransport::create(int64_t numDevices, TransportOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->rank = getWorldRank();
  impl->size = getWorldSize();
  if (numDevices < 1)
    numDevices = 1;
  if (impl->size > numDevices || numDevices % impl->size != 0)
    return Status::error("--mpi: " + std::to_string(impl->size) +
                         " ranks cannot share the program's " +
                         std::to_string(numDevices) +
                         " devices (run mpirun -n with a divisor of " +
                         std::to_string(numDevices) + ")");
  impl->devicesPerRank = numDevices / impl->size;
  impl->deterministic = options.deterministic;
  MPI_Comm_dup(MPI_COMM_WORLD, &impl->p2p);
  impl->halfOps = createHalfOps<halfToFloat, floatToHalf>();
  impl->bfloatOps = createHalfOps<bfloat16ToFloat, floatToBfloat16>();
  return std::unique_ptr<MpiTransport>(new MpiTransport(std::move(impl)));
}

bool MpiTransport::isLocal(int64_t device) const {
  return impl->owner(device) == impl->rank;
}

LogicalResult MpiTransport::communicate(Operation *op, const PlacedValue &input,
                                        PlacedValue &result) {
  auto start = std::chrono::steady_clock::now();
  setWaitingOp(op);
  LogicalResult status = isa<SendOp>(op) ? impl->runSend(op, input, result)
                         : isa<CollectiveOpInterface>(op)
                             ? impl->runCollective(op, input, result)
                             : op->emitOpError()
                                   << "is not supported by the MPI runtime";
  setWaitingOp(nullptr);
  // Fetched members' results are not this rank's to keep.
  dropRemote(result);
  impl->reapSends();
  impl->stats.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return status;
}

void MpiTransport::dropRemote(PlacedValue &value) const {
  for (size_t i = 0; i < value.devices.size(); ++i)
    if (!isLocal(value.devices[i]))
      value.locals[i].reset();
}

void MpiTransport::beginRun() {
  completeSends();
  MPI_Barrier(impl->p2p);
  resetStats();
  impl->runStart = std::chrono::steady_clock::now();
  impl->runStartCpu = getProcessCpuSeconds();
}

void MpiTransport::endRun() {
  completeSends();
  impl->stats.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                    impl->runStart)
          .count();
  impl->stats.cpuSeconds = getProcessCpuSeconds() - impl->runStartCpu;
  MPI_Barrier(impl->p2p);
}

bool MpiTransport::holdsResults() const { return impl->rank == 0; }

Status MpiTransport::collectResult(PlacedValue &value, Type type) {
  for (size_t i = 0; i < value.devices.size(); ++i) {
    int owner = impl->owner(value.devices[i]);
    if (owner == 0)
      continue;
    if (impl->rank == owner) {
      int count = 0;
      DISTIR_RETURN_IF_ERROR(getByteCount(*value.locals[i], count));
      MPI_Send(value.locals[i]->getRawData(), count, MPI_BYTE, 0, 1, impl->p2p);
    } else if (impl->rank == 0) {
      HostTensor tensor;
      DISTIR_RETURN_IF_ERROR(makeLocal(type, tensor));
      int count = 0;
      DISTIR_RETURN_IF_ERROR(getByteCount(tensor, count));
      MPI_Recv(tensor.getRawData(), count, MPI_BYTE, owner, 1, impl->p2p,
               MPI_STATUS_IGNORE);
      value.locals[i] = share(std::move(tensor));
    }
  }
  return Status::success();
}

void MpiTransport::completeSends() {
  for (Impl::PendingSend &send : impl->pendingSends)
    MPI_Wait(&send.request, MPI_STATUS_IGNORE);
  impl->pendingSends.clear();
}

int MpiTransport::getRank() const { return impl->rank; }
int MpiTransport::getSize() const { return impl->size; }
int64_t MpiTransport::getFirstDevice() const {
  return impl->rank * impl->devicesPerRank;
}
int64_t MpiTransport::getNumLocalDevices() const {
  return impl->devicesPerRank;
}
const CommunicationStats &MpiTransport::getStats() const { return impl->stats; }
void MpiTransport::resetStats() { impl->stats = CommunicationStats(); }

} // namespace distir::mpi
