//===- dist-json-fuzz.cpp - libFuzzer target of the JSON readers ----------===//
//
// Feeds arbitrary bytes to the cluster reader (parseClusterJson) and the
// profile reader (ProfileTable::parse), the files dist-sim and dist-search
// take from users. The contract: no crash, no exception escapes, a failure
// has a non-empty one-line message, and a cluster that parses round-trips
// through clusterToJson.
//
//   dist-json-fuzz -max_total_time=60 CORPUS_DIR test/Fuzz/json
//
//===----------------------------------------------------------------------===//

#include "distir/CostModel/CostModel.h"
#include "distir/Topology/Cluster.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

/// Aborts (a finding) unless `message` is one non-empty line.
void requireOneLine(const std::string &message, const char *reader) {
  if (!message.empty() && message.find('\n') == std::string::npos)
    return;
  std::fprintf(stderr, "%s failed without a one-line message: '%s'\n", reader,
               message.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  using distir::topology::Cluster;
  distir::StatusOr<Cluster> cluster =
      distir::topology::parseClusterJson(text, "fuzz.json");
  if (!cluster.ok()) {
    requireOneLine(cluster.message(), "parseClusterJson");
  } else {
    std::string json = distir::topology::clusterToJson(*cluster);
    distir::StatusOr<Cluster> again =
        distir::topology::parseClusterJson(json, "round-trip.json");
    if (!again.ok()) {
      std::fprintf(stderr, "a parsed cluster does not round-trip: %s\n%s\n",
                   again.message().c_str(), json.c_str());
      std::abort();
    }
  }
  distir::StatusOr<distir::cost::ProfileTable> profile =
      distir::cost::ProfileTable::parse(text, "fuzz.json");
  if (!profile.ok())
    requireOneLine(profile.message(), "ProfileTable::parse");
  return 0;
}
