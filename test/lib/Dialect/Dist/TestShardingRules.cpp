//===- TestShardingRules.cpp - print every op's sharding rule -------------===//
//
// -dist-test-sharding-rules sets `test.sharding_rule` on every op of every
// function to its rule (getShardingRule), so rules are lit-tested the way
// Shardy tests its op sharding rules. Loops are named i, j, k, ...; a dim
// over no loop prints as "-". The flags after the map: `reduction` (loops in
// no result: sums), `whole` (not splittable), `mean` (normalized) and
// `linear` (the jointly linear operands). An op without a rule gets
// "none: <the error getShardingRule reports>".
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Dialect/Dist/Transforms/LoopSharding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

std::string getLoopName(int64_t loop) {
  if (loop == ShardingRule::kNoLoop)
    return "-";
  if (loop < 18)
    return std::string(1, char('i' + loop));
  return "l" + std::to_string(loop);
}

void printDims(llvm::raw_ostream &os, ArrayRef<SmallVector<int64_t>> values) {
  os << "(";
  llvm::interleaveComma(values, os, [&](const SmallVector<int64_t> &dims) {
    os << "[";
    llvm::interleaveComma(dims, os,
                          [&](int64_t loop) { os << getLoopName(loop); });
    os << "]";
  });
  os << ")";
}

/// Prints ` name={a, b}` for the loops `select` picks, if any.
void printLoopSet(llvm::raw_ostream &os, StringRef name,
                  const ShardingRule &rule,
                  function_ref<bool(int64_t)> select) {
  SmallVector<std::string> names;
  for (int64_t loop = 0, e = rule.loops.size(); loop < e; ++loop)
    if (select(loop))
      names.push_back(getLoopName(loop));
  if (names.empty())
    return;
  os << " " << name << "={";
  llvm::interleaveComma(names, os);
  os << "}";
}

std::string printRule(const ShardingRule &rule) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printDims(os, rule.operandDims);
  os << " -> ";
  printDims(os, rule.resultDims);
  auto inSomeResult = [&](int64_t loop) {
    return llvm::any_of(llvm::seq<unsigned>(0, rule.resultDims.size()),
                        [&](unsigned r) { return rule.isInResult(loop, r); });
  };
  printLoopSet(os, "reduction", rule, [&](int64_t loop) {
    return rule.isUsed(loop) && !inSomeResult(loop);
  });
  printLoopSet(os, "whole", rule,
               [&](int64_t loop) { return !rule.loops[loop].splittable; });
  printLoopSet(os, "mean", rule,
               [&](int64_t loop) { return rule.loops[loop].normalized; });
  printLoopSet(os, "expands", rule,
               [&](int64_t loop) { return rule.loops[loop].expands; });
  if (rule.linearity == ShardingRule::Linearity::Joint) {
    os << " linear={";
    llvm::interleaveComma(rule.linearOperands, os);
    os << "}";
  }
  return text;
}

struct TestShardingRulesPass
    : public PassWrapper<TestShardingRulesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestShardingRulesPass)

  StringRef getArgument() const final { return "dist-test-sharding-rules"; }
  StringRef getDescription() const final {
    return "Set test.sharding_rule on every op to its sharding rule";
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](func::FuncOp func) {
      for (Block &block : func.getBody())
        for (Operation &op : block.without_terminator())
          op.setAttr("test.sharding_rule",
                     StringAttr::get(ctx, describeRule(&op)));
    });
  }

  /// The printed rule, or "none: " and the error that says why there is
  /// none (caught: a missing rule is an output here, not a failure).
  static std::string describeRule(Operation *op) {
    std::string error;
    ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
      if (error.empty())
        error = diag.str();
      return success();
    });
    FailureOr<ShardingRule> rule = getShardingRule(op);
    if (failed(rule))
      return "none: " + error;
    return printRule(*rule);
  }
};

} // namespace

namespace mlir::dist::test {
void registerTestShardingRulesPass() {
  PassRegistration<TestShardingRulesPass>();
}
} // namespace mlir::dist::test
