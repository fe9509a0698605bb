//===- OneLineDiagnostics.h - Diagnostics of the tools, one line each -*- C++
//-*-===//
//
// The tools report each problem on one line, "file:line:col: error: message",
// as compilers do: no echoed source line (a GPT-3 signature is one line of
// 110 KB), notes folded into their error's line, and only the first error of
// a run, since MLIR's parser follows its first error with consequences of it
// ("failed to parse ... parameter"). The op MLIR attaches with
// --mlir-print-op-on-diagnostic stays on its own lines: the user asked for it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_ONELINEDIAGNOSTICS_H
#define DISTIR_SUPPORT_ONELINEDIAGNOSTICS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace distir {

class OneLineDiagnostics {
public:
  /// `tool` prefixes diagnostics without a file location ("dist-run: error:
  /// ..."); empty, they keep MLIR's form. With `allErrors`, every error is
  /// printed (dist-opt --split-input-file: one per chunk).
  explicit OneLineDiagnostics(std::string tool = "", bool allErrors = false)
      : tool(std::move(tool)), allErrors(allErrors) {}

  /// Takes every diagnostic of `context` (registered last, it is asked
  /// first). This object must outlive the context.
  void install(mlir::MLIRContext &context) {
    context.getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
      print(d);
      return mlir::success();
    });
  }

  /// Prints to `os` instead of stderr (dist-run --mpi holds a rank's error
  /// back until it knows whether a lower rank reports the same one).
  void redirect(llvm::raw_ostream &os) { stream = &os; }

  void print(mlir::Diagnostic &diagnostic) {
    mlir::DiagnosticSeverity severity = diagnostic.getSeverity();
    if (severity == mlir::DiagnosticSeverity::Error) {
      // An empty error follows an error printed elsewhere (LLVM's option
      // parser inside a pass pipeline).
      if (diagnostic.str().empty() || (errorPrinted && !allErrors))
        return;
      errorPrinted = true;
    }
    llvm::raw_ostream &os = stream ? *stream : llvm::errs();
    os << format(diagnostic) << "\n";
    if (diagnostic.getLocation()->getContext()->shouldPrintOpOnDiagnostic())
      for (mlir::Diagnostic &note : diagnostic.getNotes())
        os << formatLocation(note.getLocation()) << "note: " << note.str()
           << "\n";
    os.flush();
  }

  /// The diagnostic's line, "file:line:col: error: message (note: ...)",
  /// without the newline (the Python package raises it).
  std::string format(mlir::Diagnostic &diagnostic) const {
    bool printOp =
        diagnostic.getLocation()->getContext()->shouldPrintOpOnDiagnostic();
    std::string line;
    llvm::raw_string_ostream os(line);
    os << formatLocation(diagnostic.getLocation())
       << getSeverityName(diagnostic.getSeverity()) << ": "
       << fold(diagnostic.str());
    for (mlir::Diagnostic &note : diagnostic.getNotes())
      if (!printOp)
        os << " (note: " << formatLocation(note.getLocation())
           << fold(note.str()) << ")";
    return line;
  }

  /// Whether an error was printed (the caller then adds no message of its
  /// own).
  bool hasPrintedError() const { return errorPrinted; }

private:
  std::string formatLocation(mlir::Location location) const {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (auto file = location->findInstanceOf<mlir::FileLineColLoc>())
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn() << ": ";
    else if (!tool.empty())
      os << tool << ": ";
    else if (!llvm::isa<mlir::UnknownLoc>(location))
      os << location << ": ";
    return text;
  }

  static const char *getSeverityName(mlir::DiagnosticSeverity severity) {
    switch (severity) {
    case mlir::DiagnosticSeverity::Error:
      return "error";
    case mlir::DiagnosticSeverity::Warning:
      return "warning";
    case mlir::DiagnosticSeverity::Remark:
      return "remark";
    case mlir::DiagnosticSeverity::Note:
      return "note";
    }
    return "error";
  }

  /// The message on one line: trailing blanks dropped, line breaks as spaces.
  static std::string fold(std::string message) {
    message.erase(message.find_last_not_of(" \t\r\n") + 1);
    for (char &c : message)
      if (c == '\n' || c == '\r')
        c = ' ';
    return message;
  }

  std::string tool;
  bool allErrors;
  llvm::raw_ostream *stream = nullptr;
  bool errorPrinted = false;
};

} // namespace distir

#endif // DISTIR_SUPPORT_ONELINEDIAGNOSTICS_H
