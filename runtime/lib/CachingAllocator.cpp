//===- CachingAllocator.cpp - Size-class caching allocator ----------------===//

#include "CachingAllocator.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ptensor::rt {
namespace {
/// Pool key of blocks that any stream may reuse.
constexpr uintptr_t kAnyStream = UINTPTR_MAX;

uintptr_t streamKey(const void *stream) {
  return reinterpret_cast<uintptr_t>(stream);
}

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  return buffer;
}
} // namespace

CachingAllocator::CachingAllocator(AllocatorBackend backend, std::string place,
                                   bool cachingEnabled, size_t cacheLimit)
    : backend_(backend), place_(std::move(place)),
      cachingEnabled_(cachingEnabled), cacheLimit_(cacheLimit) {}

CachingAllocator::~CachingAllocator() {
  std::string ignored;
  std::lock_guard<std::mutex> lock(mutex_);
  releaseCacheLocked(&ignored);
}

size_t CachingAllocator::roundSize(size_t bytes) {
  size_t granule = bytes <= kSmallLimit ? kSmallGranule : kLargeGranule;
  if (bytes > SIZE_MAX - (granule - 1))
    return 0;
  size_t rounded = (bytes + granule - 1) / granule * granule;
  return rounded == 0 ? kSmallGranule : rounded;
}

bool CachingAllocator::cachingEnabledFromEnv() {
  const char *value = std::getenv("PTENSOR_DISABLE_CACHING_ALLOCATOR");
  return !value || !*value || std::strcmp(value, "0") == 0;
}

bool CachingAllocator::takeCached(const void *stream, size_t size, void **out) {
  for (uintptr_t key : {streamKey(stream), kAnyStream}) {
    auto it = pools_.find({key, size});
    if (it == pools_.end() || it->second.empty())
      continue;
    *out = it->second.back();
    it->second.pop_back();
    stats_.bytes_cached -= size;
    return true;
  }
  return false;
}

std::string CachingAllocator::outOfMemoryMessage(size_t requested) const {
  size_t freeBytes = 0, totalBytes = 0;
  if (backend_.memoryInfo &&
      backend_.memoryInfo(backend_.context, &freeBytes, &totalBytes))
    return format("out of memory allocating %zu bytes on %s (free %zu "
                  "bytes of %zu)",
                  requested, place_.c_str(), freeBytes, totalBytes);
  return format("out of memory allocating %zu bytes on %s (free memory "
                "unknown)",
                requested, place_.c_str());
}

AllocStatus CachingAllocator::allocate(size_t bytes, const void *stream,
                                       void **out, std::string *error) {
  *out = nullptr;
  if (bytes == 0)
    return AllocStatus::Ok;
  size_t size = roundSize(bytes);
  if (size == 0) {
    *error = format("cannot allocate %zu bytes on %s: the size is too "
                    "large to round to a size class",
                    bytes, place_.c_str());
    return AllocStatus::InvalidArgument;
  }

  std::lock_guard<std::mutex> lock(mutex_);
  void *ptr = nullptr;
  if (cachingEnabled_ && takeCached(stream, size, &ptr)) {
    ++stats_.reuse_count;
  } else {
    std::string backendError;
    BackendStatus status =
        backend_.allocate(backend_.context, size, &ptr, &backendError);
    if (status == BackendStatus::OutOfMemory && stats_.bytes_cached > 0) {
      // Free the cache and retry once: cached blocks of other size classes
      // or streams may be what stands in the way.
      if (!releaseCacheLocked(error))
        return AllocStatus::Error;
      backendError.clear();
      status = backend_.allocate(backend_.context, size, &ptr, &backendError);
    }
    if (status == BackendStatus::OutOfMemory) {
      *error = outOfMemoryMessage(bytes);
      return AllocStatus::OutOfMemory;
    }
    if (status != BackendStatus::Ok || !ptr) {
      *error = format("allocating %zu bytes on %s failed: ", bytes,
                      place_.c_str()) +
               (backendError.empty() ? "the backend returned no memory"
                                     : backendError);
      return AllocStatus::Error;
    }
    ++stats_.alloc_count;
  }
  // Assigned, not emplaced: a block freed with free() behind the allocator's
  // back (docs/ABI.md asks for ptensor_rt_host_free) leaves a stale entry
  // that the backend may hand out again.
  live_.insert_or_assign(ptr, size);
  stats_.bytes_in_use += size;
  if (stats_.bytes_in_use > stats_.peak_bytes_in_use)
    stats_.peak_bytes_in_use = stats_.bytes_in_use;
  *out = ptr;
  return AllocStatus::Ok;
}

