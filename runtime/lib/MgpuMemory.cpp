//===- MgpuMemory.cpp - mgpu* memory entry points -------------------------===//
///
/// \file
/// Allocation, copies, memsets and host registration for MLIR 22's
/// GPU-to-LLVM host lowering. Device memory goes through the caching
/// allocator; host-shared (managed) memory goes straight to the driver.
/// All entry points abort on error.
///
//===----------------------------------------------------------------------===//

#include "DeviceAllocator.h"
#include "DeviceContext.h"
#include "Errors.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <unordered_set>

using namespace ptensor::rt;

namespace {

/// Managed allocations (isHostShared), which bypass the caching allocator.
struct ManagedSet {
  std::mutex mutex;
  std::unordered_set<void *> pointers;
  /// pointers.size(), readable without the lock: frees skip the set while
  /// no managed memory is live (the common case).
  std::atomic<size_t> count{0};
};
ManagedSet &managed() {
  static ManagedSet *set = new ManagedSet(); // Leaked: used at exit.
  return *set;
}

void *allocateManaged(uint64_t bytes) {
  int device = defaultDevice();
  ScopedContext scope(device);
  require(scope.ok());
  CUdeviceptr ptr = 0;
  CUresult result = scope.api().MemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    size_t freeBytes = 0, totalBytes = 0;
    scope.api().MemGetInfo(&freeBytes, &totalBytes);
    require(setErrorf(ErrorKind::OutOfMemory,
                      "out of memory allocating %llu bytes of host-shared "
                      "memory on cuda:%d (free %zu bytes of %zu)",
                      static_cast<unsigned long long>(bytes), device,
                      freeBytes, totalBytes));
  }
  require(checkCuda(result, "cuMemAllocManaged(" + std::to_string(bytes) +
                                " bytes)"));
  void *p = fromDevicePtr(ptr);
  ManagedSet &set = managed();
  std::lock_guard<std::mutex> lock(set.mutex);
  set.pointers.insert(p);
  set.count.store(set.pointers.size(), std::memory_order_release);
  return p;
}

/// True (and forgets it) if `ptr` is a managed allocation.
bool takeManaged(void *ptr) {
  ManagedSet &set = managed();
  if (set.count.load(std::memory_order_acquire) == 0)
    return false;
  std::lock_guard<std::mutex> lock(set.mutex);
  bool found = set.pointers.erase(ptr) != 0;
  set.count.store(set.pointers.size(), std::memory_order_release);
  return found;
}

/// Byte span [start, start + bytes) covered by a ranked MLIR memref
/// descriptor {T *allocated; T *aligned; int64_t offset; int64_t sizes[rank];
/// int64_t strides[rank]}. bytes == 0 for an empty memref.
bool memrefSpan(int64_t rank, void *descriptor, int64_t elementSize,
                char **start, uint64_t *bytes) {
  static_assert(sizeof(void *) == sizeof(int64_t), "LP64 memref layout");
  if (!descriptor || rank < 0 || elementSize <= 0)
    return setErrorf(ErrorKind::InvalidArgument,
                     "memref host registration: invalid arguments (rank %lld, "
                     "element size %lld, descriptor %p); expected rank >= 0, "
                     "element size > 0 and a non-null descriptor",
                     static_cast<long long>(rank),
                     static_cast<long long>(elementSize), descriptor);
  auto *words = static_cast<int64_t *>(descriptor);
  char *aligned = reinterpret_cast<char *>(words[1]);
  int64_t offset = words[2];
  const int64_t *sizes = words + 3;
  const int64_t *strides = words + 3 + rank;
  uint64_t lastElement = 0; // Index of the furthest element.
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0) {
      *start = aligned;
      *bytes = 0;
      return true;
    }
    if (sizes[i] < 0 || strides[i] < 0)
      return setErrorf(ErrorKind::InvalidArgument,
                       "memref host registration: dimension %lld has size "
                       "%lld and stride %lld; expected non-negative values",
                       static_cast<long long>(i),
                       static_cast<long long>(sizes[i]),
                       static_cast<long long>(strides[i]));
    uint64_t term = 0;
    if (__builtin_mul_overflow(uint64_t(sizes[i] - 1), uint64_t(strides[i]),
                               &term) ||
        __builtin_add_overflow(lastElement, term, &lastElement))
      return setError(ErrorKind::InvalidArgument,
                      "memref host registration: the memref span overflows");
  }
  uint64_t span = 0;
  if (__builtin_mul_overflow(lastElement + 1, uint64_t(elementSize), &span))
    return setError(ErrorKind::InvalidArgument,
                    "memref host registration: the memref span overflows");
  *start = aligned + offset * elementSize;
  *bytes = span;
  return true;
}

} // namespace

