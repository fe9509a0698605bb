//===- Framework.h - What runs a program: overlaps, fusions -----*- C++ -*-===//
//
// The same placed program runs at different speeds under different versions
// of the framework that executes it: whether a tensor-parallel all-reduce
// blocks the GPU or overlaps the weight-gradient GEMM, whether the
// data-parallel gradient all-reduce overlaps the backward or follows it, which
// element-wise kernels are fused. These are choices of *timing*: they change
// when the program's ops run and what a kernel costs, never what is computed
// or communicated (choices of that kind are pass options, so that dist-run
// runs what dist-sim times). `--framework NAME[:key=value,...]` selects one,
// with the `--cluster` syntax; docs/dist-sim.md gives the source of every
// choice of every preset. Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_FRAMEWORK_H
#define DISTIR_SIMULATOR_FRAMEWORK_H

#include "distir/Support/Status.h"

#include <string>
#include <string_view>
#include <vector>

namespace distir {
namespace sim {

/// When the data-parallel gradient reductions (the collectives of the
/// optimizer phase) run.
enum class GradientReduce : uint8_t {
  /// On their own stream, as soon as each gradient is complete, overlapping
  /// the rest of the backward (PyTorch DDP's buckets, Megatron-Core's
  /// overlap_grad_reduce).
  Overlapped,
  /// Blocking the device, after the whole backward (Megatron's local DDP:
  /// allreduce_gradients() once the microbatches are done).
  AfterBackward,
};

struct Framework {
  /// The preset this was built from (with its options, as given).
  std::string name = "megatron-core";
  /// Tensor-parallel collectives (those of the forward and backward phases)
  /// run on their own stream and overlap the compute that does not need
  /// them (Megatron's asynchronous all-reduce of the input gradient during
  /// the weight-gradient GEMM). Off: they block the compute stream.
  bool asyncTensorParallel = true;
  GradientReduce gradientReduce = GradientReduce::Overlapped;
  /// Bias addition fused into the GEMM that produces its input (a GEMM with
  /// bias epilogue: the add costs nothing).
  bool fuseGemmBias = true;
  /// Bias addition fused into the GeLU that reads it (Megatron's
  /// bias_gelu_impl): one memory pass instead of two.
  bool fuseBiasGelu = true;
  /// Bias addition (and dropout) fused into the residual addition that
  /// follows (Megatron's bias_dropout_add_fused_train).
  bool fuseBiasDropoutAdd = true;

  /// Whether any fusion is on (the lowering's pre-pass can be skipped).
  bool fusesAnything() const {
    return fuseGemmBias || fuseBiasGelu || fuseBiasDropoutAdd;
  }
};

/// Names of the presets, for help texts and errors.
std::vector<std::string> frameworkPresetNames();

/// `megatron-sc21`, `megatron-2022`, `megatron-core` (the default), each with
/// optional `:key=value,...` overrides: `ddp=torch|local`,
/// `tp-overlap=true|false`, `fuse=true|false` (all fusions).
StatusOr<Framework> parseFrameworkSpec(std::string_view spec);

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_FRAMEWORK_H
