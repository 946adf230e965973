//===- ReservedNames.h - symbol names compiled code reserves -----*- C++ -*-===//
//
// Lowered code calls the C math library (math-to-libm, and libmvec through
// the host optimizer), the C library's memory functions (LLVM's memcpy and
// memset, allocation), libptensor_runtime, the OpenMP runtime and
// libdevice, and the compile driver adds entry points named after each
// function. A user function of one of those names would be mistaken for
// the callee (a type mismatch deep in the pipeline) or would interpose on
// the library in the process that loads it; the pipelines refuse it first.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_RESERVEDNAMES_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_RESERVEDNAMES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::ptensor {

/// Why compiled code reserves the function name `name` (e.g. "the C math
/// library's expf"), or nothing when a user function may have it.
std::optional<std::string> whyNameIsReserved(llvm::StringRef name);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_RESERVEDNAMES_H
