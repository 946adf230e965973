//===- CodeCache.h - JIT objects in the disk cache --------------*- C++ -*-===//
//
// The JIT's entries of the one disk cache (ptensor/Cache/DiskCache.h):
// KEY.o, KEY.mlir and KEY.id.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_JIT_CODECACHE_H
#define PTENSOR_LIB_JIT_CODECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ptensor::jit {

/// The cache file of an object compiled from `source` with `optionsKey`
/// for this host's CPU, under `dir`.
std::string getCachePath(llvm::StringRef dir, llvm::StringRef source,
                         llvm::StringRef optionsKey);

/// Whether the object at `path` exists and was made by this compiler build.
bool isCachedObjectCurrent(llvm::StringRef path);

/// Moves `tmpPath` to `path` atomically (creating `path`'s directory), then
/// writes `source` beside it and records this compiler's build id last, so
/// that readers see a whole, current entry or none.
llvm::Error publishCacheFile(llvm::StringRef tmpPath, llvm::StringRef path,
                             llvm::StringRef source);

} // namespace ptensor::jit

#endif // PTENSOR_LIB_JIT_CODECACHE_H
