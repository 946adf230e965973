//===- Casting.h - the array API's can_cast rule ---------------*- C++ -*-===//
//
// Which dtype may be cast to which without leaving the promotion lattice of
// one category: the array API's `can_cast(from_, to)`. It is built on
// promoteDTypes (Promotion.h), so it follows the compiler's promotion and
// nothing else; canCastToOut (Promotion.h) is the weaker rule of out=.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_CASTING_H
#define PTENSOR_SEMANTICS_CASTING_H

#include "ptensor/Semantics/DType.h"

namespace ptensor::semantics {

/// True when `from` and `to` are of one category (bool; integers, signed or
/// unsigned; floats) and promoting them gives `to`: ui8 to i16 or f16 to f32
/// are allowed, i8 to ui8, i64 to f64, f16 to bf16, ui64 to i64 and bool to
/// i8 are not.
bool canCastByPromotion(DType from, DType to);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_CASTING_H
