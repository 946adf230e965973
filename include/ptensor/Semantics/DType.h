//===- DType.h - the closed set of ptensor element types --------*- C++ -*-===//
//
// Part of the semantics library (no MLIR or LLVM dependency): the dtypes of
// docs/Semantics.md, their promotion kind, widths and MLIR-style names. The
// dialect, the tools, the C API, the runtime and the Python binding all name
// dtypes through this header.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_DTYPE_H
#define PTENSOR_SEMANTICS_DTYPE_H

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace ptensor {

/// Element type of a tensor / host array. The values are stable: they are
/// part of the C API (`PtensorDType`) and the Python binding.
enum class DType {
  Bool, ///< 1-byte boolean (0 or 1), MLIR `i1`, numpy `|b1`.
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,  ///< IEEE binary16.
  BF16, ///< bfloat16 (upper half of an IEEE binary32).
  F32,
  F64,
};

/// The number of dtypes.
inline constexpr std::size_t kNumDTypes = 13;

/// The promotion category of a dtype, in increasing order of "strength".
enum class DTypeKind { Bool, Signed, Unsigned, Float };

/// All dtypes, in declaration order.
const std::array<DType, kNumDTypes> &allDTypes();

/// Size of one element in bytes (Bool occupies one byte).
std::size_t dtypeByteSize(DType dtype);

/// Bit width of the value (1 for Bool, 16 for F16 and BF16, ...).
unsigned dtypeBitWidth(DType dtype);

/// The promotion category of `dtype`.
DTypeKind dtypeKind(DType dtype);

/// MLIR type syntax of `dtype`: "i1", "i8", "i16", "i32", "i64", "ui8",
/// "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64". Messages name dtypes
/// this way everywhere (the compiler prints MLIR types the same way).
const char *dtypeName(DType dtype);

/// Inverse of dtypeName(); std::nullopt for anything else.
std::optional<DType> parseDTypeName(std::string_view name);

/// True for F16, BF16, F32, F64.
inline bool isFloatDType(DType dtype) {
  return dtypeKind(dtype) == DTypeKind::Float;
}
/// True for I8..I64 (signed integers, not Bool).
inline bool isSignedIntDType(DType dtype) {
  return dtypeKind(dtype) == DTypeKind::Signed;
}
/// True for U8..U64.
inline bool isUnsignedIntDType(DType dtype) {
  return dtypeKind(dtype) == DTypeKind::Unsigned;
}
/// True for signed or unsigned integers (not Bool).
inline bool isIntDType(DType dtype) {
  return isSignedIntDType(dtype) || isUnsignedIntDType(dtype);
}

/// The integer dtype of `kind` (Signed or Unsigned) and `bits`, or nullopt.
std::optional<DType> intDType(DTypeKind kind, unsigned bits);

} // namespace ptensor

#endif // PTENSOR_SEMANTICS_DTYPE_H
