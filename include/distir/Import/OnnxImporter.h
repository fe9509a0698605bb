//===- OnnxImporter.h - ONNX models to the dist dialect ---------*- C++ -*-===//
//
// Reads an ONNX ModelProto (binary, or ONNX's textual syntax), validates it
// with ONNX's own checker and shape inference, and builds one func.func of
// the dist dialect: graph inputs become data arguments, initializers named
// parameter arguments, graph outputs named results. Errors are one line and
// name the node (and its op type) they concern; the importer never aborts.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_IMPORT_ONNXIMPORTER_H
#define DISTIR_IMPORT_ONNXIMPORTER_H

#include "distir/Kernels/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace distir {

struct OnnxImportOptions {
  /// Keep float initializers as dist.constant values instead of parameter
  /// arguments. (Integer and boolean initializers are always constants: they
  /// are indices, shapes or masks, never trained.)
  bool embedWeights = false;
  /// Shapes of graph inputs by name. They replace symbolic or unknown
  /// dimensions before ONNX shape inference runs; a symbolic dimension fixed
  /// here takes the same value in every other input that names it.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Values that graph inputs will have. Where the dialect needs a
  /// compile-time value (a Reshape shape, Slice starts, reduction axes, ...)
  /// and it comes from such an input, the input becomes this constant and
  /// leaves the function's arguments; other inputs stay arguments.
  std::map<std::string, HostTensor> inputValues;
  /// Name the parameters whose ONNX name the exporter generated
  /// (`onnx::MatMul_567`, torch's folded nn.Linear weights) after the scope
  /// of the node that reads them (`h.0.c_fc.weight`), keeping the ONNX name
  /// in the argument attribute `onnx.name`.
  bool recoverNames = true;
  /// Name of the imported function.
  std::string functionName = "main";
};

/// Imports the model held in `contents` (read from `modelPath`, which is used
/// in messages and to find external tensor data). A failure is one line,
/// "<modelPath>: <reason>": the reasons come from ONNX's checker and shape
/// inference as often as from the IR, so they are a Status, not diagnostics.
/// Constant subgraphs are folded by running the reference kernels: `context`
/// must have them registered
/// (mlir::dist::registerExecutionInterfaceExternalModels).
StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxModel(llvm::StringRef contents, llvm::StringRef modelPath,
                mlir::MLIRContext &context, const OnnxImportOptions &options);

/// The ops the importer maps, as "OpType" for the default domain and
/// "domain.OpType" otherwise, sorted.
std::vector<std::string> getSupportedOnnxOps();

/// Whether `contents` looks like ONNX's textual syntax rather than a binary
/// ModelProto.
bool isOnnxText(llvm::StringRef contents);

/// Reads a serialized TensorProto (the input_N.pb / output_N.pb files of
/// ONNX's test suite). Errors start with "<path>: ".
Status readOnnxTensorFile(const std::string &path, HostTensor &tensor);

/// The initializers of an ONNX model file by name, with external data loaded
/// (what `dist-run --weights model.onnx` feeds as parameter arguments).
Status loadOnnxInitializers(const std::string &modelPath,
                            std::map<std::string, HostTensor> &weights);

} // namespace distir

#endif // DISTIR_IMPORT_ONNXIMPORTER_H
