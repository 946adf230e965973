//===- HostLoops.h - optimizations of host loops -----------------*- C++ -*-===//
//
// Rewrites of the host's scf loops that LLVM does not make itself, run at
// the end of the CPU pipeline's loop passes (after loop-invariant code
// motion).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_HOSTLOOPS_HOSTLOOPS_H
#define PTENSOR_CONVERSION_HOSTLOOPS_HOSTLOOPS_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_PTENSORINVARIANTDIVISION
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_HOSTLOOPS_HOSTLOOPS_H
