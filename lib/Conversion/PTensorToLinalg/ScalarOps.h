//===- ScalarOps.h - scalar code for elementwise kinds -----------*- C++ -*-===//
//
// Emits the scalar arith/math code of one element of every elementwise kind,
// and the dtype conversions between them. Values are signless (storage)
// scalars; the *semantic* dtype (which may be unsigned, or i1 for bool) is
// passed alongside so that signedness-dependent ops are chosen correctly.
// Used by convert-ptensor-to-linalg (CPU and GPU share it).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_SCALAROPS_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_SCALAROPS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/IR/Builders.h"

namespace mlir::ptensor {

/// Emits `kind(x)` computing in semantic dtype `t`.
Value emitUnary(OpBuilder &b, Location loc, UnaryOpKind kind, Value x, Type t);

/// Emits the i1 predicate `kind(x)` for x of semantic dtype `t`.
Value emitUnaryTest(OpBuilder &b, Location loc, UnaryTestKind kind, Value x,
                    Type t);

/// Emits `kind(x, y)` computing in semantic dtype `t`.
Value emitBinary(OpBuilder &b, Location loc, BinaryOpKind kind, Value x,
                 Value y, Type t);

/// Emits the i1 comparison/logical `kind(x, y)` for operands of dtype `t`.
Value emitBinaryTest(OpBuilder &b, Location loc, BinaryTestKind kind, Value x,
                     Value y, Type t);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_SCALAROPS_H
