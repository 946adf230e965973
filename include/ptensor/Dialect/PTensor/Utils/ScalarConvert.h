//===- ScalarConvert.h - conversions between scalar dtypes -------*- C++ -*-===//
//
// Values are held in signless (storage) types; the *semantic* dtype (which
// may be unsigned, or i1 for bool) is passed alongside so that conversions
// pick the right signedness.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_SCALARCONVERT_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_SCALARCONVERT_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/IR/Builders.h"

namespace mlir::ptensor {

/// `value` reinterpreted in its storage type: a value of an unsigned (or
/// explicitly signed) integer type such as a `ui16` function argument goes
/// through `builtin.unrealized_conversion_cast` to the signless type of the
/// same width (arith takes signless integers only; the bits are the same,
/// and the LLVM lowering folds the cast away). Other values are returned
/// as they are.
Value castToStorage(OpBuilder &b, Location loc, Value value);

/// Converts `value` of semantic dtype `from` to semantic dtype `to` with
/// NumPy/C semantics (float->int truncates toward zero, ->bool is `!= 0`,
/// bool->number gives 0/1, index goes through i64). `value` may be held in
/// the semantic type itself (see castToStorage); the result is always in
/// the storage type of `to`.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                    Type to);

/// f32 -> bf16 rounding to nearest even on the bits, NaN kept quiet. Its
/// last two ops (the rounded bits' arith.trunci to i16 and their bitcast
/// to bf16) carry kBF16RoundingAttrName.
Value truncF32ToBF16(OpBuilder &b, Location loc, Value f32);

/// The attribute on the `arith.trunci` and `arith.bitcast` that end
/// truncF32ToBF16's bit form: ptensor-native-bf16-rounding replaces them
/// with `arith.truncf` in kernels for chips that round f32 to bf16 in one
/// instruction. Both are marked: where a fused body widens the rounded
/// value again (a bf16 intermediate), the bitcast to bf16 and the one back
/// fold away and only the trunci's bits are left.
inline constexpr llvm::StringLiteral kBF16RoundingAttrName =
    "ptensor.bf16_rounding";

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_SCALARCONVERT_H
