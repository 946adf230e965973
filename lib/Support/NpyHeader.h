//===- NpyHeader.h - .npy header dict parsing (private) --------*- C++ -*-===//
//
// The header of a .npy file is the repr() of a Python dict with exactly the
// keys 'descr', 'fortran_order' and 'shape', e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// This is a deliberately strict parser for that format (not a general Python
// literal parser).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_SUPPORT_NPYHEADER_H
#define PTENSOR_LIB_SUPPORT_NPYHEADER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace ptensor {
namespace detail {

/// The decoded contents of a .npy header dict.
struct NpyHeaderDict {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t, 4> shape;
};

/// Parses `text` (the header bytes after the length field; trailing spaces
/// and newlines allowed). Error messages describe the problem but do not
/// name the file.
llvm::Expected<NpyHeaderDict> parseNpyHeaderDict(llvm::StringRef text);

/// Renders the dict exactly like numpy's `_write_array_header` (sorted keys,
/// trailing ", ", growth padding), without the final alignment padding.
std::string formatNpyHeaderDict(llvm::StringRef descr, bool fortranOrder,
                                llvm::ArrayRef<int64_t> shape);

} // namespace detail
} // namespace ptensor

#endif // PTENSOR_LIB_SUPPORT_NPYHEADER_H
