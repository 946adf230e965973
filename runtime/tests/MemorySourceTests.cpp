//===- MemorySourceTests.cpp - device memory from another allocator -------===//
///
/// \file
/// ptensor_rt_set_device_memory_source on the stand-in driver (fake_cuda.c,
/// in a forked child: the driver is loaded once per process): blocks come
/// from the source and never from cuMemAlloc, freed blocks stay cached,
/// emptying the cache synchronizes the device before each release, the
/// source's failures become the runtime's errors, and the source cannot
/// change once a device has allocated.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/PTensorRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace ptensor::rt::test;

namespace {

/// Larger requests fail as out of memory; this exact size fails otherwise.
constexpr size_t kSourceCapacity = size_t(8) << 20;
constexpr size_t kFailingSize = size_t(4) << 20;

/// A malloc-backed source that counts its calls and what it was asked.
struct CountingSource {
  int allocations = 0, releases = 0;
  int lastDevice = -1;
  size_t lastBytes = 0;
  /// The stand-in driver's synchronization count at the last release.
  uint64_t syncsAtLastRelease = 0;
};
CountingSource counting;

/// The stand-in driver's call counters (fake_cuda_counters).
void (*driverCounters)(uint64_t out[8]) = nullptr;
constexpr int kDriverMemAlloc = 4, kDriverSync = 6;

uint64_t driverCount(int which) {
  uint64_t counters[8] = {};
  driverCounters(counters);
  return counters[which];
}

int sourceAllocate(void *context, int device, size_t bytes, void **ptr,
                   void **block, void **readyStream, char *error,
                   size_t errorSize) {
  auto &source = *static_cast<CountingSource *>(context);
  source.lastDevice = device;
  source.lastBytes = bytes;
  if (bytes > kSourceCapacity) {
    std::snprintf(error, errorSize, "over the test source's capacity");
    return 1;
  }
  if (bytes == kFailingSize) {
    std::snprintf(error, errorSize, "the test source refuses %zu bytes",
                  bytes);
    return 2;
  }
  ++source.allocations;
  *ptr = std::malloc(bytes);
  *block = *ptr; // any handle; here the address itself
  // Every second block comes with a stream to wait for.
  *readyStream = source.allocations % 2 == 0 ? &source : nullptr;
  return 0;
}

void sourceRelease(void *context, void *block) {
  auto &source = *static_cast<CountingSource *>(context);
  ++source.releases;
  source.syncsAtLastRelease = driverCount(kDriverSync);
  std::free(block);
}

int scenarios(const std::string &path) {
  int failuresBefore = failureCount();
  void *driver = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  driverCounters = driver ? reinterpret_cast<void (*)(uint64_t *)>(
                                dlsym(driver, "fake_cuda_counters"))
                          : nullptr;
  if (!driverCounters) {
    std::printf("cannot load %s\n", path.c_str());
    return 1;
  }
  ptensor_rt_device_memory_source incomplete = {&counting, sourceAllocate,
                                                nullptr};
  EXPECT_EQ(ptensor_rt_set_device_memory_source(&incomplete),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  std::printf("source without release: %s\n", ptensor_rt_last_error());

  ptensor_rt_device_memory_source source = {&counting, sourceAllocate,
                                            sourceRelease};
  EXPECT_EQ(ptensor_rt_set_device_memory_source(&source), PTENSOR_RT_SUCCESS);
  uint64_t driverAllocsBefore = driverCount(kDriverMemAlloc);

  void *a = nullptr;
  EXPECT_EQ(ptensor_rt_alloc(0, 1000, nullptr, &a), PTENSOR_RT_SUCCESS);
  std::printf("1000 bytes: source asked for %zu bytes on cuda:%d "
              "(allocations %d)\n",
              counting.lastBytes, counting.lastDevice, counting.allocations);
  EXPECT_TRUE(a != nullptr);
  EXPECT_EQ(counting.allocations, 1);
  EXPECT_EQ(counting.lastBytes, size_t(1024));
  EXPECT_EQ(ptensor_rt_free(a, nullptr), PTENSOR_RT_SUCCESS);
  void *again = nullptr;
  EXPECT_EQ(ptensor_rt_alloc(0, 1000, nullptr, &again), PTENSOR_RT_SUCCESS);
  std::printf("again after a free: %s, source allocations %d, releases %d\n",
              again == a ? "the cached block" : "another block",
              counting.allocations, counting.releases);
  EXPECT_TRUE(again == a);
  EXPECT_EQ(counting.releases, 0);
  EXPECT_EQ(ptensor_rt_free(again, nullptr), PTENSOR_RT_SUCCESS);

  void *failed = nullptr;
  EXPECT_EQ(ptensor_rt_alloc(0, size_t(16) << 20, nullptr, &failed),
            PTENSOR_RT_ERROR_OUT_OF_MEMORY);
  std::printf("16 MiB -> %s\n", ptensor_rt_last_error());
  // Out of memory first released the cache (after a synchronization).
  EXPECT_EQ(counting.releases, 1);
  EXPECT_EQ(ptensor_rt_alloc(0, kFailingSize, nullptr, &failed),
            PTENSOR_RT_ERROR_CUDA);
  std::printf("4 MiB -> %s\n", ptensor_rt_last_error());
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "the device memory source failed to allocate 4194304 "
                  "bytes: the test source refuses 4194304 bytes");

  void *b = nullptr;
  uint64_t syncsBeforeAlloc = driverCount(kDriverSync);
  EXPECT_EQ(ptensor_rt_alloc(0, 3000, nullptr, &b), PTENSOR_RT_SUCCESS);
  std::printf("a block with a stream to wait for: source allocations %d, "
              "stream synchronized: %s\n",
              counting.allocations,
              driverCount(kDriverSync) > syncsBeforeAlloc ? "yes" : "no");
  EXPECT_EQ(counting.allocations, 2);
  EXPECT_TRUE(driverCount(kDriverSync) > syncsBeforeAlloc);
  EXPECT_EQ(ptensor_rt_free(b, nullptr), PTENSOR_RT_SUCCESS);
  uint64_t syncsBefore = driverCount(kDriverSync);
  EXPECT_EQ(ptensor_rt_empty_cache(), PTENSOR_RT_SUCCESS);
  std::printf("empty_cache: releases %d, synchronized before the release: "
              "%s\n",
              counting.releases,
              counting.syncsAtLastRelease > syncsBefore ? "yes" : "no");
  EXPECT_EQ(counting.releases, 2);
  EXPECT_TRUE(counting.syncsAtLastRelease > syncsBefore);
  std::printf("cuMemAlloc calls: %llu\n",
              static_cast<unsigned long long>(driverCount(kDriverMemAlloc) -
                                              driverAllocsBefore));
  EXPECT_EQ(driverCount(kDriverMemAlloc), driverAllocsBefore);

  EXPECT_EQ(ptensor_rt_set_device_memory_source(nullptr),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  std::printf("change after an allocation: %s\n", ptensor_rt_last_error());
  return failureCount() == failuresBefore ? 0 : 1;
}

} // namespace

int ptensor::rt::test::runMemorySourceTests() {
  std::string path = fakeDriverPath();
  if (path.empty()) {
    std::printf("stand-in driver: skipped (no libptensor_fake_cuda.so next "
                "to the test)\n");
    return 0;
  }
  ChildResult child = runInChild([&] {
    setenv("PTENSOR_CUDA_DRIVER_LIBRARY", path.c_str(), 1);
    return scenarios(path);
  });
  std::printf("stand-in driver (exit %d, signal %d):\n%s\n", child.exitCode,
              child.signal, child.output.c_str());
  EXPECT_EQ(child.exitCode, 0);
  return failureCount();
}
