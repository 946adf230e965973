//===- FloatConversion.h - f16 / bf16 <-> wider floats ---------*- C++ -*-===//
//
// Bit-level conversions for the 16-bit float formats, which have no native
// C++17 type. Widening conversions are exact; narrowing ones round to
// nearest, ties to even, and keep NaNs quiet NaNs.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SUPPORT_FLOATCONVERSION_H
#define PTENSOR_SUPPORT_FLOATCONVERSION_H

#include <cstdint>

namespace ptensor {

/// Exact conversion of IEEE binary16 bits to float.
float halfBitsToFloat(uint16_t bits);

/// Exact conversion of bfloat16 bits to float.
float bfloat16BitsToFloat(uint16_t bits);

/// Converts `value` to IEEE binary16 bits, rounding to nearest-even
/// directly from double (no double rounding through float).
uint16_t doubleToHalfBits(double value);

/// Converts `value` to bfloat16 bits, rounding to nearest-even directly from
/// double (no double rounding through float).
uint16_t doubleToBFloat16Bits(double value);

} // namespace ptensor

#endif // PTENSOR_SUPPORT_FLOATCONVERSION_H
