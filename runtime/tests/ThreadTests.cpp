//===- ThreadTests.cpp - the runtime used from several threads ------------===//
///
/// \file
/// Eight threads at once use what compiled code uses (PTensorRuntime.h says
/// every function may be called concurrently): the caching host allocator
/// (blocks freed by another thread than the one that allocated them),
/// checked calls whose checks fail (each thread's trap and last error are
/// its own), the thread-count query and the allocator statistics. The
/// suite is the runtime's ThreadSanitizer test (scripts/setup.sh sanitize
/// builds the runtime with -fsanitize=thread and runs it); in the other
/// builds it checks the results.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/PTensorRuntime.h"

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace ptensor::rt::test;

namespace {

constexpr int kThreads = 8;
constexpr int kIterations = 2000;

/// A compiled function standing in for one whose check fails with a
/// message naming the thread (args[0] points at the thread's number).
void failsWithThreadNumber(void **args) {
  static const char *const messages[kThreads] = {
      "ptensor: thread 0", "ptensor: thread 1", "ptensor: thread 2",
      "ptensor: thread 3", "ptensor: thread 4", "ptensor: thread 5",
      "ptensor: thread 6", "ptensor: thread 7"};
  ptensor_rt_check_failed(messages[*static_cast<int *>(args[0])]);
}

struct Shared {
  /// Blocks handed from thread i to thread (i + 1) % kThreads, which frees
  /// them.
  std::atomic<unsigned char *> slots[kThreads] = {};
  std::atomic<int> wrongData{0}, wrongErrors{0}, wrongThreads{0};
};

void work(Shared &shared, int self) {
  unsigned state = 12345u + 977u * self;
  for (int i = 0; i < kIterations; ++i) {
    state = state * 1103515245u + 12345u;
    size_t bytes = 64 + (state >> 8) % (256 * 1024);
    auto *block = static_cast<unsigned char *>(ptensor_rt_host_alloc(bytes));
    std::memset(block, self + 1, bytes);
    if (block[0] != self + 1 || block[bytes - 1] != self + 1)
      ++shared.wrongData;
    // Hand the block on; free the one the previous thread handed over.
    unsigned char *old = shared.slots[self].exchange(block);
    if (old)
      ptensor_rt_host_free(old);
    int from = (self + kThreads - 1) % kThreads;
    if (unsigned char *taken = shared.slots[from].exchange(nullptr))
      ptensor_rt_host_free(taken);

    int number = self;
    void *args[] = {&number};
    ptensor_rt_status s = ptensor_rt_call_checked(failsWithThreadNumber, args);
    std::string expected = "ptensor runtime: thread " + std::to_string(self);
    if (s != PTENSOR_RT_ERROR_CHECK_FAILED || expected != ptensor_rt_last_error())
      ++shared.wrongErrors;
    if (ptensor_rt_host_threads(1) < 1)
      ++shared.wrongThreads;
    ptensor_rt_allocator_stats stats;
    ptensor_rt_get_allocator_stats(PTENSOR_RT_HOST_DEVICE, &stats);
  }
}

} // namespace

int ptensor::rt::test::runThreadTests() {
  ptensor_rt_allocator_stats before;
  EXPECT_EQ(ptensor_rt_get_allocator_stats(PTENSOR_RT_HOST_DEVICE, &before),
            PTENSOR_RT_SUCCESS);
  Shared shared;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(work, std::ref(shared), t);
  for (std::thread &t : threads)
    t.join();
  for (auto &slot : shared.slots)
    if (unsigned char *left = slot.exchange(nullptr))
      ptensor_rt_host_free(left);
  ptensor_rt_allocator_stats after;
  ptensor_rt_get_allocator_stats(PTENSOR_RT_HOST_DEVICE, &after);
  std::printf("threads: %d x %d iterations; wrong data %d, wrong errors %d, "
              "bytes in use before %llu, after %llu\n",
              kThreads, kIterations, shared.wrongData.load(),
              shared.wrongErrors.load(),
              static_cast<unsigned long long>(before.bytes_in_use),
              static_cast<unsigned long long>(after.bytes_in_use));
  EXPECT_EQ(shared.wrongData.load(), 0);
  EXPECT_EQ(shared.wrongErrors.load(), 0);
  EXPECT_EQ(shared.wrongThreads.load(), 0);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_TRUE(after.alloc_count + after.reuse_count >=
              before.alloc_count + before.reuse_count + kThreads * kIterations);
  return failureCount();
}
