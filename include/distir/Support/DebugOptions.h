//===- DebugOptions.h - --debug and --debug-only for the tools --*- C++ -*-===//
//
// Debian's LLVM is built with NDEBUG, so libLLVM does not register -debug
// and -debug-only, although llvm/Support/Debug.cpp still defines DebugFlag
// and the list of debug types. The tools register the two options here,
// before they parse their command line. They print the LLVM_DEBUG output of
// distir's code when it is compiled with assertions
// (-DDISTIR_ENABLE_ASSERTIONS=ON) and are accepted, without effect,
// otherwise. Hidden, as LLVM's own: --help is unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_DEBUGOPTIONS_H
#define DISTIR_SUPPORT_DEBUGOPTIONS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>
#include <vector>

namespace distir {

/// Registers --debug and --debug-only=<type,...> unless libLLVM already did
/// (an LLVM built with assertions). Call before cl::ParseCommandLineOptions
/// (or MlirOptMain).
inline void registerDebugOptions() {
  if (llvm::cl::getRegisteredOptions().count("debug-only"))
    return;
  static llvm::cl::opt<bool, /*ExternalStorage=*/true> debug(
      "debug", llvm::cl::desc("Print all debug output"), llvm::cl::Hidden,
      llvm::cl::sub(llvm::cl::SubCommand::getAll()),
      llvm::cl::location(llvm::DebugFlag));
  static std::vector<std::string> types;
  static llvm::cl::list<std::string> debugOnly(
      "debug-only",
      llvm::cl::desc("Print the debug output of these DEBUG_TYPEs only"),
      llvm::cl::Hidden, llvm::cl::value_desc("type"),
      llvm::cl::sub(llvm::cl::SubCommand::getAll()), llvm::cl::CommaSeparated,
      llvm::cl::callback([](const std::string &type) {
        llvm::DebugFlag = true;
        types.push_back(type);
#ifndef NDEBUG
        std::vector<const char *> names;
        for (const std::string &name : types)
          names.push_back(name.c_str());
        llvm::setCurrentDebugTypes(names.data(), names.size());
#endif
      }));
  (void)debugOnly;
}

} // namespace distir

#endif // DISTIR_SUPPORT_DEBUGOPTIONS_H
