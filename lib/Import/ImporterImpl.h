//===- ImporterImpl.h - Internals of the ONNX importer ----------*- C++ -*-===//
//
// Shared by the importer's sources: tensor conversion (OnnxTensors.cpp), the
// graph walk (OnnxImporter.cpp) and the per-op converters (OnnxOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_LIB_IMPORT_IMPORTERIMPL_H
#define DISTIR_LIB_IMPORT_IMPORTERIMPL_H

#include "distir/Import/OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <optional>
#include <set>

/// Unwraps a FailureOr into `var`, returning failure (the error is already
/// recorded) when there is none.
#define ASSIGN_OR_RETURN(var, expr)                                            \
  auto var##OrFailure = (expr);                                                \
  if (failed(var##OrFailure))                                                  \
    return failure();                                                          \
  auto var = std::move(*var##OrFailure)

namespace distir::onnx_import {

//===----------------------------------------------------------------------===//
// Tensors and element types
//===----------------------------------------------------------------------===//

/// ONNX's name of a TensorProto data type ("FLOAT", "INT64", ...).
std::string getOnnxTypeName(int32_t dataType);
/// The HostTensor type of an ONNX data type, if distir has one.
std::optional<ElementType> getElementTypeFromOnnx(int32_t dataType);
mlir::Type getMlirElementType(ElementType type, mlir::MLIRContext *context);

/// Converts a TensorProto; external data is read relative to `modelDir`.
/// Errors name the tensor.
Status tensorFromProto(const onnx::TensorProto &proto, llvm::StringRef modelDir,
                       HostTensor &tensor);
/// Moves external data into raw_data (ONNX's shape inference reads only
/// inline data).
Status inlineExternalData(onnx::TensorProto &proto, llvm::StringRef modelDir);
/// The elements of a HostTensor as an attribute of `type` (same shape and
/// element type).
mlir::DenseElementsAttr getElementsAttr(const HostTensor &tensor,
                                        mlir::RankedTensorType type);
/// Integer tensor contents as int64 (I64, I32 or I1); fails for floats.
Status getIntegerValues(const HostTensor &tensor,
                        llvm::SmallVectorImpl<int64_t> &values);

/// "<path>: <message>" ("<path>:<line>:<col>: ..." for text syntax errors)
/// on one line: control characters quoted from the model are escaped.
std::string formatModelError(llvm::StringRef path, llvm::StringRef message);

/// Constants the importer computes itself (ConstantOfShape, masks, shape
/// computations evaluated at import time) are held twice, as a HostTensor
/// and as an attribute: larger than this, the import fails naming the node
/// instead of exhausting the host. Models keep big tensors as initializers.
constexpr int64_t kMaxFoldedBytes = int64_t(1) << 30;
/// Fails unless a `type` tensor of `shape` is valid and at most
/// kMaxFoldedBytes.
Status checkFoldedSize(const std::vector<int64_t> &shape, ElementType type);

/// Parses a binary or textual ModelProto.
Status parseModel(llvm::StringRef contents, onnx::ModelProto &model);

/// The argument attribute holding the ONNX name of a parameter whose
/// dist.name was recovered.
constexpr llvm::StringLiteral kOnnxNameAttrName = "onnx.name";

/// Names for the initializers the exporter named itself (`onnx::MatMul_N`):
/// a matmul weight after the bias added to its result (`h.0.c_fc.bias`
/// gives `h.0.c_fc.weight`), otherwise the scope of the first node reading
/// one plus its role there (`/h.0/c_fc/MatMul` reading `onnx::MatMul_7` as
/// its weight gives `h.0.c_fc.weight`). Initializers whose name would be
/// ambiguous or taken are left out (OnnxNames.cpp).
std::map<std::string, std::string>
recoverParameterNames(const onnx::GraphProto &graph);

//===----------------------------------------------------------------------===//
// Graph and node import
//===----------------------------------------------------------------------===//

class GraphImporter;

/// What the conversion of one node sees: its inputs as dist values (or as
/// values known at import time), its attributes, and builders that report a
/// failed shape rule as an error naming the node instead of aborting.
class NodeImporter {
public:
  NodeImporter(GraphImporter &graph, const onnx::NodeProto &node,
               int64_t version, mlir::Location loc, std::string label);

  const onnx::NodeProto &node;
  /// The version of the op's schema in the model's opset (its since_version).
  const int64_t version;
  mlir::OpBuilder &builder;
  const mlir::Location loc;
  mlir::MLIRContext *context;

  //--- Inputs: an empty name is an absent optional input.
  int getNumInputs() const { return node.input_size(); }
  bool hasInput(int index) const;
  mlir::FailureOr<mlir::Value> getInput(int index);
  /// Null when the input is absent.
  mlir::Value getOptionalInput(int index);
  /// The value of an input that the dialect needs at import time (shapes,
  /// axes); an error explains what it depends on otherwise.
  mlir::FailureOr<const HostTensor *> getStaticInput(int index,
                                                     llvm::StringRef what);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getStaticInts(int index, llvm::StringRef what);
  /// The input's value if it can be known at import time, else null.
  const HostTensor *tryGetStaticInput(int index);

  //--- Attributes (types were checked by ONNX's checker against the schema).
  const onnx::AttributeProto *findAttr(llvm::StringRef name) const;
  int64_t getInt(llvm::StringRef name, int64_t defaultValue) const;
  double getFloat(llvm::StringRef name, double defaultValue) const;
  std::string getString(llvm::StringRef name,
                        llvm::StringRef defaultValue) const;
  std::optional<llvm::SmallVector<int64_t>> getInts(llvm::StringRef name) const;

  //--- Outputs: an empty name is an output nobody uses.
  int getNumOutputs() const { return node.output_size(); }
  bool hasOutput(int index) const;
  void setOutput(int index, mlir::Value value);

  //--- Building.
  /// Creates an op of `numResults` results with inferred result types.
  template <typename OpTy, typename... Args>
  mlir::FailureOr<mlir::Operation *> createOp(unsigned numResults,
                                              Args &&...args) {
    mlir::OperationState state(loc, OpTy::getOperationName());
    // The builders that take result types fill operands and properties the
    // same way as the inferring ones; the placeholder types are replaced by
    // the inferred ones below, so a shape rule that fails is an error here
    // instead of the fatal error of the inferring builder.
    llvm::SmallVector<mlir::Type> placeholders(numResults,
                                               builder.getNoneType());
    OpTy::build(builder, state, mlir::TypeRange(placeholders),
                std::forward<Args>(args)...);
    llvm::SmallVector<mlir::Type> inferred;
    if (mlir::failed(OpTy::inferReturnTypes(
            context, loc, state.operands,
            state.attributes.getDictionary(context), state.getRawProperties(),
            state.regions, inferred)))
      return reportDiagnostics();
    state.types.assign(inferred.begin(), inferred.end());
    mlir::Operation *op = builder.create(state);
    // Operand constraints (float-only ops, index types) are checked by the
    // verifier; check now so the error names this node.
    if (mlir::failed(mlir::verify(op, /*verifyRecursively=*/false))) {
      op->erase();
      return reportDiagnostics();
    }
    return op;
  }
  template <typename OpTy, typename... Args>
  mlir::FailureOr<mlir::Value> create(Args &&...args) {
    mlir::FailureOr<mlir::Operation *> op =
        createOp<OpTy>(1, std::forward<Args>(args)...);
    if (mlir::failed(op))
      return mlir::failure();
    return (*op)->getResult(0);
  }
  mlir::FailureOr<mlir::Value> createConstant(const HostTensor &value);
  /// Fails with "<op> on <type> tensors is not supported" unless `value`
  /// holds floats (what most dist compute ops take).
  mlir::LogicalResult requireFloat(mlir::Value value);
  /// A rank-0 constant of `like`'s element type.
  mlir::FailureOr<mlir::Value> createScalar(mlir::Value like, double value);
  /// dist.reshape to `shape`, whose dynamic entries (at most one) become -1.
  mlir::FailureOr<mlir::Value> createReshape(mlir::Value input,
                                             llvm::ArrayRef<int64_t> shape);
  /// dist.slice of [start, end) with `step` along `axis`, the other dims
  /// whole (they must be static).
  mlir::FailureOr<mlir::Value> createSliceAlong(mlir::Value input, int64_t axis,
                                                int64_t start, int64_t end,
                                                int64_t step = 1);
  /// dist.cast unless `value` already has element type `type`.
  mlir::FailureOr<mlir::Value> createCast(mlir::Value value, mlir::Type type);

  //--- Errors.
  /// Records "node 'name' (OpType): message" and returns failure.
  mlir::LogicalResult error(const llvm::Twine &message);
  /// The label used in messages: node 'name' (OpType).
  const std::string &describe() const { return label; }

private:
  mlir::LogicalResult reportDiagnostics();
  GraphImporter &graph;
  std::string label;
};

/// Converts one node: reads its inputs and attributes, builds dist ops and
/// sets its outputs.
using ConvertFn = mlir::LogicalResult (*)(NodeImporter &);

/// Converters defined outside OnnxOps.cpp's table file.
/// OnnxFoldedOps.cpp: ops evaluated at import time (their inputs must be
/// known then).
mlir::LogicalResult convertEqual(NodeImporter &n);
mlir::LogicalResult convertNot(NodeImporter &n);
mlir::LogicalResult convertMod(NodeImporter &n);
mlir::LogicalResult convertRange(NodeImporter &n);
mlir::LogicalResult convertScatterND(NodeImporter &n);
/// OnnxRecurrentOps.cpp: RNN, LSTM and GRU unrolled over the sequence.
mlir::LogicalResult convertRNN(NodeImporter &n);
mlir::LogicalResult convertLSTM(NodeImporter &n);
mlir::LogicalResult convertGRU(NodeImporter &n);

/// The converter of (domain, op type), or null when the importer does not
/// support the op. The default domain is "" (or "ai.onnx").
ConvertFn lookupConverter(llvm::StringRef domain, llvm::StringRef opType);

mlir::RankedTensorType getTensorType(mlir::Value value);

class GraphImporter {
public:
  GraphImporter(mlir::MLIRContext &context, const OnnxImportOptions &options,
                llvm::StringRef modelPath);

  /// Imports the (checked, shape-inferred) model into `module`.
  mlir::LogicalResult importModel(const onnx::ModelProto &model,
                                  mlir::ModuleOp module,
                                  std::map<std::string, int64_t> opsets);

  /// The first error (one line).
  std::string error;
  /// The last error diagnostic of MLIR (shape rules, verifier, kernels), and
  /// the node it is located at, if any.
  std::string diagnostics;
  std::string diagnosticLabel;

private:
  friend class NodeImporter;

  mlir::FailureOr<mlir::Value> lookupValue(const std::string &name,
                                           const std::string &user);
  mlir::FailureOr<const HostTensor *> getInitializer(const std::string &name);
  /// Evaluates `value` at import time through the ops' reference kernels;
  /// the error says why when it depends on something unknown.
  StatusOr<const HostTensor *> evaluate(mlir::Value value);
  mlir::FailureOr<mlir::Value> createParameter(const std::string &name);
  mlir::LogicalResult checkAgainstOnnxTypes(NodeImporter &node);
  mlir::LogicalResult finish(const onnx::GraphProto &graph);

  mlir::MLIRContext &context;
  const OnnxImportOptions &options;
  std::string modelPath;
  std::string modelDir;
  mlir::OpBuilder builder;
  mlir::func::FuncOp func;
  mlir::Block *entry = nullptr;
  /// Opset version of each imported domain ("" for the default one).
  std::map<std::string, int64_t> opsets;

  llvm::StringMap<mlir::Value> values;
  llvm::StringMap<const onnx::TensorProto *> initializers;
  std::map<std::string, HostTensor> initializerValues;
  /// Inferred ONNX types of every named value (inputs, value_info, outputs).
  llvm::StringMap<const onnx::TypeProto *> onnxTypes;
  /// Which graph input or initializer each argument stands for.
  llvm::DenseMap<mlir::Value, std::string> argumentNames;
  /// dist.name of the parameters whose ONNX name the exporter generated.
  std::map<std::string, std::string> recoveredNames;
  unsigned numParameters = 0;
  /// Initializers used only as BatchNormalization's mean and variance.
  std::set<std::string> runningStatistics;
  /// Graph inputs that became constants because their value was needed.
  std::set<std::string> frozenInputs;
  llvm::DenseMap<mlir::Value, std::shared_ptr<HostTensor>> staticValues;
  /// The node (op type) that produced each value, for result roles.
  llvm::StringMap<std::string> producerOpType;
  /// Stands for "no node" when building constants outside of a node.
  const onnx::NodeProto emptyNode;
};

} // namespace distir::onnx_import

#endif // DISTIR_LIB_IMPORT_IMPORTERIMPL_H
