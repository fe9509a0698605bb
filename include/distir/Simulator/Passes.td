//===- Passes.td - passes of the simulator's MLIR library --*- tablegen -*-===//

#ifndef DISTIR_SIMULATOR_PASSES_TD
#define DISTIR_SIMULATOR_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistAnnotateCosts : Pass<"dist-annotate-costs", "::mlir::ModuleOp"> {
  let summary = "Attach each op's estimated time on a cluster (dist.cost_s)";
  let description = [{
    For inspection: every op the simulator models gets a `dist.cost_s` f64
    attribute, its estimated seconds on one device of the cluster, from the
    same cost model dist-sim uses (roofline and hierarchical collectives, or
    the measured profile where it has an entry). See docs/dist-sim.md.
  }];
  let options = [
    Option<"cluster", "cluster", "std::string", /*default=*/"\"dgx-a100\"",
           "Cluster: dgx-a100[:nodes=N], dgx-h100[:nodes=N] or a JSON file">,
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "Measured op times (JSON) overriding the formulas">,
  ];
  // The profile's kinds are checked against the dialect's compute ops.
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

#endif // DISTIR_SIMULATOR_PASSES_TD
