//===- HostAllocator.h - the caching allocator of host memory ---*- C++ -*-===//

#ifndef PTENSOR_RUNTIME_LIB_HOSTALLOCATOR_H
#define PTENSOR_RUNTIME_LIB_HOSTALLOCATOR_H

#include "CachingAllocator.h"

namespace ptensor::rt {
/// The allocator of compiled code's host buffers (ptensor_rt_host_alloc):
/// malloc blocks, cached up to PTENSOR_HOST_CACHE_BYTES (default an eighth
/// of the machine's memory).
CachingAllocator &hostAllocator();
} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_HOSTALLOCATOR_H
