//===- DType.h - Element types of ptensor host arrays ----------*- C++ -*-===//
//
// The closed set of element types supported by ptensor, their byte sizes,
// MLIR-style names and the numpy `.npy` type descriptors they map to.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SUPPORT_DTYPE_H
#define PTENSOR_SUPPORT_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace ptensor {

/// Element type of a tensor / host array.
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

/// All dtypes, in declaration order.
llvm::ArrayRef<DType> allDTypes();

/// Size of one element in bytes (Bool occupies one byte).
size_t dtypeByteSize(DType dtype);

/// MLIR type syntax of `dtype`: "i1", "i8", "i16", "i32", "i64", "ui8",
/// "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64".
llvm::StringRef dtypeName(DType dtype);

/// Inverse of dtypeName(); std::nullopt for anything else.
std::optional<DType> parseDTypeName(llvm::StringRef name);

/// True for F16, BF16, F32, F64.
bool isFloatDType(DType dtype);
/// True for I8..I64 (signed integers, not Bool).
bool isSignedIntDType(DType dtype);
/// True for U8..U64.
bool isUnsignedIntDType(DType dtype);
/// True for signed or unsigned integers (not Bool).
inline bool isIntDType(DType dtype) {
  return isSignedIntDType(dtype) || isUnsignedIntDType(dtype);
}

/// The numpy descr written to `.npy` headers for `dtype`, e.g. "|b1", "|i1",
/// "<i2", "|u1", "<f2", "<f4", "<f8".
///
/// BF16 maps to "<V2": that is exactly what `np.save` writes for an
/// `ml_dtypes.bfloat16` array (numpy has no bfloat16 descr). `np.load`
/// returns such files as raw 2-byte voids; Python readers must apply
/// `.view(ml_dtypes.bfloat16)` to get bfloat16 values back.
llvm::StringRef dtypeToNpyDescr(DType dtype);

/// Maps a numpy descr to a dtype. Accepts the canonical forms produced by
/// dtypeToNpyDescr(), '=' (native = little-endian) for any size and '<'
/// for one-byte types. For bfloat16 it accepts "<V2", "|V2" and "bfloat16"
/// (NOTE: any 2-byte void is taken to be bfloat16). Returns std::nullopt for
/// everything else, including all big-endian ('>') descrs.
std::optional<DType> npyDescrToDType(llvm::StringRef descr);

/// Human-readable list of the accepted descrs, for error messages, e.g.
/// "|b1 (i1), |i1 (i8), ...".
std::string supportedNpyDescrList();

} // namespace ptensor

#endif // PTENSOR_SUPPORT_DTYPE_H
