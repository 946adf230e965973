//===- Searching.h - searchsorted's rule on MLIR types -----------*- C++ -*-===//
//
// The bridge from ptensor.searchsorted's operand types to the semantics
// library's rule (ptensor/Semantics/Searching.h), for type inference and
// the lowering alike.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_SEARCHING_H
#define PTENSOR_DIALECT_PTENSOR_IR_SEARCHING_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/Searching.h"

namespace mlir::ptensor {

/// searchsorted's rule for operands of types `sorted`, `values` and
/// `sorter` (null when there is none): placement, then the semantics
/// library's rule. Errors are emitted at `loc` when given.
FailureOr<::ptensor::semantics::Searchsorted>
getSearchsorted(PTensorType sorted, PTensorType values, PTensorType sorter,
                std::optional<Location> loc);

/// The dtype verified `op` compares both sides in.
Type getCompareDType(SearchsortedOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_SEARCHING_H
