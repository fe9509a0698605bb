//===- Executor.cpp - Reference interpreter of dist programs --------------===//

#include "distir/Executor/Executor.h"
#include "distir/Executor/ExecutionInterfaceImpl.h"

#include "distir/Dialect/Dist/IR/DistOps.h"
#include "distir/Kernels/Kernels.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <chrono>
#include <unistd.h>

using namespace mlir;
using namespace mlir::dist;
namespace k = distir::kernels;

namespace distir {

namespace {

/// Calls are interpreted recursively; deeper than this is a runaway program.
constexpr int kMaxCallDepth = 64;

using TensorRef = std::shared_ptr<const HostTensor>;

/// The bytes of `count` tensors of `type`, or nullopt past int64. Types the
/// executor cannot hold count 0: running them fails with a better message.
std::optional<int64_t> getTensorBytes(Type type, int64_t count) {
  ElementType elementType;
  std::vector<int64_t> shape;
  if (!getHostTensorType(type, elementType, shape).ok())
    return 0;
  return getHostBytes(elementType, shape, count);
}

std::vector<int64_t> getDeviceIds(Type type) {
  if (DevicesAttr devices = getPlacement(type))
    return std::vector<int64_t>(devices.getIds().begin(),
                                devices.getIds().end());
  return {};
}

/// An empty value shaped for `type`'s placement (locals still null).
PlacedValue makeEmptyValue(Type type) {
  PlacedValue value;
  value.devices = getDeviceIds(type);
  value.locals.resize(std::max<size_t>(value.devices.size(), 1));
  return value;
}

k::ReductionKind toKernel(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::sum:
    return k::ReductionKind::Sum;
  case ReductionKind::prod:
    return k::ReductionKind::Prod;
  case ReductionKind::min:
    return k::ReductionKind::Min;
  case ReductionKind::max:
    return k::ReductionKind::Max;
  case ReductionKind::avg:
    return k::ReductionKind::Avg;
  }
  return k::ReductionKind::Sum;
}

LogicalResult report(Operation *op, const Status &status) {
  if (status.ok())
    return success();
  return op->emitOpError() << status.message();
}

/// Checks that every local of `value` has the local shape and element type
/// of `type` (what the verifier promised and the kernels must deliver).
LogicalResult checkAgainstType(Operation *op, const PlacedValue &value,
                               Type type, StringRef what) {
  ElementType elementType;
  std::vector<int64_t> shape;
  if (Status status = getHostTensorType(type, elementType, shape); !status.ok())
    return op->emitOpError() << what << ": " << status.message();
  for (size_t i = 0; i < value.size(); ++i) {
    // Devices of other processes hold nothing here (DeviceTransport).
    if (!value.locals[i])
      continue;
    const HostTensor &local = *value.locals[i];
    if (local.getElementType() != elementType || local.getShape() != shape)
      return op->emitOpError()
             << what << " is " << formatShape(local.getShape()) << " "
             << getElementTypeName(local.getElementType())
             << " at run time but its type says " << formatShape(shape) << " "
             << getElementTypeName(elementType);
  }
  return success();
}

/// The members' local tensors of one group, in group order.
k::TensorList gatherGroup(const PlacedValue &value, ArrayRef<int64_t> group) {
  k::TensorList members;
  for (int64_t device : group)
    members.push_back(value.locals[value.indexOf(device)].get());
  return members;
}

TensorRef share(HostTensor &&tensor) {
  return std::make_shared<const HostTensor>(std::move(tensor));
}

/// Splits `tensor` into `parts` equal blocks along `dim`.
Status splitIntoBlocks(const HostTensor &tensor, int64_t dim, int64_t parts,
                       std::vector<TensorRef> &blocks) {
  std::vector<HostTensor> pieces(static_cast<size_t>(parts));
  k::ResultList targets;
  for (HostTensor &piece : pieces)
    targets.push_back(&piece);
  DISTIR_RETURN_IF_ERROR(k::splitEvenly(tensor, dim, parts, targets));
  blocks.clear();
  for (HostTensor &piece : pieces)
    blocks.push_back(share(std::move(piece)));
  return Status::success();
}

} // namespace

