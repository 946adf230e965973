//===- TrapTests.cpp - failed mgpu* calls under a trap --------------------===//
///
/// \file
/// What an mgpu* call that fails does to the compiled code that made it,
/// without a GPU: on the stand-in driver (fake_cuda.c) with a 1 MiB
/// allocation limit (PTENSOR_FAKE_CUDA_MAX_ALLOC), and without a driver.
/// Under ptensor_rt_call_checked the call returns the error's status with
/// its message, the caller's CUDA context is current again (the runtime's
/// context push was popped before the jump) and the next call works;
/// without a trap the process aborts (exits, for a missing driver) as
/// before. The driver is loaded once per process, so each driver's
/// scenarios run in a forked child.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/Compact.h"
#include "ptensor/Runtime/PTensorRuntime.h"
#include "ptensor/Runtime/Sort.h"

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace ptensor::rt::test;

namespace {

constexpr const char *kAllocLimit = "1048576";

/// The stand-in driver's functions the checks use, from the library the
/// runtime loads (dlopen of the same path gives the same instance).
struct FakeDriver {
  int (*pushContext)(void *) = nullptr;
  int (*popContext)(void **) = nullptr;
  void (*contextState)(int *, void **) = nullptr;

  bool load(const std::string &path) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return false;
    pushContext =
        reinterpret_cast<int (*)(void *)>(dlsym(handle, "cuCtxPushCurrent_v2"));
    popContext =
        reinterpret_cast<int (*)(void **)>(dlsym(handle, "cuCtxPopCurrent_v2"));
    contextState = reinterpret_cast<void (*)(int *, void **)>(
        dlsym(handle, "fake_cuda_context_state"));
    return pushContext && popContext && contextState;
  }
};
FakeDriver fake;

/// A context of the caller's own, current while the runtime is called: the
/// runtime pushes its primary context on top of it and must pop it again.
int callerContext;

// Packed entry points standing in for compiled functions. Like compiled
// code, they hold nothing with a destructor.

void allocTooMuch(void **) { mgpuMemAlloc(uint64_t(1) << 30, nullptr, false); }

/// -12 bytes: what MLIR's lowering passes for a dynamic size of -3 f32.
void allocNegative(void **) { mgpuMemAlloc(uint64_t(-12), nullptr, false); }

void allocNegativeHostShared(void **) {
  mgpuMemAlloc(uint64_t(-12), nullptr, true);
}

/// Fails after the runtime made its context current (bad grid).
void launchEmptyGrid(void **) {
  static int notAKernel;
  mgpuLaunchKernel(&notAKernel, 0, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr,
                   0);
}

/// args[0]: 4 unsigned ints that receive 42 through the "device".
void fillThroughDevice(void **args) {
  void *device = mgpuMemAlloc(16, nullptr, false);
  mgpuMemset32(device, 42, 4, nullptr);
  mgpuMemcpy(args[0], device, 16, nullptr);
  mgpuMemFree(device, nullptr);
}

void createEvent(void **) { mgpuEventCreate(); }

/// A rank-2 memref descriptor {allocated, aligned, offset, sizes, strides}
/// of 3 x 4 f32 with row stride `rowStride`, host-registered.
void registerMemRef(int64_t rowStride) {
  static float data[12];
  int64_t descriptor[7] = {reinterpret_cast<int64_t>(data),
                           reinterpret_cast<int64_t>(data), 0, 3, 4, rowStride,
                           1};
  mgpuMemHostRegisterMemRef(2, descriptor, 4);
}
void registerNegativeStride(void **) { registerMemRef(-4); }
/// The furthest element's index overflows, then (INT64_MAX / 2) its bytes.
void registerOverflowingIndex(void **) { registerMemRef(INT64_MAX); }
void registerOverflowingBytes(void **) { registerMemRef(INT64_MAX / 2); }
/// 0 x 4 elements: nothing to pin, not an error.
void registerEmpty(void **) {
  static float data[1];
  int64_t descriptor[7] = {reinterpret_cast<int64_t>(data),
                           reinterpret_cast<int64_t>(data), 0, 0, 4, -4, 1};
  mgpuMemHostRegisterMemRef(2, descriptor, 4);
  mgpuMemHostUnregisterMemRef(2, descriptor, 4);
}

