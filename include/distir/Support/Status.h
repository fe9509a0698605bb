//===- Status.h - Errors of distir's plain C++ libraries ---------*- C++
//-*-===//
//
// One error convention for the code without MLIR (kernels, shape rules,
// topology, cost model, simulator, search space): a fallible function
// returns a Status (success or a one-line message that the caller may prefix
// with its own location) or a StatusOr<T> (a value or that Status) instead
// of taking a `std::string &error` out-parameter. MLIR code reports through
// diagnostics and FailureOr instead. The definitions still live beside the
// kernels, the lowest library; include this header.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_STATUS_H
#define DISTIR_SUPPORT_STATUS_H

#include "distir/Kernels/Status.h"
#include "distir/Kernels/StatusOr.h"

#endif // DISTIR_SUPPORT_STATUS_H
