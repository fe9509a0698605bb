//===- Results.h - Printing, saving and comparing global results -*- C++
//-*-===//
//
// What dist-run shows of a program's results: a summary or the values of
// each (NumPy-like), .npy files, and the comparison with a reference
// program's results under rtol/atol (docs/dist-run.md).
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_EXECUTOR_RESULTS_H
#define DISTIR_EXECUTOR_RESULTS_H

#include "distir/Executor/GlobalView.h"
#include "distir/Kernels/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace distir {

/// Results with at most this many elements are printed in full.
constexpr int64_t kFullPrintLimit = 16;

/// An integer as an integer, a float with 7 significant digits.
std::string formatNumber(double value, ElementType type);

/// Nested lists like NumPy: [[1, 2], [3, 4]].
void printNested(llvm::raw_ostream &os, const HostTensor &tensor);

/// `name: f32 [2, 3] = [[...]]`, or its mean, min, max and first values
/// when it has more than kFullPrintLimit elements and not `printValues`.
void printResult(llvm::raw_ostream &os, const GlobalLayout &layout,
                 const HostTensor &tensor, bool printValues);

/// Writes each result to `directory`/<name>.npy (names made file-safe and
/// unique).
Status writeResultFiles(const std::string &directory,
                        const std::vector<GlobalLayout> &layouts,
                        const std::vector<HostTensor> &outputs);

/// The arguments or results (`what`) of a program and of its reference have
/// the same names, shapes and element types.
Status checkSameSignature(const std::vector<GlobalLayout> &program,
                          const std::vector<GlobalLayout> &reference,
                          const char *what, const std::string &programFile,
                          const std::string &referenceFile);

/// Prints, per result, the largest differences from `expected` and whether
/// they are within `rtol`/`atol`, then the overall verdict; `pass` says it.
/// A reference with NaN values proves nothing and fails.
Status compareResults(llvm::raw_ostream &os,
                      const std::vector<GlobalLayout> &layouts,
                      const std::vector<HostTensor> &outputs,
                      const std::vector<HostTensor> &expected, double rtol,
                      double atol, bool &pass);

} // namespace distir

#endif // DISTIR_EXECUTOR_RESULTS_H
