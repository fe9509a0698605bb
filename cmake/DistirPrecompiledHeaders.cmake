# Precompiled MLIR headers for the targets whose translation units are
# MLIR code. Such a unit spends most of its ~5-7 s parsing the same MLIR,
# LLVM and dist dialect headers; splitting libraries along their seams (one
# library per file) multiplied those units, and a clean build took 20 % more
# CPU than before the split (docs/building.md has the figures and commands).
# Only targets that link MLIR use this: the MLIR-free libraries (kernels, cost
# model, simulator, shape rules) must stay free of MLIR headers. The ONNX
# importer is built with exceptions (other flags) and has three units: it
# compiles without.
option(DISTIR_PRECOMPILE_HEADERS
  "Precompile the MLIR headers of the MLIR-based libraries and tests" ON)

set(DISTIR_MLIR_PCH_HEADERS
  <algorithm> <functional> <map> <memory> <optional> <string> <vector>
  [["llvm/ADT/DenseMap.h"]]
  [["llvm/ADT/STLExtras.h"]]
  [["llvm/ADT/SmallVector.h"]]
  [["llvm/ADT/StringExtras.h"]]
  [["llvm/Support/Debug.h"]]
  [["llvm/Support/raw_ostream.h"]]
  [["mlir/Dialect/Func/IR/FuncOps.h"]]
  [["mlir/IR/Builders.h"]]
  [["mlir/IR/BuiltinOps.h"]]
  [["mlir/IR/BuiltinTypes.h"]]
  [["mlir/IR/Diagnostics.h"]]
  [["mlir/IR/IRMapping.h"]]
  [["mlir/IR/MLIRContext.h"]]
  [["mlir/IR/PatternMatch.h"]]
  [["mlir/IR/SymbolTable.h"]]
  [["mlir/Pass/Pass.h"]]
  [["distir/Dialect/Dist/IR/DistOps.h"]])

# distir_precompile_mlir_headers(<family> <target>...)
# One header is precompiled per family of targets that compile with the same
# flags, and reused by the rest of the family (REUSE_FROM): generating it
# costs as much as two or three translation units, so a header per target
# would cost more than it saves. Families: LIBRARY (add_mlir_library targets:
# no exceptions) and TEST (GoogleTest binaries that link MLIR). An
# add_mlir_library target compiles its sources through obj.<target> when that
# exists.
function(distir_precompile_mlir_headers family)
  if(NOT DISTIR_PRECOMPILE_HEADERS)
    return()
  endif()
  foreach(target ${ARGN})
    if(TARGET obj.${target})
      set(target obj.${target})
    endif()
    get_property(owner GLOBAL PROPERTY DISTIR_PCH_OWNER_${family})
    if(owner)
      target_precompile_headers(${target} REUSE_FROM ${owner})
    else()
      target_precompile_headers(${target} PRIVATE ${DISTIR_MLIR_PCH_HEADERS})
      set_property(GLOBAL PROPERTY DISTIR_PCH_OWNER_${family} ${target})
    endif()
  endforeach()
endfunction()
