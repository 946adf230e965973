//===- DeviceAllocator.cpp - Per-device caching allocators ----------------===//

#include "DeviceAllocator.h"

#include "CachingAllocator.h"
#include "HostAllocator.h"
#include "DeviceContext.h"
#include "Errors.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace ptensor::rt {
namespace {

/// The calling thread's last error without the "ptensor runtime: " prefix,
/// for embedding in an allocator message.
std::string lastErrorBody() {
  const char *message = lastErrorMessage();
  size_t prefix = std::strlen(kMessagePrefix);
  if (std::strncmp(message, kMessagePrefix, prefix) == 0)
    message += prefix;
  return message;
}

/// The driver backend's context: the device ordinal.
void *deviceContext(int device) {
  return reinterpret_cast<void *>(static_cast<intptr_t>(device));
}

int deviceOf(void *context) {
  return static_cast<int>(reinterpret_cast<intptr_t>(context));
}

BackendStatus cudaAllocate(void *context, size_t bytes, void **out,
                           std::string *error) {
  ScopedContext scope(deviceOf(context));
  if (!scope.ok()) {
    *error = lastErrorBody();
    return BackendStatus::Error;
  }
  CUdeviceptr ptr = 0;
  CUresult result = scope.api().MemAlloc(&ptr, bytes);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    return BackendStatus::OutOfMemory;
  if (result != CUDA_SUCCESS) {
    *error = "cuMemAlloc_v2(" + std::to_string(bytes) +
             " bytes) failed: " + cudaErrorText(result);
    return BackendStatus::Error;
  }
  *out = fromDevicePtr(ptr);
  return BackendStatus::Ok;
}

bool cudaDeallocate(void *context, void *ptr, std::string *error) {
  ScopedContext scope(deviceOf(context));
  if (!scope.ok()) {
    if (scope.result() == CUDA_ERROR_DEINITIALIZED)
      return true; // Process exit: the driver already released everything.
    *error = lastErrorBody();
    return false;
  }
  if (!checkCudaRelease(scope.api().MemFree(toDevicePtr(ptr)), "cuMemFree_v2")) {
    *error = lastErrorBody();
    return false;
  }
  return true;
}

bool cudaMemoryInfo(void *context, size_t *freeBytes, size_t *totalBytes) {
  ScopedContext scope(deviceOf(context));
  return scope.ok() &&
         scope.api().MemGetInfo(freeBytes, totalBytes) == CUDA_SUCCESS;
}

bool cudaSynchronize(void *context, std::string *error) {
  ScopedContext scope(deviceOf(context));
  if (scope.ok() && checkCudaRelease(scope.api().CtxSynchronize(),
                                     "cuCtxSynchronize"))
    return true;
  if (scope.result() == CUDA_ERROR_DEINITIALIZED)
    return true;
  *error = lastErrorBody();
  return false;
}

/// A device's memory from a ptensor_rt_device_memory_source: the backend's
/// context. The source's block handle of each live address is kept for its
/// release.
struct SourcedDevice {
  ptensor_rt_device_memory_source source;
  int device;
  std::mutex mutex;
  std::unordered_map<void *, void *> blocks;
};

SourcedDevice &sourcedOf(void *context) {
  return *static_cast<SourcedDevice *>(context);
}

bool sourcedDeallocate(void *context, void *ptr, std::string *error);

BackendStatus sourcedAllocate(void *context, size_t bytes, void **out,
                              std::string *error) {
  SourcedDevice &d = sourcedOf(context);
  char message[512] = "";
  void *block = nullptr;
  void *readyStream = nullptr;
  int status = d.source.allocate(d.source.context, d.device, bytes, out, &block,
                                 &readyStream, message, sizeof(message));
  if (status == 0 && *out) {
    {
      std::lock_guard<std::mutex> lock(d.mutex);
      d.blocks[*out] = block;
    }
    if (!readyStream)
      return BackendStatus::Ok;
    ScopedContext scope(d.device);
    if (scope.ok() && checkCudaRelease(scope.api().StreamSynchronize(
                                           static_cast<CUstream>(readyStream)),
                                       "cuStreamSynchronize"))
      return BackendStatus::Ok;
    *error = lastErrorBody();
    std::string ignored;
    sourcedDeallocate(context, *out, &ignored);
    return BackendStatus::Error;
  }
  if (status == 1)
    return BackendStatus::OutOfMemory;
  if (status == 0)
    std::snprintf(message, sizeof(message), "it returned no address");
  *error = "the device memory source failed to allocate " +
           std::to_string(bytes) +
           " bytes: " + (message[0] ? message : "no message");
  return BackendStatus::Error;
}

bool sourcedDeallocate(void *context, void *ptr, std::string *error) {
  SourcedDevice &d = sourcedOf(context);
  void *block;
  {
    std::lock_guard<std::mutex> lock(d.mutex);
    auto it = d.blocks.find(ptr);
    if (it == d.blocks.end()) {
      *error = "the device memory source has no block at this address";
      return false;
    }
    block = it->second;
    d.blocks.erase(it);
  }
  // The source may hand the block out again at once (to any stream): wait
  // for the work that may still use it, as cuMemFree does.
  ScopedContext scope(d.device);
  CUresult synchronized =
      scope.ok() ? scope.api().CtxSynchronize() : scope.result();
  if (synchronized == CUDA_ERROR_DEINITIALIZED)
    return true; // Process exit: the source may be gone too.
  if (!scope.ok() || !checkCudaRelease(synchronized, "cuCtxSynchronize")) {
    *error = lastErrorBody();
    return false;
  }
  d.source.release(d.source.context, block);
  return true;
}

bool sourcedMemoryInfo(void *context, size_t *freeBytes, size_t *totalBytes) {
  return cudaMemoryInfo(deviceContext(sourcedOf(context).device), freeBytes,
                        totalBytes);
}

bool sourcedSynchronize(void *context, std::string *error) {
  return cudaSynchronize(deviceContext(sourcedOf(context).device), error);
}

/// Allocators by device ordinal; published once, never destroyed (memory
/// may still be freed by static destructors at exit).
std::atomic<CachingAllocator *> allocators[kMaxDevices];
std::mutex registryMutex;
/// The memory of allocators created from now on (guarded by registryMutex);
/// none: the driver's.
std::optional<ptensor_rt_device_memory_source> memorySource;

bool validDevice(int device) {
  if (device >= 0 && device < kMaxDevices)
    return true;
  return setErrorf(ErrorKind::InvalidArgument,
                   "invalid device cuda:%d: expected an ordinal in [0, %d)",
                   device, kMaxDevices);
}

CachingAllocator &allocatorFor(int device) {
  CachingAllocator *existing = allocators[device].load(std::memory_order_acquire);
  if (existing)
    return *existing;
  std::lock_guard<std::mutex> lock(registryMutex);
  existing = allocators[device].load(std::memory_order_acquire);
  if (existing)
    return *existing;
  AllocatorBackend backend;
  if (memorySource) {
    backend.context = new SourcedDevice{*memorySource, device, {}, {}};
    backend.allocate = sourcedAllocate;
    backend.deallocate = sourcedDeallocate;
    backend.memoryInfo = sourcedMemoryInfo;
    backend.synchronize = sourcedSynchronize;
  } else {
    backend.context = deviceContext(device);
    backend.allocate = cudaAllocate;
    backend.deallocate = cudaDeallocate;
    backend.memoryInfo = cudaMemoryInfo;
    backend.synchronize = cudaSynchronize;
  }
  auto *created = new CachingAllocator(
      backend, "cuda:" + std::to_string(device),
      CachingAllocator::cachingEnabledFromEnv());
  allocators[device].store(created, std::memory_order_release);
  return *created;
}

/// Calls `fn` on every allocator created so far.
template <typename Fn> void forEachAllocator(Fn fn) {
  for (auto &slot : allocators)
    if (CachingAllocator *allocator = slot.load(std::memory_order_acquire))
      fn(*allocator);
}

} // namespace

