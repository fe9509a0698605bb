//===- DistOps.td - dist dialect operations ----------------*- tablegen -*-===//

#ifndef DISTIR_DIALECT_DIST_DISTOPS_TD
#define DISTIR_DIALECT_DIST_DISTOPS_TD

include "distir/Dialect/Dist/IR/DistDialect.td"
include "distir/Dialect/Dist/IR/DistAttrs.td"
include "distir/Dialect/Dist/IR/DistInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

def Dist_Tensor : RankedTensorOf<[AnyType]>;
def Dist_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Dist_IndexTensor : RankedTensorOf<[AnySignlessInteger]>;

// Compute ops: operands and results on one device set (or all unplaced).
def Dist_SamePlacement : NativeOpTrait<"SamePlacement"> {
  let cppNamespace = "::mlir::dist";
}

// Result types are inferred from operands and attributes; a declared result
// type may be less refined (dynamic dims) than the inferred one, which is what
// `dist-infer-shapes` refines.
// The `InferredResultTypes` trait checks the inferred against the declared
// types early (with the op's own message) so that a bad op reports one error.
def Dist_InferredResultTypes : NativeOpTrait<"InferredResultTypes"> {
  let cppNamespace = "::mlir::dist";
}
def Dist_InferRefinableType : TraitList<[
  Dist_InferredResultTypes,
  InferTypeOpAdaptorBase<[{
    static bool isCompatibleReturnTypes(::mlir::TypeRange l, ::mlir::TypeRange r) {
      return ::mlir::dist::areRefinableTypes(l, r);
    }
  }]>]>;

// The interface methods an op implements itself follow from what its traits
// state: getFlops unless Dist_DataMovement or Dist_FlopsPerElement gives the
// count, buildShardingLoops unless the op is Dist_Elementwise.
class Dist_OwnMethods<list<Trait> traits> {
  bit statesFlops = !not(!empty(!filter(t, traits,
      !or(!eq(t, Dist_DataMovement), !isa<Dist_FlopsPerElement>(t)))));
  bit isElementwise = !not(!empty(!filter(t, traits, !eq(t, Dist_Elementwise))));
  list<string> cost = !if(statesFlops, [], ["getFlops"]);
  list<string> sharding = !if(isElementwise, [], ["buildShardingLoops"]);
}

// A compute op: runs on every device of its operands' set. `costMethods`
// names cost methods the op overrides beyond getFlops (bytes of views).
// `shardingMethods` names sharding methods beyond buildShardingLoops
// (buildLocalExpansion for ops with expanding loops).
class Dist_ComputeOp<string mnemonic, list<Trait> traits = [],
                     list<string> costMethods = [],
                     list<string> shardingMethods = []>
    : Dist_Op<mnemonic, !listconcat([Pure, Dist_SamePlacement,
        DeclareOpInterfaceMethods<Dist_CostOpInterface,
            !listconcat(Dist_OwnMethods<traits>.cost, costMethods)>,
        DeclareOpInterfaceMethods<Dist_ShardingRuleOpInterface,
            !listconcat(Dist_OwnMethods<traits>.sharding, shardingMethods)>,
        Dist_InferRefinableType], traits)> {
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

// The result has the input's type.
class Dist_SameTypeAsInputOp<string mnemonic, list<Trait> traits>
    : Dist_ComputeOp<mnemonic, traits> {
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      types.push_back(adaptor.getInput().getType());
      return ::mlir::success();
    }
  }];
}

// `flopsPerElement`: what the op costs per element (arithmetic 1, a handful
// for transcendental functions as polynomial kernels evaluate them; these ops
// are memory-bound, so the count only matters for reports).
class Dist_UnaryOp<string mnemonic, string formula, int flopsPerElement,
                   list<Trait> traits = []>
    : Dist_SameTypeAsInputOp<mnemonic, !listconcat([Dist_Elementwise,
        Dist_FlopsPerElement<flopsPerElement>], traits)> {
  let summary = "Elementwise " # formula;
  let description = "Computes `" # formula # "` elementwise.";
  let arguments = (ins Dist_FloatTensor:$input);
  let results = (outs Dist_FloatTensor:$result);
}