std::optional<int64_t>
getHostBytes(ElementType type, llvm::ArrayRef<int64_t> shape, int64_t count) {
  std::optional<int64_t> bytes = getElementByteWidth(type);
  for (int64_t dim : shape)
    bytes = llvm::checkedMul(bytes.value_or(0), dim);
  return bytes ? llvm::checkedMul(*bytes, count) : std::nullopt;
}

int64_t getHostMemoryLimit() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return int64_t(8) << 30;
  return static_cast<int64_t>(pages) / 4 * 3 * static_cast<int64_t>(pageSize);
}

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

int64_t PlacedValue::indexOf(int64_t device) const {
  auto it = std::lower_bound(devices.begin(), devices.end(), device);
  if (it == devices.end() || *it != device)
    return -1;
  return it - devices.begin();
}

int64_t PlacedValue::getByteSize() const {
  int64_t bytes = 0;
  for (const TensorRef &local : locals)
    if (local)
      bytes += local->getByteSize();
  return bytes;
}

std::optional<ElementType> getHostElementType(Type type) {
  if (type.isF64())
    return ElementType::F64;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isSignlessInteger(64))
    return ElementType::I64;
  if (type.isSignlessInteger(32))
    return ElementType::I32;
  if (type.isSignlessInteger(1))
    return ElementType::I1;
  return std::nullopt;
}

Status getHostTensorType(Type type, ElementType &elementType,
                         std::vector<int64_t> &shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return Status::error("type " + text + " is not a ranked tensor");
  if (!tensor.hasStaticShape())
    return Status::error(
        "type " + text +
        " has a dynamic shape (run dist-opt --dist-infer-shapes first)");
  std::optional<ElementType> host = getHostElementType(tensor.getElementType());
  if (!host)
    return Status::error(
        "element type of " + text +
        " is not supported (f64, f32, f16, bf16, i64, i32, i1)");
  elementType = *host;
  shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return checkShape(shape, elementType);
}

Status getConstantTensor(Attribute value, HostTensor &tensor) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return Status::error("only dense constants can be executed");
  ElementType elementType;
  std::vector<int64_t> shape;
  auto type = cast<RankedTensorType>(dense.getType());
  DISTIR_RETURN_IF_ERROR(getHostTensorType(
      RankedTensorType::get(type.getShape(), type.getElementType()),
      elementType, shape));
  HostTensor result(elementType, shape);
  const int64_t count = result.getNumElements();
  auto store = [&](int64_t i, auto element) {
    if constexpr (std::is_same_v<decltype(element), APFloat>) {
      result.setFromDouble(i, element.convertToDouble());
    } else if (elementType == ElementType::I64) {
      result.getData<int64_t>()[i] = element.getSExtValue();
    } else if (elementType == ElementType::I32) {
      result.getData<int32_t>()[i] =
          static_cast<int32_t>(element.getSExtValue());
    } else {
      result.getData<uint8_t>()[i] = !element.isZero();
    }
  };
  if (isFloatType(elementType)) {
    if (dense.isSplat()) {
      result.fill(dense.getSplatValue<APFloat>().convertToDouble());
    } else {
      int64_t i = 0;
      for (APFloat element : dense.getValues<APFloat>())
        store(i++, element);
    }
  } else {
    int64_t i = 0;
    if (dense.isSplat()) {
      APInt splat = dense.getSplatValue<APInt>();
      for (; i < count; ++i)
        store(i, splat);
    } else {
      for (APInt element : dense.getValues<APInt>())
        store(i++, element);
    }
  }
  tensor = std::move(result);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(ModuleOp module, InterpreterOptions options)
    : module(module),
      maxLiveBytes(options.maxLiveBytes > 0 ? options.maxLiveBytes
                                            : getHostMemoryLimit()),
      transport(options.transport), onOp(options.onOp) {}

LogicalResult Interpreter::reportMemoryLimit(Operation *op) const {
  return op->emitError() << "the program needs more than " << maxLiveBytes
                         << " bytes of live values on the host";
}

LogicalResult Interpreter::define(Operation *op, Value value,
                                  PlacedValue placed, Environment &values) {
  int64_t bytes = placed.getByteSize();
  if (liveBytes + bytes > maxLiveBytes)
    return reportMemoryLimit(op);
  liveBytes += bytes;
  peakLiveBytes = std::max(peakLiveBytes, liveBytes);
  values[value] = std::move(placed);
  return success();
}

