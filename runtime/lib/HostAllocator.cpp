//===- HostAllocator.cpp - the caching allocator of host memory -----------===//
//
// Host buffers of compiled code (memref.alloc: results and temporaries) come
// from here (ptensor-use-host-allocator renames the lowered malloc/free).
// A fresh large malloc is a fresh mmap, and its first write page-faults on
// every page: a new 40 MB result cost as much as the add that fills it. The
// CachingAllocator (size classes, the device allocators' bookkeeping) keeps
// freed blocks for reuse, up to a limit, so a steady workload allocates no
// new pages after warm-up; blocks of 2 MiB and more ask the kernel for
// transparent huge pages. Blocks are malloc blocks: code that frees a result
// with free() (as docs/ABI.md allowed before) stays correct, only loses the
// reuse.
//
//===----------------------------------------------------------------------===//

#include "CachingAllocator.h"
#include "Errors.h"
#include "FaultInjection.h"
#include "HostAllocator.h"

#include "ptensor/Semantics/Limits.h"

#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <string>
#include <sys/mman.h>
#include <sys/sysinfo.h>

using namespace ptensor::rt;

namespace {
constexpr size_t kHugePage = size_t(2) << 20;

BackendStatus mallocAllocate(void *, size_t bytes, void **out,
                             std::string *) {
  *out = std::malloc(bytes);
  if (!*out)
    return BackendStatus::OutOfMemory;
  if (bytes >= kHugePage) {
    // The 2 MiB-aligned interior of the block (best effort).
    auto begin = reinterpret_cast<uintptr_t>(*out);
    uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
    if (last > first)
      madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
  }
  return BackendStatus::Ok;
}

bool mallocDeallocate(void *, void *ptr, std::string *) {
  std::free(ptr);
  return true;
}

size_t mallocUsableSize(void *, void *ptr) { return malloc_usable_size(ptr); }

bool hostMemoryInfo(void *, size_t *freeBytes, size_t *totalBytes) {
  struct sysinfo info;
  if (sysinfo(&info) != 0)
    return false;
  *freeBytes = size_t(info.freeram) * info.mem_unit;
  *totalBytes = size_t(info.totalram) * info.mem_unit;
  return true;
}

/// PTENSOR_HOST_CACHE_BYTES, else an eighth of the machine's memory.
size_t hostCacheLimit() {
  if (const char *value = std::getenv("PTENSOR_HOST_CACHE_BYTES")) {
    char *end = nullptr;
    unsigned long long limit = std::strtoull(value, &end, 10);
    if (end != value && *end == '\0')
      return static_cast<size_t>(limit);
  }
  size_t freeBytes = 0, totalBytes = 0;
  if (!hostMemoryInfo(nullptr, &freeBytes, &totalBytes))
    return size_t(1) << 30;
  return totalBytes / 8;
}

} // namespace

CachingAllocator &ptensor::rt::hostAllocator() {
  // Never destroyed: compiled code may free blocks from other threads'
  // static destructors.
  static CachingAllocator *allocator = [] {
    AllocatorBackend backend;
    backend.allocate = mallocAllocate;
    backend.deallocate = mallocDeallocate;
    backend.memoryInfo = hostMemoryInfo;
    backend.usableSize = mallocUsableSize;
    return new CachingAllocator(backend, "the host",
                                CachingAllocator::cachingEnabledFromEnv(),
                                hostCacheLimit());
  }();
  return *allocator;
}

namespace {
/// ptensor_rt_host_alloc's work, which may hold objects with destructors
/// (the error text): false with the error recorded on failure.
bool hostAllocate(size_t bytes, void **out) {
  // A negative dynamic size arrives as a huge unsigned one.
  if (bytes > static_cast<size_t>(ptensor::semantics::kMaxArrayBytes))
    return setErrorf(ErrorKind::InvalidArgument,
                     "cannot allocate %zu bytes on the host: the size is "
                     "negative or larger than %s bytes",
                     bytes, ptensor::semantics::kMaxArrayBytesText);
  if (injectFault(FaultSite::HostAlloc, "host allocation"))
    return false;
  std::string error;
  switch (hostAllocator().allocate(bytes, /*stream=*/nullptr, out, &error)) {
  case AllocStatus::Ok:
    return true;
  case AllocStatus::InvalidArgument:
    return setError(ErrorKind::InvalidArgument, error);
  case AllocStatus::OutOfMemory:
  case AllocStatus::Error:
    break;
  }
  return setError(ErrorKind::OutOfMemory, error);
}
} // namespace

extern "C" {
// Only trivially destructible objects in this frame: the failure jumps.
PTENSOR_RT_EXPORT void *ptensor_rt_host_alloc(size_t bytes) {
  void *ptr = nullptr;
  if (!hostAllocate(bytes, &ptr))
    leaveCompiledCode();
  return ptr;
}

PTENSOR_RT_EXPORT void ptensor_rt_host_free(void *ptr) {
  std::string error;
  if (hostAllocator().tryDeallocate(ptr, /*stream=*/nullptr, &error) ==
      CachingAllocator::FreeStatus::NotOwned)
    std::free(ptr); // malloc'd elsewhere (or before the cache existed)
}
} // extern "C"
