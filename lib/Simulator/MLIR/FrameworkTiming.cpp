//===- FrameworkTiming.cpp - Issue order, streams and fused kernels -------===//

#include "FrameworkTiming.h"

#include "distir/Dialect/Dist/IR/Dist.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;

namespace distir {
namespace sim {

namespace {

/// Whether an op belongs to the optimizer phase, comparing interned
/// attributes (the lowering asks for every op).
class OptimizerPhaseTest {
public:
  explicit OptimizerPhaseTest(MLIRContext *context)
      : name(StringAttr::get(context, dist::DistDialect::kPhaseAttrName)),
        optimizer(dist::getPhaseAttr(context, dist::Phase::Optimizer)) {}
  bool operator()(Operation *op) const {
    return op->getDiscardableAttr(name) == optimizer;
  }

private:
  StringAttr name;
  StringAttr optimizer;
};

bool isReduction(Operation *op) {
  return isa<dist::CollectiveOpInterface>(op) && !isa<dist::SendOp>(op);
}

/// Appends the run of optimizer-phase ops: its gradient reductions first, by
/// the position of their last operand's producer, then the rest in program
/// order.
void appendOptimizerRun(llvm::ArrayRef<Operation *> run,
                        llvm::function_ref<size_t(Operation *)> positionOf,
                        llvm::SmallVector<Operation *> &order) {
  llvm::SmallPtrSet<Operation *, 32> inRun(run.begin(), run.end());
  llvm::SmallVector<std::pair<size_t, Operation *>> reductions;
  llvm::SmallVector<Operation *> rest;
  for (Operation *op : run) {
    size_t readyAfter = 0;
    bool readsBackward = isReduction(op);
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && inRun.contains(producer))
        readsBackward = false;
      else if (producer)
        readyAfter = std::max(readyAfter, positionOf(producer));
    }
    if (readsBackward)
      reductions.emplace_back(readyAfter, op);
    else
      rest.push_back(op);
  }
  std::stable_sort(
      reductions.begin(), reductions.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &[readyAfter, op] : reductions)
    order.push_back(op);
  order.append(rest.begin(), rest.end());
}

/// The rank-1 function argument `add` adds (a bias), or null.
Value getBiasOperand(dist::AddOp add) {
  for (Value operand : add->getOperands()) {
    auto argument = dyn_cast<BlockArgument>(operand);
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (argument && type && type.getRank() == 1)
      return operand;
  }
  return nullptr;
}

/// The single user of `value`, or null.
Operation *getSingleUser(Value value) {
  Operation *only = nullptr;
  for (Operation *user : value.getUsers()) {
    if (only && only != user)
      return nullptr;
    only = user;
  }
  return only;
}

/// Whether `op` is a dropout, the inference identity or the training form
/// (whose mask, its second result, backward reads).
bool isDropout(Operation *op) {
  return isa_and_nonnull<dist::DropoutOp, dist::DropoutTrainOp>(op);
}

/// The residual addition a bias addition feeds, through an optional dropout
/// (Megatron's bias_dropout_add), or null.
Operation *getResidualAdd(dist::AddOp biasAdd,
                          llvm::SmallVector<Operation *, 3> &kernel) {
  Operation *user = getSingleUser(biasAdd.getResult());
  if (isDropout(user)) {
    kernel.push_back(user);
    user = getSingleUser(user->getResult(0));
  }
  auto residual = dyn_cast_or_null<dist::AddOp>(user);
  if (!residual || getBiasOperand(residual))
    return nullptr;
  return residual;
}

/// The kernel `biasAdd` belongs to, host last (bias-GeLU, bias-dropout-add)
/// or first (GEMM with bias); empty when it is not fused.
llvm::SmallVector<Operation *, 3> findKernel(dist::AddOp biasAdd,
                                             const Framework &framework) {
  llvm::SmallVector<Operation *, 3> kernel = {biasAdd};
  if (framework.fuseBiasGelu)
    for (Operation *user : biasAdd->getUsers())
      if (isa<dist::GeluOp>(user)) {
        kernel.push_back(user);
        return kernel;
      }
  if (framework.fuseBiasDropoutAdd)
    if (Operation *residual = getResidualAdd(biasAdd, kernel)) {
      kernel.push_back(residual);
      return kernel;
    }
  kernel.resize(1);
  if (framework.fuseGemmBias) {
    Value input = biasAdd.getLhs() == getBiasOperand(biasAdd)
                      ? biasAdd.getRhs()
                      : biasAdd.getLhs();
    auto gemm = input.getDefiningOp<dist::MatmulOp>();
    if (gemm && getSingleUser(gemm.getResult()) == biasAdd)
      return {gemm, biasAdd};
  }
  return {};
}

} // namespace