LogicalResult Interpreter::run(func::FuncOp func,
                               std::vector<PlacedValue> arguments,
                               std::vector<PlacedValue> &results) {
  if (func.isExternal())
    return func.emitOpError() << "has no body to execute";
  if (arguments.size() != func.getNumArguments())
    return func.emitOpError() << "expects " << func.getNumArguments()
                              << " arguments, got " << arguments.size();
  if (++callDepth > kMaxCallDepth) {
    --callDepth;
    return func.emitOpError() << "calls nest deeper than " << kMaxCallDepth;
  }
  llvm::scope_exit leave([&] { --callDepth; });

  Block &body = func.getBody().front();
  Environment values;
  for (auto [index, argument] : llvm::enumerate(body.getArguments())) {
    PlacedValue &value = arguments[index];
    if (value.devices != getDeviceIds(argument.getType()) ||
        value.locals.size() != std::max<size_t>(value.devices.size(), 1))
      return func.emitOpError()
             << "argument " << index
             << " is not laid out on the devices of its type";
    std::string what = "argument " + std::to_string(index);
    if (failed(checkAgainstType(func, value, argument.getType(), what)) ||
        failed(define(func, argument, std::move(value), values)))
      return failure();
  }

  // Free every value after its last use to bound memory.
  llvm::DenseMap<Value, Operation *> lastUse;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastUse[operand] = &op;

  std::vector<PlacedValue> returned;
  auto now = [] {
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  for (Operation &op : body) {
    double start = onOp ? now() : 0;
    if (failed(runOp(&op, values, returned)))
      return failure();
    auto release = [&](Value value) {
      auto it = values.find(value);
      if (it == values.end())
        return;
      liveBytes -= it->second.getByteSize();
      values.erase(it);
    };
    for (Value operand : op.getOperands())
      if (lastUse.lookup(operand) == &op)
        release(operand);
    for (Value result : op.getResults())
      if (!lastUse.count(result))
        release(result);
    // A call's ops report themselves.
    if (onOp && !isa<func::CallOp, func::ReturnOp>(op))
      onOp(&op, start, now(), liveBytes);
  }
  for (Value argument : body.getArguments()) {
    auto it = values.find(argument);
    if (it != values.end()) {
      liveBytes -= it->second.getByteSize();
      values.erase(it);
    }
  }
  results = std::move(returned);
  return success();
}

LogicalResult Interpreter::runOp(Operation *op, Environment &values,
                                 std::vector<PlacedValue> &returned) {
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (Value operand : ret.getOperands())
      returned.push_back(values.lookup(operand));
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr());
    if (!callee)
      return op->emitOpError()
             << "calls unknown function " << call.getCalleeAttr();
    if (callee.isExternal())
      return op->emitOpError() << "calls " << call.getCalleeAttr()
                               << ", which has no body to execute";
    std::vector<PlacedValue> arguments, results;
    for (Value operand : call.getOperands())
      arguments.push_back(values.lookup(operand));
    // An error inside the callee was reported at the op that failed.
    if (failed(run(callee, std::move(arguments), results)))
      return failure();
    for (auto [result, value] : llvm::zip(call.getResults(), results))
      if (failed(define(op, result, std::move(value), values)))
        return failure();
    return success();
  }
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    // Checked before the elements are materialized: a splat is small in the
    // program and may be huge on the host.
    std::optional<int64_t> bytes = getTensorBytes(constant.getType(), 1);
    if (!bytes || liveBytes + *bytes > maxLiveBytes)
      return reportMemoryLimit(op);
    HostTensor tensor;
    if (failed(report(op, getConstantTensor(constant.getValue(), tensor))))
      return failure();
    PlacedValue value = makeEmptyValue(constant.getType());
    TensorRef shared = share(std::move(tensor));
    for (size_t i = 0; i < value.locals.size(); ++i)
      if (isLocal(value, i))
        value.locals[i] = shared;
    if (failed(checkAgainstType(op, value, constant.getType(), "result")))
      return failure();
    return define(op, constant.getResult(), std::move(value), values);
  }
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
    return define(op, constraint.getResult(),
                  values.lookup(constraint.getInput()), values);
  if (isa<SendOp, CollectiveOpInterface>(op))
    return runCommunication(op, values);
  if (isa<GroupRankOp>(op))
    return runGroupRank(op, values);
  // Before the isa: with assertions, MLIR aborts on a cast to an interface
  // the dialect promised but nobody registered.
  if (isMissingExecutionModel(op))
    return op->emitOpError() << getMissingExecutionModelMessage();
  if (isa<ExecutableOpInterface>(op))
    return runCompute(op, values);
  return op->emitOpError() << "is not supported by the reference executor";
}

