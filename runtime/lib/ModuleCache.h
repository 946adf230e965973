//===- ModuleCache.h - Loaded GPU modules and kernel names -----*- C++ -*-===//
///
/// \file
/// MLIR's host code loads each GPU binary from a global constructor and
/// unloads it from a global destructor. The cache makes repeated loads of the
/// same blob (same address, size and contents, same device) share one
/// CUmodule with a reference count, and remembers kernel names so launch
/// failures can name the kernel.
///
/// Thread safety: all functions are safe to call concurrently.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_MODULECACHE_H
#define PTENSOR_RUNTIME_LIB_MODULECACHE_H

#include "CudaTypes.h"

#include <cstddef>
#include <string>

namespace ptensor::rt {

/// How the blob is loaded.
struct ModuleImage {
  const void *data = nullptr;
  /// Bytes of `data` (PTX: including the terminating NUL).
  size_t size = 0;
  /// True for PTX that the driver JIT-compiles at `optLevel`.
  bool isPtx = false;
  int optLevel = 0;
};

/// Loads (or finds in the cache) `image` on `device`. Records an error and
/// returns false on failure; for PTX the JIT error log is in the message.
bool loadModule(int device, const ModuleImage &image, CUmodule *module);

/// Drops a reference; the last one unloads the module in its device's
/// context. Succeeds quietly if the driver already shut down (process exit).
bool unloadModule(CUmodule module);

/// Looks up kernel `name` in `module` and remembers the name.
bool getFunction(CUmodule module, const char *name, CUfunction *function);

/// The name recorded for `function`, or "<unknown kernel>".
std::string kernelName(CUfunction function);

/// Remembers `function` as the calling thread's most recent launch.
void noteLaunch(CUfunction function);

/// "; the last kernel launched from this thread was 'k'" (or "" if none),
/// appended to synchronization errors, which often come from an earlier
/// asynchronous launch.
std::string lastLaunchHint();

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_MODULECACHE_H