/// A GPU sort of 4 f32 when libptensor_runtime_cuda.so does not load (the
/// scenarios point PTENSOR_RUNTIME_CUDA_LIBRARY at a missing file).
void sortWithoutCudaLibrary(void **) {
  static float keys[4] = {3, 1, 2, 0}, sorted[4];
  static int64_t sizes[1] = {4}, strides[1] = {1};
  auto address = [](const void *p) { return reinterpret_cast<intptr_t>(p); };
  ptensor_rt_gpu_sort(PTENSOR_RT_SORT_F32, PTENSOR_RT_SORT_STABLE, 1, 0,
                      address(sizes), address(keys), 0, address(strides),
                      address(sorted), 0, address(strides), 0, 0, 0);
}

/// A GPU count of 4 flags when libptensor_runtime_cuda.so does not load.
void countWithoutCudaLibrary(void **) {
  static uint8_t flags[4] = {1, 0, 1, 1};
  ptensor_rt_gpu_count_true(reinterpret_cast<intptr_t>(flags), 1, 4);
}

/// Calls `entry` under a trap and prints the status, the message and
/// whether the caller's context is current again (and the only push left).
ptensor_rt_status callChecked(const char *what, void (*entry)(void **),
                              void **args = nullptr) {
  ptensor_rt_clear_last_error();
  ptensor_rt_status status = ptensor_rt_call_checked(entry, args);
  int depth = -1;
  void *current = nullptr;
  fake.contextState(&depth, &current);
  bool balanced = depth == 1 && current == &callerContext;
  std::printf("%s -> %s: %s\n  caller's context current again: %s\n", what,
              statusName(status), ptensor_rt_last_error(),
              balanced ? "yes" : "no");
  EXPECT_TRUE(balanced);
  return status;
}

