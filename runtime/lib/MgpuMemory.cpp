//===- MgpuMemory.cpp - mgpu* memory entry points -------------------------===//
///
/// \file
/// Allocation, copies, memsets and host registration for MLIR 22's
/// GPU-to-LLVM host lowering. Device memory goes through the caching
/// allocator; host-shared (managed) memory goes straight to the driver.
/// Each entry point is a thin wrapper around an internal function that
/// returns false with the error recorded; the wrapper then fails the call
/// (failCompiledCall in Errors.h: through the caller's trap when there is
/// one, else the process exits or aborts).
///
//===----------------------------------------------------------------------===//

#include "DeviceAllocator.h"
#include "DeviceContext.h"
#include "ElementExtent.h"
#include "Errors.h"
#include "FaultInjection.h"

#include "ptensor/Semantics/Limits.h"

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

/// Largest request mgpuMemAlloc passes on. MLIR's lowering computes the
/// byte size from dynamic sizes, so a negative size arrives as a huge
/// unsigned one.
constexpr uint64_t kMaxAllocationBytes =
    static_cast<uint64_t>(ptensor::semantics::kMaxArrayBytes);

/// Refuses a request above kMaxAllocationBytes; `what` names the memory.
bool checkAllocationSize(uint64_t bytes, const char *what) {
  if (bytes <= kMaxAllocationBytes)
    return true;
  return setErrorf(ErrorKind::InvalidArgument,
                   "%s allocation of %llu bytes: the size is negative (%lld "
                   "as a signed number) or absurdly large (over %s "
                   "bytes); was a dynamic size negative?",
                   what, static_cast<unsigned long long>(bytes),
                   static_cast<long long>(bytes),
                   ptensor::semantics::kMaxArrayBytesText);
}

/// Records `p` as a managed allocation, for takeManaged.
void rememberManaged(void *p) {
  ManagedSet &set = managed();
  std::lock_guard<std::mutex> lock(set.mutex);
  set.pointers.insert(p);
  set.count.store(set.pointers.size(), std::memory_order_release);
}

bool allocateManaged(uint64_t bytes, void **out) {
  int device = defaultDevice();
  ScopedContext scope(device);
  if (!scope.ok())
    return false;
  CUdeviceptr ptr = 0;
  CUresult result = scope.api().MemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    size_t freeBytes = 0, totalBytes = 0;
    scope.api().MemGetInfo(&freeBytes, &totalBytes);
    return setErrorf(ErrorKind::OutOfMemory,
                     "out of memory allocating %llu bytes of host-shared "
                     "memory on cuda:%d (free %zu bytes of %zu)",
                     static_cast<unsigned long long>(bytes), device, freeBytes,
                     totalBytes);
  }
  if (result != CUDA_SUCCESS)
    return checkCuda(result,
                     "cuMemAllocManaged(" + std::to_string(bytes) + " bytes)");
  *out = fromDevicePtr(ptr);
  rememberManaged(*out);
  return true;
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
  ElementExtent extent = furthestElement(sizes, strides, rank);
  if (extent.status == ElementExtent::Empty) {
    *start = aligned;
    *bytes = 0;
    return true;
  }
  if (extent.status == ElementExtent::Negative)
    return setErrorf(ErrorKind::InvalidArgument,
                     "memref host registration: dimension %lld has size "
                     "%lld and stride %lld; expected non-negative values",
                     static_cast<long long>(extent.dim),
                     static_cast<long long>(sizes[extent.dim]),
                     static_cast<long long>(strides[extent.dim]));
  uint64_t span = 0;
  if (extent.status == ElementExtent::Overflow ||
      __builtin_mul_overflow(extent.furthest + 1, uint64_t(elementSize), &span))
    return setError(ErrorKind::InvalidArgument,
                    "memref host registration: the memref span overflows");
  *start = aligned + offset * elementSize;
  *bytes = span;
  return true;
}

// The work of the entry points below, which may hold RAII objects (see
// require in Errors.h).

bool memAlloc(uint64_t bytes, void *stream, bool isHostShared, void **out) {
  *out = nullptr;
  if (bytes == 0)
    return true;
  if (!checkAllocationSize(bytes, isHostShared ? "host-shared" : "device") ||
      injectFault(FaultSite::DeviceAlloc, isHostShared
                                              ? "host-shared allocation"
                                              : "device allocation"))
    return false;
  if (isHostShared)
    return allocateManaged(bytes, out);
  return deviceAllocate(defaultDevice(), bytes, stream, out);
}

bool memFree(void *ptr, void *stream) {
  if (!ptr)
    return true;
  if (!takeManaged(ptr))
    return deviceFree(ptr, stream);
  ScopedContext scope(defaultDevice());
  if (!scope.ok()) // Process exit: the driver already released everything.
    return scope.result() == CUDA_ERROR_DEINITIALIZED;
  return checkCudaRelease(scope.api().MemFree(toDevicePtr(ptr)),
                          "cuMemFree_v2 (host-shared memory)");
}

