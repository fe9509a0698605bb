//===- Framework.cpp - Framework presets and --framework specs ------------===//
//
// Every choice of every preset has its source in docs/dist-sim.md
// ("Frameworks"); the comments name the Megatron-LM code it comes from.
//
//===----------------------------------------------------------------------===//

#include "distir/Simulator/Framework.h"

#include "distir/Support/PresetSpec.h"

#include <array>
#include <optional>

namespace distir {
namespace sim {

namespace {

struct Preset {
  std::string_view name;
  Framework framework;
};

Framework makeFramework(std::string_view name, bool asyncTensorParallel,
                        GradientReduce gradientReduce, bool fuseGemmBias) {
  Framework framework;
  framework.name = std::string(name);
  framework.asyncTensorParallel = asyncTensorParallel;
  framework.gradientReduce = gradientReduce;
  framework.fuseGemmBias = fuseGemmBias;
  // Bias-GeLU and bias-dropout-add fusion are on by default in every version
  // (--no-bias-gelu-fusion, --no-bias-dropout-fusion).
  framework.fuseBiasGelu = true;
  framework.fuseBiasDropoutAdd = true;
  return framework;
}

const std::array<Preset, 3> &presets() {
  static const std::array<Preset, 3> kPresets = {{
      // Megatron-LM 6985e58 (examples/sc21): torch.distributed.all_reduce in
      // the autograd functions of mpu/mappings.py blocks; --DDP-impl torch
      // (PyTorch DDP, buckets overlapping the backward), as run_table_1.sh up
      // to 18B; the QKV bias is added by F.linear (a GEMM with bias).
      {"megatron-sc21",
       makeFramework("megatron-sc21", false, GradientReduce::Overlapped, true)},
      // Megatron-LM as of Korthikanti et al. 2022 (cfd2e21): the input
      // gradient's all-reduce overlaps the weight-gradient GEMM
      // (LinearWithGradAccumulationAndAsyncCommunication, on by default);
      // --DDP-impl local (the default): after the backward; the bias is added
      // by a separate `output + bias`.
      {"megatron-2022", makeFramework("megatron-2022", true,
                                      GradientReduce::AfterBackward, false)},
      // Megatron-Core: asynchronous tensor-parallel all-reduce, the
      // gradient reduce overlapped (--overlap-grad-reduce, as its examples
      // run), Transformer Engine's linear layers (bias in the GEMM).
      {"megatron-core",
       makeFramework("megatron-core", true, GradientReduce::Overlapped, true)},
  }};
  return kPresets;
}

std::optional<bool> parseBool(std::string_view value) {
  if (value == "true" || value == "1" || value == "on")
    return true;
  if (value == "false" || value == "0" || value == "off")
    return false;
  return std::nullopt;
}

/// Applies one `key=value` override.
Status applyOption(Framework &framework, std::string_view key,
                   std::string_view value, const std::string &spec) {
  auto invalid = [&](std::string_view expected) {
    return Status::error("framework spec '" + spec + "': invalid value '" +
                         std::string(value) + "' for " + std::string(key) +
                         " (expected " + std::string(expected) + ")");
  };
  if (key == "ddp") {
    if (value == "torch")
      framework.gradientReduce = GradientReduce::Overlapped;
    else if (value == "local")
      framework.gradientReduce = GradientReduce::AfterBackward;
    else
      return invalid("torch or local");
    return Status::success();
  }
  std::optional<bool> flag = parseBool(value);
  if (key == "tp-overlap" || key == "fuse") {
    if (!flag)
      return invalid("true or false");
    if (key == "tp-overlap") {
      framework.asyncTensorParallel = *flag;
    } else {
      framework.fuseGemmBias = *flag;
      framework.fuseBiasGelu = *flag;
      framework.fuseBiasDropoutAdd = *flag;
    }
    return Status::success();
  }
  return Status::error("framework spec '" + spec + "': unknown option '" +
                       std::string(key) +
                       "' (expected ddp=torch|local, tp-overlap=true|false, "
                       "fuse=true|false)");
}

} // namespace

std::vector<std::string> frameworkPresetNames() {
  std::vector<std::string> names;
  for (const Preset &preset : presets())
    names.emplace_back(preset.name);
  return names;
}

StatusOr<Framework> parseFrameworkSpec(std::string_view spec) {
  std::string specText(spec);
  PresetSpec parts = splitPresetSpec(spec);
  std::string_view name = parts.name;
  const Preset *found = nullptr;
  for (const Preset &preset : presets())
    if (preset.name == name)
      found = &preset;
  if (!found) {
    std::string known;
    for (const std::string &preset : frameworkPresetNames())
      known += (known.empty() ? "" : ", ") + preset;
    return Status::error("framework spec '" + specText + "': unknown preset '" +
                         std::string(name) + "' (known: " + known + ")");
  }
  Framework framework = found->framework;
  framework.name = specText;
  for (auto [key, value] : parts.options)
    DISTIR_RETURN_IF_ERROR(applyOption(framework, key, value, specText));
  return framework;
}

} // namespace sim
} // namespace distir
