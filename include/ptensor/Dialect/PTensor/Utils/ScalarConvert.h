//===- ScalarConvert.h - conversions between scalar dtypes -------*- C++ -*-===//
//
// Values are held in signless (storage) types; the *semantic* dtype (which
// may be unsigned, or i1 for bool) is passed alongside so that conversions
// pick the right signedness.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_SCALARCONVERT_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_SCALARCONVERT_H

#include "mlir/IR/Builders.h"

namespace mlir::ptensor {

/// The signless type that stores values of semantic dtype `t` (ui8 -> i8).
Type getStorageType(Type t);

/// Converts `value` of semantic dtype `from` to semantic dtype `to` with
/// NumPy/C semantics (float->int truncates toward zero, ->bool is `!= 0`,
/// bool->number gives 0/1, index goes through i64).
Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                    Type to);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_SCALARCONVERT_H