LogicalResult
forEachInIssueOrder(Block &body, const Framework &framework,
                    llvm::function_ref<size_t(Operation *)> positionOf,
                    llvm::function_ref<LogicalResult(Operation *)> callback) {
  if (framework.gradientReduce != GradientReduce::Overlapped) {
    for (Operation &op : body)
      if (failed(callback(&op)))
        return failure();
    return success();
  }
  OptimizerPhaseTest isOptimizerPhase(body.getParentOp()->getContext());
  llvm::SmallVector<Operation *> run, order;
  auto flushRun = [&]() {
    order.clear();
    if (!run.empty())
      appendOptimizerRun(run, positionOf, order);
    run.clear();
    for (Operation *op : order)
      if (failed(callback(op)))
        return failure();
    return success();
  };
  for (Operation &op : body) {
    if (isOptimizerPhase(&op)) {
      run.push_back(&op);
      continue;
    }
    if (failed(flushRun()) || failed(callback(&op)))
      return failure();
  }
  return flushRun();
}

/// ZeRO's collectives outside the optimizer phase: stage 2's per-microbatch
/// gradient reduce-scatters (backward, of a flattened gradient: sequence
/// parallelism's reduce-scatters split activations of rank 3) and stage 3's
/// parameter all-gathers, which read a parameter shard argument.
static bool isShardedStateCollective(Operation *op) {
  if (auto scatter = dyn_cast<dist::ReduceScatterOp>(op))
    return dist::getPhase(op) == dist::Phase::Backward &&
           cast<RankedTensorType>(scatter.getType()).getRank() == 1;
  auto gather = dyn_cast<dist::AllGatherOp>(op);
  auto arg =
      gather ? dyn_cast<BlockArgument>(gather.getInput()) : BlockArgument();
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func &&
         dist::getArgRole(func, arg.getArgNumber()) == dist::Role::Parameter;
}

Stream getCollectiveStream(Operation *op, const Framework &framework) {
  // Overlapped like the gradient all-reduces (Megatron-LM's
  // --overlap-grad-reduce and --overlap-param-gather).
  if (dist::getPhase(op) == dist::Phase::Optimizer ||
      isShardedStateCollective(op))
    return framework.gradientReduce == GradientReduce::Overlapped
               ? Stream::Gradient
               : Stream::Compute;
  return framework.asyncTensorParallel ? Stream::Collective : Stream::Compute;
}

llvm::SmallVector<Operation *, 3> getFusedKernel(Operation *op,
                                                 const Framework &framework) {
  if (!framework.fusesAnything())
    return {};
  // The bias addition the kernel of `op` would be built around.
  dist::AddOp biasAdd;
  if (auto add = dyn_cast<dist::AddOp>(op)) {
    if (getBiasOperand(add)) {
      biasAdd = add;
    } else {
      // A residual addition: its bias addition is an operand, possibly
      // through a dropout.
      for (Value operand : add->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (isDropout(producer))
          producer = producer->getOperand(0).getDefiningOp();
        auto candidate = dyn_cast_or_null<dist::AddOp>(producer);
        if (candidate && getBiasOperand(candidate)) {
          llvm::SmallVector<Operation *, 3> kernel =
              findKernel(candidate, framework);
          if (!kernel.empty() && kernel.back() == op)
            return kernel;
        }
      }
      return {};
    }
  } else if (isa<dist::GeluOp>(op) || isDropout(op)) {
    biasAdd = op->getOperand(0).getDefiningOp<dist::AddOp>();
  } else if (isa<dist::MatmulOp>(op)) {
    biasAdd = dyn_cast_or_null<dist::AddOp>(getSingleUser(op->getResult(0)));
  }
  if (!biasAdd || !getBiasOperand(biasAdd))
    return {};
  llvm::SmallVector<Operation *, 3> kernel = findKernel(biasAdd, framework);
  if (!llvm::is_contained(kernel, op))
    return {};
  return kernel;
}

Operation *getKernelHost(llvm::ArrayRef<Operation *> kernel) {
  return isa<dist::MatmulOp>(kernel.front()) ? kernel.front() : kernel.back();
}

} // namespace sim
} // namespace distir
