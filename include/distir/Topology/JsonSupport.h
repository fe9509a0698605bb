//===- JsonSupport.h - JSON reading for the plain libraries -----*- C++ -*-===//
//
// nlohmann_json throws on malformed input, so this header is only for the
// plain C++ libraries (Topology, CostModel, Simulator), which are built with
// exceptions; MLIR code (built with -fno-exceptions) must not include it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_TOPOLOGY_JSONSUPPORT_H
#define DISTIR_TOPOLOGY_JSONSUPPORT_H

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace distir {
namespace topology {

/// Parses `text`; on a syntax error sets `error` to
/// "<sourceName>:<line>:<column>: invalid JSON: <reason>".
std::optional<nlohmann::json> parseJsonText(std::string_view text,
                                            std::string_view sourceName,
                                            std::string &error);

/// Reads a whole file; on failure sets `error` to "<path>: cannot open <what>".
std::optional<std::string> readTextFile(const std::string &path,
                                        std::string_view what,
                                        std::string &error);

} // namespace topology
} // namespace distir

#endif // DISTIR_TOPOLOGY_JSONSUPPORT_H
