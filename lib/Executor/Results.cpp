//===- Results.cpp - Printing, saving and comparing global results --------===//

#include "distir/Executor/Results.h"

#include "distir/Executor/Inputs.h"
#include "distir/Kernels/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace distir {

std::string formatNumber(double value, ElementType type) {
  char buffer[48];
  if (isIntegerType(type))
    std::snprintf(buffer, sizeof(buffer), "%lld",
                  static_cast<long long>(value));
  else
    std::snprintf(buffer, sizeof(buffer), "%.7g", value);
  return buffer;
}

void printNested(llvm::raw_ostream &os, const HostTensor &tensor) {
  const std::vector<int64_t> &shape = tensor.getShape();
  if (shape.empty()) {
    os << formatNumber(tensor.getAsDouble(0), tensor.getElementType());
    return;
  }
  std::vector<int64_t> counter(shape.size(), 0);
  int64_t total = tensor.getNumElements();
  if (total == 0) {
    os << "[]";
    return;
  }
  for (int64_t i = 0; i < total; ++i) {
    size_t opened = 0;
    for (size_t d = shape.size(); d-- > 0;)
      if (counter[d] == 0)
        ++opened;
      else
        break;
    if (i > 0)
      os << ", ";
    for (size_t o = 0; o < opened; ++o)
      os << "[";
    os << formatNumber(tensor.getAsDouble(i), tensor.getElementType());
    for (size_t d = shape.size(); d-- > 0;) {
      if (++counter[d] < shape[d])
        break;
      counter[d] = 0;
      os << "]";
    }
  }
}

void printResult(llvm::raw_ostream &os, const GlobalLayout &layout,
                 const HostTensor &tensor, bool printValues) {
  os << layout.name << ": " << getElementTypeName(tensor.getElementType())
     << " " << formatShape(tensor.getShape());
  const int64_t count = tensor.getNumElements();
  if (printValues || count <= kFullPrintLimit) {
    os << " = ";
    printNested(os, tensor);
    os << "\n";
    return;
  }
  double sum = 0, low = INFINITY, high = -INFINITY;
  for (int64_t i = 0; i < count; ++i) {
    double value = tensor.getAsDouble(i);
    sum += value;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  const ElementType type = tensor.getElementType();
  os << " mean=" << formatNumber(sum / count, ElementType::F64)
     << " min=" << formatNumber(low, type)
     << " max=" << formatNumber(high, type) << " first=[";
  for (int64_t i = 0; i < 4; ++i)
    os << (i ? ", " : "") << formatNumber(tensor.getAsDouble(i), type);
  os << ", ...]\n";
}

Status writeResultFiles(const std::string &directory,
                        const std::vector<GlobalLayout> &layouts,
                        const std::vector<HostTensor> &outputs) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return Status::error("cannot create " + directory + ": " + error.message());
  std::map<std::string, int> used;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = layouts[i].name;
    for (char &c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' &&
          c != '-' && c != '.')
        c = '_';
    if (used[name]++)
      name += "_" + std::to_string(i);
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name + ".npy");
    DISTIR_RETURN_IF_ERROR(writeNpyFile(path.str().str(), outputs[i]));
  }
  return Status::success();
}

Status checkSameSignature(const std::vector<GlobalLayout> &program,
                          const std::vector<GlobalLayout> &reference,
                          const char *what, const std::string &programFile,
                          const std::string &referenceFile) {
  if (program.size() != reference.size())
    return Status::error(
        programFile + " has " + std::to_string(program.size()) + " " + what +
        "s but " + referenceFile + " has " + std::to_string(reference.size()));
  for (size_t i = 0; i < program.size(); ++i)
    if (program[i].name != reference[i].name ||
        program[i].globalShape != reference[i].globalShape ||
        program[i].elementType != reference[i].elementType)
      return Status::error(std::string(what) + " " + std::to_string(i) +
                           " is " + describe(program[i]) + " in " +
                           programFile + " but " + describe(reference[i]) +
                           " in " + referenceFile);
  return Status::success();
}

/// The NaN values of a reference result: NaN equals NaN in the comparison,
/// so a NaN reference would make any transformation look right.
static int64_t countNaNs(const HostTensor &tensor) {
  int64_t count = 0;
  for (int64_t e = 0; e < tensor.getNumElements(); ++e)
    count += std::isnan(tensor.getAsDouble(e));
  return count;
}

Status compareResults(llvm::raw_ostream &os,
                      const std::vector<GlobalLayout> &layouts,
                      const std::vector<HostTensor> &outputs,
                      const std::vector<HostTensor> &expected, double rtol,
                      double atol, bool &pass) {
  pass = true;
  double overallAbs = 0, overallRel = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorDifference difference;
    if (Status status =
            compareTensors(outputs[i], expected[i], rtol, atol, difference);
        !status.ok())
      return Status::error("result '" + layouts[i].name +
                           "': " + status.message());
    overallAbs = std::max(overallAbs, difference.maxAbsErr);
    overallRel = std::max(overallRel, difference.maxRelErr);
    os << layouts[i].name << ": max_abs_err="
       << formatNumber(difference.maxAbsErr, ElementType::F64)
       << " max_rel_err="
       << formatNumber(difference.maxRelErr, ElementType::F64);
    if (int64_t referenceNaNs = countNaNs(expected[i])) {
      pass = false;
      os << " NAN (" << referenceNaNs
         << " NaN values in the reference: the inputs are not valid for it)\n";
      continue;
    }
    if (difference.numMismatches == 0) {
      os << " ok\n";
      continue;
    }
    pass = false;
    os << " MISMATCH (" << difference.numMismatches << " of "
       << outputs[i].getNumElements() << " elements outside rtol/atol)\n";
  }
  os << "overall: max_abs_err=" << formatNumber(overallAbs, ElementType::F64)
     << " max_rel_err=" << formatNumber(overallRel, ElementType::F64)
     << " rtol=" << formatNumber(rtol, ElementType::F64)
     << " atol=" << formatNumber(atol, ElementType::F64) << ": "
     << (pass ? "PASS" : "FAIL") << "\n";
  return Status::success();
}

} // namespace distir
