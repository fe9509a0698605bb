//===- FunctionSharding.h - meshes and signatures ---------------*- C++ -*-===//
//
// What every sharding transform asks of a function: the mesh it works on
// (found, or created for a wrapper pass), and shardings set on its signature.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_DIALECT_DIST_TRANSFORMS_FUNCTIONSHARDING_H
#define DISTIR_DIALECT_DIST_TRANSFORMS_FUNCTIONSHARDING_H

#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <utility>

namespace mlir::dist {

/// The mesh `name` of `module`, created at the top of the module with the
/// given axes when it does not exist; an existing mesh must have every axis
/// of `axes` with that size (size 0: any size).
FailureOr<MeshOp>
getOrCreateMesh(ModuleOp module, llvm::StringRef name,
                llvm::ArrayRef<std::pair<std::string, int64_t>> axes);

/// The mesh a function works on: its `dist.mesh`, or the one named by the
/// `dist.sharding` attributes of its signature and ops (which must agree).
/// Null (and no error) when the function names none or has no body.
FailureOr<MeshOp> getFunctionMesh(func::FuncOp func);

/// Sets `dist.sharding` on the arguments and results of `func` whose entry
/// is non-null (`args` and `results` may be empty: unchanged), rewriting the
/// signature's attributes once: one by one, each call would copy the whole
/// list (quadratic in the thousands of arguments of a large model).
void setSignatureShardings(func::FuncOp func, llvm::ArrayRef<ShardingAttr> args,
                           llvm::ArrayRef<ShardingAttr> results);

} // namespace mlir::dist

#endif // DISTIR_DIALECT_DIST_TRANSFORMS_FUNCTIONSHARDING_H
