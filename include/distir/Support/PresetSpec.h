//===- PresetSpec.h - NAME[:key=value,...] command-line specs ---*- C++ -*-===//
//
// --cluster and --framework name a preset and override some of its choices
// with the same syntax, `NAME[:key=value,...]`; both split it here so that
// they cannot drift apart. Plain C++, header only.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_PRESETSPEC_H
#define DISTIR_SUPPORT_PRESETSPEC_H

#include <string_view>
#include <utility>
#include <vector>

namespace distir {

/// The parts of `NAME[:key=value,...]`, viewing the spec's text. An option
/// without `=` has an empty value.
struct PresetSpec {
  std::string_view name;
  std::vector<std::pair<std::string_view, std::string_view>> options;
};

inline PresetSpec splitPresetSpec(std::string_view spec) {
  PresetSpec parts;
  parts.name = spec.substr(0, spec.find(':'));
  std::string_view options =
      parts.name.size() < spec.size() ? spec.substr(parts.name.size() + 1) : "";
  while (!options.empty()) {
    std::string_view option = options.substr(0, options.find(','));
    options =
        option.size() < options.size() ? options.substr(option.size() + 1) : "";
    size_t equals = option.find('=');
    parts.options.emplace_back(option.substr(0, equals),
                               equals == std::string_view::npos
                                   ? std::string_view()
                                   : option.substr(equals + 1));
  }
  return parts;
}

} // namespace distir

#endif // DISTIR_SUPPORT_PRESETSPEC_H
