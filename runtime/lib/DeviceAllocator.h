//===- DeviceAllocator.h - Per-device caching allocators --------*- C++ -*-===//
///
/// \file
/// One CachingAllocator per device, backed by cuMemAlloc/cuMemFree in the
/// device's primary context, or by the memory source set before
/// (ptensor_rt_set_device_memory_source), created on first use and kept
/// until exit.
/// All functions record an error and return false on failure.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_DEVICEALLOCATOR_H
#define PTENSOR_RUNTIME_LIB_DEVICEALLOCATOR_H

#include <cstddef>

namespace ptensor::rt {

/// Allocates `bytes` on `device` for use on `stream` (*out = null for 0).
bool deviceAllocate(int device, size_t bytes, const void *stream, void **out);

/// True if `ptr` is a live allocation of one of the device allocators.
bool isDeviceAllocation(const void *ptr);

/// Frees a live allocation of any device; `stream` orders the reuse.
bool deviceFree(void *ptr, const void *stream);

/// Tells every allocator that `stream` (already synchronized) is gone.
void deviceStreamDestroyed(const void *stream);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_DEVICEALLOCATOR_H