bool memcpyAsync(void *dst, void *src, size_t bytes, void *stream) {
  if (bytes == 0)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok())
    return false;
  CUresult result = scope.api().MemcpyAsync(
      toDevicePtr(dst), toDevicePtr(src), bytes, static_cast<CUstream>(stream));
  if (result == CUDA_SUCCESS)
    return true;
  char what[160];
  std::snprintf(what, sizeof(what), "cuMemcpyAsync(dst %p, src %p, %zu bytes)",
                dst, src, bytes);
  return checkCuda(result, what);
}

bool memcpy2DAsync(void *dst, size_t dstPitch, const void *src,
                   size_t srcPitch, size_t widthBytes, size_t rows,
                   void *stream) {
  if (widthBytes == 0 || rows == 0)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok())
    return false;
  CUDA_MEMCPY2D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = toDevicePtr(const_cast<void *>(src));
  copy.srcPitch = srcPitch;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = toDevicePtr(dst);
  copy.dstPitch = dstPitch;
  copy.WidthInBytes = widthBytes;
  copy.Height = rows;
  CUresult result =
      scope.api().Memcpy2DAsync(&copy, static_cast<CUstream>(stream));
  if (result == CUDA_SUCCESS)
    return true;
  char what[200];
  std::snprintf(what, sizeof(what),
                "cuMemcpy2DAsync(%zu rows of %zu bytes, pitches %zu <- %zu)",
                rows, widthBytes, dstPitch, srcPitch);
  return checkCuda(result, what);
}

bool memset32(void *dst, unsigned int value, size_t count, void *stream) {
  if (count == 0)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok())
    return false;
  CUresult result = scope.api().MemsetD32Async(toDevicePtr(dst), value, count,
                                               static_cast<CUstream>(stream));
  return result == CUDA_SUCCESS ||
         checkCuda(result,
                   "cuMemsetD32Async(" + std::to_string(count) + " words)");
}

bool memset16(void *dst, unsigned short value, size_t count, void *stream) {
  if (count == 0)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok())
    return false;
  CUresult result = scope.api().MemsetD16Async(toDevicePtr(dst), value, count,
                                               static_cast<CUstream>(stream));
  return result == CUDA_SUCCESS ||
         checkCuda(result, "cuMemsetD16Async(" + std::to_string(count) +
                               " half-words)");
}

bool hostRegister(void *ptr, uint64_t bytes) {
  if (bytes == 0)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok())
    return false;
  CUresult result = scope.api().MemHostRegister(ptr, bytes, /*flags=*/0);
  return result == CUDA_SUCCESS ||
         checkCuda(result,
                   "cuMemHostRegister_v2(" + std::to_string(bytes) + " bytes)");
}

bool hostUnregister(void *ptr) {
  if (!ptr)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok()) // Process exit: the driver already released everything.
    return scope.result() == CUDA_ERROR_DEINITIALIZED;
  return checkCudaRelease(scope.api().MemHostUnregister(ptr),
                          "cuMemHostUnregister");
}

bool hostRegisterMemRef(int64_t rank, void *descriptor, int64_t elementSize) {
  char *start = nullptr;
  uint64_t bytes = 0;
  return memrefSpan(rank, descriptor, elementSize, &start, &bytes) &&
         hostRegister(start, bytes);
}

bool hostUnregisterMemRef(int64_t rank, void *descriptor, int64_t elementSize) {
  char *start = nullptr;
  uint64_t bytes = 0;
  if (!memrefSpan(rank, descriptor, elementSize, &start, &bytes))
    return false;
  return bytes == 0 || // Empty memrefs were never registered.
         hostUnregister(start);
}

} // namespace

// Only trivially destructible objects in these frames: require may jump.
extern "C" {

PTENSOR_RT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                     bool isHostShared) {
  return resultOrFail<void *>(memAlloc, sizeBytes, stream, isHostShared);
}

PTENSOR_RT_EXPORT void mgpuMemFree(void *ptr, void *stream) {
  require(memFree(ptr, stream));
}

PTENSOR_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                  void *stream) {
  require(memcpyAsync(dst, src, sizeBytes, stream));
}

PTENSOR_RT_EXPORT void ptensor_rt_gpu_copy_rows(void *dst, size_t dstPitch,
                                               const void *src,
                                               size_t srcPitch,
                                               size_t widthBytes, size_t rows,
                                               void *stream) {
  require(
      memcpy2DAsync(dst, dstPitch, src, srcPitch, widthBytes, rows, stream));
}

PTENSOR_RT_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                    void *stream) {
  require(memset32(dst, value, count, stream));
}

PTENSOR_RT_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                    size_t count, void *stream) {
  require(memset16(dst, value, count, stream));
}

PTENSOR_RT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  require(hostRegister(ptr, sizeBytes));
}

PTENSOR_RT_EXPORT void mgpuMemHostUnregister(void *ptr) {
  require(hostUnregister(ptr));
}

PTENSOR_RT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                 int64_t elementSizeBytes) {
  require(hostRegisterMemRef(rank, descriptor, elementSizeBytes));
}

PTENSOR_RT_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                   void *descriptor,
                                                   int64_t elementSizeBytes) {
  require(hostUnregisterMemRef(rank, descriptor, elementSizeBytes));
}

} // extern "C"