/// The scenarios on the stand-in driver, in the child that loaded it.
int fakeDriverScenarios(const std::string &path) {
  int failuresBefore = failureCount();
  if (!fake.load(path)) {
    std::printf("cannot load %s: %s\n", path.c_str(), dlerror());
    return 1;
  }
  fake.pushContext(&callerContext);

  EXPECT_EQ(callChecked("1 GiB allocation", allocTooMuch),
            PTENSOR_RT_ERROR_OUT_OF_MEMORY);
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "ptensor runtime: out of memory allocating 1073741824 bytes "
                  "on cuda:0 (free 1048576 bytes of ");
  EXPECT_EQ(callChecked("-12-byte allocation", allocNegative),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "device allocation of 18446744073709551604 bytes");
  EXPECT_EQ(
      callChecked("-12-byte host-shared allocation", allocNegativeHostShared),
      PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(ptensor_rt_last_error(), "host-shared allocation of");
  EXPECT_EQ(callChecked("launch of an empty grid", launchEmptyGrid),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(ptensor_rt_last_error(), "grid dimension x = 0");

  // The span a memref registration pins (ElementExtent.h), checked before
  // the driver is asked.
  EXPECT_EQ(callChecked("memref with a negative stride", registerNegativeStride),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "memref host registration: dimension 0 has size 3 and stride "
                  "-4; expected non-negative values");
  struct Case {
    const char *what;
    void (*entry)(void **);
  };
  for (Case c : {Case{"memref whose furthest index overflows", registerOverflowingIndex},
                 Case{"memref whose span in bytes overflows", registerOverflowingBytes}}) {
    EXPECT_EQ(callChecked(c.what, c.entry), PTENSOR_RT_ERROR_INVALID_ARGUMENT);
    EXPECT_CONTAINS(ptensor_rt_last_error(),
                    "memref host registration: the memref span overflows");
  }
  EXPECT_EQ(callChecked("empty memref", registerEmpty), PTENSOR_RT_SUCCESS);

  setenv("PTENSOR_RUNTIME_CUDA_LIBRARY", "/nonexistent/libptensor_runtime_cuda.so",
         1);
  EXPECT_EQ(callChecked("GPU sort without its CUDA library", sortWithoutCudaLibrary),
            PTENSOR_RT_ERROR_UNSUPPORTED);
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "the GPU sort needs libptensor_runtime_cuda.so");
  EXPECT_EQ(callChecked("GPU count without its CUDA library",
                        countWithoutCudaLibrary),
            PTENSOR_RT_ERROR_UNSUPPORTED);
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "the GPU compaction (nonzero, extract_mask, unique) needs "
                  "libptensor_runtime_cuda.so");

  unsigned host[4] = {0, 0, 0, 0};
  void *args[] = {host};
  EXPECT_EQ(callChecked("then a call that works", fillThroughDevice, args),
            PTENSOR_RT_SUCCESS);
  std::printf("  values %u %u %u %u\n", host[0], host[1], host[2], host[3]);
  EXPECT_TRUE(host[0] == 42 && host[3] == 42);
  ptensor_rt_allocator_stats stats{};
  EXPECT_EQ(ptensor_rt_get_allocator_stats(0, &stats), PTENSOR_RT_SUCCESS);
  std::printf("  device bytes in use: %llu\n",
              static_cast<unsigned long long>(stats.bytes_in_use));
  EXPECT_EQ(stats.bytes_in_use, 0u);

  // No trap: the process still dies with the message.
  ChildResult untrapped = runInChild([] {
    allocTooMuch(nullptr);
    return 42; // Not reached.
  });
  std::printf("without a trap: %s, output: %s\n",
              untrapped.signal == SIGABRT ? "SIGABRT" : "no SIGABRT",
              untrapped.output.c_str());
  EXPECT_EQ(untrapped.signal, SIGABRT);
  EXPECT_CONTAINS(untrapped.output, "out of memory allocating 1073741824");

  void *popped = nullptr;
  fake.popContext(&popped);
  return failureCount() == failuresBefore ? 0 : 1;
}

void testFakeDriver() {
  std::string path = fakeDriverPath();
  if (path.empty()) {
    std::printf("stand-in driver: skipped (no libptensor_fake_cuda.so next "
                "to the test)\n");
    return;
  }
  ChildResult child = runInChild([&] {
    setenv("PTENSOR_CUDA_DRIVER_LIBRARY", path.c_str(), 1);
    setenv("PTENSOR_FAKE_CUDA_MAX_ALLOC", kAllocLimit, 1);
    return fakeDriverScenarios(path);
  });
  std::printf("stand-in driver (exit %d, signal %d):\n%s\n", child.exitCode,
              child.signal, child.output.c_str());
  EXPECT_EQ(child.exitCode, 0);
}

/// Without a driver a trapped call reports NO_DRIVER and the process goes
/// on (no-driver.test covers the untrapped exit).
void testNoDriver() {
  ChildResult child = runInChild([] {
    setenv("PTENSOR_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so", 1);
    ptensor_rt_status status = ptensor_rt_call_checked(createEvent, nullptr);
    std::printf("event without a driver -> %s: %s\n", statusName(status),
                ptensor_rt_last_error());
    return status == PTENSOR_RT_ERROR_NO_DRIVER ? 0 : 1;
  });
  std::printf("%s\n  then exit %d\n", child.output.c_str(), child.exitCode);
  EXPECT_EQ(child.exitCode, 0);
  EXPECT_CONTAINS(child.output, "no CUDA driver found");
}

} // namespace

int ptensor::rt::test::runMgpuTrapTests() {
  testFakeDriver();
  testNoDriver();
  return failureCount();
}
