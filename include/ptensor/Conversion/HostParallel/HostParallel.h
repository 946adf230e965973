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

#include <cstdint>

namespace mlir::ptensor {

/// Innermost positions per parallel block of a nest whose innermost loop
/// runs serially: ptensor-serial-inner-loop's block-size and the CPU
/// pipeline's inner-block default to it.
inline constexpr int64_t kDefaultInnerBlock = 8192;

/// Fewest iterations per thread: the CPU pipeline's min-task-size. A nest
/// runs on threads from twice as many (ptensor-parallel-threshold's
/// min-iterations).
inline constexpr int32_t kDefaultMinTaskSize = 262144;

#define GEN_PASS_DECL_PTENSORPARALLELTHRESHOLD
#define GEN_PASS_DECL_PTENSORSERIALINNERLOOP
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_HOSTPARALLEL_HOSTPARALLEL_H
