//===- ReductionKernel.h - gpu.launch for a reduction generic ----*- C++ -*-===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONKERNEL_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONKERNEL_H

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// Replaces a `linalg.generic` on memrefs with reduction loops, whose body
/// marks its combiner (ptensor/Dialect/PTensor/Utils/ReductionCombiner.h),
/// by a `gpu.launch`: a block per output (its threads stride over the
/// reduced elements and merge their partial results by warp shuffles and
/// shared memory) when
/// the innermost loop is reduced (reading a vector per input and thread
/// step where the rows allow it, tested at run time), else a thread per
/// output (consecutive
/// threads read consecutive kept elements). Too few outputs to fill the
/// GPU split their reduced range into chunks (chosen at run time) merged by
/// a second kernel. Partial results merge with the combiner only, in a
/// fixed order: results do not change from run to run.
/// With an `epilogue` (takeReductionEpilogue), the kernels compute it too
/// where they store each result, and it is erased.
/// Fails, leaving the op, with a reason otherwise.
LogicalResult convertReductionToKernel(RewriterBase &rewriter,
                                       linalg::GenericOp op,
                                       const KernelConfig &config,
                                       linalg::GenericOp epilogue = {});

/// Why convertReductionToKernel cannot take `op`, or null when it can.
const char *whyNotReductionKernel(linalg::GenericOp op);

/// A reduction convertReductionToKernel takes whose innermost loop is
/// reduced (the row kernel's shape; the others take the column kernel).
bool isRowReduction(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONKERNEL_H
