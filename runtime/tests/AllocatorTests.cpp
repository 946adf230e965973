//===- AllocatorTests.cpp - CachingAllocator with a malloc backend --------===//
///
/// \file
/// Exercises the allocator bookkeeping through a fake backend built on
/// malloc/free with an optional memory limit, so no GPU is needed.
///
//===----------------------------------------------------------------------===//

#include "CachingAllocator.h"
#include "TestUtil.h"

#include <cstdint>
#include <cstdlib>
#include <thread>
#include <unordered_map>
#include <vector>

using namespace ptensor::rt;
using namespace ptensor::rt::test;

namespace {

/// malloc-backed device memory with a capacity, counting every call.
struct FakeDevice {
  size_t capacity = SIZE_MAX;
  size_t outstanding = 0;
  int allocations = 0, frees = 0, syncs = 0;
  bool failWithError = false;
  bool hasMemoryInfo = true;
  std::unordered_map<void *, size_t> blocks;

  static FakeDevice &self(void *context) {
    return *static_cast<FakeDevice *>(context);
  }
  static BackendStatus allocate(void *context, size_t bytes, void **out,
                                std::string *error) {
    FakeDevice &d = self(context);
    if (d.failWithError) {
      *error = "fake driver failure";
      return BackendStatus::Error;
    }
    if (bytes > d.capacity - d.outstanding)
      return BackendStatus::OutOfMemory;
    *out = std::malloc(bytes);
    d.blocks[*out] = bytes;
    d.outstanding += bytes;
    ++d.allocations;
    return BackendStatus::Ok;
  }
  static bool deallocate(void *context, void *ptr, std::string *error) {
    FakeDevice &d = self(context);
    auto it = d.blocks.find(ptr);
    if (it == d.blocks.end()) {
      *error = "fake backend: unknown pointer";
      return false;
    }
    d.outstanding -= it->second;
    d.blocks.erase(it);
    std::free(ptr);
    ++d.frees;
    return true;
  }
  static bool memoryInfo(void *context, size_t *freeBytes, size_t *total) {
    FakeDevice &d = self(context);
    if (!d.hasMemoryInfo)
      return false;
    *freeBytes = d.capacity - d.outstanding;
    *total = d.capacity;
    return true;
  }
  static bool synchronize(void *context, std::string *) {
    ++self(context).syncs;
    return true;
  }
  AllocatorBackend backend() {
    AllocatorBackend b;
    b.context = this;
    b.allocate = allocate;
    b.deallocate = deallocate;
    b.memoryInfo = memoryInfo;
    b.synchronize = synchronize;
    return b;
  }
};

const void *const kStreamA = reinterpret_cast<const void *>(0x1000);
const void *const kStreamB = reinterpret_cast<const void *>(0x2000);

void printStats(const char *label, const CachingAllocator &a) {
  ptensor_rt_allocator_stats s = a.stats();
  std::printf("%s: in_use=%llu cached=%llu peak=%llu allocs=%llu reuses=%llu\n",
              label, (unsigned long long)s.bytes_in_use,
              (unsigned long long)s.bytes_cached,
              (unsigned long long)s.peak_bytes_in_use,
              (unsigned long long)s.alloc_count,
              (unsigned long long)s.reuse_count);
}

void *mustAllocate(CachingAllocator &a, size_t bytes, const void *stream) {
  void *ptr = nullptr;
  std::string error;
  AllocStatus status = a.allocate(bytes, stream, &ptr, &error);
  EXPECT_TRUE(status == AllocStatus::Ok);
  if (status != AllocStatus::Ok)
    std::printf("  unexpected allocation error: %s\n", error.c_str());
  return ptr;
}

void mustFree(CachingAllocator &a, void *ptr, const void *stream) {
  std::string error;
  EXPECT_TRUE(a.deallocate(ptr, stream, &error));
}

void testSizeClasses() {
  const size_t sizes[] = {1,       511,         512,         513,
                          1000,    1048575,     1048576,     1048577,
                          2097152, 5u << 20,    (5u << 20) + 1};
  const size_t expected[] = {512,     512,       512,       1024,
                             1024,    1048576,   1048576,   2097152,
                             2097152, 6u << 20,  6u << 20};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
    size_t rounded = CachingAllocator::roundSize(sizes[i]);
    std::printf("size class of %zu = %zu\n", sizes[i], rounded);
    EXPECT_EQ(rounded, expected[i]);
  }
  EXPECT_EQ(CachingAllocator::roundSize(SIZE_MAX), size_t(0));
}

