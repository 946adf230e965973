//===- DType.h - Element types of ptensor host arrays ----------*- C++ -*-===//
//
// The numpy `.npy` type descriptors of ptensor's dtypes (the dtypes
// themselves, their sizes and names are ptensor/Semantics/DType.h).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SUPPORT_DTYPE_H
#define PTENSOR_SUPPORT_DTYPE_H

#include "ptensor/Semantics/DType.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace ptensor {

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
