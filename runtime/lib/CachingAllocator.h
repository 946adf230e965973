//===- CachingAllocator.h - Size-class caching allocator -------*- C++ -*-===//
///
/// \file
/// Bookkeeping of the caching allocators (one per GPU, one for the host),
/// independent of where memory comes from: an AllocatorBackend (function
/// pointers) provides it: the CUDA driver, malloc, or a unit test's fake.
///
/// Policy (modelled on PyTorch's caching allocator, without block splitting):
///  * Requests are rounded up to a size class: a multiple of 512 bytes for
///    sizes up to 1 MiB, a multiple of 2 MiB above.
///  * A freed block is cached under (stream it was freed on, size class) and
///    only reused by a request of the same size class on the same stream, so
///    work already queued on that stream is ordered before the reuse. When a
///    stream is destroyed (and was synchronized) its cached blocks become
///    reusable by any stream.
///  * When the backend reports out of memory, the whole cache is released
///    (after backend.synchronize) and the request retried once.
///  * With caching disabled every free goes straight to the backend, and so
///    does a free that would take the cached bytes over the cache limit.
///
/// Thread safety: all member functions are safe to call concurrently (one
/// mutex per allocator). Backend calls are made with the mutex held.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_CACHINGALLOCATOR_H
#define PTENSOR_RUNTIME_LIB_CACHINGALLOCATOR_H

#include "ptensor/Runtime/PTensorRuntime.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptensor::rt {

/// Result of a backend allocation.
enum class BackendStatus { Ok, OutOfMemory, Error };

/// Where the memory comes from. `allocate` and `deallocate` are required;
/// `memoryInfo` and `synchronize` may be null.
struct AllocatorBackend {
  /// Passed back to every callback.
  void *context = nullptr;
  /// Allocates `bytes`; on failure returns OutOfMemory or Error and may
  /// describe the problem in `*error`.
  BackendStatus (*allocate)(void *context, size_t bytes, void **out,
                            std::string *error) = nullptr;
  /// Frees memory from `allocate`; returns false and fills `*error` on
  /// failure.
  bool (*deallocate)(void *context, void *ptr, std::string *error) = nullptr;
  /// Reports the device's free and total bytes for out-of-memory messages.
  bool (*memoryInfo)(void *context, size_t *freeBytes,
                     size_t *totalBytes) = nullptr;
  /// Waits for all queued device work; called before cached blocks are
  /// returned to the backend, since they may still be used by queued work.
  bool (*synchronize)(void *context, std::string *error) = nullptr;
  /// The usable size of a live block (malloc_usable_size): a block smaller
  /// than its recorded size class was freed behind the allocator's back and
  /// the address reused, and is not cached.
  size_t (*usableSize)(void *context, void *ptr) = nullptr;
};

/// Outcome of CachingAllocator::allocate.
enum class AllocStatus { Ok, OutOfMemory, InvalidArgument, Error };

class CachingAllocator {
public:
  /// Size classes: 512-byte granularity up to kSmallLimit, kLargeGranule
  /// above.
  static constexpr size_t kSmallGranule = 512;
  static constexpr size_t kSmallLimit = size_t(1) << 20;
  static constexpr size_t kLargeGranule = size_t(2) << 20;

  /// `place` only appears in messages ("cuda:0", "the host").
  CachingAllocator(AllocatorBackend backend, std::string place,
                   bool cachingEnabled, size_t cacheLimit = SIZE_MAX);
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  /// The size class of a `bytes` request (bytes > 0); 0 if rounding would
  /// overflow.
  static size_t roundSize(size_t bytes);

  /// True unless PTENSOR_DISABLE_CACHING_ALLOCATOR is set to a value other
  /// than "" or "0".
  static bool cachingEnabledFromEnv();

  /// Allocates `bytes` for use on `stream` (an opaque key; null is a valid
  /// stream). `bytes == 0` yields a null pointer and Ok. On failure `*error`
  /// holds a complete message (without the "ptensor runtime: " prefix).
  AllocStatus allocate(size_t bytes, const void *stream, void **out,
                       std::string *error);

  /// Returns `ptr` to the cache, keyed on `stream`. Null is a no-op. Returns
  /// false with `*error` set if `ptr` is not a live block of this allocator.
  bool deallocate(void *ptr, const void *stream, std::string *error);

  /// Outcome of tryDeallocate.
  enum class FreeStatus { Freed, NotOwned, Error };

  /// deallocate in one lookup for callers that try several allocators:
  /// NotOwned (nothing recorded) if `ptr` is not a live block of this one.
  FreeStatus tryDeallocate(void *ptr, const void *stream, std::string *error);

  /// True if `ptr` is a live (allocated, not freed) block of this allocator.
  bool owns(const void *ptr) const;

  /// Moves the cached blocks of `stream` to the pool shared by all streams.
  /// The caller must have synchronized the stream.
  void streamDestroyed(const void *stream);

  /// Returns every cached block to the backend (after synchronize).
  /// Returns false with `*error` set if a backend call failed.
  bool emptyCache(std::string *error);

  ptensor_rt_allocator_stats stats() const;
  void resetPeak();
  bool cachingEnabled() const { return cachingEnabled_; }

private:
  using PoolKey = std::pair<uintptr_t, size_t>; // (stream, size class)

  bool takeCached(const void *stream, size_t size, void **out);
  bool releaseCacheLocked(std::string *error);
  std::string outOfMemoryMessage(size_t requested) const;

  AllocatorBackend backend_;
  std::string place_;
  bool cachingEnabled_;
  /// Most bytes kept in freed blocks.
  size_t cacheLimit_;
  mutable std::mutex mutex_;
  /// Live blocks: pointer -> size class.
  std::unordered_map<const void *, size_t> live_;
  /// Cached blocks per (stream, size class). Emptied vectors stay in the
  /// map, so an allocate/free cycle of one size allocates no map node.
  std::map<PoolKey, std::vector<void *>> pools_;
  ptensor_rt_allocator_stats stats_{};
};

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_CACHINGALLOCATOR_H
