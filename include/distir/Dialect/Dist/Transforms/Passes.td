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

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD
