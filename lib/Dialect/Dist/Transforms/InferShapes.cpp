//===- InferShapes.cpp - refine result types from the inputs --------------===//

#include "distir/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTINFERSHAPES
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

namespace {

/// The more refined of two compatible tensor types (per dimension, the static
/// size where one is dynamic); null if they conflict.
Type joinTypes(Type declared, Type inferred) {
  if (declared == inferred)
    return declared;
  auto d = dyn_cast<RankedTensorType>(declared);
  auto i = dyn_cast<RankedTensorType>(inferred);
  if (!d || !i || d.getRank() != i.getRank() ||
      d.getElementType() != i.getElementType() ||
      d.getEncoding() != i.getEncoding())
    return {};
  SmallVector<int64_t> shape;
  for (auto [ds, is] : llvm::zip(d.getShape(), i.getShape())) {
    if (ShapedType::isDynamic(ds))
      shape.push_back(is);
    else if (ShapedType::isDynamic(is) || ds == is)
      shape.push_back(ds);
    else
      return {};
  }
  return RankedTensorType::get(shape, d.getElementType(), d.getEncoding());
}

struct InferShapesPass
    : public mlir::dist::impl::DistInferShapesBase<InferShapesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Calls make a function's result types depend on its callees: iterate
    // until nothing changes (each round only refines, so this terminates).
    bool changed = true;
    for (int round = 0; changed; ++round) {
      changed = false;
      for (auto func : module.getOps<func::FuncOp>()) {
        if (func.isExternal())
          continue;
        FailureOr<bool> funcChanged = refineFunction(func, symbols);
        if (failed(funcChanged))
          return signalPassFailure();
        changed |= *funcChanged;
      }
      if (round > 1000) {
        module.emitError("dist-infer-shapes did not converge");
        return signalPassFailure();
      }
    }
  }

  /// Refines the result types of every op of `func`; returns whether the
  /// function's signature changed.
  FailureOr<bool> refineFunction(func::FuncOp func, SymbolTable &symbols) {
    WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
      SmallVector<Type> inferred;
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee)
          return WalkResult::advance();
        llvm::append_range(inferred, callee.getResultTypes());
      } else if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
        if (failed(infer.inferReturnTypes(
                op->getContext(), op->getLoc(), op->getOperands(),
                op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                op->getRegions(), inferred)))
          return WalkResult::interrupt();
      } else {
        return WalkResult::advance();
      }
      if (inferred.size() != op->getNumResults()) {
        op->emitOpError("inferred ")
            << inferred.size() << " results but has " << op->getNumResults();
        return WalkResult::interrupt();
      }
      for (auto [result, type] : llvm::zip(op->getResults(), inferred)) {
        Type joined = joinTypes(result.getType(), type);
        if (!joined) {
          op->emitOpError("inferred type ")
              << type << " conflicts with declared type " << result.getType()
              << " of result #" << result.getResultNumber();
          return WalkResult::interrupt();
        }
        result.setType(joined);
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // The signature follows what the function returns.
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    SmallVector<Type> results(ret.getOperandTypes());
    FunctionType type = func.getFunctionType();
    for (auto [i, declared] : llvm::enumerate(type.getResults())) {
      if (!joinTypes(declared, results[i])) {
        ret.emitOpError("returns ")
            << results[i] << " where the function declares " << declared;
        return failure();
      }
    }
    FunctionType refined =
        FunctionType::get(func.getContext(), type.getInputs(), results);
    if (refined == type)
      return false;
    func.setFunctionType(refined);
    return true;
  }
};

} // namespace
