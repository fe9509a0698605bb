//===- DistEnums.td - the dist dialect's vocabulary -----------*- tablegen -*-===//
//
// The closed sets of words distir's passes, tools and search share: what a
// function argument is (`dist.role`), which part of a training step an op
// belongs to (`dist.phase`), and the choices of dist-autodiff, dist-pipeline
// and dist-recompute. In the IR they print as strings (`dist.role =
// "parameter"`); in C++ they are these enums, parsed in one place
// (symbolize<Enum>) and spelled in one place (stringify<Enum>).
//
// `-gen-enum-decls` of this file is plain C++ over llvm/ADT (StringRef,
// DenseMapInfo): the MLIR-free search core includes it through
// DistEnums.h and links the DistEnums library, not libMLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_DIALECT_DIST_DISTENUMS_TD
#define DISTIR_DIALECT_DIST_DISTENUMS_TD

include "mlir/IR/EnumAttr.td"

class Dist_Enum<string name, string summary, list<I32EnumCase> cases>
    : I32Enum<name, summary, cases> {
  let cppNamespace = "::mlir::dist";
}

def Dist_Role : Dist_Enum<"Role", "what a function argument or result is", [
    I32EnumCase<"Parameter", 0, "parameter">,
    I32EnumCase<"Data", 1, "data">,
    I32EnumCase<"OptimizerState", 2, "optimizer_state">,
    I32EnumCase<"Loss", 3, "loss">,
    I32EnumCase<"Gradient", 4, "gradient">,
    I32EnumCase<"UpdatedParameter", 5, "updated_parameter">,
    I32EnumCase<"UpdatedOptimizerState", 6, "updated_optimizer_state">,
    I32EnumCase<"Output", 7, "output">]> {
  let description = [{
    The value of `dist.role` on a function argument or result: parameters,
    data and optimizer state come in; the loss, gradients, updated parameters
    and optimizer state and other outputs go out.
  }];
}

def Dist_Phase : Dist_Enum<"Phase", "the part of a training step an op belongs to", [
    I32EnumCase<"Forward", 0, "forward">,
    I32EnumCase<"Backward", 1, "backward">,
    I32EnumCase<"Optimizer", 2, "optimizer">]> {
  let description = [{
    The value of `dist.phase` on an op, as dist-autodiff stamps it.
  }];
}

def Dist_PipelineSchedule : Dist_Enum<"PipelineSchedule",
    "the order in which a pipeline stage runs its microbatches", [
    I32EnumCase<"GPipe", 0, "gpipe">,
    I32EnumCase<"OneFOneB", 1, "1f1b">]> {
  let description = [{
    `gpipe`: all forwards of the stage, then all backwards. `1f1b`:
    pp - stage - 1 warm-up forwards, then one forward / one backward, then the
    remaining backwards (PipeDream-Flush, Megatron-LM's default).
  }];
}

def Dist_RecomputeMode : Dist_Enum<"RecomputeMode",
    "which activations a training step recomputes", [
    I32EnumCase<"None", 0, "none">,
    I32EnumCase<"Full", 1, "full">,
    I32EnumCase<"Selective", 2, "selective">,
    I32EnumCase<"Minimal", 3, "minimal">]> {
  let description = [{
    `none`: keep every activation; `full`: re-run each layer's whole forward
    before its backward (Megatron-LM's activation checkpointing); `minimal`:
    re-run only the forward ops of the layer whose results its backward reads;
    `selective`: recompute only the attention core (docs/recompute.md).
  }];
}

def Dist_Optimizer : Dist_Enum<"Optimizer", "the update a training step applies", [
    I32EnumCase<"Sgd", 0, "sgd">,
    I32EnumCase<"Adam", 1, "adam">,
    I32EnumCase<"None", 2, "none">]> {
  let description = [{
    The optimizer dist-autodiff appends: `sgd`, `adam`, or `none` (the step
    returns the gradients).
  }];
}

def Dist_Precision : Dist_Enum<"Precision",
    "the number formats of a training step's update", [
    I32EnumCase<"Auto", 0, "auto">,
    I32EnumCase<"Model", 1, "model">,
    I32EnumCase<"Mixed", 2, "mixed">]> {
  let description = [{
    `model`: the update runs in the parameters' own type (Adam's moments
    too); `mixed`: f16/bf16 parameters with fp32 master weights and fp32
    Adam moments, gradients unscaled, checked for overflow and clipped in
    fp32, the master weights copied back (Megatron-LM's mixed precision,
    docs/autodiff.md); `auto`: `mixed` for adam on f16/bf16 parameters,
    `model` otherwise.
  }];
}

def Dist_GradientPrecision : Dist_Enum<"GradientPrecision",
    "the type gradients are accumulated and all-reduced in", [
    I32EnumCase<"Auto", 0, "auto">,
    I32EnumCase<"Model", 1, "model">,
    I32EnumCase<"F32", 2, "fp32">]> {
  let description = [{
    With mixed precision: `model` keeps gradients in the parameters' type
    (fp16 grads) and copies them to fp32 main gradients in the optimizer
    phase; `fp32` casts each parameter's gradient to fp32 as soon as
    backward has it, so accumulation and the data-parallel all-reduce run
    in fp32; `auto`: `fp32` for bf16 parameters, `model` for f16
    (Megatron-LM's defaults, `--accumulate-allreduce-grads-in-fp32`).
  }];
}

#endif // DISTIR_DIALECT_DIST_DISTENUMS_TD