void testReuseAndStats() {
  FakeDevice device;
  CachingAllocator a(device.backend(), "cuda:0", /*cachingEnabled=*/true);
  void *p1 = mustAllocate(a, 1, kStreamA);
  void *p2 = mustAllocate(a, 1000, kStreamA);
  void *p3 = mustAllocate(a, (1u << 20) + 1, kStreamA);
  printStats("after 3 allocations", a);
  ptensor_rt_allocator_stats s = a.stats();
  EXPECT_EQ(s.bytes_in_use, 512u + 1024u + 2097152u);
  EXPECT_EQ(s.peak_bytes_in_use, 512u + 1024u + 2097152u);
  EXPECT_EQ(s.alloc_count, 3u);

  mustFree(a, p1, kStreamA);
  printStats("after freeing the 512-byte block", a);
  EXPECT_EQ(a.stats().bytes_cached, 512u);
  EXPECT_TRUE(!a.owns(p1));

  void *p4 = mustAllocate(a, 300, kStreamA); // Same class, same stream.
  std::printf("same-class allocation reused the block: %s\n",
              p4 == p1 ? "yes" : "no");
  EXPECT_TRUE(p4 == p1);
  void *p5 = mustAllocate(a, 300, kStreamB); // Nothing cached for stream B.
  printStats("after reuse", a);
  s = a.stats();
  EXPECT_EQ(s.reuse_count, 1u);
  EXPECT_EQ(s.alloc_count, 4u);
  EXPECT_EQ(s.bytes_cached, 0u);
  EXPECT_EQ(device.allocations, 4);

  for (void *p : {p2, p3, p4})
    mustFree(a, p, kStreamA);
  mustFree(a, p5, kStreamB);
  printStats("after freeing everything", a);
  EXPECT_EQ(a.stats().bytes_in_use, 0u);
  EXPECT_EQ(a.stats().peak_bytes_in_use, 512u + 1024u + 2097152u + 512u);
  EXPECT_EQ(device.frees, 0); // Everything is cached.

  std::string error;
  EXPECT_TRUE(a.emptyCache(&error));
  printStats("after empty_cache", a);
  EXPECT_EQ(a.stats().bytes_cached, 0u);
  EXPECT_EQ(device.frees, 4);
  EXPECT_EQ(device.outstanding, size_t(0));
  EXPECT_EQ(device.syncs, 1);

  a.resetPeak();
  EXPECT_EQ(a.stats().peak_bytes_in_use, 0u);
}

void testStreams() {
  FakeDevice device;
  CachingAllocator a(device.backend(), "cuda:0", true);
  void *p = mustAllocate(a, 4096, kStreamA);
  mustFree(a, p, kStreamA);
  void *q = mustAllocate(a, 4096, kStreamB);
  std::printf("block freed on stream A reused on stream B: %s\n",
              q == p ? "yes" : "no");
  EXPECT_TRUE(q != p);
  a.streamDestroyed(kStreamA);
  void *r = mustAllocate(a, 4096, kStreamB);
  std::printf("after destroying stream A, reused on stream B: %s\n",
              r == p ? "yes" : "no");
  EXPECT_TRUE(r == p);
  mustFree(a, q, kStreamB);
  mustFree(a, r, kStreamB);
}

void testEdgeCases() {
  FakeDevice device;
  CachingAllocator a(device.backend(), "cuda:3", true);
  void *p = reinterpret_cast<void *>(0x1);
  std::string error;
  EXPECT_TRUE(a.allocate(0, kStreamA, &p, &error) == AllocStatus::Ok);
  EXPECT_TRUE(p == nullptr);
  EXPECT_TRUE(a.deallocate(nullptr, kStreamA, &error));
  EXPECT_EQ(device.allocations, 0);

  int local = 0;
  EXPECT_TRUE(!a.deallocate(&local, kStreamA, &error));
  std::printf("free of a foreign pointer: %s\n", error.c_str());
  EXPECT_CONTAINS(error, "not a live allocation of cuda:3");

  void *q = mustAllocate(a, 64, kStreamA);
  mustFree(a, q, kStreamA);
  error.clear();
  EXPECT_TRUE(!a.deallocate(q, kStreamA, &error));
  EXPECT_CONTAINS(error, "double free");

  EXPECT_TRUE(a.allocate(SIZE_MAX, kStreamA, &p, &error) ==
              AllocStatus::InvalidArgument);
  std::printf("huge allocation: %s\n", error.c_str());

  device.failWithError = true;
  EXPECT_TRUE(a.allocate(100, kStreamB, &p, &error) == AllocStatus::Error);
  std::printf("backend error: %s\n", error.c_str());
  EXPECT_CONTAINS(error, "allocating 100 bytes on cuda:3 failed: fake driver");
}

/// tryDeallocate: NotOwned records nothing; repeated allocate/free cycles of
/// one size reuse one block (emptied pools stay), and empty_cache with only
/// emptied pools does not synchronize.
void testTryDeallocateAndCycles() {
  FakeDevice device;
  CachingAllocator a(device.backend(), "cuda:0", true);
  int local = 0;
  std::string error;
  EXPECT_TRUE(a.tryDeallocate(&local, kStreamA, &error) ==
              CachingAllocator::FreeStatus::NotOwned);
  EXPECT_TRUE(error.empty());
  void *first = mustAllocate(a, 4096, kStreamA);
  EXPECT_TRUE(a.tryDeallocate(first, kStreamA, &error) ==
              CachingAllocator::FreeStatus::Freed);
  for (int i = 0; i < 100; ++i) {
    void *p = mustAllocate(a, 4096, kStreamA);
    EXPECT_TRUE(p == first);
    mustFree(a, p, kStreamA);
  }
  EXPECT_EQ(device.allocations, 1);
  void *p = mustAllocate(a, 4096, kStreamA); // the pool is empty again
  EXPECT_TRUE(a.emptyCache(&error));
  EXPECT_EQ(device.syncs, 0);
  mustFree(a, p, kStreamA);
  EXPECT_TRUE(a.emptyCache(&error));
  EXPECT_EQ(device.syncs, 1);
  EXPECT_EQ(device.frees, 1);
  std::printf("tryDeallocate and reuse cycles: allocations=%d\n",
              device.allocations);
}

