//===- SetKinds.h - the semantics library's kinds of set ops ---*- C++ -*-===//
//
// The bridge from `ptensor.unique`'s kind attribute to the semantics
// library's rows (ptensor/Semantics/Sets.h), for type inference and the
// lowering alike.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_SETKINDS_H
#define PTENSOR_DIALECT_PTENSOR_IR_SETKINDS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/Sets.h"

namespace mlir::ptensor {

/// The semantics library's kind of a `ptensor.unique` kind.
::ptensor::semantics::UniqueKind getSemanticUniqueKind(UniqueKind kind);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_SETKINDS_H
