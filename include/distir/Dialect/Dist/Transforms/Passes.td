//===- Passes.td - dist dialect passes ---------------------*- tablegen -*-===//

#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD
#define DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistInferShapes : Pass<"dist-infer-shapes", "::mlir::ModuleOp"> {
  let summary = "Refine every result type from the function inputs";
  let description = [{
    Walks each function in program order and replaces every result type by
    the one inferred from its operands (shape rules of the op interface),
    refining dynamic dimensions; function result types follow the returned
    values, and calls follow their callees. A declared static dimension that
    contradicts the inferred one is an error at the op's location. Run it
    after changing input shapes (e.g. after ONNX import with --input-shape).
  }];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

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
}

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD
