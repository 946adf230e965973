//===- ElementwiseKernel.h - one gpu.launch for an elementwise generic ---===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_ELEMENTWISEKERNEL_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_ELEMENTWISEKERNEL_H

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// Replaces an all-parallel `linalg.generic` on memrefs (outputs read and
/// written through identity maps, inputs through maps of dims and zeros)
/// by a grid-stride `gpu.launch`, with a 32-bit and a 64-bit index variant
/// chosen at run time. Fails, leaving the op, with a reason otherwise.
LogicalResult convertGenericToKernel(RewriterBase &rewriter,
                                     linalg::GenericOp op,
                                     const KernelConfig &config);

/// Why convertGenericToKernel cannot take `op`, or null when it can.
const char *whyNotElementwiseKernel(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_ELEMENTWISEKERNEL_H
