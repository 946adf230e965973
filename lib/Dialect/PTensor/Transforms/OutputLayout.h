//===- OutputLayout.h - fresh outputs follow the inputs' order -*- C++ -*-===//

#ifndef PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_OUTPUTLAYOUT_H
#define PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_OUTPUTLAYOUT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// Gives the output of `op` that is a fresh row-major allocation (written
/// before it is read) the inputs' order at run time: a
/// memref.reinterpret_cast with column-major strides when every input votes
/// for the reversed order (InputsAgree), row-major strides otherwise. The
/// allocation itself is unchanged (same size); its later users read the
/// view. Left alone when a user might rely on the identity layout.
void followInputOrder(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_OUTPUTLAYOUT_H