LogicalResult Interpreter::runCompute(Operation *op, Environment &values) {
  auto compute = cast<ExecutableOpInterface>(op);
  if (op->getNumResults() == 0)
    return success();
  const std::vector<int64_t> devices = getDeviceIds(op->getResult(0).getType());
  const size_t numDevices = std::max<size_t>(devices.size(), 1);
  int64_t numLocalDevices = 1;
  if (!devices.empty())
    numLocalDevices = llvm::count_if(
        devices, [&](int64_t device) { return runsHere(device); });

  struct ResultType {
    ElementType elementType;
    std::vector<int64_t> shape;
  };
  std::vector<ResultType> resultTypes(op->getNumResults());
  std::optional<int64_t> bytes = 0;
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    ResultType &type = resultTypes[index];
    if (Status status =
            getHostTensorType(result.getType(), type.elementType, type.shape);
        !status.ok())
      return op->emitOpError()
             << "result " << index << ": " << status.message();
    std::optional<int64_t> resultBytes =
        getTensorBytes(result.getType(), numLocalDevices);
    bytes = resultBytes ? llvm::checkedAdd(bytes.value_or(0), *resultBytes)
                        : std::nullopt;
  }
  if (!bytes || liveBytes + *bytes > maxLiveBytes)
    return reportMemoryLimit(op);

  std::vector<const PlacedValue *> operands;
  for (Value operand : op->getOperands())
    operands.push_back(&values[operand]);
  std::vector<PlacedValue> results(op->getNumResults());
  for (PlacedValue &result : results) {
    result.devices = devices;
    result.locals.reserve(numDevices);
  }
  std::vector<const HostTensor *> operandTensors(operands.size());
  std::vector<HostTensor> resultTensors(op->getNumResults());
  std::vector<HostTensor *> resultPointers;
  for (HostTensor &tensor : resultTensors)
    resultPointers.push_back(&tensor);
  for (size_t device = 0; device < numDevices; ++device) {
    if (!devices.empty() && !runsHere(devices[device])) {
      for (PlacedValue &result : results)
        result.locals.emplace_back();
      continue;
    }
    for (size_t i = 0; i < operands.size(); ++i)
      operandTensors[i] = operands[i]->locals[device].get();
    for (size_t i = 0; i < resultTensors.size(); ++i)
      // Kernels replace the results; only their type and shape are read.
      resultTensors[i] = HostTensor::uninitialized(resultTypes[i].elementType,
                                                   resultTypes[i].shape);
    if (devices.empty()) {
      if (failed(compute.execute(operandTensors, resultPointers)))
        return failure();
    } else {
      // Re-emit a kernel's error with the device it failed on, still as one
      // diagnostic.
      std::string message;
      LogicalResult executed = failure();
      {
        ScopedDiagnosticHandler capture(op->getContext(),
                                        [&](Diagnostic &diagnostic) {
                                          message = diagnostic.str();
                                          return success();
                                        });
        executed = compute.execute(operandTensors, resultPointers);
      }
      if (failed(executed))
        return op->emitError()
               << message << " (on device " << devices[device] << ")";
    }
    for (size_t i = 0; i < resultTensors.size(); ++i)
      results[i].locals.push_back(share(std::move(resultTensors[i])));
  }
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    std::string what = "result " + std::to_string(index);
    if (failed(checkAgainstType(op, results[index], result.getType(), what)) ||
        failed(define(op, result, std::move(results[index]), values)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runGroupRank(Operation *operation,
                                        Environment &values) {
  auto op = cast<GroupRankOp>(operation);
  PlacedValue result = makeEmptyValue(op.getType());
  DeviceGroupsAttr groups = op.getGroups();
  for (int64_t g = 0; g < groups.getNumGroups(); ++g)
    for (auto [rank, device] : llvm::enumerate(groups.getGroup(g))) {
      HostTensor tensor(ElementType::I64, {});
      tensor.getData<int64_t>()[0] = static_cast<int64_t>(rank);
      result.locals[result.indexOf(device)] = share(std::move(tensor));
    }
  if (failed(checkAgainstType(op, result, op.getType(), "result")))
    return failure();
  return define(op, op.getResult(), std::move(result), values);
}

//===----------------------------------------------------------------------===//
// Communication: one function per collective, each filling `result`'s locals
//===----------------------------------------------------------------------===//

namespace {

/// A collective being run: its operand, the result under construction, and
/// where each device's local goes.
struct CollectiveRun {
  Operation *op;
  const PlacedValue &input;
  PlacedValue &result;

  void setLocal(int64_t device, TensorRef tensor) {
    result.locals[result.indexOf(device)] = std::move(tensor);
  }
  /// Stores `tensor` as the local of every member of `group`.
  void setGroup(ArrayRef<int64_t> group, const TensorRef &tensor) {
    for (int64_t device : group)
      setLocal(device, tensor);
  }
  const HostTensor &localOf(int64_t device) const {
    return *input.locals[input.indexOf(device)];
  }
};

/// The members' locals of `group` reduced with `kind` (all_reduce, reduce,
/// reduce_scatter).
FailureOr<HostTensor> reduceGroup(CollectiveRun &run, ArrayRef<int64_t> group,
                                  ReductionKind kind) {
  HostTensor sum;
  if (failed(report(run.op, k::reduceTensors(gatherGroup(run.input, group),
                                             toKernel(kind), sum))))
    return failure();
  return sum;
}

/// The members' locals of `group` concatenated along `dim` (all_gather,
/// gather).
FailureOr<HostTensor> concatGroup(CollectiveRun &run, ArrayRef<int64_t> group,
                                  uint64_t dim) {
  HostTensor gathered;
  if (failed(report(run.op, k::concat(gatherGroup(run.input, group),
                                      static_cast<int64_t>(dim), gathered))))
    return failure();
  return gathered;
}

LogicalResult runAllReduce(AllReduceOp allReduce, CollectiveRun &run,
                           ArrayRef<int64_t> group) {
  FailureOr<HostTensor> sum = reduceGroup(run, group, allReduce.getReduction());
  if (failed(sum))
    return failure();
  run.setGroup(group, share(std::move(*sum)));
  return success();
}

LogicalResult runAllGather(AllGatherOp allGather, CollectiveRun &run,
                           ArrayRef<int64_t> group) {
  FailureOr<HostTensor> gathered = concatGroup(run, group, allGather.getDim());
  if (failed(gathered))
    return failure();
  run.setGroup(group, share(std::move(*gathered)));
  return success();
}

LogicalResult runReduceScatter(ReduceScatterOp reduceScatter,
                               CollectiveRun &run, ArrayRef<int64_t> group) {
  FailureOr<HostTensor> sum =
      reduceGroup(run, group, reduceScatter.getReduction());
  std::vector<TensorRef> blocks;
  if (failed(sum) ||
      failed(report(
          run.op,
          splitIntoBlocks(*sum, static_cast<int64_t>(reduceScatter.getDim()),
                          static_cast<int64_t>(group.size()), blocks))))
    return failure();
  for (auto [rank, device] : llvm::enumerate(group))
    run.setLocal(device, blocks[rank]);
  return success();
}

LogicalResult runAllToAll(AllToAllOp allToAll, CollectiveRun &run,
                          ArrayRef<int64_t> group) {
  const int64_t splitDim = static_cast<int64_t>(allToAll.getSplitDim());
  const int64_t concatDim = static_cast<int64_t>(allToAll.getConcatDim());
  const int64_t n = static_cast<int64_t>(group.size());
  // blocks[i][j]: member i's j-th block, sent to member j.
  std::vector<std::vector<TensorRef>> blocks(n);
  k::TensorList members = gatherGroup(run.input, group);
  for (int64_t i = 0; i < n; ++i)
    if (failed(report(run.op,
                      splitIntoBlocks(*members[i], splitDim, n, blocks[i]))))
      return failure();
  for (int64_t j = 0; j < n; ++j) {
    k::TensorList received;
    for (int64_t i = 0; i < n; ++i)
      received.push_back(blocks[i][j].get());
    HostTensor joined;
    if (failed(report(run.op, k::concat(received, concatDim, joined))))
      return failure();
    run.setLocal(group[j], share(std::move(joined)));
  }
  return success();
}

LogicalResult runBroadcast(BroadcastOp broadcast, CollectiveRun &run,
                           ArrayRef<int64_t> group) {
  const int64_t root = static_cast<int64_t>(broadcast.getRoot());
  run.setGroup(group, run.input.locals[run.input.indexOf(group[root])]);
  return success();
}

LogicalResult runScatter(ScatterOp scatter, CollectiveRun &run,
                         ArrayRef<int64_t> group) {
  const int64_t root = static_cast<int64_t>(scatter.getRoot());
  std::vector<TensorRef> blocks;
  if (failed(report(
          run.op, splitIntoBlocks(run.localOf(group[root]),
                                  static_cast<int64_t>(scatter.getDim()),
                                  static_cast<int64_t>(group.size()), blocks))))
    return failure();
  for (auto [rank, device] : llvm::enumerate(group))
    run.setLocal(device, blocks[rank]);
  return success();
}

LogicalResult runGather(GatherOp gather, CollectiveRun &run,
                        ArrayRef<int64_t> group) {
  FailureOr<HostTensor> gathered = concatGroup(run, group, gather.getDim());
  if (failed(gathered))
    return failure();
  run.setLocal(group[gather.getRoot()], share(std::move(*gathered)));
  return success();
}

LogicalResult runReduce(ReduceOp reduce, CollectiveRun &run,
                        ArrayRef<int64_t> group) {
  FailureOr<HostTensor> sum = reduceGroup(run, group, reduce.getReduction());
  if (failed(sum))
    return failure();
  run.setLocal(group[reduce.getRoot()], share(std::move(*sum)));
  return success();
}

/// One group of a collective, as the sequential semantics say.
LogicalResult runCollectiveGroup(CollectiveRun &run, ArrayRef<int64_t> group) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(run.op)
      .Case([&](AllReduceOp op) { return runAllReduce(op, run, group); })
      .Case([&](AllGatherOp op) { return runAllGather(op, run, group); })
      .Case(
          [&](ReduceScatterOp op) { return runReduceScatter(op, run, group); })
      .Case([&](AllToAllOp op) { return runAllToAll(op, run, group); })
      .Case([&](BroadcastOp op) { return runBroadcast(op, run, group); })
      .Case([&](ScatterOp op) { return runScatter(op, run, group); })
      .Case([&](GatherOp op) { return runGather(op, run, group); })
      .Case([&](ReduceOp op) { return runReduce(op, run, group); })
      .Default([&](Operation *op) {
        return op->emitOpError()
               << "is not supported by the reference executor";
      });
}

} // namespace

LogicalResult
runCollectiveGroups(Operation *op, const PlacedValue &input,
                    PlacedValue &result,
                    function_ref<bool(ArrayRef<int64_t>)> select) {
  CollectiveRun run{op, input, result};
  DeviceGroupsAttr groups = cast<CollectiveOpInterface>(op).getGroupsAttr();
  for (int64_t g = 0; g < groups.getNumGroups(); ++g) {
    // Device by device from here: every member holds a tensor.
    SmallVector<int64_t> group = groups.getGroup(g).toVector();
    if (select(group) && failed(runCollectiveGroup(run, group)))
      return failure();
  }
  return success();
}

DeviceTransport::~DeviceTransport() = default;

LogicalResult Interpreter::runCommunication(Operation *op,
                                            Environment &values) {
  Value resultValue = op->getResult(0);
  const PlacedValue &input = values[op->getOperand(0)];
  PlacedValue result = makeEmptyValue(resultValue.getType());
  LogicalResult status = success();
  if (transport)
    status = transport->communicate(op, input, result);
  else if (isa<SendOp>(op))
    // Position by position between sorted device sets.
    result.locals = input.locals;
  else if (isa<CollectiveOpInterface>(op))
    status = runCollectiveGroups(op, input, result,
                                 [](ArrayRef<int64_t>) { return true; });
  else
    status = op->emitOpError() << "is not supported by the reference executor";
  if (failed(status))
    return failure();
  for (auto [index, local] : llvm::enumerate(result.locals))
    if (!local && isLocal(result, index))
      return op->emitOpError() << "left a device of its result without a value";
  if (failed(checkAgainstType(op, result, resultValue.getType(), "result")))
    return failure();
  return define(op, resultValue, std::move(result), values);
}

} // namespace distir
