//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads format versions 1.0, 2.0 and 3.0, little-endian, C order, with dtypes
// <f8 <f4 <f2 <i8 <i4 |b1. Writes version 1.0 (2.0 when the header does not
// fit 64 KiB). bfloat16 is not a NumPy dtype: a bf16 tensor is written as <f4
// holding its exact values.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_KERNELS_NPY_H
#define DISTIR_KERNELS_NPY_H

#include "distir/Kernels/HostTensor.h"

#include <string>

namespace distir {

/// Parses the bytes of a .npy file. Errors name the problem, not the file.
Status parseNpy(const std::string &bytes, HostTensor &tensor);
/// Serializes a tensor to .npy bytes.
std::string serializeNpy(const HostTensor &tensor);

/// File wrappers; their errors start with "<path>: ".
Status readNpyFile(const std::string &path, HostTensor &tensor);
Status writeNpyFile(const std::string &path, const HostTensor &tensor);

} // namespace distir

#endif // DISTIR_KERNELS_NPY_H
