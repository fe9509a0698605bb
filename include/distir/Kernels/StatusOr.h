//===- StatusOr.h - A value or the Status explaining its absence -*- C++
//-*-===//
//
// The Expected-like companion of Status for the MLIR-free libraries (shape
// rules, kernels): a function that computes something returns StatusOr<T>
// instead of taking an out-parameter next to a Status.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_KERNELS_STATUSOR_H
#define DISTIR_KERNELS_STATUSOR_H

#include "distir/Kernels/Status.h"

#include <cassert>
#include <optional>
#include <utility>

namespace distir {

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

#endif // DISTIR_KERNELS_STATUSOR_H
