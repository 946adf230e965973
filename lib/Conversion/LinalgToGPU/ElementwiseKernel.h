//===- ElementwiseKernel.h - one gpu.launch for an elementwise generic ---===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_ELEMENTWISEKERNEL_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_ELEMENTWISEKERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// Launch configuration of elementwise kernels.
struct KernelConfig {
  unsigned blockSize = 128;
  unsigned maxBlocks = 65535;
  /// Vectors each thread loads before storing, in the flat vector path.
  unsigned unroll = 4;
  /// Tile edge of the tiled transpose path (32 or 64).
  unsigned transposeTile = 32;
  /// Tile rows per group in the tiled path's tile order (1: row by row).
  unsigned transposeGroup = 8;
  /// Largest grid of the tiled path (its blocks loop over the tiles).
  unsigned transposeMaxBlocks = 1056;
};

/// Replaces an all-parallel `linalg.generic` on memrefs (outputs read and
/// written through identity maps, inputs through maps of dims and zeros)
/// by a grid-stride `gpu.launch`, with a 32-bit and a 64-bit index variant
/// chosen at run time. Fails, leaving the op, with a reason otherwise.
LogicalResult convertGenericToKernel(RewriterBase &rewriter,
                                     linalg::GenericOp op,
                                     const KernelConfig &config);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_ELEMENTWISEKERNEL_H