class Dist_BinaryOp<string mnemonic, string formula, list<Trait> traits = []>
    : Dist_ComputeOp<mnemonic, !listconcat([Dist_Elementwise,
        Dist_FlopsPerElement<1>], traits)> {
  let summary = "Elementwise " # formula # " with broadcasting";
  let description = "Computes `" # formula # "` elementwise, broadcasting the "
    "operands as NumPy and ONNX do (shapes aligned on the right; a dimension "
    "of size 1 stretches). Both operands have the same element type.";
  let arguments = (ins Dist_Tensor:$lhs, Dist_Tensor:$rhs);
  let results = (outs Dist_Tensor:$result);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::dist::detail::inferBroadcastReturnTypes(
          location, getOperationName(), adaptor.getLhs(), adaptor.getRhs(),
          types);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Forward compute ops
//===----------------------------------------------------------------------===//

def Dist_MatmulOp : Dist_ComputeOp<"matmul"> {
  let summary = "Batched matrix multiplication";
  let description = [{
    NumPy `matmul` semantics: the last two dimensions are multiplied, leading
    (batch) dimensions broadcast; a rank-1 operand is promoted to a matrix and
    the added dimension removed from the result. `transpose_a` / `transpose_b`
    swap the last two dimensions of an operand (of rank >= 2) first.

    ```mlir
    %c = dist.matmul %a, %b {transpose_b} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$lhs, Dist_FloatTensor:$rhs,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_AddOp : Dist_BinaryOp<"add", "lhs + rhs", [Commutative, Dist_JointlyLinear]>;
def Dist_SubOp : Dist_BinaryOp<"sub", "lhs - rhs", [Dist_JointlyLinear]>;
def Dist_MulOp : Dist_BinaryOp<"mul", "lhs * rhs", [Commutative]>;
def Dist_DivOp : Dist_BinaryOp<"div", "lhs / rhs">;
def Dist_PowOp : Dist_BinaryOp<"pow", "lhs ^ rhs">;

def Dist_WhereOp : Dist_ComputeOp<"where", [Dist_Elementwise,
                                          Dist_FlopsPerElement<1>]> {
  let summary = "Elementwise select with broadcasting";
  let description = [{
    `condition ? true_value : false_value`, broadcasting all three operands.
    The condition is `i1` (or an integer: non-zero selects `true_value`).
  }];
  let arguments = (ins Dist_IndexTensor:$condition, Dist_Tensor:$true_value,
                       Dist_Tensor:$false_value);
  let results = (outs Dist_Tensor:$result);
}

def Dist_NegOp : Dist_UnaryOp<"neg", "-x", 1, [Dist_JointlyLinear]>;
def Dist_ExpOp : Dist_UnaryOp<"exp", "exp(x)", 4>;
def Dist_LogOp : Dist_UnaryOp<"log", "log(x)", 4>;
def Dist_SqrtOp : Dist_UnaryOp<"sqrt", "sqrt(x)", 2>;
def Dist_RsqrtOp : Dist_UnaryOp<"rsqrt", "1 / sqrt(x)", 2>;
def Dist_ErfOp : Dist_UnaryOp<"erf", "erf(x)", 4>;
def Dist_ReluOp : Dist_UnaryOp<"relu", "max(x, 0)", 1>;
def Dist_TanhOp : Dist_UnaryOp<"tanh", "tanh(x)", 4>;
def Dist_SigmoidOp : Dist_UnaryOp<"sigmoid", "1 / (1 + exp(-x))", 4>;

def Dist_GeluOp : Dist_UnaryOp<"gelu", "gelu(x)", 8> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `approximate = none`: `0.5 x (1 + erf(x / sqrt(2)))`;
    `approximate = tanh`: `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`.
  }];
  let arguments = (ins Dist_FloatTensor:$input,
      DefaultValuedAttr<Dist_GeluApproximationAttr,
                        "::mlir::dist::GeluApproximation::none">:$approximate);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_SoftmaxOp : Dist_ComputeOp<"softmax", [Dist_FlopsPerElement<5>]> {
  let summary = "Softmax along one axis, optionally scaled and causally masked";
  let description = [{
    `softmax(scale * x)` along `axis`. With `causal` (only when `axis` is the
    last dimension and the rank is at least 2) the entries whose index in the
    last dimension exceeds their index in the second-to-last dimension are
    masked out before normalizing: the causal attention mask of a decoder.
  }];
  let arguments = (ins Dist_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale,
                       UnitAttr:$causal);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_LogSoftmaxOp : Dist_ComputeOp<"log_softmax", [Dist_FlopsPerElement<5>]> {
  let summary = "Log of softmax along one axis";
  let arguments = (ins Dist_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_LayerNormOp : Dist_ComputeOp<"layer_norm", [Dist_FlopsPerElement<8>]> {
  let summary = "Layer normalization (ONNX LayerNormalization)";
  let description = [{
    Normalizes over the dimensions `[axis, rank)` with the biased variance,
    then `* scale + bias`; `scale` and `bias` have the normalized shape.
  }];
  let arguments = (ins Dist_FloatTensor:$input, Dist_FloatTensor:$scale,
                       Dist_FloatTensor:$bias,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_BatchNormOp : Dist_ComputeOp<"batch_norm", [Dist_FlopsPerElement<2>]> {
  let summary = "Batch normalization in inference form (channel dimension 1)";
  let description = [{
    `(x - mean) / sqrt(variance + epsilon) * scale + bias`, where the rank-1
    `scale`, `bias`, `mean` and `variance` index dimension 1 of `x`.
  }];
  let arguments = (ins Dist_FloatTensor:$input, Dist_FloatTensor:$scale,
                       Dist_FloatTensor:$bias, Dist_FloatTensor:$mean,
                       Dist_FloatTensor:$variance,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_TransposeOp : Dist_ComputeOp<"transpose", [Dist_DataMovement,
                                                  Dist_JointlyLinear]> {
  let summary = "Permutes dimensions: result dim i is input dim permutation[i]";
  let arguments = (ins Dist_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Dist_Tensor:$result);
}

def Dist_ReshapeOp : Dist_ComputeOp<"reshape",
    [Dist_DataMovement, Dist_JointlyLinear], ["getBytesRead", "getBytesWritten"]> {
  let summary = "Reinterprets the elements (row-major) with a new shape";
  let description = [{
    `shape` may hold one `-1`, inferred from the element count. Costs nothing:
    a reshape is a view.
  }];
  let arguments = (ins Dist_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Dist_Tensor:$result);
  // A reshape to the operand's type folds away; a reshape of a reshape
  // becomes one reshape of the first operand.
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}

def Dist_ConcatOp : Dist_ComputeOp<"concat", [Dist_DataMovement,
                                            Dist_JointlyLinear]> {
  let summary = "Concatenates tensors along one axis";
  let arguments = (ins Variadic<Dist_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Dist_Tensor:$result);
}

def Dist_SliceOp : Dist_ComputeOp<"slice", [Dist_DataMovement,
    Dist_JointlyLinear]> {
  let summary = "Strided slice";
  let description = [{
    Per dimension `x[start:limit:stride]` in NumPy's sense, with `start` in
    `[0, size)` (or `[0, size]` for an empty slice), `stride` non-zero and a
    `limit` of `-1` meaning "past the beginning" for negative strides. The
    size of a result dimension is `max(0, ceil((limit - start) / stride))`.
  }];
  let arguments = (ins Dist_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$strides);
  let results = (outs Dist_Tensor:$result);
}

def Dist_SplitOp : Dist_ComputeOp<"split", [Dist_DataMovement,
    Dist_JointlyLinear]> {
  let summary = "Splits a tensor along one axis into pieces of the given sizes";
  let arguments = (ins Dist_Tensor:$input, I64Attr:$axis,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Dist_Tensor>:$results);
}

def Dist_PadOp : Dist_ComputeOp<"pad", [Dist_DataMovement,
    Dist_JointlyLinear]> {
  let summary = "Pads with zeros (low, high and interior padding)";
  let description = [{
    StableHLO `pad` with a zero padding value and non-negative amounts: per
    dimension `low` zeros before, `high` after and `interior` between
    consecutive elements. The gradient of a strided slice.
  }];
  let arguments = (ins Dist_Tensor:$input, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, DenseI64ArrayAttr:$interior);
  let results = (outs Dist_Tensor:$result);
}

def Dist_TakeOp : Dist_ComputeOp<"take", [Dist_DataMovement], ["getBytesRead"],
                                 ["buildLocalExpansion"]> {
  let summary = "Gathers slices along one axis by index (ONNX Gather, numpy.take)";
  let description = [{
    Result shape is `input.shape[:axis] + indices.shape + input.shape[axis+1:]`;
    negative indices count from the end. With `axis = 0` on a `[vocab, hidden]`
    table this is an embedding lookup.

    With `block` (a rank-0 integer), `input` is block number `block` of a
    table cut into equal blocks along `axis`: index `i` selects the slice
    `i - block * input.shape[axis]`, indices outside the block select zeros,
    and negative indices do not wrap. The partitioner builds this form when
    the table is split along `axis` (Megatron-LM's VocabParallelEmbedding):
    the blocks' results sum to the lookup in the whole table.
  }];
  let arguments = (ins Dist_Tensor:$input, Dist_IndexTensor:$indices,
                       Optional<Dist_IndexTensor>:$block,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Dist_Tensor:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::Value":$indices,
                   "int64_t":$axis, CArg<"::mlir::Value", "{}">:$block), [{
      build($_builder, $_state, input, indices, block, (uint64_t)axis);
    }]>
  ];
}

def Dist_ExpandOp : Dist_ComputeOp<"expand", [Dist_DataMovement]> {
  let summary = "Broadcasts to a shape (ONNX Expand: bidirectional broadcast)";
  let arguments = (ins Dist_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Dist_Tensor:$result);
}

class Dist_ReduceOp<string mnemonic, string what>
    : Dist_ComputeOp<mnemonic, [Dist_FlopsPerElement<1, 0>]> {
  let summary = "Reduces with " # what # " over the given axes";
  let description = "Axes may be negative. With `keepdims` the reduced "
    "dimensions stay with size 1.";
  let arguments = (ins Dist_FloatTensor:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keepdims);
  let results = (outs Dist_FloatTensor:$result);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::dist::detail::inferReduceReturnTypes(
          location, getOperationName(), adaptor.getInput(), adaptor.getAxes(),
          adaptor.getKeepdims(), types);
    }
  }];
}
def Dist_ReduceSumOp : Dist_ReduceOp<"reduce_sum", "a sum">;
def Dist_ReduceMeanOp : Dist_ReduceOp<"reduce_mean", "a mean">;
def Dist_ReduceMaxOp : Dist_ReduceOp<"reduce_max", "a maximum">;

def Dist_OneHotOp : Dist_ComputeOp<"one_hot", [Dist_DataMovement]> {
  let summary = "One-hot encoding of class indices (ONNX OneHot)";
  let description = [{
    The result has the shape of `indices` with a class axis of `depth`
    elements inserted at `axis` (negative: counted in the result), of
    `element_type`: 1 at the class an index names, 0 elsewhere; indices
    outside [0, depth) select no class. With `block` (a rank-0 integer), the
    classes are block number `block` of equal blocks of `depth` classes:
    index `i` names class `i - block * depth`. The partitioner builds it for
    the gradient of a cross entropy whose classes are split (Megatron-LM's
    vocabulary-parallel cross entropy).
  }];
  let arguments = (ins Dist_IndexTensor:$indices,
                       Optional<Dist_IndexTensor>:$block, I64Attr:$depth,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       TypeAttr:$element_type);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_CrossEntropyOp : Dist_ComputeOp<"cross_entropy",
                                          [Dist_FlopsPerElement<6, 0>], [],
                                          ["buildLocalExpansion"]> {
  let summary = "Softmax cross-entropy loss (ONNX SoftmaxCrossEntropyLoss)";
  let description = [{
    `logits` hold the classes along `class_axis`; `labels` have the shape of
    `logits` without that axis. Per sample `-w[label] * log_softmax(logits)[label]`;
    samples whose label equals `ignore_index` count zero. `mean` divides by
    the sum of the weights of the counted samples (their number without
    weights), `sum` adds, `none` returns the per-sample losses.

    Split along the classes (without weights or `ignore_index`), the
    partitioner builds Megatron-LM's vocabulary-parallel cross entropy: the
    maximum and the sum of exponentials of each sample's logits all-reduced
    over the split, and each device's loss the partial sum
    `log(sum) / P - (its logit of the label, 0 outside its block)`.
  }];
  let arguments = (ins Dist_FloatTensor:$logits, Dist_IndexTensor:$labels,
      Optional<Dist_FloatTensor>:$weights,
      DefaultValuedAttr<I64Attr, "-1">:$class_axis,
      DefaultValuedAttr<Dist_LossReductionAttr, "::mlir::dist::LossReduction::mean">:$reduction,
      OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_MseLossOp : Dist_ComputeOp<"mse_loss", [Dist_FlopsPerElement<3, 0>]> {
  let summary = "Mean squared error: mean((prediction - target)^2), a scalar";
  let arguments = (ins Dist_FloatTensor:$prediction, Dist_FloatTensor:$target);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_DropoutOp : Dist_UnaryOp<"dropout", "x", 0, [Dist_JointlyLinear]> {
  let summary = "Dropout in inference form: the identity";
  let description = [{
    Keeps `ratio` for cost and documentation; the values pass through, as in
    ONNX Dropout with training_mode false.
  }];
  let arguments = (ins Dist_FloatTensor:$input,
                       DefaultValuedAttr<F64Attr, "0.5">:$ratio);
  let results = (outs Dist_FloatTensor:$result);
  // A ratio outside [0, 1) is no probability (ONNX Dropout's range): its
  // cost and any later training form would be meaningless.
  let hasVerifier = 1;
}

def Dist_MaskTensor : RankedTensorOf<[I1]>;

// Generating a mask element is a counter-based hash (Philox-4x32-10: ten
// rounds of two 32-bit multiplies) plus a compare and a multiply; like the
// other elementwise ops, it is memory-bound and the count only matters for
// reports.
def Dist_DropoutTrainOp : Dist_ComputeOp<"dropout_train",
    [Dist_Elementwise, Dist_FlopsPerElement<4>], [],
    ["buildShardingLoops", "buildLocalExpansion"]> {
  let summary = "Dropout in training form: zeroes elements at random and "
                "rescales the rest";
  let description = [{
    ```mlir
    %y, %keep = dist.dropout_train %x {id = 3 : i64, ratio = 1.000000e-01 : f64}
        : (tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xi1>)
    ```
    `y = keep ? x / (1 - ratio) : 0`, and `keep` is the mask the gradient
    (`dist.dropout_grad`) reads: one byte per element, as Megatron-LM stores
    it for backward.

    Whether an element is kept is a pure function of `seed`, `id` and the
    element's position in the *reference* tensor, the tensor this op produced
    in the program before any transform: the Philox-4x32-10 counter-based
    generator (Random123, as cuRAND and PyTorch use) keyed by `(seed, id)`,
    counting the reference tensor's elements in row-major order; an element
    is kept when its uniform draw in [0, 1) is at least `ratio`. So a
    partitioned, microbatched or recomputed program draws exactly the masks
    of the program it came from. Transforms keep `seed` and `id`, and record
    where the local tensor lies in the reference one:
    - `reference_shape`: the reference tensor's shape (absent: the result's);
    - `reference_offset`: a fixed offset per dimension (the microbatch split
      adds its microbatch's block);
    - `blocks` with `block_dims` and `block_sizes`: for each dimension the
      partitioner split, the rank-0 block index of the device (a
      `dist.group_rank`), the dimension and the size of a block; a device
      adds `block * size` along that dimension. Every dimension splits
      through this local expansion (ShardingRuleOpInterface).
  }];
  let arguments = (ins Dist_FloatTensor:$input,
      Variadic<Dist_IndexTensor>:$blocks,
      F64Attr:$ratio, I64Attr:$id, DefaultValuedAttr<I64Attr, "0">:$seed,
      OptionalAttr<DenseI64ArrayAttr>:$reference_shape,
      OptionalAttr<DenseI64ArrayAttr>:$reference_offset,
      DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$block_dims,
      DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$block_sizes);
  let results = (outs Dist_FloatTensor:$result, Dist_MaskTensor:$keep);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The reference tensor's shape: `reference_shape`, else the result's.
    ::llvm::SmallVector<int64_t> getReferenceShapeOrResultShape();
  }];
}

def Dist_DropoutGradOp : Dist_ComputeOp<"dropout_grad",
    [Dist_Elementwise, Dist_FlopsPerElement<1>]> {
  let summary = "Gradient of dropout_train from the result gradient and the mask";
  let description = [{
    `grad_input = keep ? grad / (1 - ratio) : 0`.
  }];
  let arguments = (ins Dist_FloatTensor:$grad, Dist_MaskTensor:$keep,
                       F64Attr:$ratio);
  let results = (outs Dist_FloatTensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fused attention
//===----------------------------------------------------------------------===//

// What a fused attention op knows of the attention scale, the causal mask and
// the dropout on its probabilities. The dropout metadata is dist.dropout_train's
// for the probability tensor [b, heads, s_q, s_k] that the op never stores:
// the same (seed, id) and reference position draw the same Philox masks as the
// unfused chain's dist.dropout_train.
defvar Dist_AttentionAttributes = (ins
    DefaultValuedAttr<F64Attr, "1.0">:$scale, UnitAttr:$causal,
    DefaultValuedAttr<F64Attr, "0.0">:$dropout_ratio,
    DefaultValuedAttr<I64Attr, "0">:$dropout_id,
    DefaultValuedAttr<I64Attr, "0">:$seed,
    OptionalAttr<DenseI64ArrayAttr>:$reference_shape,
    OptionalAttr<DenseI64ArrayAttr>:$reference_offset,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$block_dims,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$block_sizes);

defvar Dist_AttentionClassDeclaration = [{
    /// The reference shape of the dropout on the probabilities:
    /// `reference_shape`, else the local probabilities' [b, heads, s_q, s_k].
    ::llvm::SmallVector<int64_t> getReferenceShapeOrProbsShape();
}];

def Dist_F32Tensor : RankedTensorOf<[F32]>;

def Dist_AttentionOp : Dist_ComputeOp<"attention", [], [],
    ["buildLocalExpansion"]> {
  let summary = "Fused scaled dot-product attention (FlashAttention-style)";
  let description = [{
    ```mlir
    %o, %lse = dist.attention %q, %k, %v {causal, scale = 0.125 : f64}
        : (tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>)
          -> (tensor<2x4x8x16xf16>, tensor<2x4x8xf32>)
    ```
    `o = dropout(softmax(scale * q k^T)) v` over `q [b, heads, s_q, d]`,
    `k [b, heads, s_k, d]`, `v [b, heads, s_k, d_v]`, as one kernel
    (FlashAttention-2, Dao 2023): the `[s_q, s_k]` scores and probabilities
    live in on-chip tiles only. `logsumexp [b, heads, s_q]` (f32) is each
    row's `log(sum(exp(scale * q k^T)))` over its visible keys: what the
    kernel stores for backward (`dist.attention_grad`), which recomputes the
    probabilities from it.

    `causal` masks the keys after the query (key index > query index), as
    `dist.softmax`'s causal mask. With `dropout_ratio > 0` the probabilities
    are dropped as `dist.dropout_train` drops them, with its `seed`,
    `dropout_id` (its `id`) and reference position (`reference_shape`,
    `reference_offset`, `blocks`, `block_dims`, `block_sizes`) of the
    probability tensor `[b, heads, s_q, s_k]`; the batch and head dimensions
    split through the local expansion, which adds the device's block.
  }];
  let arguments = !con((ins Dist_FloatTensor:$query, Dist_FloatTensor:$key,
      Dist_FloatTensor:$value, Variadic<Dist_IndexTensor>:$blocks),
      Dist_AttentionAttributes);
  let results = (outs Dist_FloatTensor:$result, Dist_F32Tensor:$logsumexp);
  let hasVerifier = 1;
  let extraClassDeclaration = Dist_AttentionClassDeclaration;
}

def Dist_AttentionGradOp : Dist_ComputeOp<"attention_grad", [], [],
    ["buildLocalExpansion"]> {
  let summary = "Gradient of dist.attention, recomputing the probabilities";
  let description = [{
    From the forward's operands, its result and `logsumexp`, and the result
    gradient `grad`: the gradients of `query`, `key` and `value`. The
    probabilities (and the dropout mask, from the same Philox draws) are
    recomputed tile by tile, never stored: FlashAttention-2's backward (five
    matmuls, two of them the recomputed forward's). Attributes as the
    forward's.
  }];
  let arguments = !con((ins Dist_FloatTensor:$query, Dist_FloatTensor:$key,
      Dist_FloatTensor:$value, Dist_FloatTensor:$output,
      Dist_F32Tensor:$logsumexp, Dist_FloatTensor:$grad,
      Variadic<Dist_IndexTensor>:$blocks),
      Dist_AttentionAttributes);
  let results = (outs Dist_FloatTensor:$grad_query, Dist_FloatTensor:$grad_key,
                      Dist_FloatTensor:$grad_value);
  let hasVerifier = 1;
  let extraClassDeclaration = Dist_AttentionClassDeclaration;
}

def Dist_CastOp : Dist_ComputeOp<"cast", [Dist_Elementwise, Dist_DataMovement]> {
  let summary = "Converts elements to another element type";
  let description = [{
    Float to integer truncates toward zero, as ONNX Cast; to `i1` tests for
    non-zero.
  }];
  let arguments = (ins Dist_Tensor:$input, TypeAttr:$to);
  let results = (outs Dist_Tensor:$result);
}

// Writing a constant's value costs bytes, not FLOPs: data movement.
def Dist_ConstantOp : Dist_Op<"constant", [Pure, ConstantLike, Dist_DataMovement,
    DeclareOpInterfaceMethods<Dist_CostOpInterface, ["getBytesRead"]>,
    DeclareOpInterfaceMethods<Dist_ShardingRuleOpInterface, ["buildShardingLoops"]>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A constant tensor, optionally placed on a device set";
  let description = [{
    ```mlir
    %0 = dist.constant dense<0.5> : tensor<f32>
    %1 = dist.constant dense<0.0> : tensor<8x16xf32> on [0:4]
    ```
    Splat constants of any size cost nothing to represent.
  }];
  let arguments = (ins ElementsAttr:$value,
                       OptionalAttr<Dist_DevicesAttr>:$devices);
  let results = (outs Dist_Tensor:$result);
  // The result type is the value's with the devices as encoding.
  let assemblyFormat = "$value (`on` custom<DeviceSet>($devices)^)? attr-dict";
  let hasFolder = 1;
}

def Dist_ConvOp : Dist_ComputeOp<"conv"> {
  let summary = "N-d convolution, channels first (ONNX Conv)";
  let description = [{
    `input` is `N x C x D1 x ... x Dk`, `filter` is `M x C/group x K1 x ... x Kk`,
    optional `bias` has `M` elements. `pads` holds the k begin pads then the k
    end pads. Output `N x M x O1 ...` with
    `Oi = floor((Di + pad_begin + pad_end - dilation (Ki - 1) - 1) / stride) + 1`.
  }];
  let arguments = (ins Dist_FloatTensor:$input, Dist_FloatTensor:$filter,
                       Optional<Dist_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_MaxPoolOp : Dist_ComputeOp<"max_pool"> {
  let summary = "N-d max pooling, channels first (ONNX MaxPool)";
  let arguments = (ins Dist_FloatTensor:$input, DenseI64ArrayAttr:$kernel_shape,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations, UnitAttr:$ceil_mode);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_AvgPoolOp : Dist_ComputeOp<"avg_pool"> {
  let summary = "N-d average pooling, channels first (ONNX AveragePool)";
  let arguments = (ins Dist_FloatTensor:$input, DenseI64ArrayAttr:$kernel_shape,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       UnitAttr:$count_include_pad, UnitAttr:$ceil_mode);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_GlobalAvgPoolOp : Dist_ComputeOp<"global_avg_pool",
                                           [Dist_FlopsPerElement<1, 0>]> {
  let summary = "Mean over all spatial dimensions, kept with size 1";
  let arguments = (ins Dist_FloatTensor:$input);
  let results = (outs Dist_FloatTensor:$result);
}

//===----------------------------------------------------------------------===//
// Backward helpers: gradients not expressible with forward ops
//===----------------------------------------------------------------------===//

class Dist_ActivationGradOp<string mnemonic, string of, string saved,
                            int flopsPerElement>
    : Dist_ComputeOp<mnemonic, [Dist_Elementwise,
                                Dist_FlopsPerElement<flopsPerElement>]> {
  let summary = "Gradient of " # of # " from the result gradient and the saved " # saved;
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$saved);
  let results = (outs Dist_FloatTensor:$result);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::dist::detail::inferActivationGradReturnTypes(
          location, getOperationName(), adaptor.getGrad(), adaptor.getSaved(),
          types);
    }
  }];
}
def Dist_ReluGradOp : Dist_ActivationGradOp<"relu_grad", "relu", "input", 1>;
def Dist_TanhGradOp : Dist_ActivationGradOp<"tanh_grad", "tanh", "output", 3>;
def Dist_SigmoidGradOp : Dist_ActivationGradOp<"sigmoid_grad", "sigmoid", "output", 3>;

def Dist_GeluGradOp : Dist_ComputeOp<"gelu_grad", [Dist_Elementwise,
                                                  Dist_FlopsPerElement<12>]> {
  let summary = "Gradient of gelu from the result gradient and the input";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$input,
      DefaultValuedAttr<Dist_GeluApproximationAttr,
                        "::mlir::dist::GeluApproximation::none">:$approximate);
  let results = (outs Dist_FloatTensor:$result);
}

// Gradients of the softmax family along one axis, from the forward output.
class Dist_SoftmaxGradBase<string mnemonic>
    : Dist_ComputeOp<mnemonic, [Dist_FlopsPerElement<4>]> {
  let results = (outs Dist_FloatTensor:$result);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::dist::detail::inferSoftmaxGradReturnTypes(
          location, getOperationName(), adaptor.getGrad(), adaptor.getOutput(),
          adaptor.getAxis(), types);
    }
  }];
}

def Dist_SoftmaxGradOp : Dist_SoftmaxGradBase<"softmax_grad"> {
  let summary = "Gradient of (scaled, causal) softmax from its output";
  let description = "`scale * y * (dy - sum(dy * y, axis))`; masked entries "
    "have `y = 0` and so get no gradient.";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$output,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_LogSoftmaxGradOp : Dist_SoftmaxGradBase<"log_softmax_grad"> {
  let summary = "Gradient of log_softmax from its output";
  let description = "`dy - exp(y) * sum(dy, axis)`.";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$output,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_LayerNormGradOp : Dist_ComputeOp<"layer_norm_grad",
                                            [Dist_FlopsPerElement<14>]> {
  let summary = "Gradients of layer_norm for its input, scale and bias";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$input,
                       Dist_FloatTensor:$scale,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Dist_FloatTensor:$input_grad,
                      Dist_FloatTensor:$scale_grad, Dist_FloatTensor:$bias_grad);
}

def Dist_BatchNormGradOp : Dist_ComputeOp<"batch_norm_grad",
                                            [Dist_FlopsPerElement<6>]> {
  let summary = "Gradients of inference batch_norm for input, scale and bias";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$input,
                       Dist_FloatTensor:$scale, Dist_FloatTensor:$mean,
                       Dist_FloatTensor:$variance,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Dist_FloatTensor:$input_grad,
                      Dist_FloatTensor:$scale_grad, Dist_FloatTensor:$bias_grad);
}

def Dist_CrossEntropyGradOp : Dist_ComputeOp<"cross_entropy_grad",
                                               [Dist_FlopsPerElement<6, 1>], [],
                                               ["buildLocalExpansion"]> {
  let summary = "Gradient of cross_entropy for the logits";
  let description = "`grad` is the loss gradient: a scalar, or per sample for "
    "`reduction = none`. Other operands and attributes as in cross_entropy.";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$logits,
      Dist_IndexTensor:$labels, Optional<Dist_FloatTensor>:$weights,
      DefaultValuedAttr<I64Attr, "-1">:$class_axis,
      DefaultValuedAttr<Dist_LossReductionAttr, "::mlir::dist::LossReduction::mean">:$reduction,
      OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_MseLossGradOp : Dist_ComputeOp<"mse_loss_grad",
                                          [Dist_FlopsPerElement<3>]> {
  let summary = "Gradient of mse_loss for the prediction";
  let description = "`grad * 2 (prediction - target) / N`; the target's "
    "gradient is its negation.";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$prediction,
                       Dist_FloatTensor:$target);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_TakeGradOp : Dist_ComputeOp<"take_grad", [Dist_FlopsPerElement<1, 0>],
                                     [], ["buildLocalExpansion"]> {
  let summary = "Gradient of take: scatter-adds slices back by index";
  let description = [{
    The result has the shape of take's input, whose `axis` had `dim_size`
    elements. With `block`, the result is block number `block` (of
    `dim_size` slices) of the gradient of a table cut into equal blocks
    along `axis`: indices outside the block add nothing (the gradient of
    take with `block`).
  }];
  let arguments = (ins Dist_FloatTensor:$grad, Dist_IndexTensor:$indices,
                       Optional<Dist_IndexTensor>:$block,
                       DefaultValuedAttr<I64Attr, "0">:$axis, I64Attr:$dim_size);
  let results = (outs Dist_FloatTensor:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$grad, "::mlir::Value":$indices,
                   "int64_t":$axis, "int64_t":$dimSize,
                   CArg<"::mlir::Value", "{}">:$block), [{
      build($_builder, $_state, grad, indices, block, (uint64_t)axis,
            (uint64_t)dimSize);
    }]>
  ];
}

def Dist_ConvGradInputOp : Dist_ComputeOp<"conv_grad_input"> {
  let summary = "Gradient of conv for its input";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$filter,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       DenseI64ArrayAttr:$input_shape);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_ConvGradFilterOp : Dist_ComputeOp<"conv_grad_filter"> {
  let summary = "Gradient of conv for its filter";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$input,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       DenseI64ArrayAttr:$filter_shape);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_MaxPoolGradOp : Dist_ComputeOp<"max_pool_grad"> {
  let summary = "Gradient of max_pool: routes each gradient to its maximum";
  let arguments = (ins Dist_FloatTensor:$grad, Dist_FloatTensor:$input,
                       DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$dilations,
                       UnitAttr:$ceil_mode);
  let results = (outs Dist_FloatTensor:$result);
}

def Dist_AvgPoolGradOp : Dist_ComputeOp<"avg_pool_grad"> {
  let summary = "Gradient of avg_pool";
  let arguments = (ins Dist_FloatTensor:$grad, DenseI64ArrayAttr:$kernel_shape,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       UnitAttr:$count_include_pad, UnitAttr:$ceil_mode,
                       DenseI64ArrayAttr:$input_shape);
  let results = (outs Dist_FloatTensor:$result);
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

def Dist_SgdUpdateOp : Dist_ComputeOp<"sgd_update", [Dist_Elementwise,
                                                    Dist_FlopsPerElement<2>]> {
  let summary = "Stochastic gradient descent: param - lr * grad";
  let arguments = (ins Dist_FloatTensor:$param, Dist_FloatTensor:$grad, F64Attr:$lr);
  let results = (outs Dist_FloatTensor:$new_param);
}

def Dist_AdamUpdateOp : Dist_ComputeOp<"adam_update",
                                        [Dist_FlopsPerElement<12, 0>]> {
  let summary = "Adam with bias correction";
  let description = [{
    `m' = b1 m + (1-b1) g`, `v' = b2 v + (1-b2) g^2`,
    `param' = param - lr * (m' / (1 - b1^t)) / (sqrt(v' / (1 - b2^t)) + eps)`
    where `t` is the scalar `step` (1 for the first update).
  }];
  let arguments = (ins Dist_FloatTensor:$param, Dist_FloatTensor:$grad,
                       Dist_FloatTensor:$moment1, Dist_FloatTensor:$moment2,
                       Dist_FloatTensor:$step, F64Attr:$lr,
                       DefaultValuedAttr<F64Attr, "0.9">:$beta1,
                       DefaultValuedAttr<F64Attr, "0.999">:$beta2,
                       DefaultValuedAttr<F64Attr, "1.0e-8">:$epsilon);
  let results = (outs Dist_FloatTensor:$new_param, Dist_FloatTensor:$new_moment1,
                      Dist_FloatTensor:$new_moment2);
}

//===----------------------------------------------------------------------===//
// Sharding annotations and meshes
//===----------------------------------------------------------------------===//

def Dist_ShardingConstraintOp : Dist_Op<"sharding_constraint", [Pure,
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Requires a value to have a sharding (like with_sharding_constraint)";
  let description = [{
    The identity on values; tells sharding propagation that `input` must be
    laid out as `sharding` at this point of the program.
  }];
  let arguments = (ins Dist_Tensor:$input, Dist_ShardingAttr:$sharding);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$input `:` type($input) `to` qualified($sharding) attr-dict";
}

def Dist_MeshOp : Dist_Op<"mesh", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "A logical device mesh";
  let description = [{
    ```mlir
    dist.mesh @world shape = [2, 2, 2] axes = ["dp", "pp", "tp"]
    ```
    Device ids are laid out over the mesh in row-major order (the last axis
    varies fastest); `devices` gives them explicitly, otherwise they are
    `0 .. product(shape) - 1`. Utilities in `distir/Dialect/Dist/IR/Mesh.h`
    map ids to coordinates and give groups along axes and sub-meshes.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI64ArrayAttr:$shape,
                       StrArrayAttr:$axes,
                       OptionalAttr<DenseI64ArrayAttr>:$devices);
  let assemblyFormat = [{
    $sym_name `shape` `=` $shape `axes` `=` $axes (`devices` `=` $devices^)?
    attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Communication ops
//===----------------------------------------------------------------------===//

// A communication op; FLOPs are stated in `traits` (the reductions' sums,
// or Dist_DataMovement).
class Dist_CommOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat([Dist_CostOpInterface,
        Dist_InferRefinableType], traits)>;

// Over groups of one device a collective moves and combines nothing: it
// folds to its operand.
class Dist_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Dist_CommOp<mnemonic, !listconcat([
        DeclareOpInterfaceMethods<Dist_CollectiveOpInterface, ["getPayloadBytes"]>],
        traits)> {
  let results = (outs Dist_Tensor:$result);
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      return ::mlir::dist::detail::foldSingletonGroups(getOperation(),
                                                       getGroups(), getInput());
    }
  }];
}

def Dist_GroupRankOp : Dist_Op<"group_rank", [Pure, Dist_DataMovement,
    DeclareOpInterfaceMethods<Dist_CostOpInterface, ["getBytesWritten"]>,
    Dist_InferRefinableType]> {
  let summary = "Each device's position in its group: a device-dependent value";
  let description = [{
    Device `groups[g][i]` holds `i`, the block it owns of a value split over
    the mesh axes the groups run along (JAX's `lax.axis_index`, upstream
    MLIR's `shard.process_multi_index` linearized over those axes). The
    partitioner creates it for ops whose local form depends on the block a
    device holds, such as a lookup in a table split along the gathered axis.
    The result is placed on the union of the groups. It costs nothing: the
    rank is known when the program is launched, no kernel computes it.

    ```mlir
    %rank = dist.group_rank groups [[0, 1], [2, 3]] : tensor<i64, #dist.devices<[0:4]>>
    ```
  }];
  let arguments = (ins Dist_DeviceGroupsAttr:$groups);
  let results = (outs Dist_IndexTensor:$result);
  let assemblyFormat = [{
    `groups` custom<DeviceGroups>($groups) attr-dict `:` type($result)
  }];
}

def Dist_SendOp : Dist_CommOp<"send", [Dist_DataMovement]> {
  let summary = "Sends a placed value to another device set of the same size";
  let description = [{
    Position by position: the i-th device of the operand's set sends its
    local tensor to the i-th device of `to`. The result is placed on `to`.

    ```mlir
    %1 = dist.send %0 to [2:4] : tensor<8x16xf32, #dist.devices<[0:2]>> -> tensor<8x16xf32, #dist.devices<[2:4]>>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, Dist_DevicesAttr:$to);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat =
      "$input `to` custom<DeviceSet>($to) attr-dict `:` type($input) `->` type($result)";
  // A send to the operand's own device set folds to the operand.
  let hasFolder = 1;
}

def Dist_AllReduceOp : Dist_CollectiveOp<"all_reduce", [Dist_FlopsPerElement<1>]> {
  let summary = "Reduces over every group; every member gets the result";
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups,
      DefaultValuedAttr<Dist_ReductionKindAttr, "::mlir::dist::ReductionKind::sum">:$reduction);
  let assemblyFormat = [{
    $input `` $reduction `groups` custom<DeviceGroups>($groups) attr-dict `:`
    type($input) `->` type($result)
  }];
}

def Dist_AllGatherOp : Dist_CollectiveOp<"all_gather", [Dist_DataMovement]> {
  let summary = "Concatenates the members' tensors along `dim`, in group order";
  let description = "The result's `dim` is the group size times the operand's.";
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups, I64Attr:$dim);
  let assemblyFormat = [{
    $input `dim` $dim `groups` custom<DeviceGroups>($groups) attr-dict `:`
    type($input) `->` type($result)
  }];
}

def Dist_ReduceScatterOp : Dist_CollectiveOp<"reduce_scatter",
                                              [Dist_FlopsPerElement<1, 0>]> {
  let summary = "Reduces over every group, member i keeps the i-th block along `dim`";
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups, I64Attr:$dim,
      DefaultValuedAttr<Dist_ReductionKindAttr, "::mlir::dist::ReductionKind::sum">:$reduction);
  let assemblyFormat = [{
    $input `` $reduction `dim` $dim `groups` custom<DeviceGroups>($groups)
    attr-dict `:` type($input) `->` type($result)
  }];
}

def Dist_AllToAllOp : Dist_CollectiveOp<"all_to_all", [Dist_DataMovement]> {
  let summary = "Splits along `split_dim`, exchanges, concatenates along `concat_dim`";
  let description = [{
    Member i sends its j-th block along `split_dim` to member j, which
    concatenates the blocks it receives in group order along `concat_dim`.
  }];
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups,
                       I64Attr:$split_dim, I64Attr:$concat_dim);
  let assemblyFormat = [{
    $input `split_dim` $split_dim `concat_dim` $concat_dim `groups`
    custom<DeviceGroups>($groups) attr-dict `:` type($input) `->` type($result)
  }];
}

def Dist_BroadcastOp : Dist_CollectiveOp<"broadcast", [Dist_DataMovement]> {
  let summary = "Copies each group's root value to every member of the group";
  let description = [{
    The operand lives on the roots (the device at position `root` of each
    group); the result on the union of the groups.
  }];
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups,
                       DefaultValuedAttr<I64Attr, "0">:$root);
  let assemblyFormat = [{
    $input `root` $root `groups` custom<DeviceGroups>($groups) attr-dict `:`
    type($input) `->` type($result)
  }];
}

def Dist_ScatterOp : Dist_CollectiveOp<"scatter", [Dist_DataMovement]> {
  let summary = "Splits each root's value along `dim` among its group's members";
  let description = [{
    The operand lives on the roots; member i of a group receives the i-th
    block along `dim`. The result lives on the union of the groups.
  }];
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups,
                       DefaultValuedAttr<I64Attr, "0">:$root, I64Attr:$dim);
  let assemblyFormat = [{
    $input `root` $root `dim` $dim `groups` custom<DeviceGroups>($groups)
    attr-dict `:` type($input) `->` type($result)
  }];
}

def Dist_GatherOp : Dist_CollectiveOp<"gather", [Dist_DataMovement]> {
  let summary = "Concatenates the members' values along `dim` on each group's root";
  let description = "The result lives on the roots only.";
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups,
                       DefaultValuedAttr<I64Attr, "0">:$root, I64Attr:$dim);
  let assemblyFormat = [{
    $input `root` $root `dim` $dim `groups` custom<DeviceGroups>($groups)
    attr-dict `:` type($input) `->` type($result)
  }];
}

def Dist_ReduceOp : Dist_CollectiveOp<"reduce", [Dist_FlopsPerElement<1, 0>]> {
  let summary = "Reduces over every group onto the group's root";
  let description = "The result lives on the roots only.";
  let arguments = (ins Dist_Tensor:$input, Dist_DeviceGroupsAttr:$groups,
      DefaultValuedAttr<I64Attr, "0">:$root,
      DefaultValuedAttr<Dist_ReductionKindAttr, "::mlir::dist::ReductionKind::sum">:$reduction);
  let assemblyFormat = [{
    $input `` $reduction `root` $root `groups` custom<DeviceGroups>($groups)
    attr-dict `:` type($input) `->` type($result)
  }];
}

#endif // DISTIR_DIALECT_DIST_DISTOPS_TD
