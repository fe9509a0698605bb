//===- JsonSupport.h - JSON reading for the plain libraries -----*- C++ -*-===//
//
// nlohmann_json throws on malformed input, so this header is only for the
// plain C++ libraries (Topology, CostModel, Simulator), which are built with
// exceptions; MLIR code (built with -fno-exceptions) must not include it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_TOPOLOGY_JSONSUPPORT_H
#define DISTIR_TOPOLOGY_JSONSUPPORT_H

#include "distir/Support/Status.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace distir {
namespace topology {

/// Parses `text`; a syntax error is
/// "<sourceName>:<line>:<column>: invalid JSON: <reason>".
StatusOr<nlohmann::json> parseJsonText(std::string_view text,
                                       std::string_view sourceName);

/// Reads a whole file; the error is "<path>: cannot open <what>".
StatusOr<std::string> readTextFile(const std::string &path,
                                   std::string_view what);

} // namespace topology
} // namespace distir

#endif // DISTIR_TOPOLOGY_JSONSUPPORT_H
