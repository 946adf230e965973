//===- PTensorOpKinds.h - the op-kind table for the dialect's enums -*- C++ -*-===//
//
// The rows of the semantics library's op-kind table (ptensor/Semantics/
// OpKinds.def: promotion method, operand rule) for the dialect's kind enum
// attributes, matched by keyword. A keyword of PTensorAttrs.td without a row
// is reported by type inference ("has no row in OpKinds.def"), so the
// dialect tests that use every kind keep the two lists in step.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_PTENSOROPKINDS_H
#define PTENSOR_DIALECT_PTENSOR_IR_PTENSOROPKINDS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/OpKinds.h"

namespace mlir::ptensor {

/// The table row of a kind, or failure (emitted at `loc` when given) when
/// OpKinds.def lacks it.
FailureOr<::ptensor::semantics::OpKind>
getOpKindRow(std::optional<Location> loc, UnaryOpKind kind);
FailureOr<::ptensor::semantics::OpKind>
getOpKindRow(std::optional<Location> loc, UnaryTestKind kind);
FailureOr<::ptensor::semantics::OpKind>
getOpKindRow(std::optional<Location> loc, BinaryOpKind kind);
FailureOr<::ptensor::semantics::OpKind>
getOpKindRow(std::optional<Location> loc, BinaryTestKind kind);

/// The promotion method of a kind's result (the table's METHOD column).
PromotionMethod getPromotionMethod(const ::ptensor::semantics::OpKind &row);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_PTENSOROPKINDS_H
