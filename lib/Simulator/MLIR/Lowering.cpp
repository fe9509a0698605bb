//===- Lowering.cpp - From placed dist IR to the simulator's program ------===//

#include "distir/Simulator/Lowering.h"

#include "FrameworkTiming.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Simulator/MemoryKinds.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <map>
#include <tuple>

using namespace mlir;

namespace distir {
namespace sim {

namespace {

topology::DataType dataTypeOf(Type type) {
  Type element = type;
  if (auto tensor = dyn_cast<ShapedType>(type))
    element = tensor.getElementType();
  if (element.isF16())
    return topology::DataType::F16;
  if (element.isBF16())
    return topology::DataType::BF16;
  if (element.isF64())
    return topology::DataType::F64;
  if (element.isInteger(1))
    return topology::DataType::I1;
  if (element.isInteger(8))
    return topology::DataType::I8;
  if (element.isInteger(32))
    return topology::DataType::I32;
  if (element.isInteger(64))
    return topology::DataType::I64;
  // f32 and everything without a dedicated hardware figure.
  return topology::DataType::F32;
}

std::optional<cost::CollectiveKind> collectiveKindOf(Operation *op) {
  return cost::parseCollectiveKind(op->getName().stripDialect());
}

std::vector<int64_t> toVector(ArrayRef<int64_t> ids) {
  return std::vector<int64_t>(ids.begin(), ids.end());
}

std::vector<int64_t> toVector(dist::DeviceIdRange ids) {
  return std::vector<int64_t>(ids.begin(), ids.end());
}

/// The devices a value lives on; unplaced values live on device 0.
dist::DeviceIdRange devicesOf(Value value) {
  static const dist::DeviceRun kDeviceZero{0, 1, 1};
  if (dist::DevicesAttr devices = dist::getPlacement(value))
    return devices.getIds();
  return dist::DeviceIdRange(kDeviceZero);
}

double collectiveDuration(dist::CollectiveOpInterface collective,
                          cost::CollectiveKind kind,
                          const cost::CostModel &model) {
  dist::DeviceGroupsAttr groups = collective.getGroupsAttr();
  int64_t payload = collective.getPayloadBytes();
  double duration = 0;
  for (int64_t g = 0; g < groups.getNumGroups(); ++g)
    duration =
        std::max(duration, model.collectiveTime(kind, payload,
                                                toVector(groups.getGroup(g))));
  return duration;
}

double sendDuration(dist::SendOp send, const cost::CostModel &model) {
  dist::DeviceIdRange from = devicesOf(send.getInput());
  dist::DeviceIdRange to = send.getTo().getIds();
  int64_t bytes = dist::detail::getTensorBytes(send.getInput().getType());
  double duration = 0;
  for (auto [source, target] : llvm::zip(from, to))
    duration = std::max(duration, model.sendTime(bytes, source, target));
  return duration;
}

cost::OpWork workOf(dist::CostOpInterface op, const cost::CostModel &model) {
  Operation *operation = op.getOperation();
  cost::OpWork work;
  work.kind = op.getCostKind();
  Type typed = operation->getNumResults() ? operation->getResult(0).getType()
               : operation->getNumOperands()
                   ? operation->getOperand(0).getType()
                   : Type();
  if (typed)
    work.dtype = dataTypeOf(typed);
  work.flops = op.getFlops();
  work.bytesRead = op.getBytesRead();
  work.bytesWritten = op.getBytesWritten();
  if (model.hasProfile()) {
    auto addShape = [&](Type type) {
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        work.shapes.push_back(toVector(tensor.getShape()));
    };
    for (Type type : operation->getOperandTypes())
      addShape(type);
    for (Type type : operation->getResultTypes())
      addShape(type);
  }
  return work;
}

/// The work of a fused kernel: its members' FLOPs and the bytes they move
/// outside the kernel (a member's result read by another member is neither
/// written nor read; the last member writes the kernel's result), with the
/// host's kind and element type (`hostWork`: the host's own work).
cost::OpWork fusedWorkOf(Operation *host, const cost::OpWork &hostWork,
                         ArrayRef<Operation *> members) {
  cost::OpWork work = hostWork;
  for (Operation *member : members) {
    if (member == host)
      continue;
    auto compute = cast<dist::CostOpInterface>(member);
    work.flops += compute.getFlops();
    work.bytesRead += compute.getBytesRead();
  }
  for (Operation *member : members) {
    for (Value operand : member->getOperands())
      if (llvm::is_contained(members, operand.getDefiningOp()))
        work.bytesRead -= dist::detail::getTensorBytes(operand.getType());
  }
  if (members.back() != host)
    work.bytesWritten =
        cast<dist::CostOpInterface>(members.back()).getBytesWritten();
  // A training dropout inside the kernel (bias-dropout-add) also writes its
  // 1-byte mask, which backward reads.
  for (Operation *member : members)
    if (auto dropout = dyn_cast<dist::DropoutTrainOp>(member))
      work.bytesWritten +=
          dist::detail::getTensorBytes(dropout.getKeep().getType());
  work.bytesRead = std::max<int64_t>(work.bytesRead, 0);
  return work;
}

class Lowerer {
public:
  Lowerer(const cost::CostModel &model, Program &program,
          const Framework &framework)
      : model(model), program(program), framework(framework),
        clusterDevices(model.getCluster().numDevices()) {}

