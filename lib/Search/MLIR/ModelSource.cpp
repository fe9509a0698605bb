//===- ModelSource.cpp - Models as the user names them --------------------===//
//
// A preset, a generator spec (mlp:... or gpt:...) or a forward .mlir file,
// checked by the generators' own rules before anything is built.
//
//===----------------------------------------------------------------------===//

#include "distir/Search/Search.h"
#include "distir/Support/ToolSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace distir {
namespace search {

std::vector<std::pair<std::string, std::string>> ModelSource::presets() {
  // DistIR's MLP presets (f32, as DistIR simulates them) and GPT-3 175B in
  // bf16 (REFERENCE.md: microsoft/dist-ir's grid search; the 175B workload
  // of Brown et al. 2020, trained in 16-bit precision on tensor cores; the
  // generated program has one element type, so there is no f32 master
  // copy).
  return {
      {"mlp-xs", "mlp:layers=8,hidden=512"},
      {"mlp-small", "mlp:layers=16,hidden=8192"},
      {"mlp-medium", "mlp:layers=64,hidden=16384"},
      {"mlp-large", "mlp:layers=96,hidden=32768"},
      {"gpt3-175b",
       "gpt:layers=96,hidden=12288,heads=96,seq=2048,vocab=51200,dtype=bf16"}};
}

StatusOr<ModelSource> ModelSource::parse(const std::string &spec) {
  ModelSource source;
  source.spec = spec;
  std::string generator = spec;
  // The preset's own keys come first and may be overridden once each
  // ("gpt3-175b,layers=48"): only the keys the user wrote count as given.
  size_t presetItems = 0;
  for (const auto &[name, expansion] : presets())
    if (spec == name || llvm::StringRef(spec).starts_with(name + ",")) {
      generator = expansion + spec.substr(name.size());
      presetItems = llvm::StringRef(expansion).count(',') + 1;
    }

  llvm::StringRef text(generator);
  auto [kind, rest] = text.split(':');
  bool isGenerator = (kind == "mlp" || kind == "gpt") && text.contains(':');
  if (!isGenerator) {
    // Read whole: /dev/zero would never end.
    if (std::optional<std::string> error = checkRegularFile(spec))
      return Status::error("model '" + spec + "': " + *error);
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(spec);
    if (!buffer) {
      return Status::error(
          "model '" + spec +
          "': not a preset, a generator spec (mlp:... or gpt:...) or a "
          "readable file (" +
          buffer.getError().message() + ")");
    }
    source.kind = Kind::File;
    source.path = spec;
    source.text = std::make_shared<std::string>((*buffer)->getBuffer().str());
    return source;
  }

  source.kind = kind == "mlp" ? Kind::Mlp : Kind::Gpt;
  std::set<std::string> seen;
  llvm::SmallVector<llvm::StringRef> items;
  rest.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (auto [index, item] : llvm::enumerate(items)) {
    auto [key, value] = item.split('=');
    std::string where = "model '" + spec + "': ";
    if (index >= presetItems && !seen.insert(key.str()).second) {
      return Status::error(where + "'" + key.str() + "' given twice");
    }
    if (key == "dtype") {
      (source.kind == Kind::Mlp ? source.mlp.dtype : source.gpt.dtype) =
          value.str();
      continue;
    }
    int64_t number = 0;
    int64_t *field = nullptr;
    if (source.kind == Kind::Mlp)
      field = llvm::StringSwitch<int64_t *>(key)
                  .Case("layers", &source.mlp.layers)
                  .Case("hidden", &source.mlp.hidden)
                  .Case("input", &source.mlp.inputDim)
                  .Default(nullptr);
    else
      field = llvm::StringSwitch<int64_t *>(key)
                  .Case("layers", &source.gpt.layers)
                  .Case("hidden", &source.gpt.hidden)
                  .Case("heads", &source.gpt.heads)
                  .Case("seq", &source.gpt.seq)
                  .Case("vocab", &source.gpt.vocab)
                  .Default(nullptr);
    if (!field) {
      return Status::error(where + "unknown key '" + key.str() + "' (" +
                           (source.kind == Kind::Mlp
                                ? "mlp: layers, hidden, input, dtype"
                                : "gpt: layers, hidden, heads, seq, "
                                  "vocab, dtype") +
                           "; the batch is --global-batch)");
    }
    if (value.getAsInteger(10, number) || number <= 0) {
      return Status::error(where + "'" + key.str() +
                           "' must be a positive integer, got '" + value.str() +
                           "'");
    }
    *field = number;
  }
  // The generators' own checks, with a batch of one (the batch is checked
  // per configuration).
  std::optional<std::string> problem;
  if (source.kind == Kind::Mlp) {
    source.mlp.batch = 1;
    problem = models::verifyConfig(source.mlp);
  } else {
    source.gpt.batch = 1;
    problem = models::verifyConfig(source.gpt);
  }
  if (problem) {
    // The generators word problems as dist-gen options ("--heads 5 does not
    // divide --hidden 64"); the spec spells them as keys.
    std::string text = *problem;
    for (size_t at; (at = text.find("--")) != std::string::npos;)
      text.erase(at, 2);
    return Status::error("model '" + spec + "': " + text);
  }
  return source;
}

std::string ModelSource::getForwardCommand(int64_t batch) const {
  std::string command;
  llvm::raw_string_ostream os(command);
  if (kind == Kind::Mlp) {
    os << "dist-gen mlp --layers " << mlp.layers << " --hidden " << mlp.hidden;
    if (mlp.inputDim)
      os << " --input-dim " << mlp.inputDim;
    os << " --batch " << batch;
    if (mlp.dtype != "f32")
      os << " --dtype " << mlp.dtype;
  } else if (kind == Kind::Gpt) {
    os << "dist-gen gpt --layers " << gpt.layers << " --hidden " << gpt.hidden
       << " --heads " << gpt.heads << " --seq " << gpt.seq << " --vocab "
       << gpt.vocab << " --batch " << batch;
    if (gpt.dtype != "f32")
      os << " --dtype " << gpt.dtype;
  } else {
    os << "cat " << path;
  }
  return command;
}

} // namespace search
} // namespace distir
