//===- MemoryKinds.cpp - What each buffer of a training step holds --------===//

#include "distir/Simulator/MemoryKinds.h"

#include "distir/Dialect/Dist/IR/Dist.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace distir {
namespace sim {

MemoryKind getArgumentMemoryKind(func::FuncOp func, unsigned index) {
  std::optional<dist::Role> role = dist::getArgRole(func, index);
  if (role == dist::Role::Parameter)
    return MemoryKind::Weights;
  if (role == dist::Role::OptimizerState)
    return MemoryKind::OptimizerState;
  return MemoryKind::Other;
}

namespace {

bool isCommunication(Operation *op) {
  return isa<dist::SendOp, dist::CollectiveOpInterface>(op);
}

bool hasUserInPhase(Operation *op, dist::Phase phase) {
  return llvm::any_of(op->getUsers(), [&](Operation *user) {
    return dist::getPhase(user) == phase;
  });
}

/// Forward and backward values (`results` of `op`): stashed when backward
/// reads a forward value, else communication buffers or activations in
/// flight.
MemoryKind classifyActivation(Operation *op, ValueRange results,
                              std::optional<dist::Phase> phase) {
  bool readByBackward = llvm::any_of(results, [](Value result) {
    return llvm::any_of(result.getUsers(), [](Operation *user) {
      return dist::getPhase(user) == dist::Phase::Backward;
    });
  });
  if (phase != dist::Phase::Backward && readByBackward)
    return MemoryKind::ActivationsStashed;
  if (isCommunication(op))
    return MemoryKind::Communication;
  return MemoryKind::ActivationsInFlight;
}

} // namespace

llvm::DenseMap<Operation *, BufferRole> classifyBuffers(func::FuncOp func) {
  llvm::DenseMap<Operation *, BufferRole> roles;
  Block &body = func.getBody().front();
  // Returned values: updated state is written in place, returned gradients
  // (optimizer=none) are the gradient buffers.
  llvm::DenseSet<Value> gradients;
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    Operation *producer = value.getDefiningOp();
    if (!producer)
      continue;
    std::optional<dist::Role> role = dist::getResultRole(func, index);
    if (role == dist::Role::UpdatedParameter)
      roles[producer] = {MemoryKind::Weights, /*inPlace=*/true};
    else if (role == dist::Role::UpdatedOptimizerState)
      roles[producer] = {MemoryKind::OptimizerState, /*inPlace=*/true};
    else if (role == dist::Role::Gradient)
      gradients.insert(value);
  }
  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() == 0 || roles.contains(&op))
      continue;
    // Constants are small, except the zero gradients of parameters the
    // loss does not use, which are gradient buffers.
    if (isa<dist::ConstantOp>(op) &&
        !hasUserInPhase(&op, dist::Phase::Optimizer)) {
      roles[&op] = {MemoryKind::Other};
      continue;
    }
    std::optional<dist::Phase> phase = dist::getPhase(&op);
    if (phase == dist::Phase::Optimizer) {
      // fp32 copies of gradients (mixed precision's main grads) count as
      // gradients; the other optimizer temporaries as other.
      // ZeRO-1's reduce-scatter leaves each rank its part of the gradient
      // buffer, in place (Megatron-LM's distributed optimizer).
      if (auto scatter = dyn_cast<dist::ReduceScatterOp>(op);
          scatter && gradients.contains(scatter.getInput())) {
        gradients.insert(scatter.getResult());
        roles[&op] = {MemoryKind::Gradients, /*inPlace=*/true};
        continue;
      }
      auto cast = dyn_cast<dist::CastOp>(op);
      bool mainGrad = cast && gradients.contains(cast.getInput());
      if (mainGrad)
        gradients.insert(cast.getResult());
      roles[&op] = {mainGrad ? MemoryKind::Gradients : MemoryKind::Other};
      continue;
    }
    // What the optimizer reads from backward is a parameter's gradient.
    BufferRole role;
    bool allGradients = true;
    for (Value result : op.getResults()) {
      bool gradient = gradients.contains(result) ||
                      llvm::any_of(result.getUsers(), [](Operation *user) {
                        return dist::getPhase(user) == dist::Phase::Optimizer;
                      });
      allGradients &= gradient;
      if (!gradient)
        continue;
      gradients.insert(result);
      role.gradientBufferBytes +=
          dist::detail::getTensorBytes(result.getType());
    }
    role.kind = allGradients ? MemoryKind::Gradients
                             : classifyActivation(&op, op.getResults(), phase);
    if (auto dropout = dyn_cast<dist::DropoutTrainOp>(op);
        dropout && !allGradients) {
      // The mask has a buffer of its own: backward keeps it while the value
      // is often freed in forward (read only by the residual addition).
      role.kind = classifyActivation(&op, dropout.getResult(), phase);
      role.apartBytes =
          dist::detail::getTensorBytes(dropout.getKeep().getType());
      role.apartKind = classifyActivation(&op, dropout.getKeep(), phase);
    }
    roles[&op] = role;
  }
  return roles;
}

} // namespace sim
} // namespace distir
