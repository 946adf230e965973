//===- OpenMPTests.cpp - the OpenMP forwarders of parallel host code ------===//
///
/// \file
/// Forks a region through ptensor_rt_omp_* as compiled parallel code does
/// (LLVM's OpenMP ABI: the global thread number, the team size pushed, the
/// fork with the region's arguments, a static worksharing loop, a barrier)
/// and checks that every iteration ran once: with libomp (loaded by the
/// first call), and in a child process where PTENSOR_OPENMP_LIBRARY names
/// no library (the regions run on the calling thread, and stderr says so).
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/PTensorRuntime.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ptensor::rt::test;

namespace {

constexpr uint64_t kIterations = 1000;

/// What the region writes: how often each iteration ran, and which threads
/// took part.
struct Observed {
  std::atomic<int> runs[kIterations] = {};
  std::atomic<unsigned> threadMask{0};
};

/// The outlined region: a static worksharing loop over [0, kIterations),
/// its three arguments as compiled code passes them (pointers).
void region(int32_t *globalThread, int32_t *boundThread, ...) {
  va_list list;
  va_start(list, boundThread);
  auto *observed = static_cast<Observed *>(va_arg(list, void *));
  auto *first = static_cast<uint64_t *>(va_arg(list, void *));
  auto *marker = static_cast<int *>(va_arg(list, void *));
  va_end(list);
  int32_t lastIteration = 0;
  uint64_t lower = *first, upper = kIterations - 1;
  int64_t stride = 0;
  // 34: kmp_sch_static, as the translation of omp.wsloop passes it.
  ptensor_rt_omp_for_static_init_8u(nullptr, *globalThread, 34,
                                    &lastIteration, &lower, &upper, &stride,
                                    1, 0);
  for (uint64_t i = lower; i <= upper && i < kIterations; ++i)
    observed->runs[i] += *marker;
  ptensor_rt_omp_for_static_fini(nullptr, *globalThread);
  observed->threadMask |= 1u << (*boundThread & 31);
  ptensor_rt_omp_barrier(nullptr, *globalThread);
}

/// Forks `region` on two threads; returns the threads that ran it, or -1
/// when an iteration did not run exactly once.
int forkOnTwoThreads() {
  Observed observed;
  uint64_t first = 0;
  int marker = 1;
  int32_t self = ptensor_rt_omp_global_thread_num(nullptr);
  ptensor_rt_omp_push_num_threads(nullptr, self, 2);
  ptensor_rt_omp_fork_call(nullptr, 3, region, &observed, &first, &marker);
  for (const std::atomic<int> &runs : observed.runs)
    if (runs != 1)
      return -1;
  return __builtin_popcount(observed.threadMask.load());
}

/// What a static worksharing loop's init gives the calling thread outside a
/// parallel region for [lower, upper] by `increment`: the serial fallback
/// must give what libomp gives, an empty range included.
std::string staticInit(uint64_t lower, uint64_t upper, int64_t increment) {
  int32_t self = ptensor_rt_omp_global_thread_num(nullptr);
  int32_t lastIteration = -1;
  int64_t stride = 0;
  ptensor_rt_omp_for_static_init_8u(nullptr, self, 34, &lastIteration, &lower,
                                    &upper, &stride, increment, 0);
  ptensor_rt_omp_for_static_fini(nullptr, self);
  char text[128];
  std::snprintf(text, sizeof text, "[%llu, %llu] last %d stride %lld",
                (unsigned long long)lower, (unsigned long long)upper,
                int(lastIteration), (long long)stride);
  return text;
}

/// staticInit of a range, an empty one and a descending one.
std::string staticInits() {
  return staticInit(0, 9, 1) + "; " + staticInit(5, 4, 1) + "; " +
         staticInit(9, 0, -1);
}

} // namespace

int ptensor::rt::test::runOpenMPTests() {
  // First, before this process loads libomp (a child of a process with
  // OpenMP's threads running is not safe).
  ChildResult serial = runInChild([] {
    setenv("PTENSOR_OPENMP_LIBRARY", "/nonexistent/libomp.so.5", 1);
    std::printf("threads %d\n", forkOnTwoThreads());
    std::printf("init %s.\n", staticInits().c_str());
    return 0;
  });
  std::printf("without libomp: %s\n", serial.output.c_str());
  EXPECT_EQ(serial.exitCode, 0);
  EXPECT_TRUE(contains(serial.output, "threads 1"));

  int threads = forkOnTwoThreads();
  std::printf("with libomp: threads %d\n", threads);
  EXPECT_EQ(threads, 2);
  std::string inits = staticInits();
  std::printf("with libomp: init %s\n", inits.c_str());
  EXPECT_TRUE(contains(serial.output, "init " + inits + "."));
  return failureCount();
}