bool deviceAllocate(int device, size_t bytes, const void *stream, void **out) {
  *out = nullptr;
  if (!validDevice(device))
    return false;
  // Report a missing driver with its own message rather than wrapped in an
  // allocation failure.
  if (!driver())
    return false;
  std::string error;
  switch (allocatorFor(device).allocate(bytes, stream, out, &error)) {
  case AllocStatus::Ok:
    return true;
  case AllocStatus::OutOfMemory:
    return setError(ErrorKind::OutOfMemory, error);
  case AllocStatus::InvalidArgument:
    return setError(ErrorKind::InvalidArgument, error);
  case AllocStatus::Error:
    break;
  }
  return setError(ErrorKind::Cuda, error);
}

bool isDeviceAllocation(const void *ptr) {
  bool found = false;
  forEachAllocator([&](CachingAllocator &a) { found = found || a.owns(ptr); });
  return found;
}

bool deviceFree(void *ptr, const void *stream) {
  if (!ptr)
    return true;
  std::string error;
  // Most frees are of the calling thread's default device: one lookup under
  // one lock. Other devices' allocators are tried after it.
  int first = defaultDevice();
  CachingAllocator *preferred =
      first >= 0 && first < kMaxDevices
          ? allocators[first].load(std::memory_order_acquire)
          : nullptr;
  using FreeStatus = CachingAllocator::FreeStatus;
  FreeStatus status = FreeStatus::NotOwned;
  if (preferred)
    status = preferred->tryDeallocate(ptr, stream, &error);
  for (int d = 0; d < kMaxDevices && status == FreeStatus::NotOwned; ++d) {
    CachingAllocator *a = allocators[d].load(std::memory_order_acquire);
    if (a && a != preferred)
      status = a->tryDeallocate(ptr, stream, &error);
  }
  if (status == FreeStatus::NotOwned)
    return setErrorf(ErrorKind::InvalidArgument,
                     "free of pointer %p, which is not a live allocation of "
                     "the ptensor runtime (double free, or memory from "
                     "another allocator)",
                     ptr);
  if (status == FreeStatus::Error)
    return setError(ErrorKind::Cuda, error);
  return true;
}

