//===- CodeCache.h - compiled objects on disk -----------------------------===//

#ifndef PTENSOR_LIB_JIT_CODECACHE_H
#define PTENSOR_LIB_JIT_CODECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ptensor::jit {

/// The cache file of an object compiled from `source` with `optionsKey`
/// for the host target by this version of ptensor and LLVM, under `dir`.
std::string getCachePath(llvm::StringRef dir, llvm::StringRef source,
                         llvm::StringRef optionsKey);

/// Moves `tmpPath` to `path` atomically (creating `path`'s directory), so
/// that readers see a whole object or none.
llvm::Error publishCacheFile(llvm::StringRef tmpPath, llvm::StringRef path);

} // namespace ptensor::jit

#endif // PTENSOR_LIB_JIT_CODECACHE_H
