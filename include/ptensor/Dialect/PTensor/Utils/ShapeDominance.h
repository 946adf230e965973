//===- ShapeDominance.h - operands known to have the broadcast shape ------===//
//
// A ptensor produced by elementwise ops has the broadcast shape of the
// leaves it was computed from (function arguments, views, creations). If an
// operand's leaves include every other operand's leaves, broadcasting is
// idempotent on it: its run-time shape *is* the result shape, even when
// the sizes are dynamic. Such an operand needs no run-time broadcast, so
// its producer can be fused.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_SHAPEDOMINANCE_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_SHAPEDOMINANCE_H

#include "mlir/IR/Operation.h"

namespace mlir::ptensor {

/// True when ptensor operand `index` of the broadcasting op `op` has the
/// shape of `op`'s result at run time.
bool hasBroadcastResultShape(Operation *op, unsigned index);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_SHAPEDOMINANCE_H
