//===- ReductionEpilogue.h - elementwise work after a reduction -*- C++ -*-===//
//
// A reduction accumulating in a wider type than its result (f32 sums in
// f64) is followed by the cast to the result type, and mean by its
// division: an elementwise generic over the reduction's kept space that
// reads only its results. On the GPU it was a launch of its own; the
// reduction's kernels compute it instead where they store each result
// (ReductionNest::store), one launch fewer.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONEPILOGUE_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// The elementwise generic right after reduction `op` (nothing but
/// allocations and effect-free ops between) that the reduction's kernels
/// can compute when they store a result, or null: its loops are the kept
/// space (every output of `op` indexed by the kept dims in order), its
/// memref inputs are outputs of `op` read through identity maps, its other
/// operands and the values its body uses are defined before `op` (or
/// computed by effect-free ops that can move before it: moved when found),
/// and it writes through identity maps into allocations that `op` does
/// not read, defined before `op` or moved there.
linalg::GenericOp takeReductionEpilogue(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONEPILOGUE_H
