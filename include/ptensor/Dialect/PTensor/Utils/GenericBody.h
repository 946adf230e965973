//===- GenericBody.h - one element of a linalg.generic, inlined -*- C++ -*-===//
//
// Loop lowerings that build their own loops around a `linalg.generic` on
// memrefs (the GPU kernels, the CPU reduction loops) compute one element
// with these: the inputs loaded through their indexing maps and the body
// cloned with its block arguments and `linalg.index` bound.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_GENERICBODY_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_GENERICBODY_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// Clones the body of `op` with its input block arguments bound to
/// `inputs` (one value per DPS input), its output block arguments to
/// `outputs` (one per DPS init; may be empty when the body reads none) and
/// `linalg.index` bound to `ids` (may be empty when the body reads no
/// index); returns the yielded values.
SmallVector<Value> inlineBody(OpBuilder &b, linalg::GenericOp op,
                              ValueRange inputs, ValueRange ids,
                              ValueRange outputs = {});

/// The indices into memref operand `operand` that iteration `ids` reads (a
/// constant in its indexing map reads that index).
SmallVector<Value> indicesThroughMap(OpBuilder &b, Location loc,
                                     linalg::GenericOp op, OpOperand *operand,
                                     ValueRange ids);

/// Loads the element of memref input `in` that iteration `ids` reads.
Value loadThroughMap(OpBuilder &b, Location loc, linalg::GenericOp op,
                     OpOperand *in, ValueRange ids);

/// Loads the inputs of element `ids` through their indexing maps (a
/// broadcast dimension reads index 0) and inlines the body for it, its
/// output block arguments bound to `outputs` (a reduction's accumulators;
/// empty when the body reads none). A non-null `preloaded[i]` is used for
/// input i instead of a load.
SmallVector<Value> emitElement(OpBuilder &b, Location loc, linalg::GenericOp op,
                               ValueRange ids, ArrayRef<Value> preloaded = {},
                               ValueRange outputs = {});

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_GENERICBODY_H
