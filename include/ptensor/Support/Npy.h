//===- Npy.h - Reading and writing numpy .npy files ------------*- C++ -*-===//
//
// Support for numpy's .npy format (versions 1.0, 2.0 and 3.0) for every
// ptensor DType. See DType.h for the descr <-> dtype mapping; in particular
// bf16 is stored as "<V2" like numpy + ml_dtypes do, so Python must use
// `np.load(path).view(ml_dtypes.bfloat16)` to read bf16 files back.
//
// Only little-endian hosts are supported (checked at compile time).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SUPPORT_NPY_H
#define PTENSOR_SUPPORT_NPY_H

#include "ptensor/Support/HostArray.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptensor {

/// Reads the .npy file at `path` into a freshly allocated, 64-byte aligned
/// HostArray. C-order files get row-major strides; Fortran-order files get
/// column-major strides over the same bytes (no transposing copy). 0-d and
/// empty arrays are supported, ranks up to 64 (numpy's limit); bytes after
/// the data are ignored (as numpy does). Every error message starts with
/// "<path>: " and says what was found and what was expected.
llvm::Expected<HostArray> readNpy(llvm::StringRef path);

/// Like readNpy() but parses an in-memory file image; error messages are
/// prefixed with `buffer.getBufferIdentifier()`.
llvm::Expected<HostArray> readNpyFromBuffer(llvm::MemoryBufferRef buffer);

/// Writes `array` to `path` in C order, materializing strided/Fortran views.
/// The bytes are identical to `np.save` of the same array (format 1.0, or
/// 2.0 for headers over 64 KiB). The file is written to a temporary file in
/// the same directory and renamed over `path` only after a successful write,
/// so a failure never leaves a partial file behind.
llvm::Error writeNpy(llvm::StringRef path, const HostArray &array);

/// Streams the .npy encoding of `array` (C order) to `os`. The caller checks
/// the stream for errors.
void writeNpyToStream(llvm::raw_ostream &os, const HostArray &array);

} // namespace ptensor

#endif // PTENSOR_SUPPORT_NPY_H
