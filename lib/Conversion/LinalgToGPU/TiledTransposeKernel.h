//===- TiledTransposeKernel.h - shared-memory tiles for transposed reads --===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_TILEDTRANSPOSEKERNEL_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_TILEDTRANSPOSEKERNEL_H

#include "ElementwiseKernel.h"

namespace mlir::ptensor {

/// True when `op` has >= 2 loops, byte-sized buffers and an input read
/// through a map ending in the two innermost loop dims (which may be
/// column-major at run time, e.g. a permute_dims view).
bool isTiledTransposeCandidate(linalg::GenericOp op);

/// Emits `scf.if (some such input is column-major in the two innermost
/// dims, i.e. stride[-2] == 1 != stride[-1], and 32-bit indices suffice)`
/// with the tiled launch in its then-branch, and moves the insertion point
/// into the else-branch.
///
/// The tiled launch walks 32x32 tiles of the two innermost dims (batch
/// dims outermost) with a grid-stride loop over tiles; a 256-thread block
/// first copies the tile of every such input into shared memory, each in
/// the order of its own layout (consecutive threads read consecutive
/// addresses whether the input is row- or column-major at run time), then,
/// after a barrier, computes the tile row by row (consecutive threads
/// store consecutive output elements). Both sides coalesce.
void emitTiledTransposePath(RewriterBase &b, Location loc, linalg::GenericOp op,
                            ValueRange sizes, Value fits32,
                            const KernelConfig &config);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_TILEDTRANSPOSEKERNEL_H