  FailureOr<LoweringResult> run(func::FuncOp func);

private:
  FailureOr<DeviceSetId> setOf(Operation *op, dist::DeviceIdRange devices,
                               Attribute key);
  FailureOr<DeviceSetId> setOf(Operation *op, Value value) {
    return setOf(op, devicesOf(value), dist::getPlacement(value));
  }
  LogicalResult lowerOp(Operation *op);
  /// The task whose result holds `value`, if lowered.
  std::optional<TaskId> taskHolding(Value value) const;
  /// Gives the last result of `op` (lowered as `task`) a buffer of its own
  /// when `buffer` says so: a zero-time task after `task` that holds it, so
  /// that it lives to the end of its own last consumer.
  void holdApart(Operation *op, TaskId task, const BufferRole &buffer);
  LabelId labelOf(Operation *op) {
    auto [it, inserted] = labels.try_emplace(op->getName().getStringRef(), 0);
    if (inserted)
      it->second = program.addLabel(op->getName().getStringRef());
    return it->second;
  }

  /// Seconds of a compute op: its own work, its fused kernel's for a
  /// kernel's host, nothing for the kernel's other members.
  double computeDuration(Operation *op, const cost::OpWork &work) const {
    llvm::SmallVector<Operation *, 3> kernel = getFusedKernel(op, framework);
    if (kernel.empty())
      return model.computeTime(work);
    if (getKernelHost(kernel) != op)
      return 0;
    return model.computeTime(fusedWorkOf(op, work, kernel));
  }

