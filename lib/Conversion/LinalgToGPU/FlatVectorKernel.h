//===- FlatVectorKernel.h - the contiguous fast path -----------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_FLATVECTORKERNEL_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_FLATVECTORKERNEL_H

#include "ElementwiseKernel.h"

namespace mlir::ptensor {

/// True when every input is read through an identity map (or is a scalar),
/// no buffer holds i1 and the body does not use linalg.index: the flat
/// vector path may apply (the layout test is at run time).
bool isFlatVectorCandidate(linalg::GenericOp op);

/// Emits, at the insertion point, `scf.if (every operand is row-major
/// contiguous and 16-byte aligned, and the vector count fits in 31 bits)`
/// with the flat vector launch in its then-branch, and moves the insertion
/// point into its else-branch (where the other paths go).
///
/// The launch treats every operand as a flat 1-D buffer. A vector is
/// 16 bytes of the smallest element type (4 x f32, 8 x f16, 16 x i8; wider
/// types use several 16-byte accesses per vector); each thread handles
/// `config.unroll` vectors per step, all loads issued before any store
/// (loads in flight hide DRAM latency), with a grid-stride loop over such
/// chunks, then the leftover vectors one per thread and the last
/// count % width elements one per thread (the scalar tail).
void emitFlatVectorPath(RewriterBase &b, Location loc, linalg::GenericOp op,
                        Value count, const KernelConfig &config);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_FLATVECTORKERNEL_H