void deviceStreamDestroyed(const void *stream) {
  forEachAllocator([&](CachingAllocator &a) { a.streamDestroyed(stream); });
}

} // namespace ptensor::rt

using namespace ptensor::rt;

extern "C" {
PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_alloc(int device, size_t bytes,
                                                     void *stream, void **out) {
  if (!out)
    return statusFrom(
        setError(ErrorKind::InvalidArgument, "ptensor_rt_alloc: out is NULL"));
  return statusFrom(deviceAllocate(device, bytes, stream, out));
}

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_free(void *ptr, void *stream) {
  return statusFrom(deviceFree(ptr, stream));
}

PTENSOR_RT_EXPORT ptensor_rt_status
ptensor_rt_get_allocator_stats(int device, ptensor_rt_allocator_stats *out) {
  if (!out)
    return statusFrom(setError(ErrorKind::InvalidArgument,
                               "ptensor_rt_get_allocator_stats: out is NULL"));
  if (device == PTENSOR_RT_HOST_DEVICE) {
    *out = hostAllocator().stats();
    return PTENSOR_RT_SUCCESS;
  }
  if (!validDevice(device))
    return statusFrom(false);
  CachingAllocator *allocator = allocators[device].load(std::memory_order_acquire);
  *out = allocator ? allocator->stats() : ptensor_rt_allocator_stats{};
  return PTENSOR_RT_SUCCESS;
}

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_reset_peak_stats(int device) {
  if (device == PTENSOR_RT_HOST_DEVICE) {
    hostAllocator().resetPeak();
    return PTENSOR_RT_SUCCESS;
  }
  if (!validDevice(device))
    return statusFrom(false);
  if (CachingAllocator *a = allocators[device].load(std::memory_order_acquire))
    a->resetPeak();
  return PTENSOR_RT_SUCCESS;
}

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_set_device_memory_source(
    const ptensor_rt_device_memory_source *source) {
  if (source && (!source->allocate || !source->release))
    return statusFrom(setError(ErrorKind::InvalidArgument,
                               "ptensor_rt_set_device_memory_source: the "
                               "source needs both allocate and release"));
  std::lock_guard<std::mutex> lock(registryMutex);
  for (int d = 0; d < kMaxDevices; ++d)
    if (allocators[d].load(std::memory_order_acquire))
      return statusFrom(
          setErrorf(ErrorKind::InvalidArgument,
                    "ptensor_rt_set_device_memory_source: cuda:%d has already "
                    "allocated; set the memory source before the first device "
                    "allocation",
                    d));
  if (source)
    memorySource = *source;
  else
    memorySource.reset();
  return PTENSOR_RT_SUCCESS;
}

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_empty_cache(void) {
  bool ok = true;
  forEachAllocator([&](CachingAllocator &a) {
    std::string error;
    if (!a.emptyCache(&error) && ok)
      ok = setError(ErrorKind::Cuda, error);
  });
  std::string error;
  if (!hostAllocator().emptyCache(&error) && ok)
    ok = setError(ErrorKind::InvalidArgument, error);
  return statusFrom(ok);
}
} // extern "C"
