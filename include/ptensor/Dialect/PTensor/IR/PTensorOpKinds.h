//===- PTensorOpKinds.h - properties of elementwise op kinds -----*- C++ -*-===//
//
// Which elementwise kinds are bitwise, which turn integers into floats
// (INT_TO_FLOAT), and similar facts used by type inference and lowering.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_PTENSOROPKINDS_H
#define PTENSOR_DIALECT_PTENSOR_IR_PTENSOROPKINDS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

namespace mlir::ptensor {

/// The promotion method of a unary kind: INT_TO_FLOAT for transcendental
/// functions, DEFAULT otherwise.
PromotionMethod getPromotionMethod(UnaryOpKind kind);
/// The promotion method of a binary kind.
PromotionMethod getPromotionMethod(BinaryOpKind kind);

/// True for kinds only defined on integers and bool.
bool isBitwise(UnaryOpKind kind);
bool isBitwise(BinaryOpKind kind);
/// True for bitwise kinds that also reject bool (shifts).
bool isShift(BinaryOpKind kind);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_PTENSOROPKINDS_H
