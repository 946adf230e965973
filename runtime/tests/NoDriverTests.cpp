//===- NoDriverTests.cpp - Behaviour without a CUDA driver ----------------===//
///
/// \file
/// Points PTENSOR_CUDA_DRIVER_LIBRARY at a missing file (so the result does
/// not depend on the machine having a GPU) and checks that the C API reports
/// errors while the mgpu* entry points, called without a trap, exit with a
/// clear message (TrapTests.cpp covers calls under a trap). The driver
/// is loaded once per process, so every scenario that needs a fresh load
/// runs in a forked child before the parent first touches the runtime.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/Gemm.h"
#include "ptensor/Runtime/PTensorRuntime.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace ptensor::rt::test;

namespace {

const char *const kMissingDriver = "/nonexistent/libcuda.so";


void report(const char *what, const ChildResult &child) {
  std::printf("%s: exit=%d signal=%d\n  output: %s\n", what, child.exitCode,
              child.signal, child.output.c_str());
}

void testMgpuEntryPointsExit() {
  // (mgpuStreamCreate returns the compute stream without the driver unless
  // PTENSOR_SYNC_LAUNCHES=1, so events stand for the stream entry points.)
  ChildResult stream = runInChild([] {
    mgpuEventCreate();
    return 42; // Not reached: the runtime must exit first.
  });
  report("mgpuEventCreate", stream);
  EXPECT_EQ(stream.exitCode, 1);
  EXPECT_CONTAINS(stream.output,
                  std::string("ptensor runtime: no CUDA driver found (dlopen ") +
                      kMissingDriver + " failed: ");

  ChildResult alloc = runInChild([] {
    mgpuMemAlloc(64, nullptr, false);
    return 42;
  });
  report("mgpuMemAlloc", alloc);
  EXPECT_EQ(alloc.exitCode, 1);
  EXPECT_CONTAINS(alloc.output, "ptensor runtime: no CUDA driver found");

  // A module load outside a trap (compiled code loads its kernels in a
  // global constructor) returns a handle of its own that keeps the error;
  // the first use of the module, inside the compiled call, fails with it.
  // Each failed load keeps its own: unloading one leaves the other's.
  static const char blob[] = "not a cubin";
  ChildResult module = runInChild([] {
    void *first = mgpuModuleLoad(const_cast<char *>(blob), sizeof(blob));
    void *second = mgpuModuleLoad(const_cast<char *>(blob), sizeof(blob));
    std::printf("handles %s\n", first && second && first != second
                                    ? "distinct"
                                    : "not distinct");
    mgpuModuleUnload(first); // forgets its error, needs no driver
    std::printf("first unloaded\n");
    std::fflush(stdout);
    mgpuModuleGetFunction(second, "kernel");
    return 42;
  });
  report("mgpuModuleLoad, then mgpuModuleGetFunction", module);
  EXPECT_EQ(module.exitCode, 1);
  EXPECT_CONTAINS(module.output, "handles distinct");
  EXPECT_CONTAINS(module.output, "first unloaded");
  EXPECT_CONTAINS(module.output,
                  "ptensor runtime: the GPU kernels of this code were not "
                  "loaded when it was loaded: no CUDA driver found");
}

void testLibraryWithoutSymbols() {
  // A loadable library that is not a CUDA driver.
  ChildResult child = runInChild([] {
    setenv("PTENSOR_CUDA_DRIVER_LIBRARY", "libc.so.6", 1);
    int available = ptensor_rt_cuda_available();
    std::printf("available=%d\n%s\n", available, ptensor_rt_last_error());
    return 0;
  });
  report("libc.so.6 as the driver", child);
  EXPECT_EQ(child.exitCode, 0);
  EXPECT_CONTAINS(child.output, "available=0");
  EXPECT_CONTAINS(child.output, "libc.so.6 does not export cuInit");
}

void testCApiReportsErrors() {
  int available = ptensor_rt_cuda_available();
  std::printf("ptensor_rt_cuda_available() = %d\n", available);
  std::printf("last error: %s\n", ptensor_rt_last_error());
  EXPECT_EQ(available, 0);
  EXPECT_CONTAINS(ptensor_rt_last_error(), "no CUDA driver found");

  int count = -1;
  ptensor_rt_status status = ptensor_rt_device_count(&count);
  std::printf("ptensor_rt_device_count -> %s\n", statusName(status));
  EXPECT_EQ(status, PTENSOR_RT_ERROR_NO_DRIVER);

  void *ptr = reinterpret_cast<void *>(0x1);
  status = ptensor_rt_alloc(0, 64, nullptr, &ptr);
  std::printf("ptensor_rt_alloc -> %s, ptr %s\n", statusName(status),
              ptr ? "set" : "NULL");
  EXPECT_EQ(status, PTENSOR_RT_ERROR_NO_DRIVER);
  EXPECT_TRUE(ptr == nullptr);

  int local = 0;
  status = ptensor_rt_free(&local, nullptr);
  std::printf("ptensor_rt_free(foreign) -> %s: %s\n", statusName(status),
              ptensor_rt_last_error());
  EXPECT_EQ(status, PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ptensor_rt_free(nullptr, nullptr), PTENSOR_RT_SUCCESS);

  ptensor_rt_allocator_stats stats;
  stats.alloc_count = 99;
  EXPECT_EQ(ptensor_rt_get_allocator_stats(0, &stats), PTENSOR_RT_SUCCESS);
  EXPECT_EQ(stats.alloc_count, 0u);
  // The host allocator's counters need no driver.
  EXPECT_EQ(ptensor_rt_get_allocator_stats(PTENSOR_RT_HOST_DEVICE, &stats),
            PTENSOR_RT_SUCCESS);
  EXPECT_EQ(ptensor_rt_reset_peak_stats(PTENSOR_RT_HOST_DEVICE),
            PTENSOR_RT_SUCCESS);
  status = ptensor_rt_get_allocator_stats(-2, &stats);
  std::printf("ptensor_rt_get_allocator_stats(-2) -> %s: %s\n",
              statusName(status), ptensor_rt_last_error());
  EXPECT_EQ(status, PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ptensor_rt_get_allocator_stats(0, nullptr),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ptensor_rt_empty_cache(), PTENSOR_RT_SUCCESS);
  EXPECT_EQ(ptensor_rt_reset_peak_stats(0), PTENSOR_RT_SUCCESS);

  ptensor_rt_clear_last_error();
  EXPECT_EQ(std::string(ptensor_rt_last_error()), std::string(""));

  // Release paths must be harmless without a driver (MLIR's destructors).
  mgpuMemFree(nullptr, nullptr);
  mgpuModuleUnload(nullptr);
  mgpuStreamDestroy(nullptr);
  mgpuEventDestroy(nullptr);
  mgpuSetDefaultDevice(0);
  std::printf("null releases without a driver: ok\n");
}

/// Calls ptensor_rt_gpu_gemm for a batch x m x k by k x n f32 product of
/// row-major host buffers and expects it not taken: false, C untouched and
/// the last error `expectedError`, as before the call.
void expectGemmNotTaken(const char *what, int64_t batch, int64_t m, int64_t n,
                        int64_t k, const std::string &expectedError) {
  auto elements = [](int64_t count) { return size_t(count > 0 ? count : 1); };
  std::vector<float> a(elements(batch * m * k), 1.0f);
  std::vector<float> b(elements(batch * k * n), 1.0f);
  std::vector<float> c(elements(batch * m * n), -7.0f);
  bool taken = ptensor_rt_gpu_gemm(
      PTENSOR_RT_GEMM_F32, PTENSOR_RT_GEMM_F32, batch, m, n, k,
      reinterpret_cast<intptr_t>(a.data()), 0, m * k, k, 1,
      reinterpret_cast<intptr_t>(b.data()), 0, k * n, n, 1,
      reinterpret_cast<intptr_t>(c.data()), 0, m * n, n, 1);
  std::printf("ptensor_rt_gpu_gemm %s -> %s, last error \"%s\"\n", what,
              taken ? "true" : "false", ptensor_rt_last_error());
  EXPECT_TRUE(!taken);
  EXPECT_EQ(std::string(ptensor_rt_last_error()), expectedError);
  EXPECT_TRUE(c == std::vector<float>(c.size(), -7.0f));
}

/// Without a driver the product is left to the compiled loops: false, and
/// no error of its own (an earlier one stays).
void testGpuGemmWithoutDriver() {
  ptensor_rt_clear_last_error();
  expectGemmNotTaken("without a driver", 2, 3, 4, 5, "");
  expectGemmNotTaken("of batch 0", 0, 3, 4, 5, "");
  expectGemmNotTaken("of m = 0", 2, 0, 4, 5, "");
  expectGemmNotTaken("of n = 0", 2, 3, 0, 5, "");
  expectGemmNotTaken("of k = 0", 2, 3, 4, 0, "");
  int local = 0;
  EXPECT_EQ(ptensor_rt_free(&local, nullptr),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  std::string earlier = ptensor_rt_last_error();
  expectGemmNotTaken("after a failed call", 2, 3, 4, 5, earlier);
  ptensor_rt_clear_last_error();
}

/// With a device (the stand-in driver) but no cuBLASLt: false, no error.
void testGpuGemmWithoutCublasLt() {
  std::string fakeDriver = fakeDriverPath();
  if (fakeDriver.empty()) {
    std::printf("gemm without cuBLASLt: skipped (no libptensor_fake_cuda.so "
                "next to the test)\n");
    return;
  }
  ChildResult child = runInChild([&] {
    setenv("PTENSOR_CUDA_DRIVER_LIBRARY", fakeDriver.c_str(), 1);
    setenv("PTENSOR_CUBLASLT_LIBRARY", "/nonexistent/libcublasLt.so", 1);
    int failuresBefore = failureCount();
    std::printf("available=%d\n", ptensor_rt_cuda_available());
    expectGemmNotTaken("with a device but no cuBLASLt", 2, 3, 4, 5, "");
    return failureCount() == failuresBefore ? 0 : 1;
  });
  report("gemm with the stand-in driver, without cuBLASLt", child);
  EXPECT_EQ(child.exitCode, 0);
  EXPECT_CONTAINS(child.output, "available=1");
}

} // namespace

int ptensor::rt::test::runNoDriverTests() {
  // Deterministic on any machine, GPU or not.
  setenv("PTENSOR_CUDA_DRIVER_LIBRARY", kMissingDriver, 1);
  testMgpuEntryPointsExit();
  testLibraryWithoutSymbols();
  testGpuGemmWithoutCublasLt();
  testCApiReportsErrors();
  testGpuGemmWithoutDriver();
  return failureCount();
}
