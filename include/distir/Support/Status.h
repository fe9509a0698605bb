//===- Status.h - Errors of distir's plain C++ libraries --------*- C++ -*-===//
//
// One error convention for the code without MLIR (kernels, shape rules,
// topology, cost model, simulator, search space, the ONNX importer's entry
// point): a fallible function returns a Status (success or a one-line
// message that the caller may prefix with its own location) or a
// StatusOr<T> (a value or that Status) instead of taking a
// `std::string &error` out-parameter. MLIR code reports through diagnostics
// and FailureOr instead. Header-only and free of LLVM, so the kernel library
// (built without LLVM) uses it too.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_STATUS_H
#define DISTIR_SUPPORT_STATUS_H

#include <cassert>
#include <optional>
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

/// A value or the Status explaining its absence (the Expected-like companion
/// of Status): a function that computes something returns StatusOr<T>
/// instead of filling an out-parameter next to a Status.
template <typename T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : value(std::move(value)), failure(Status::success()) {}
  /// An error; `status` must not be ok.
  StatusOr(Status status) : failure(std::move(status)) {
    assert(!failure.ok() && "a StatusOr without a value needs an error");
  }

  bool ok() const { return value.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return failure; }
  const std::string &message() const { return failure.message(); }

  T &operator*() & { return *value; }
  const T &operator*() const & { return *value; }
  T &&operator*() && { return std::move(*value); }
  T *operator->() { return &*value; }
  const T *operator->() const { return &*value; }

private:
  std::optional<T> value;
  Status failure;
};

} // namespace distir

/// Propagates a failed Status to the caller.
#define DISTIR_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::distir::Status distirStatus_ = (expr);                                   \
    if (!distirStatus_.ok())                                                   \
      return distirStatus_;                                                    \
  } while (false)

#define DISTIR_STATUSOR_CONCAT_INNER(a, b) a##b
#define DISTIR_STATUSOR_CONCAT(a, b) DISTIR_STATUSOR_CONCAT_INNER(a, b)

/// `DISTIR_ASSIGN_OR_RETURN(auto x, f())` declares `x` from the value of f()
/// or returns f()'s error to the caller.
#define DISTIR_ASSIGN_OR_RETURN(decl, expr)                                    \
  DISTIR_ASSIGN_OR_RETURN_IMPL(                                                \
      DISTIR_STATUSOR_CONCAT(distirStatusOr_, __LINE__), decl, expr)
#define DISTIR_ASSIGN_OR_RETURN_IMPL(tmp, decl, expr)                          \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  decl = std::move(*tmp)

#endif // DISTIR_SUPPORT_STATUS_H
