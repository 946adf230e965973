//===- ReductionKinds.h - the reduction table for the dialect ----*- C++ -*-===//
//
// The rows of the semantics library's reduction table (ptensor/Semantics/
// Reductions.def) for the dialect's reduction ops, and what a lowering
// needs to know of a verified reduction: its row, reduced dims, keepdims
// and correction.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_REDUCTIONKINDS_H
#define PTENSOR_DIALECT_PTENSOR_IR_REDUCTIONKINDS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/Reductions.h"

namespace mlir::ptensor {

/// The table row of a kind, or failure (emitted at `loc` when given) when
/// Reductions.def lacks it.
FailureOr<::ptensor::semantics::ReductionKind>
getReductionKindRow(std::optional<Location> loc, ReduceKind kind);
FailureOr<::ptensor::semantics::ReductionKind>
getReductionKindRow(std::optional<Location> loc, TestKind kind);
FailureOr<::ptensor::semantics::ReductionKind>
getReductionKindRow(std::optional<Location> loc, FindIndexKind kind);

/// A verified reduction op as its lowerings see it.
struct ReductionInfo {
  ::ptensor::semantics::ReductionKind kind;
  /// The reduced dims of the input, ascending.
  SmallVector<int64_t> dims;
  bool keepdims = false;
  /// var/std's correction (0 for the other kinds).
  double correction = 0.0;
};

/// The ReductionInfo of a ptensor.reduce, ptensor.test or
/// ptensor.find_index op (which must verify), or std::nullopt for other
/// ops.
std::optional<ReductionInfo> getReductionInfo(Operation *op);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_REDUCTIONKINDS_H