  const cost::CostModel &model;
  Program &program;
  const Framework &framework;
  int64_t clusterDevices;
  LoweringResult result;
  llvm::DenseMap<Attribute, DeviceSetId> sets;
  DeviceSetId unplaced = kNoId;
  llvm::DenseMap<Attribute, GroupingId> groupings;
  llvm::DenseMap<Operation *, TaskId> taskOf;
  /// Results held apart from their op's buffer (BufferRole::apartBytes).
  llvm::DenseMap<Value, TaskId> apartTaskOf;
  llvm::StringMap<LabelId> labels;
  // Collective and send times depend only on their attributes and payload.
  std::map<std::tuple<const void *, const void *, int64_t>, double> commTimes;
  std::vector<TaskId> deps;
  llvm::DenseMap<Operation *, BufferRole> buffers;
};

FailureOr<DeviceSetId>
Lowerer::setOf(Operation *op, dist::DeviceIdRange devices, Attribute key) {
  if (!key && unplaced != kNoId)
    return unplaced;
  if (key)
    if (auto it = sets.find(key); it != sets.end())
      return it->second;
  // Checked run by run (the ids increase) before the simulator gets ids.
  for (const dist::DeviceRun &run : devices.getRuns()) {
    if (run.last() < clusterDevices)
      continue;
    int64_t device =
        run.start >= clusterDevices
            ? run.start
            : run.start +
                  llvm::divideCeil(clusterDevices - run.start, run.step) *
                      run.step;
    return op->emitError() << "uses device " << device << " but cluster '"
                           << model.getCluster().name << "' has "
                           << clusterDevices << " devices";
  }
  if (!devices.empty())
    result.numDevicesUsed = std::max(result.numDevicesUsed, devices.back() + 1);
  DeviceSetId id = program.addDeviceSet(toVector(devices));
  if (key)
    sets[key] = id;
  else
    unplaced = id;
  return id;
}

std::optional<TaskId> Lowerer::taskHolding(Value value) const {
  if (auto it = apartTaskOf.find(value); it != apartTaskOf.end())
    return it->second;
  if (Operation *producer = value.getDefiningOp())
    if (auto it = taskOf.find(producer); it != taskOf.end())
      return it->second;
  return std::nullopt;
}

void Lowerer::holdApart(Operation *op, TaskId task, const BufferRole &buffer) {
  if (buffer.inPlace || buffer.apartBytes == 0)
    return;
  TaskId holder = program.addCompute(
      labelOf(op), program.task(task).resultSet(),
      /*durationS=*/0, /*flops=*/0, buffer.apartBytes, {task});
  program.setMemoryKind(holder, buffer.apartKind);
  apartTaskOf[op->getResults().back()] = holder;
  result.opTasks.emplace_back(op, holder);
}

LogicalResult Lowerer::lowerOp(Operation *op) {
  deps.clear();
  for (Value operand : op->getOperands())
    if (std::optional<TaskId> producer = taskHolding(operand))
      deps.push_back(*producer);
  BufferRole buffer = buffers.lookup(op);
  int64_t resultBytes =
      buffer.inPlace ? 0
                     : dist::detail::sumTensorBytes(op->getResultTypes()) -
                           buffer.gradientBufferBytes - buffer.apartBytes;
  if (buffer.gradientBufferBytes > 0) {
    // Gradient buffers are held for the whole step.
    FailureOr<DeviceSetId> where = setOf(op, op->getResult(0));
    if (failed(where))
      return failure();
    program.addResident(*where, buffer.gradientBufferBytes,
                        MemoryKind::Gradients);
  }
  TaskId task;

  if (auto send = dyn_cast<dist::SendOp>(op)) {
    FailureOr<DeviceSetId> from = setOf(op, send.getInput());
    FailureOr<DeviceSetId> to = setOf(op, send.getTo().getIds(), send.getTo());
    if (failed(from) || failed(to))
      return failure();
    int64_t bytes = dist::detail::getTensorBytes(send.getInput().getType());
    auto key = std::make_tuple(
        dist::getPlacement(send.getInput()).getAsOpaquePointer(),
        send.getTo().getAsOpaquePointer(), bytes);
    auto [it, inserted] = commTimes.try_emplace(key, 0.0);
    if (inserted)
      it->second = sendDuration(send, model);
    task = program.addSend(labelOf(op), *from, *to, it->second, bytes, deps);
  } else if (auto collective = dyn_cast<dist::CollectiveOpInterface>(op)) {
    std::optional<cost::CollectiveKind> kind = collectiveKindOf(op);
    if (!kind)
      return op->emitError() << "unknown collective kind for the simulator";
    dist::DeviceGroupsAttr groups = collective.getGroupsAttr();
    dist::DevicesAttr all = groups.getUnion();
    FailureOr<DeviceSetId> devices = setOf(op, all.getIds(), all);
    FailureOr<DeviceSetId> resultSet = setOf(op, op->getResult(0));
    if (failed(devices) || failed(resultSet))
      return failure();
    auto [groupIt, newGroups] = groupings.try_emplace(groups, 0);
    if (newGroups) {
      std::vector<std::vector<int64_t>> list;
      for (int64_t g = 0; g < groups.getNumGroups(); ++g)
        list.push_back(toVector(groups.getGroup(g)));
      groupIt->second = program.addGrouping(*devices, list);
    }
    int64_t payload = collective.getPayloadBytes();
    auto key = std::make_tuple(groups.getAsOpaquePointer(),
                               op->getName().getAsOpaquePointer(), payload);
    auto [it, inserted] = commTimes.try_emplace(key, 0.0);
    if (inserted)
      it->second = collectiveDuration(collective, *kind, model);
    task = program.addCollective(labelOf(op), *devices, groupIt->second,
                                 it->second,
                                 cost::CostModel::bytesSentPerDevice(
                                     *kind, payload, groups.getGroupSize()),
                                 resultBytes, deps, *resultSet);
    program.setStream(task, getCollectiveStream(op, framework));
  } else if (auto compute = dyn_cast<dist::CostOpInterface>(op)) {
    Value placed = op->getNumResults()    ? op->getResult(0)
                   : op->getNumOperands() ? op->getOperand(0)
                                          : Value();
    FailureOr<DeviceSetId> devices =
        placed ? setOf(op, placed) : setOf(op, devicesOf(Value()), Attribute());
    if (failed(devices))
      return failure();
    cost::OpWork work = workOf(compute, model);
    task = program.addCompute(labelOf(op), *devices, computeDuration(op, work),
                              work.flops, resultBytes, deps);
  } else {
    return op->emitError() << "'" << op->getName()
                           << "' is not supported by the simulator";
  }
  program.setMemoryKind(task, buffer.kind);
  if (buffer.gradientBufferBytes > 0)
    result.gradientBuffers.emplace_back(task, buffer.gradientBufferBytes);
  taskOf[op] = task;
  result.opTasks.emplace_back(op, task);
  holdApart(op, task, buffer);
  return success();
}

/// Every byte count of the simulation (a device's live bytes, its peak, a
/// memory breakdown) is at most the sum of all tensors' bytes; refusing a
/// program whose sum passes int64 keeps them exact (a saturated tensor
/// size would wrap to a small peak that "fits").
static LogicalResult checkTotalTensorBytes(func::FuncOp func) {
  int64_t total = 0;
  auto add = [&](Type type) {
    int64_t bytes = dist::detail::getTensorBytes(type);
    return bytes != std::numeric_limits<int64_t>::max() &&
           !llvm::AddOverflow(total, bytes, total);
  };
  for (BlockArgument argument : func.getArguments())
    if (!add(argument.getType()))
      return func.emitError()
             << "argument #" << argument.getArgNumber()
             << " brings the program's tensors past 2^63 bytes: too large "
                "to simulate";
  WalkResult walk = func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (!add(type)) {
        op->emitError() << "this result brings the program's tensors past "
                           "2^63 bytes: too large to simulate";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<LoweringResult> Lowerer::run(func::FuncOp func) {
  if (func.isExternal())
    return func.emitError() << "cannot simulate a function without a body";
  if (failed(checkTotalTensorBytes(func)))
    return failure();
  for (BlockArgument argument : func.getArguments()) {
    FailureOr<DeviceSetId> set = setOf(func, argument);
    if (failed(set))
      return failure();
    program.addResident(*set, dist::detail::getTensorBytes(argument.getType()),
                        getArgumentMemoryKind(func, argument.getArgNumber()));
  }
  Block &body = func.getBody().front();
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "cannot simulate a function with control flow";
  buffers = classifyBuffers(func);
  auto lower = [&](Operation *op) -> LogicalResult {
    auto ret = dyn_cast<func::ReturnOp>(op);
    if (!ret)
      return lowerOp(op);
    for (Value value : ret.getOperands())
      if (std::optional<TaskId> producer = taskHolding(value))
        program.markLiveOut(*producer);
    return success();
  };
  auto positionOf = [&](Operation *op) -> size_t {
    auto it = taskOf.find(op);
    return it == taskOf.end() ? 0 : it->second;
  };
  if (failed(forEachInIssueOrder(body, framework, positionOf, lower)))
    return failure();
  return std::move(result);
}

} // namespace

FailureOr<LoweringResult> lowerToProgram(func::FuncOp func,
                                         const cost::CostModel &model,
                                         Program &program,
                                         const Framework &framework) {
  return Lowerer(model, program, framework).run(func);
}

StatusOr<cost::ProfileTable> loadProfile(const std::string &path,
                                         MLIRContext *context) {
  auto isKnownKind = [context](std::string_view kind) {
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(
            (dist::DistDialect::getDialectNamespace() + "." + kind).str(),
            context);
    // Collectives and sends are timed by the network model (estimateOpTime):
    // a profile entry for them would never apply.
    return name && name->hasInterface<dist::CostOpInterface>() &&
           !name->hasInterface<dist::CollectiveOpInterface>() &&
           name->getTypeID() != TypeID::get<dist::SendOp>();
  };
  return cost::ProfileTable::load(path, isKnownKind);
}

std::optional<double> estimateOpTime(Operation *op,
                                     const cost::CostModel &model) {
  if (auto send = dyn_cast<dist::SendOp>(op))
    return sendDuration(send, model);
  if (auto collective = dyn_cast<dist::CollectiveOpInterface>(op)) {
    if (std::optional<cost::CollectiveKind> kind = collectiveKindOf(op))
      return collectiveDuration(collective, *kind, model);
    return std::nullopt;
  }
  if (auto compute = dyn_cast<dist::CostOpInterface>(op))
    return model.computeTime(workOf(compute, model));
  return std::nullopt;
}

func::FuncOp findEntryFunction(ModuleOp module, llvm::StringRef name) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func)
      module.emitError() << "no function named '" << name << "'";
    return func;
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp only;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (only) {
      module.emitError() << "several functions: choose one with --entry";
      return nullptr;
    }
    only = func;
  }
  if (!only)
    module.emitError() << "no function to simulate";
  return only;
}

} // namespace sim
} // namespace distir
