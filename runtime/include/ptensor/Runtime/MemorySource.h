//===- MemorySource.h - device memory from another allocator --*- C -*-===//
///
/// \file
/// The type of a device memory source (ptensor_rt_set_device_memory_source
/// in PTensorRuntime.h): needs no other header, so a binding that passes
/// one needs neither dlpack.h nor the rest of the runtime's API.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_MEMORYSOURCE_H
#define PTENSOR_RUNTIME_MEMORYSOURCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A source of device memory other than the CUDA driver: another
/// framework's allocator. The Python package passes torch's (its DLPack
/// exchange table's allocator) when torch is in use, so the runtime's
/// blocks come from torch's caching allocator: no cuMemAlloc of the
/// runtime's own, whose first call in a process costs 0.2-0.3 ms.
typedef struct ptensor_rt_device_memory_source {
  /// Passed back to both functions.
  void *context;
  /// Allocates `bytes` on CUDA device `device`; stores the address in
  /// `*ptr`, a handle for `release` in `*block`, and in `*ready_stream` a
  /// stream whose queued work must finish before the block is used (the
  /// source may hand out a block freed on that stream; NULL: none; the
  /// runtime synchronizes it). Returns 0, or 1 for out of memory, or 2 for
  /// any other failure, with a NUL-terminated message in `error`
  /// (`error_size` bytes). Called from any thread, possibly inside compiled
  /// code, with the device's allocator lock held: it must not wait for
  /// anything a thread freeing device memory may hold (a Python caller
  /// frees without the GIL for this reason).
  int (*allocate)(void *context, int device, size_t bytes, void **ptr,
                  void **block, void **ready_stream, char *error,
                  size_t error_size);
  /// Returns a block, with the device's allocator lock held. The runtime
  /// synchronizes the device first (the block may have been used on any
  /// stream; cuMemFree would wait too). Not called once the driver has
  /// shut down (process exit).
  void (*release)(void *context, void *block);
} ptensor_rt_device_memory_source;

#ifdef __cplusplus
}
#endif

#endif // PTENSOR_RUNTIME_MEMORYSOURCE_H
