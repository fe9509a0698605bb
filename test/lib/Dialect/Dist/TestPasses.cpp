//===- TestPasses.cpp - register distir's test-only passes ----------------===//

namespace mlir::dist::test {
void registerTestReshardPass();
void registerTestShardingRulesPass();

/// Called by dist-opt when built with DISTIR_INCLUDE_TESTS.
void registerTestPasses() {
  registerTestReshardPass();
  registerTestShardingRulesPass();
}
} // namespace mlir::dist::test
