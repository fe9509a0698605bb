//===- Passes.h - passes of the simulator's MLIR library --------*- C++ -*-===//
//
// Passes that need the simulator's cost model (dist-annotate-costs). They
// live with the simulator, not in DistTransforms, so the compiler's passes do
// not depend on the simulator; distir::registerAllPasses registers them too.
//
//===----------------------------------------------------------------------===//
#ifndef DISTIR_SIMULATOR_PASSES_H
#define DISTIR_SIMULATOR_PASSES_H

#include "mlir/Pass/Pass.h"

namespace distir::sim {

#define GEN_PASS_DECL
#include "distir/Simulator/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "distir/Simulator/Passes.h.inc"

} // namespace distir::sim

#endif
