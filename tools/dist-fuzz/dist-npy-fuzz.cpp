//===- dist-npy-fuzz.cpp - libFuzzer target of the .npy reader
//-------------===//
//
// Feeds arbitrary bytes to parseNpy, which reads dist-run's --input files.
// The contract: no crash, a failure has a non-empty one-line message, and a
// tensor that parses is written back (serializeNpy) to bytes that parse to
// the same type, shape and elements.
//
//   dist-npy-fuzz -max_total_time=60 CORPUS_DIR test/Fuzz/npy
//
//===----------------------------------------------------------------------===//

#include "distir/Kernels/Npy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  distir::HostTensor tensor;
  distir::Status status = distir::parseNpy(bytes, tensor);
  if (!status.ok()) {
    const std::string &message = status.message();
    if (message.empty() || message.find('\n') != std::string::npos) {
      std::fprintf(stderr, "parseNpy failed without a one-line message: '%s'\n",
                   message.c_str());
      std::abort();
    }
    return 0;
  }
  distir::HostTensor again;
  distir::Status reread = distir::parseNpy(distir::serializeNpy(tensor), again);
  if (!reread.ok() || again.getShape() != tensor.getShape() ||
      again.getElementType() != tensor.getElementType() ||
      std::memcmp(again.getRawData(), tensor.getRawData(),
                  tensor.getByteSize()) != 0) {
    std::fprintf(stderr, "a parsed tensor does not round-trip: %s\n",
                 reread.message().c_str());
    std::abort();
  }
  return 0;
}