extern "C" {

PTENSOR_RT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                     bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    return allocateManaged(sizeBytes);
  void *ptr = nullptr;
  require(deviceAllocate(defaultDevice(), sizeBytes, stream, &ptr));
  return ptr;
}

PTENSOR_RT_EXPORT void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  if (!takeManaged(ptr)) {
    require(deviceFree(ptr, stream));
    return;
  }
  ScopedContext scope(defaultDevice());
  if (!scope.ok() && scope.result() == CUDA_ERROR_DEINITIALIZED)
    return;
  require(scope.ok());
  require(checkCudaRelease(scope.api().MemFree(toDevicePtr(ptr)),
                           "cuMemFree_v2 (host-shared memory)"));
}

PTENSOR_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                  void *stream) {
  if (sizeBytes == 0)
    return;
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  CUresult result = scope.api().MemcpyAsync(
      toDevicePtr(dst), toDevicePtr(src), sizeBytes, static_cast<CUstream>(stream));
  if (result != CUDA_SUCCESS) {
    char what[160];
    std::snprintf(what, sizeof(what), "cuMemcpyAsync(dst %p, src %p, %zu bytes)",
                  dst, src, sizeBytes);
    require(checkCuda(result, what));
  }
}

PTENSOR_RT_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                    void *stream) {
  if (count == 0)
    return;
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  CUresult result = scope.api().MemsetD32Async(toDevicePtr(dst), value, count,
                                               static_cast<CUstream>(stream));
  if (result != CUDA_SUCCESS)
    require(checkCuda(result, "cuMemsetD32Async(" + std::to_string(count) +
                                  " words)"));
}

PTENSOR_RT_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                    size_t count, void *stream) {
  if (count == 0)
    return;
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  CUresult result = scope.api().MemsetD16Async(toDevicePtr(dst), value, count,
                                               static_cast<CUstream>(stream));
  if (result != CUDA_SUCCESS)
    require(checkCuda(result, "cuMemsetD16Async(" + std::to_string(count) +
                                  " half-words)"));
}

PTENSOR_RT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (sizeBytes == 0)
    return;
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  require(checkCuda(scope.api().MemHostRegister(ptr, sizeBytes, /*flags=*/0),
                    "cuMemHostRegister_v2(" + std::to_string(sizeBytes) +
                        " bytes)"));
}

PTENSOR_RT_EXPORT void mgpuMemHostUnregister(void *ptr) {
  if (!ptr)
    return;
  ScopedContext scope(defaultDevice());
  if (!scope.ok() && scope.result() == CUDA_ERROR_DEINITIALIZED)
    return;
  require(scope.ok());
  require(checkCudaRelease(scope.api().MemHostUnregister(ptr),
                           "cuMemHostUnregister"));
}

PTENSOR_RT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                 int64_t elementSizeBytes) {
  char *start = nullptr;
  uint64_t bytes = 0;
  require(memrefSpan(rank, descriptor, elementSizeBytes, &start, &bytes));
  mgpuMemHostRegister(start, bytes);
}

PTENSOR_RT_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                   void *descriptor,
                                                   int64_t elementSizeBytes) {
  char *start = nullptr;
  uint64_t bytes = 0;
  require(memrefSpan(rank, descriptor, elementSizeBytes, &start, &bytes));
  if (bytes != 0) // Empty memrefs were never registered.
    mgpuMemHostUnregister(start);
}

} // extern "C"