void testCachingDisabledByEnv() {
  setenv("PTENSOR_DISABLE_CACHING_ALLOCATOR", "0", 1);
  EXPECT_TRUE(CachingAllocator::cachingEnabledFromEnv());
  unsetenv("PTENSOR_DISABLE_CACHING_ALLOCATOR");
  EXPECT_TRUE(CachingAllocator::cachingEnabledFromEnv());
  setenv("PTENSOR_DISABLE_CACHING_ALLOCATOR", "1", 1);
  bool enabled = CachingAllocator::cachingEnabledFromEnv();
  unsetenv("PTENSOR_DISABLE_CACHING_ALLOCATOR");
  std::printf("PTENSOR_DISABLE_CACHING_ALLOCATOR=1 -> caching %s\n",
              enabled ? "enabled" : "disabled");
  EXPECT_TRUE(!enabled);

  FakeDevice device;
  CachingAllocator a(device.backend(), "cuda:0", enabled);
  void *p = mustAllocate(a, 1000, kStreamA);
  mustFree(a, p, kStreamA);
  void *q = mustAllocate(a, 1000, kStreamA);
  mustFree(a, q, kStreamA);
  printStats("caching disabled", a);
  EXPECT_EQ(a.stats().bytes_cached, 0u);
  EXPECT_EQ(a.stats().reuse_count, 0u);
  EXPECT_EQ(a.stats().alloc_count, 2u);
  EXPECT_EQ(device.frees, 2);
}

void testOutOfMemory() {
  FakeDevice device;
  device.capacity = 4096;
  CachingAllocator a(device.backend(), "cuda:0", true);
  void *p = mustAllocate(a, 2048, kStreamA);
  mustFree(a, p, kStreamA); // 2048 cached; only 2048 left in the "device".
  void *q = mustAllocate(a, 3000, kStreamA); // Needs the cache released.
  printStats("after OOM retry", a);
  std::printf("retry freed the cache: syncs=%d frees=%d\n", device.syncs,
              device.frees);
  EXPECT_TRUE(q != nullptr);
  EXPECT_EQ(device.frees, 1);
  EXPECT_EQ(a.stats().bytes_cached, 0u);

  void *r = nullptr;
  std::string error;
  EXPECT_TRUE(a.allocate(8192, kStreamA, &r, &error) ==
              AllocStatus::OutOfMemory);
  std::printf("ptensor runtime: %s\n", error.c_str());
  EXPECT_EQ(error, std::string("out of memory allocating 8192 bytes on cuda:0 "
                               "(free 1024 bytes of 4096)"));
  device.hasMemoryInfo = false;
  EXPECT_TRUE(a.allocate(8192, kStreamA, &r, &error) ==
              AllocStatus::OutOfMemory);
  std::printf("without memory info: %s\n", error.c_str());
  EXPECT_TRUE(r == nullptr);
  mustFree(a, q, kStreamA);
}

void testThreads() {
  FakeDevice device;
  CachingAllocator a(device.backend(), "cuda:0", true);
  constexpr int kThreads = 4, kIterations = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&a, t] {
      const void *stream = reinterpret_cast<const void *>(uintptr_t(t + 1));
      std::vector<void *> held;
      std::string error;
      for (int i = 0; i < kIterations; ++i) {
        void *p = nullptr;
        if (a.allocate(512 * (1 + (i * 7 + t) % 5), stream, &p, &error) !=
            AllocStatus::Ok)
          return;
        held.push_back(p);
        if (held.size() > 3) {
          a.deallocate(held.front(), stream, &error);
          held.erase(held.begin());
        }
      }
      for (void *p : held)
        a.deallocate(p, stream, &error);
    });
  }
  for (std::thread &t : threads)
    t.join();
  ptensor_rt_allocator_stats s = a.stats();
  std::printf("threads: in_use=%llu allocations=%llu\n",
              (unsigned long long)s.bytes_in_use,
              (unsigned long long)(s.alloc_count + s.reuse_count));
  EXPECT_EQ(s.bytes_in_use, 0u);
  EXPECT_EQ(s.alloc_count + s.reuse_count,
            uint64_t(kThreads) * uint64_t(kIterations));
  EXPECT_EQ(s.alloc_count, uint64_t(device.allocations));
}

} // namespace

int ptensor::rt::test::runAllocatorTests() {
  testSizeClasses();
  testReuseAndStats();
  testStreams();
  testEdgeCases();
  testTryDeallocateAndCycles();
  testCachingDisabledByEnv();
  testOutOfMemory();
  testThreads();
  return failureCount();
}