bool CachingAllocator::deallocate(void *ptr, const void *stream,
                                  std::string *error) {
  switch (tryDeallocate(ptr, stream, error)) {
  case FreeStatus::Freed:
    return true;
  case FreeStatus::NotOwned:
    *error = format("free of pointer %p, which is not a live allocation of "
                    "%s (double free, or memory from another allocator)",
                    ptr, place_.c_str());
    return false;
  case FreeStatus::Error:
    break;
  }
  return false;
}

CachingAllocator::FreeStatus
CachingAllocator::tryDeallocate(void *ptr, const void *stream,
                                std::string *error) {
  if (!ptr)
    return FreeStatus::Freed;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(ptr);
  if (it == live_.end())
    return FreeStatus::NotOwned;
  size_t size = it->second;
  live_.erase(it);
  stats_.bytes_in_use -= size;
  if (backend_.usableSize && backend_.usableSize(backend_.context, ptr) < size)
    return FreeStatus::NotOwned; // a stale record: the caller frees it

  if (cachingEnabled_ && stats_.bytes_cached <= cacheLimit_ &&
      size <= cacheLimit_ - stats_.bytes_cached) {
    pools_[{streamKey(stream), size}].push_back(ptr);
    stats_.bytes_cached += size;
    return FreeStatus::Freed;
  }
  std::string backendError;
  if (!backend_.deallocate(backend_.context, ptr, &backendError)) {
    *error = format("freeing %p (%zu bytes) on %s failed: ", ptr, size,
                    place_.c_str()) +
             backendError;
    return FreeStatus::Error;
  }
  return FreeStatus::Freed;
}

bool CachingAllocator::owns(const void *ptr) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.count(ptr) != 0;
}

void CachingAllocator::streamDestroyed(const void *stream) {
  uintptr_t key = streamKey(stream);
  if (key == kAnyStream)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = pools_.lower_bound({key, 0});
       it != pools_.end() && it->first.first == key;) {
    std::vector<void *> &shared = pools_[{kAnyStream, it->first.second}];
    shared.insert(shared.end(), it->second.begin(), it->second.end());
    it = pools_.erase(it);
  }
}

bool CachingAllocator::releaseCacheLocked(std::string *error) {
  if (stats_.bytes_cached == 0) {
    pools_.clear(); // only emptied vectors
    return true;
  }
  if (backend_.synchronize) {
    std::string syncError;
    if (!backend_.synchronize(backend_.context, &syncError)) {
      *error = format("releasing the allocator cache of %s failed: ",
                      place_.c_str()) +
               syncError;
      return false;
    }
  }
  bool ok = true;
  for (auto &pool : pools_) {
    for (void *ptr : pool.second) {
      std::string backendError;
      if (!backend_.deallocate(backend_.context, ptr, &backendError) && ok) {
        *error = format("freeing cached block %p (%zu bytes) on %s "
                        "failed: ",
                        ptr, pool.first.second, place_.c_str()) +
                 backendError;
        ok = false; // Keep going: release as much as possible.
      }
    }
  }
  pools_.clear();
  stats_.bytes_cached = 0;
  return ok;
}

bool CachingAllocator::emptyCache(std::string *error) {
  std::lock_guard<std::mutex> lock(mutex_);
  return releaseCacheLocked(error);
}

ptensor_rt_allocator_stats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void CachingAllocator::resetPeak() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_bytes_in_use = stats_.bytes_in_use;
}

} // namespace ptensor::rt
