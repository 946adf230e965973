//===- HostParallel.h - parallel host loop nests -----------------*- C++ -*-===//
//
// Host loop nests run on threads through OpenMP (upstream
// convert-scf-to-openmp); ptensor-serial-inner-loop keeps their innermost
// loop serial (vectorizable) before it, ptensor-parallel-threshold keeps
// small ones on the calling thread after it.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_HOSTPARALLEL_HOSTPARALLEL_H
#define PTENSOR_CONVERSION_HOSTPARALLEL_HOSTPARALLEL_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_PTENSORPARALLELTHRESHOLD
#define GEN_PASS_DECL_PTENSORSERIALINNERLOOP
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_HOSTPARALLEL_HOSTPARALLEL_H
