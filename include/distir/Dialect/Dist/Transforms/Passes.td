//===- Passes.td - dist dialect passes ---------------------*- tablegen -*-===//

#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD
#define DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// Enum options take the values of DistEnums.td, spelled by stringify<Enum>
// (getEnumOptionValue, Passes.h): the option parser rejects anything else.
defvar Dist_PipelineScheduleValues = [{::llvm::cl::values(
  ::mlir::dist::getEnumOptionValue(::mlir::dist::PipelineSchedule::GPipe,
    "all forwards of a stage, then all backwards"),
  ::mlir::dist::getEnumOptionValue(::mlir::dist::PipelineSchedule::OneFOneB,
    "warm-up forwards, then one forward / one backward (PipeDream-Flush)"))}];

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

def DistPropagateSharding : Pass<"dist-propagate-sharding", "::mlir::ModuleOp"> {
  let summary = "Complete sharding annotations with the ops' sharding rules";
  let description = [{
    GSPMD-style propagation on unplaced functions that name a mesh (through
    `dist.mesh` or their `dist.sharding` annotations). User annotations win:
    `dist.sharding` on arguments and on op results are fixed,
    `dist.sharding_constraint` fixes its result and wishes its operand laid
    out the same, result annotations are wished for the returned values.
    Forward and backward sweeps then choose, for each op with something known,
    the mesh axes of its loops (ShardingRuleOpInterface::getShardingRule) that need
    the fewest resharding bytes; ties go to the earliest candidate (greedy
    from operands in order, then from wished results). Arguments nobody
    constrains are replicated. Every op result gets `dist.sharding`
    (`dist.shardings` for several results), every argument and result of the
    signature too; results nobody annotated drop pending partial sums. See
    docs/sharding.md.
  }];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

def DistPartition : Pass<"dist-partition", "::mlir::ModuleOp"> {
  let summary = "Rewrite a sharded program into placed local ops and collectives";
  let description = [{
    For functions with shardings (after dist-propagate-sharding): every op
    becomes one op on its local shapes placed on the mesh's devices (op count
    does not grow with the mesh); all_reduce / reduce_scatter resolve partial
    sums, all_gather / all_to_all / reduce_scatter(avg) change splits, means
    over split dims are rescaled. Arguments and results keep their order and
    attributes; their types become local and their `dist.sharding` states the
    layout (the global-view contract of dist-run). A sharding that does not
    divide a dimension is an error at the op.
  }];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

def DistDataParallel : Pass<"dist-data-parallel", "::mlir::ModuleOp"> {
  let summary = "Data parallelism: split the batch over the dp axis";
  let description = [{
    Splits the data arguments (`dist.role = "data"`) on dim 0 over `axis`,
    replicates parameters and optimizer state, annotates every result
    replicated over `axis` (so parameter gradients, partial sums over the
    batch, are all-reduced over the dp groups only), then propagates and
    partitions (unless `annotate-only`: then dist-tensor-parallel or
    dist-propagate-sharding and dist-partition may follow).
    The mesh `mesh` is created with one axis of `dp` devices if absent.
  }];
  let options = [
    Option<"dp", "dp", "int64_t", /*default=*/"0",
           "Devices along the data-parallel axis (0: the mesh's size)">,
    Option<"mesh", "mesh", "std::string", /*default=*/"\"world\"", "Mesh symbol">,
    Option<"axis", "axis", "std::string", /*default=*/"\"dp\"", "Mesh axis">,
    Option<"annotateOnly", "annotate-only", "bool", /*default=*/"false",
           "Only annotate (to compose with other wrappers before propagating)">,
    Option<"gradBucketMb", "grad-bucket-mb", "double", /*default=*/"0",
           "Reduce the data-parallel gradients in flat buckets of about this "
           "many MiB (2^20 bytes), in the order they are complete, one "
           "all-reduce per bucket (PyTorch DDP: 25); 0: one per gradient">,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

def DistZero : Pass<"dist-zero", "::mlir::ModuleOp"> {
  let summary = "ZeRO 1/2/3 (Megatron-LM's distributed optimizer is stage 1)";
  let description = [{
    Data parallelism (as dist-data-parallel: the batch split over `axis`,
    propagated and partitioned) with the optimizer sharded over the dp
    groups in flat, zero-padded buffers, so that any dp works. Stage 1:
    each gradient is reduce-scattered instead of all-reduced, every rank
    updates its part of the parameters, fp32 master weights and moments
    (the optimizer state arguments and results become flat shards,
    `dist.flat_shard`), and the updated parameters are all-gathered.
    Stage 2: the gradients are reduce-scattered per microbatch (after
    dist-parallelize's split). Stage 3: the parameters are flat shards
    too, all-gathered before each layer's forward and backward of every
    microbatch and freed after their last use. See docs/zero.md.
  }];
  let options = [
    Option<"stage", "stage", "int64_t", /*default=*/"1",
           "ZeRO stage: 1 optimizer state, 2 also gradients, 3 also "
           "parameters">,
    Option<"dp", "dp", "int64_t", /*default=*/"0",
           "Devices along the data-parallel axis (0: the mesh's size)">,
    Option<"mesh", "mesh", "std::string", /*default=*/"\"world\"", "Mesh symbol">,
    Option<"axis", "axis", "std::string", /*default=*/"\"dp\"", "Mesh axis">,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

def DistTensorParallel : Pass<"dist-tensor-parallel", "::mlir::ModuleOp"> {
  let summary = "Tensor parallelism: Megatron layouts or a layout map on tp";
  let description = [{
    Without `layout-map`: Megatron-LM layouts by dist-gen's parameter names
    (column-parallel qkv and fc1, row-parallel proj and fc2, attention split
    by heads; plain MLP weights alternate column / row). With
    `layout-map=file.json`: regexes over parameter names to layouts on mesh
    axes, first match wins, unmatched parameters replicated. Then propagates
    and partitions (unless `annotate-only`). The mesh `mesh` is created
    with one axis of `tp` devices if absent.
  }];
  let options = [
    Option<"tp", "tp", "int64_t", /*default=*/"0",
           "Devices along the tensor-parallel axis (0: the mesh's size)">,
    Option<"mesh", "mesh", "std::string", /*default=*/"\"world\"", "Mesh symbol">,
    Option<"axis", "axis", "std::string", /*default=*/"\"tp\"", "Mesh axis">,
    Option<"layoutMap", "layout-map", "std::string", /*default=*/"\"\"",
           "JSON layout map (regex over parameter names -> layout)">,
    Option<"annotateOnly", "annotate-only", "bool", /*default=*/"false",
           "Only annotate (to compose with other wrappers before propagating)">,
    Option<"sequenceParallel", "sequence-parallel", "bool", /*default=*/"false",
           "Korthikanti et al.'s sequence parallelism (needs tp > 1): the "
           "activations tensor parallelism leaves replicated are split along "
           "the sequence over the axis (docs/sharding.md)">,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect"];
}

def DistAutodiff : Pass<"dist-autodiff", "::mlir::ModuleOp"> {
  let summary = "Turn a forward function into a training step (reverse-mode AD "
                "and an optimizer update)";
  let description = [{
    Differentiates the loss of one function (`func`, default the first one
    with a body) with respect to its parameters (arguments with
    `dist.role = "parameter"`) and appends the optimizer update. The loss is
    the result with `dist.role = "loss"`, or the only result; it must be a
    floating-point scalar. Ops are walked in reverse; each op's gradient
    comes from `GradientOpInterface::buildGradient`; gradients of values used
    more than once are summed with `dist.add`; integer values and values
    that do not depend on a parameter get none. Forward ops get
    `dist.phase = "forward"`, backward ops `"backward"` and the `dist.layer`
    of the op they differentiate, optimizer ops `"optimizer"` and the layer
    of the parameter's first user.

    Result: arguments are the parameters, the optimizer state (adam:
    `NAME.adam_m`, `NAME.adam_v` per parameter and one f32 `adam.step`,
    1-based), then the other arguments; results are the loss, the updated
    parameters (same `dist.name`) and the updated optimizer state, then any
    other result of the function. With `optimizer=none` the results are the
    loss and the gradients (`NAME.grad`, role "gradient"). With
    `precision=mixed` (the default for adam on f16/bf16 parameters) the
    state also holds an fp32 `NAME.master` per parameter, the moments are
    fp32, and the optimizer phase unscales, checks for overflow, clips the
    global gradient norm and copies the master weights back. See
    docs/autodiff.md.
  }];
  let options = [
    Option<"optimizer", "optimizer", "::mlir::dist::Optimizer",
           /*default=*/"::mlir::dist::Optimizer::Sgd",
           "The update the training step applies",
           [{::llvm::cl::values(
             ::mlir::dist::getEnumOptionValue(::mlir::dist::Optimizer::Sgd,
               "stochastic gradient descent"),
             ::mlir::dist::getEnumOptionValue(::mlir::dist::Optimizer::Adam,
               "Adam, with its two moments as optimizer state"),
             ::mlir::dist::getEnumOptionValue(::mlir::dist::Optimizer::None,
               "no update: the step returns the gradients"))}]>,
    Option<"learningRate", "lr", "double", /*default=*/"0.0",
           "Learning rate; 0 picks 0.01 for sgd and 1e-3 for adam">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9", "Adam's beta1">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999", "Adam's beta2">,
    Option<"epsilon", "epsilon", "double", /*default=*/"1e-8", "Adam's epsilon">,
    Option<"precision", "precision", "::mlir::dist::Precision",
           /*default=*/"::mlir::dist::Precision::Auto",
           "Number formats of the update",
           [{::llvm::cl::values(
             ::mlir::dist::getEnumOptionValue(::mlir::dist::Precision::Auto,
               "mixed for adam on f16/bf16 parameters, model otherwise"),
             ::mlir::dist::getEnumOptionValue(::mlir::dist::Precision::Model,
               "update in the parameters' type"),
             ::mlir::dist::getEnumOptionValue(::mlir::dist::Precision::Mixed,
               "fp32 master weights and moments, unscale, clip, copy back"))}]>,
    Option<"grads", "grads", "::mlir::dist::GradientPrecision",
           /*default=*/"::mlir::dist::GradientPrecision::Auto",
           "Type of the accumulated gradients with precision=mixed",
           [{::llvm::cl::values(
             ::mlir::dist::getEnumOptionValue(
               ::mlir::dist::GradientPrecision::Auto,
               "fp32 for bf16 parameters, model for f16"),
             ::mlir::dist::getEnumOptionValue(
               ::mlir::dist::GradientPrecision::Model,
               "the parameters' type, copied to fp32 by the optimizer"),
             ::mlir::dist::getEnumOptionValue(
               ::mlir::dist::GradientPrecision::F32,
               "fp32 from the end of backward on"))}]>,
    Option<"clipGrad", "clip-grad", "double", /*default=*/"1.0",
           "Global gradient-norm clipping with precision=mixed (0: none)">,
    Option<"lossScale", "loss-scale", "double", /*default=*/"1.0",
           "Static loss scale with precision=mixed (1: none); other values "
           "also skip the update when a gradient overflows">,
    Option<"funcName", "func", "std::string", /*default=*/"\"\"",
           "Function to differentiate (default: the first with a body)">,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect",
                           "::mlir::func::FuncDialect"];
}

def DistPipeline : Pass<"dist-pipeline", "::mlir::ModuleOp"> {
  let summary = "Pipeline parallelism: stages, microbatches, GPipe or 1F1B";
  let description = [{
    Cuts an unplaced training step (dist-autodiff's output) into `pp` stages
    (contiguous ranges of `dist.layer` hints whose busiest stage takes the
    least time per microbatch on `cluster`, measured on the placed program;
    without hints, the forward ops in order; backward ops follow the
    forward ops they differentiate), splits the data arguments
    (`dist.role = "data"`) into `microbatches` along dim 0, runs each stage's
    forward and backward once per microbatch, sums over the microbatches what
    sums over the batch (weight gradients; means are scaled by
    1/microbatches), then runs the optimizer once. The block is ordered so
    that every stage follows `schedule` (gpipe: all forwards then all
    backwards; 1f1b: pp - stage - 1 warm-up forwards, then alternating, then
    the remaining backwards). Stage i runs on the devices of the slice
    pp = i of `mesh` (created as `shape = [pp] axes = ["pp"]` when absent),
    every value replicated there; the partitioner places the ops and sends
    the values that cross stages. Ops get `dist.stage` and, per microbatch,
    `dist.microbatch`. With `interleave` = V > 1 (Megatron-LM's virtual
    pipeline stages, 1f1b only, microbatches a multiple of pp) the layers are
    cut into pp x V chunks, chunk c on the devices of stage c mod pp
    (`dist.stage = c`, a virtual stage), and each stage runs Megatron-LM's
    interleaved 1F1B order; the time-based cut gives the first and last
    chunks (embedding, LM head) fewer layers. dist-parallelize adds data and
    tensor parallelism. See docs/parallelize.md.
  }];
  let options = [
    Option<"pp", "pp", "int64_t", /*default=*/"1", "Number of stages">,
    Option<"microbatches", "microbatches", "int64_t", /*default=*/"1",
           "Number of microbatches the batch is split into">,
    Option<"schedule", "schedule", "::mlir::dist::PipelineSchedule",
           /*default=*/"::mlir::dist::PipelineSchedule::OneFOneB",
           "Per-stage order of the microbatches", Dist_PipelineScheduleValues>,
    Option<"interleave", "interleave", "int64_t", /*default=*/"1",
           "Model chunks per stage (interleaved 1F1B, Megatron-LM's virtual "
           "pipeline stages): the layers are cut into pp x interleave chunks, "
           "chunk c on stage c mod pp; needs schedule=1f1b and microbatches a "
           "multiple of pp">,
    Option<"firstLayers", "first-layers", "int64_t", /*default=*/"0",
           "Layers (dist.layer indices) of the first chunk (the first stage "
           "without interleaving), e.g. fewer beside the embedding; 0: the "
           "time-based cut decides">,
    Option<"lastLayers", "last-layers", "int64_t", /*default=*/"0",
           "Layers of the last chunk (the last stage without interleaving), "
           "e.g. fewer beside the LM head; 0: the time-based cut decides">,
    Option<"mesh", "mesh", "std::string", /*default=*/"\"world\"",
           "Mesh whose \"pp\" axis gives the stages' devices">,
    Option<"cluster", "cluster", "std::string", /*default=*/"\"dgx-a100\"",
           "Cluster (dist-sim's --cluster syntax) whose cost model times the "
           "ops for the stage cut; empty: balance FLOPs">,
    Option<"scatterGather", "scatter-gather", "bool", /*default=*/"false",
           "With a \"tp\" axis of size > 1: send a value that crosses stages "
           "replicated over tp as 1/tp slices (each tp rank its own) and "
           "all-gather it over tp on the receiving stage (Megatron-LM's "
           "--scatter-gather-tensors-in-pipeline)">,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect",
                           "::mlir::func::FuncDialect"];
}

def DistParallelize : Pass<"dist-parallelize", "::mlir::ModuleOp"> {
  let summary = "Data, tensor and pipeline parallelism composed on one mesh";
  let description = [{
    On a training step produced by dist-autodiff: creates (or checks)
    `dist.mesh @world shape = [pp, dp, tp] axes = ["pp", "dp", "tp"]` (tp
    innermost: a tp group is consecutive device ids, inside one node; stage
    p is ids [p dp tp, (p + 1) dp tp)), cuts the step into pp stages (as
    dist-pipeline: time per microbatch on `cluster`, tensor-sharded),
    annotates data parallelism on "dp" (batch split,
    gradients all-reduced over the dp groups only) and tensor parallelism on
    "tp" (Megatron layouts, or `layout-map`), propagates, partitions each
    stage onto its dp x tp slice, then splits the batch into `microbatches`
    ordered by `schedule`. Op count does not grow with dp or tp. Errors:
    pp larger than the number of layers, a batch not divisible by
    dp x microbatches, tp not dividing the heads or a split dimension, a
    layout map naming an axis the mesh does not have. See
    docs/parallelize.md.
  }];
  let options = [
    Option<"dp", "dp", "int64_t", /*default=*/"1", "Data-parallel degree">,
    Option<"tp", "tp", "int64_t", /*default=*/"1", "Tensor-parallel degree">,
    Option<"pp", "pp", "int64_t", /*default=*/"1", "Pipeline stages">,
    Option<"microbatches", "microbatches", "int64_t", /*default=*/"1",
           "Microbatches per step">,
    Option<"schedule", "schedule", "::mlir::dist::PipelineSchedule",
           /*default=*/"::mlir::dist::PipelineSchedule::OneFOneB",
           "Per-stage order of the microbatches", Dist_PipelineScheduleValues>,
    Option<"interleave", "interleave", "int64_t", /*default=*/"1",
           "Model chunks per stage (interleaved 1F1B, Megatron-LM's virtual "
           "pipeline stages): the layers are cut into pp x interleave chunks, "
           "chunk c on stage c mod pp; needs schedule=1f1b and microbatches a "
           "multiple of pp">,
    Option<"firstLayers", "first-layers", "int64_t", /*default=*/"0",
           "Layers (dist.layer indices) of the first chunk (the first stage "
           "without interleaving), e.g. fewer beside the embedding; 0: the "
           "time-based cut decides">,
    Option<"lastLayers", "last-layers", "int64_t", /*default=*/"0",
           "Layers of the last chunk (the last stage without interleaving), "
           "e.g. fewer beside the LM head; 0: the time-based cut decides">,
    Option<"layoutMap", "layout-map", "std::string", /*default=*/"\"\"",
           "JSON layout map (regex over parameter names -> layout) instead "
           "of the Megatron layouts">,
    Option<"mesh", "mesh", "std::string", /*default=*/"\"world\"",
           "Name of the mesh to create or use">,
    Option<"cluster", "cluster", "std::string", /*default=*/"\"dgx-a100\"",
           "Cluster (dist-sim's --cluster syntax) whose cost model times the "
           "ops for the stage cut; empty: balance FLOPs">,
    Option<"scatterGather", "scatter-gather", "bool", /*default=*/"false",
           "With a \"tp\" axis of size > 1: send a value that crosses stages "
           "replicated over tp as 1/tp slices (each tp rank its own) and "
           "all-gather it over tp on the receiving stage (Megatron-LM's "
           "--scatter-gather-tensors-in-pipeline)">,
    Option<"gradBucketMb", "grad-bucket-mb", "double", /*default=*/"0",
           "Reduce the data-parallel gradients in flat buckets of about this "
           "many MiB (2^20 bytes), in the order they are complete, one "
           "all-reduce per bucket (PyTorch DDP: 25); 0: one per gradient">,
    Option<"sequenceParallel", "sequence-parallel", "bool", /*default=*/"false",
           "Korthikanti et al.'s sequence parallelism (needs tp > 1): layer "
           "norms, dropouts and residuals split along the sequence over tp, "
           "reduce-scatter / all-gather in place of tp all-reduces">,
    Option<"zero", "zero", "int64_t", /*default=*/"0",
           "ZeRO stage over dp (as dist-zero): 1 optimizer state (Megatron-LM's "
           "distributed optimizer), 2 also gradients (needs pp=1), 3 also "
           "parameters (needs pp=1); 0: none">,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect",
                           "::mlir::func::FuncDialect"];
}

def DistRecompute : Pass<"dist-recompute", "::mlir::ModuleOp"> {
  let summary = "Activation recomputation: re-run forward ops in the backward "
                "pass instead of keeping their results";
  let description = [{
    On a training step produced by dist-autodiff (before dist-parallelize or
    dist-pipeline). `mode=full` and `mode=minimal`: per `dist.layer` L, only the values that cross layers
    (used by a forward op of another layer, returned, or used by the
    optimizer) and the layer's inputs stay alive; the other results of layer
    L's forward ops that a backward op uses are recomputed by clones placed
    right before the first backward op of layer L. `mode=full` (Megatron-LM's
    activation checkpointing) clones every forward op of the layer, so the
    whole layer, communication included, runs again; `mode=minimal` clones
    only the ops those values depend on.
    `mode=selective` (Korthikanti et al. 2022): only the attention core is
    recomputed: a `dist.softmax` whose input is a `dist.matmul` (the scores)
    and whose result, possibly through `dist.dropout`, is the lhs of a
    `dist.matmul` (probs x V); the clones of the scores matmul, the softmax
    and the dropouts are placed right before the first backward op of the
    softmax's layer. Clones get `dist.phase = "backward"`, the layer, and a
    `dist.recomputed` unit attribute. See docs/recompute.md.
  }];
  let options = [
    Option<"mode", "mode", "::mlir::dist::RecomputeMode",
           /*default=*/"::mlir::dist::RecomputeMode::Full", "What to recompute",
           [{::llvm::cl::values(
             ::mlir::dist::getEnumOptionValue(::mlir::dist::RecomputeMode::Full,
               "every layer's whole forward before its backward (Megatron-LM)"),
             ::mlir::dist::getEnumOptionValue(
               ::mlir::dist::RecomputeMode::Minimal,
               "only the forward ops whose results a layer's backward reads"),
             ::mlir::dist::getEnumOptionValue(
               ::mlir::dist::RecomputeMode::Selective,
               "only the attention core"))}]>,
  ];
  let dependentDialects = ["::mlir::dist::DistDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_PASSES_TD
