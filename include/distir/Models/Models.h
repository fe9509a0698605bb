//===- Models.h - forward programs of MLP and GPT models --------*- C++ -*-===//
//
// Builders of the unplaced forward program of a model: one func.func whose
// arguments are the named parameters (role "parameter") followed by the data
// (role "data") and whose single result is the scalar loss (role "loss").
// Only types are built, never values, so a trillion-parameter model costs a
// few thousand ops. Every op carries `dist.layer` (the pipeline-cutting
// hint); see docs/dist-gen.md for the exact programs.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_MODELS_MODELS_H
#define DISTIR_MODELS_MODELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <string>

namespace distir::models {

/// DistIR's MLP: `layers` x (matmul, relu) without biases, then the mean
/// squared error against a [batch, hidden] target.
struct MlpConfig {
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t batch = 0;
  /// Width of the input; 0 means `hidden`.
  int64_t inputDim = 0;
  /// Element type of parameters and activations: f64, f32, f16 or bf16.
  std::string dtype = "f32";
  std::string functionName = "mlp";

  int64_t getInputDim() const { return inputDim == 0 ? hidden : inputDim; }
};

/// A GPT-2/3 style decoder: token and learned position embeddings, `layers`
/// pre-norm blocks (layer norm, causal multi-head attention, residual, layer
/// norm, GeLU MLP of width 4 * hidden, residual), a final layer norm, an LM
/// head without bias (not tied to the embedding) and the mean cross-entropy.
struct GptConfig {
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t seq = 0;
  int64_t vocab = 0;
  int64_t batch = 0;
  std::string dtype = "f32";
  std::string functionName = "gpt";
  /// The LM head is the word embedding transposed (GPT-2's and Megatron-LM's
  /// default) rather than its own lm_head.weight [H, V].
  bool tieEmbeddings = true;
  /// Training dropout probability where Megatron-LM applies it: after the
  /// embeddings, on the attention probabilities, after the attention
  /// projection and after the MLP (each before its residual add). 0: none.
  /// Default 0.1, Megatron-LM's default --hidden-dropout and
  /// --attention-dropout (megatron/training/arguments.py).
  double dropout = 0.1;
  /// The attention core as one dist.attention op (FlashAttention: the
  /// [s, s] probabilities never stored) instead of matmul, softmax, dropout
  /// and matmul.
  bool fusedAttention = false;
};

/// Why the configuration cannot be built (naming the offending option as
/// the command line spells it, e.g. "--heads 5 does not divide --hidden
/// 64"), or nullopt if it can. Rejects sizes whose tensors would not fit
/// 64-bit byte counts.
std::optional<std::string> verifyConfig(const MlpConfig &config);
std::optional<std::string> verifyConfig(const GptConfig &config);

/// Number of trainable parameters (elements), in closed form.
int64_t getNumParameters(const MlpConfig &config);
int64_t getNumParameters(const GptConfig &config);

/// Appends the forward function to `module`. An invalid configuration is
/// reported as an error at the module's location and gives failure.
mlir::FailureOr<mlir::func::FuncOp> buildMlp(mlir::ModuleOp module,
                                             const MlpConfig &config);
mlir::FailureOr<mlir::func::FuncOp> buildGpt(mlir::ModuleOp module,
                                             const GptConfig &config);

} // namespace distir::models

#endif // DISTIR_MODELS_MODELS_H
