//===- Status.h - Error result of a kernel ----------------------*- C++ -*-===//
//
// The kernel library has no LLVM dependency and is built without exceptions,
// so every fallible entry point returns a Status: either success or a
// one-line message that the caller prefixes with its own location.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_KERNELS_STATUS_H
#define DISTIR_KERNELS_STATUS_H

#include <string>
#include <utility>

namespace distir {

class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status status;
    status.failed = true;
    status.text = std::move(message);
    return status;
  }

  bool ok() const { return !failed; }
  const std::string &message() const { return text; }

private:
  Status() = default;
  bool failed = false;
  std::string text;
};

} // namespace distir

/// Propagates a failed Status to the caller.
#define DISTIR_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::distir::Status distirStatus_ = (expr);                                   \
    if (!distirStatus_.ok())                                                   \
      return distirStatus_;                                                    \
  } while (false)

#endif // DISTIR_KERNELS_STATUS_H
