//===- gpu_smoke.cpp - ptensor-runtime-gpu-smoke --------------------------===//
///
/// \file
/// End-to-end check of libptensor_runtime on a machine with a CUDA GPU:
/// memset/memcpy round trips, caching-allocator reuse through the driver,
/// stream/event calls, a JIT-compiled PTX kernel launch, the module cache,
/// out-of-memory reporting (1 PiB), the abort messages of a bad launch, and
/// matrix products through cuBLASLt (ptensor_rt_gpu_gemm).
/// Scenarios that abort run in a re-executed child (CUDA is not fork-safe).
/// Exits non-zero on any mismatch.
///
//===----------------------------------------------------------------------===//

#include "GpuSmokePtx.h"
#include "TestUtil.h"

#include "ptensor/Runtime/Gemm.h"
#include "ptensor/Runtime/PTensorRuntime.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

int failures = 0;

/// False under PTENSOR_DISABLE_CACHING_ALLOCATOR=1: reuse checks are skipped.
const bool caching = [] {
  const char *value = std::getenv("PTENSOR_DISABLE_CACHING_ALLOCATOR");
  return !value || !*value || std::strcmp(value, "0") == 0;
}();

#define SMOKE_CHECK(cond, ...)                                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAILED: %s:%d: %s: ", __FILE__, __LINE__, #cond);           \
      std::printf(__VA_ARGS__);                                                \
      std::printf("\n");                                                       \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

ptensor_rt_allocator_stats stats() {
  ptensor_rt_allocator_stats s{};
  ptensor_rt_get_allocator_stats(0, &s);
  return s;
}

void printStats(const char *label) {
  ptensor_rt_allocator_stats s = stats();
  std::printf("%s: in_use=%llu cached=%llu peak=%llu allocs=%llu reuses=%llu\n",
              label, (unsigned long long)s.bytes_in_use,
              (unsigned long long)s.bytes_cached,
              (unsigned long long)s.peak_bytes_in_use,
              (unsigned long long)s.alloc_count,
              (unsigned long long)s.reuse_count);
}

/// Re-executes this program with `mode`; returns its exit status (128+sig
/// if killed) and its combined output.
int runChild(const char *self, const char *mode, std::string *output) {
  ptensor::rt::test::ChildResult child = ptensor::rt::test::runInChild([&] {
    execl(self, self, mode, static_cast<char *>(nullptr));
    return 127;
  });
  *output = child.output;
  return child.signal ? 128 + child.signal : child.exitCode;
}

void launchAddOne(void *function, void *in, void *out, unsigned n,
                  intptr_t block, int32_t smem, void *stream) {
  void *params[] = {&in, &out, &n};
  intptr_t grid = (n + block - 1) / block;
  mgpuLaunchKernel(function, grid, 1, 1, block, 1, 1, smem, stream, params,
                   nullptr, 3);
}

void testMemory(void *stream) {
  const size_t n = 1 << 20;
  auto *a = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  auto *b = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  std::vector<float> host(n, 0.0f);
  mgpuMemset32(a, 0x3f800000u, n, stream); // 1.0f
  mgpuMemcpy(host.data(), a, n * 4, stream);
  mgpuStreamSynchronize(stream);
  size_t bad = 0;
  for (float v : host)
    bad += v != 1.0f;
  SMOKE_CHECK(bad == 0, "memset32: %zu of %zu words differ", bad, n);

  std::vector<unsigned short> halves(n * 2, 0);
  mgpuMemset16(a, 0xabcd, n * 2, stream);
  mgpuMemcpy(halves.data(), a, n * 4, stream);
  mgpuStreamSynchronize(stream);
  bad = 0;
  for (unsigned short v : halves)
    bad += v != 0xabcd;
  SMOKE_CHECK(bad == 0, "memset16: %zu half-words differ", bad);

  for (size_t i = 0; i < n; ++i)
    host[i] = float(i) * 0.5f;
  std::vector<float> back(n, -1.0f);
  mgpuMemcpy(a, host.data(), n * 4, stream); // host -> device
  mgpuMemcpy(b, a, n * 4, stream);           // device -> device
  mgpuMemcpy(back.data(), b, n * 4, stream); // device -> host
  mgpuStreamSynchronize(stream);
  SMOKE_CHECK(std::memcmp(back.data(), host.data(), n * 4) == 0,
              "memcpy round trip differs");

  // Strided rows (a team resplit's placement of received columns): 3
  // columns from each of 1000 runs of 5 placed at column 2 of runs of 8.
  const size_t runs = 1000, width = 3, srcPitch = 5, dstPitch = 8, at = 2;
  mgpuMemset32(b, 0u, runs * dstPitch, stream);
  ptensor_rt_gpu_copy_rows(b + at, dstPitch * 4, a, srcPitch * 4, width * 4,
                           runs, stream);
  std::vector<float> placed(runs * dstPitch, -1.0f);
  mgpuMemcpy(placed.data(), b, placed.size() * 4, stream);
  mgpuStreamSynchronize(stream);
  bad = 0;
  for (size_t r = 0; r < runs; ++r)
    for (size_t c = 0; c < dstPitch; ++c) {
      bool copied = c >= at && c < at + width;
      float want = copied ? host[r * srcPitch + c - at] : 0.0f;
      bad += placed[r * dstPitch + c] != want;
    }
  SMOKE_CHECK(bad == 0, "copy_rows: %zu of %zu words wrong", bad,
              placed.size());

  ptensor_rt_allocator_stats before = stats();
  mgpuMemFree(b, stream);
  void *c = mgpuMemAlloc(n * 4, stream, false);
  ptensor_rt_allocator_stats after = stats();
  SMOKE_CHECK(!caching || c == b,
              "same-size allocation on the same stream not reused");
  SMOKE_CHECK(!caching || (after.reuse_count == before.reuse_count + 1 &&
                           after.alloc_count == before.alloc_count),
              "reuse counters: reuses %llu->%llu allocs %llu->%llu",
              (unsigned long long)before.reuse_count,
              (unsigned long long)after.reuse_count,
              (unsigned long long)before.alloc_count,
              (unsigned long long)after.alloc_count);
  printStats("after reuse");
  mgpuMemFree(a, stream);
  mgpuMemFree(c, stream);

  // Host-shared (managed) memory is written directly by the host.
  auto *shared = static_cast<float *>(mgpuMemAlloc(256 * 4, nullptr, true));
  for (int i = 0; i < 256; ++i)
    shared[i] = float(i);
  float check[256];
  mgpuMemcpy(check, shared, sizeof(check), stream);
  mgpuStreamSynchronize(stream);
  SMOKE_CHECK(check[255] == 255.0f, "managed memory read back %f", check[255]);
  mgpuMemFree(shared, nullptr);

  // Host registration, plain and through a rank-1 memref descriptor.
  std::vector<float> pinned(4096);
  mgpuMemHostRegister(pinned.data(), pinned.size() * 4);
  mgpuMemHostUnregister(pinned.data());
  struct {
    float *allocated, *aligned;
    int64_t offset, size, stride;
  } memref = {pinned.data(), pinned.data(), 0, 4096, 1};
  mgpuMemHostRegisterMemRef(1, &memref, 4);
  mgpuMemHostUnregisterMemRef(1, &memref, 4);
}

void testKernelAndModuleCache(void *stream) {
  void *module = mgpuModuleLoadJIT(const_cast<char *>(kPtx), 2);
  void *again = mgpuModuleLoadJIT(const_cast<char *>(kPtx), 2);
  SMOKE_CHECK(module == again, "second load of the same blob not cached");
  void *function = mgpuModuleGetFunction(module, "ptensor_smoke_add_one");

  const unsigned n = 100000;
  auto *in = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  auto *out = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  std::vector<float> host(n);
  for (unsigned i = 0; i < n; ++i)
    host[i] = float(i);
  mgpuMemcpy(in, host.data(), n * 4, stream);
  launchAddOne(function, in, out, n, 256, 0, stream);
  // > 48 KiB of dynamic shared memory exercises the opt-in path.
  launchAddOne(function, out, out, n, 128, 64 * 1024, stream);

  void *event = mgpuEventCreate();
  void *other = mgpuStreamCreate();
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(other, event);
  std::vector<float> result(n);
  mgpuMemcpy(result.data(), out, n * 4, other);
  mgpuStreamSynchronize(other);
  mgpuEventSynchronize(event);
  size_t bad = 0;
  for (unsigned i = 0; i < n; ++i)
    bad += result[i] != float(i) + 2.0f;
  SMOKE_CHECK(bad == 0, "kernel results: %zu of %u wrong", bad, n);
  mgpuEventDestroy(event);

  // Blocks freed on a destroyed stream become reusable by other streams.
  // (5 MiB: a size class no earlier block of `stream` has.)
  void *onOther = mgpuMemAlloc(5 << 20, other, false);
  mgpuMemFree(onOther, other);
  mgpuStreamDestroy(other);
  void *reused = mgpuMemAlloc(5 << 20, stream, false);
  SMOKE_CHECK(!caching || reused == onOther,
              "block of a destroyed stream not reused");
  mgpuMemFree(reused, stream);

  mgpuMemFree(in, stream);
  mgpuMemFree(out, stream);
  mgpuModuleUnload(again);
  // `module` stays loaded: unloaded at exit like MLIR's global destructors.
  static void *atExitModule = module;
  std::atexit([] {
    mgpuModuleUnload(atExitModule);
    std::printf("module unloaded at exit\n");
  });
}

/// Several threads, each with its own stream: contexts are made current per
/// thread and the allocator is shared.
void testThreads() {
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &bad] {
      void *stream = mgpuStreamCreate();
      for (int iteration = 0; iteration < 20; ++iteration) {
        const size_t n = 4096 * (1 + t);
        void *d = mgpuMemAlloc(n * 4, stream, false);
        std::vector<unsigned> host(n, 0);
        mgpuMemset32(d, 0x1000u + t, n, stream);
        mgpuMemcpy(host.data(), d, n * 4, stream);
        mgpuMemFree(d, stream);
        mgpuStreamSynchronize(stream);
        for (unsigned v : host)
          bad += v != 0x1000u + t;
      }
      mgpuStreamDestroy(stream);
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  SMOKE_CHECK(bad == 0, "%d words wrong across threads", bad.load());
  printStats("after threads");
}

void testOutOfMemory(const char *self) {
  void *ptr = nullptr;
  const size_t pib = size_t(1) << 50;
  ptensor_rt_status status = ptensor_rt_alloc(0, pib, nullptr, &ptr);
  std::printf("1 PiB via ptensor_rt_alloc: status %d: %s\n", int(status),
              ptensor_rt_last_error());
  SMOKE_CHECK(status == PTENSOR_RT_ERROR_OUT_OF_MEMORY && ptr == nullptr,
              "status %d", int(status));
  SMOKE_CHECK(std::strstr(ptensor_rt_last_error(),
                          "out of memory allocating 1125899906842624 bytes "
                          "on cuda:0 (free ") != nullptr,
              "message: %s", ptensor_rt_last_error());

  std::string output;
  int code = runChild(self, "--child-oom", &output);
  std::printf("1 PiB via mgpuMemAlloc: exit %d:\n%s\n", code, output.c_str());
  SMOKE_CHECK(code != 0 && output.find("out of memory allocating") !=
                               std::string::npos,
              "child exit %d", code);
}

/// Runs `mode` in a child that must fail with `expected` in its output.
void expectChildFailure(const char *self, const char *mode,
                        const char *expected) {
  std::string output;
  int code = runChild(self, mode, &output);
  std::printf("%s: exit %d:\n%s\n", mode, code, output.c_str());
  SMOKE_CHECK(code != 0 && output.find(expected) != std::string::npos,
              "child %s exited %d without \"%s\"", mode, code, expected);
}

void testFailures(const char *self) {
  expectChildFailure(self, "--child-bad-launch",
                     "cuLaunchKernel(kernel 'ptensor_smoke_add_one', grid "
                     "1x1x1, block 4096x1x1");
  expectChildFailure(self, "--child-bad-ptx", "PTX JIT error log:");
  std::string output;
  int code = runChild(self, "--child-cluster", &output);
  std::printf("--child-cluster: exit %d:\n%s", code, output.c_str());
  SMOKE_CHECK(code == 0, "cluster launch (needs sm_90+) exited %d", code);
  expectChildFailure(self, "--child-bad-device", "invalid device cuda:77");
  expectChildFailure(self, "--child-fault",
                     "the last kernel launched from this thread was "
                     "'ptensor_smoke_add_one'");
}

//===----------------------------------------------------------------------===//
// Matrix products through cuBLASLt
//===----------------------------------------------------------------------===//

/// IEEE half bits of an integer-valued float below 2048 in magnitude (exact).
uint16_t halfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  auto sign = uint16_t((bits >> 16) & 0x8000);
  if ((bits & 0x7fffffff) == 0)
    return sign;
  int exponent = int((bits >> 23) & 0xff) - 127 + 15;
  return uint16_t(sign | (exponent << 10) | ((bits >> 13) & 0x3ff));
}

float halfValue(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  float magnitude = exponent == 0
                        ? std::ldexp(float(mantissa), -24)
                        : std::ldexp(float(mantissa | 0x400), exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

size_t gemmElementSize(int64_t type) {
  return type == PTENSOR_RT_GEMM_F64 ? 8 : type == PTENSOR_RT_GEMM_F32 ? 4 : 2;
}

/// Stores `value` (a small integer, exact in every type) as `type`.
void storeElement(int64_t type, double value, unsigned char *out) {
  float single = float(value);
  uint32_t bits;
  std::memcpy(&bits, &single, 4);
  uint16_t half =
      type == PTENSOR_RT_GEMM_BF16 ? uint16_t(bits >> 16) : halfBits(single);
  if (type == PTENSOR_RT_GEMM_F64)
    std::memcpy(out, &value, 8);
  else if (type == PTENSOR_RT_GEMM_F32)
    std::memcpy(out, &single, 4);
  else
    std::memcpy(out, &half, 2);
}

double loadElement(int64_t type, const unsigned char *in) {
  double wide;
  float single;
  uint16_t half;
  switch (type) {
  case PTENSOR_RT_GEMM_F64:
    std::memcpy(&wide, in, 8);
    return wide;
  case PTENSOR_RT_GEMM_F32:
    std::memcpy(&single, in, 4);
    return single;
  case PTENSOR_RT_GEMM_F16:
    std::memcpy(&half, in, 2);
    return halfValue(half);
  }
  std::memcpy(&half, in, 2);
  uint32_t bits = uint32_t(half) << 16;
  std::memcpy(&single, &bits, 4);
  return single;
}

/// Where an operand's elements are: offset and strides, in elements.
struct GemmLayout {
  int64_t offset, batchStride, rowStride, colStride;
};

/// A batch x rows x cols operand, in host bytes and in device memory.
class GemmOperand {
public:
  GemmOperand(int64_t type, GemmLayout layout, int64_t batch, int64_t rows,
              int64_t cols)
      : type(type), layout(layout), batch(batch), rows(rows), cols(cols) {
    int64_t last = layout.offset;
    if (batch > 0 && rows > 0 && cols > 0)
      last += (batch - 1) * layout.batchStride + (rows - 1) * layout.rowStride +
              (cols - 1) * layout.colStride;
    host.resize(size_t(last + 1) * gemmElementSize(type));
    device = mgpuMemAlloc(host.size(), nullptr, false);
  }
  ~GemmOperand() { mgpuMemFree(device, nullptr); }
  GemmOperand(const GemmOperand &) = delete;
  GemmOperand &operator=(const GemmOperand &) = delete;

  unsigned char *element(int64_t p, int64_t i, int64_t j) {
    int64_t index = layout.offset + p * layout.batchStride +
                    i * layout.rowStride + j * layout.colStride;
    return host.data() + size_t(index) * gemmElementSize(type);
  }
  double at(int64_t p, int64_t i, int64_t j) {
    return loadElement(type, element(p, i, j));
  }
  /// Sets every element (a broadcast batch ends with the last batch's).
  template <typename Fn> void fill(Fn value) {
    for (int64_t p = 0; p < batch; ++p)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          storeElement(type, value(p, i, j), element(p, i, j));
  }
  /// Sets every slot of the buffer, used or not.
  void fillAll(double value) {
    size_t size = gemmElementSize(type);
    for (size_t at = 0; at < host.size(); at += size)
      storeElement(type, value, host.data() + at);
  }
  void upload() { mgpuMemcpy(device, host.data(), host.size(), nullptr); }
  void download() { mgpuMemcpy(host.data(), device, host.size(), nullptr); }
  intptr_t address() const { return reinterpret_cast<intptr_t>(device); }

  const int64_t type;
  const GemmLayout layout;
  const int64_t batch, rows, cols;
  std::vector<unsigned char> host;
  void *device = nullptr;
};

struct GemmCase {
  const char *label;
  int64_t abType, cType, batch, m, n, k;
  GemmLayout a, b, c;
  bool taken; // Expected from ptensor_rt_gpu_gemm.
  /// Added to every element of A: 2^-15 is exact in f32 and in the sums,
  /// but lost by TF32's 10-bit mantissa.
  double aFraction = 0;
};

/// Runs one product on the device. Taken: C must match a host triple loop
/// (small integers: exact in every type); not taken: C must be untouched.
void runGemmCase(const GemmCase &t) {
  GemmOperand a(t.abType, t.a, t.batch, t.m, t.k);
  GemmOperand b(t.abType, t.b, t.batch, t.k, t.n);
  GemmOperand c(t.cType, t.c, t.batch, t.m, t.n);
  a.fill([&](int64_t p, int64_t i, int64_t l) {
    return double((p + 2 * i + 3 * l) % 5 - 2) + t.aFraction;
  });
  b.fill([](int64_t p, int64_t l, int64_t j) {
    return double((3 * l + j + p) % 5 - 2);
  });
  const double sentinel = -99;
  c.fillAll(sentinel);
  a.upload();
  b.upload();
  c.upload();
  std::vector<unsigned char> before = c.host;

  ptensor_rt_clear_last_error();
  bool taken = ptensor_rt_gpu_gemm(
      t.abType, t.cType, t.batch, t.m, t.n, t.k, a.address(), t.a.offset,
      t.a.batchStride, t.a.rowStride, t.a.colStride, b.address(), t.b.offset,
      t.b.batchStride, t.b.rowStride, t.b.colStride, c.address(), t.c.offset,
      t.c.batchStride, t.c.rowStride, t.c.colStride);
  SMOKE_CHECK(std::string(ptensor_rt_last_error()).empty(), "gemm %s: %s",
              t.label, ptensor_rt_last_error());
  // The product runs on the legacy default stream (ptensor_rt_synchronize's
  // stream here), which PTENSOR_SYNC_LAUNCHES' own streams do not wait for.
  SMOKE_CHECK(ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS, "gemm %s: %s",
              t.label, ptensor_rt_last_error());
  c.download();
  SMOKE_CHECK(ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS, "gemm %s: %s",
              t.label, ptensor_rt_last_error());

  SMOKE_CHECK(taken == t.taken, "gemm %s: expected %s", t.label,
              t.taken ? "taken" : "not taken");
  if (!taken) {
    std::printf("gemm %s: not taken, C %s\n", t.label,
                c.host == before ? "untouched" : "CHANGED");
    SMOKE_CHECK(c.host == before, "gemm %s: C written", t.label);
    return;
  }
  size_t wrong = 0;
  for (int64_t p = 0; p < t.batch; ++p)
    for (int64_t i = 0; i < t.m; ++i)
      for (int64_t j = 0; j < t.n; ++j) {
        double expected = 0;
        for (int64_t l = 0; l < t.k; ++l)
          expected += a.at(p, i, l) * b.at(p, l, j);
        wrong += c.at(p, i, j) != expected;
      }
  std::printf("gemm %s: taken, %zu of %lld elements wrong\n", t.label, wrong,
              static_cast<long long>(t.batch * t.m * t.n));
  SMOKE_CHECK(wrong == 0, "gemm %s: %zu elements wrong", t.label, wrong);
}

/// Products of 3 batches of 64x48 (row-major) by one broadcast 48x80
/// (column-major) into row-major C, in every type combination, and layouts
/// cuBLASLt is given or not.
int gemmChecks() {
  const int64_t m = 64, n = 80, k = 48, batch = 3;
  const GemmLayout aRow{0, m * k, k, 1}, bCol{0, 0, 1, k}, cRow{0, m * n, n, 1};
  const GemmLayout aCol{0, m * k, 1, m}, bRow{0, 0, n, 1}, cCol{0, m * n, 1, m};
  const GemmLayout aPadded{0, m * (k + 3), k + 3, 1}, aOdd{1, m * k, k, 1};
  const GemmLayout aNeither{0, 2 * m * k, 2 * k, 2};
  const int64_t F32 = PTENSOR_RT_GEMM_F32, F64 = PTENSOR_RT_GEMM_F64,
                F16 = PTENSOR_RT_GEMM_F16, BF16 = PTENSOR_RT_GEMM_BF16;
  const GemmCase cases[] = {
      {"f32", F32, F32, batch, m, n, k, aRow, bCol, cRow, true},
      {"f32 again (cached plan)", F32, F32, batch, m, n, k, aRow, bCol, cRow,
       true},
      {"f32, not TF32", F32, F32, batch, m, n, k, aRow, bCol, cRow, true,
       1.0 / 32768},
      {"f64", F64, F64, batch, m, n, k, aRow, bCol, cRow, true},
      {"f16 -> f32", F16, F32, batch, m, n, k, aRow, bCol, cRow, true},
      {"f16", F16, F16, batch, m, n, k, aRow, bCol, cRow, true},
      {"bf16 -> f32", BF16, F32, batch, m, n, k, aRow, bCol, cRow, true},
      {"bf16", BF16, BF16, batch, m, n, k, aRow, bCol, cRow, true},
      {"f32, column-major A and C, row-major B", F32, F32, batch, m, n, k, aCol,
       bRow, cCol, true},
      {"f32, A rows padded", F32, F32, batch, m, n, k, aPadded, bCol, cRow,
       true},
      {"f32, A 4-byte aligned", F32, F32, batch, m, n, k, aOdd, bCol, cRow,
       true},
      {"f16, A 2-byte aligned", F16, F32, batch, m, n, k, aOdd, bCol, cRow,
       true},
      {"f32, A neither row- nor column-major", F32, F32, batch, m, n, k,
       aNeither, bCol, cRow, false},
      {"f32 operands, f64 C", F32, F64, batch, m, n, k, aRow, bCol, cRow,
       false},
      {"m = 0", F32, F32, batch, 0, n, k, aRow, bCol, cRow, false},
      {"batch = 0", F32, F32, 0, m, n, k, aRow, bCol, cRow, false},
  };
  for (const GemmCase &t : cases)
    runGemmCase(t);
  // Epilogues in the product (row-major C): C = act(alpha A B + bias[j])
  // against the same in double. Sums, scales and ReLU are exact here (small
  // integers); GELU (cuBLASLt's tanh form, approximate: 24.6 measured) is
  // bounded by 64 of the units an f32 evaluation of the formula may lose
  // (0.5 |x| ulp(1) + ulp of the result) and its largest error printed, as is what ReLU makes of a NaN
  // (bias[0] is NaN in the ReLU case: the compiler's maximumf gives NaN).
  // A bias that is not 16-byte aligned is declined with C untouched.
  {
    constexpr int64_t kBias = PTENSOR_RT_GEMM_EPILOGUE_BIAS,
                      kRelu = PTENSOR_RT_GEMM_EPILOGUE_RELU,
                      kGelu = PTENSOR_RT_GEMM_EPILOGUE_GELU;
    struct EpilogueCase {
      const char *label;
      int64_t flags;
      double alpha;
    };
    const EpilogueCase epilogues[] = {
        {"bias", kBias, 1.0},
        {"0.5 * sums", PTENSOR_RT_GEMM_EPILOGUE_NONE, 0.5},
        {"relu(sums + bias), bias[0] NaN", kBias | kRelu, 1.0},
        {"relu(sums)", kRelu, 1.0},
        {"gelu(0.25 * sums + bias)", kBias | kGelu, 0.25},
        {"gelu(sums)", kGelu, 1.0},
    };
    auto gelu = [](double x) {
      return 0.5 * x *
             (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    };
    for (const EpilogueCase &e : epilogues) {
      bool relu = e.flags & kRelu, geluCase = e.flags & kGelu;
      GemmOperand a(F32, aRow, batch, m, k), b(F32, bCol, batch, k, n),
          c(F32, cRow, batch, m, n),
          bias(F32, GemmLayout{0, 0, 0, 1}, 1, 1, n + 4);
      a.fill([](int64_t p, int64_t i, int64_t l) {
        return double((p + i + 2 * l) % 5 - 2);
      });
      b.fill([](int64_t, int64_t l, int64_t j) { return double((l + j) % 3 - 1); });
      bias.fill([&](int64_t, int64_t, int64_t j) {
        return relu && j == 0 ? std::nan("") : double(j % 7 - 3);
      });
      c.fillAll(-99);
      a.upload();
      b.upload();
      bias.upload();
      c.upload();
      auto call = [&](int64_t biasOffset) {
        return ptensor_rt_gpu_gemm_epilogue(
            F32, F32, batch, m, n, k, a.address(), aRow.offset,
            aRow.batchStride, aRow.rowStride, aRow.colStride, b.address(),
            bCol.offset, bCol.batchStride, bCol.rowStride, bCol.colStride,
            c.address(), cRow.offset, cRow.batchStride, cRow.rowStride,
            cRow.colStride, e.flags, e.alpha, bias.address(), biasOffset, 1);
      };
      bool withBias = e.flags & kBias;
      bool misaligned = withBias && call(1);
      bool taken = call(0);
      SMOKE_CHECK(ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS, "%s: %s",
                  e.label, ptensor_rt_last_error());
      c.download();
      SMOKE_CHECK(ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS, "%s: %s",
                  e.label, ptensor_rt_last_error());
      size_t wrong = 0;
      double worstUnits = 0;
      std::string nanResult = "-";
      for (int64_t p = 0; p < batch; ++p)
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int64_t l = 0; l < k; ++l)
              sum += a.at(p, i, l) * b.at(p, l, j);
            double x = e.alpha * sum + (withBias ? bias.at(0, 0, j) : 0.0);
            double got = c.at(p, i, j);
            if (std::isnan(x)) {
              nanResult = std::isnan(got) ? "NaN" : std::to_string(got);
              continue;
            }
            double expected = relu ? std::max(x, 0.0) : geluCase ? gelu(x) : x;
            if (!geluCase) {
              wrong += got != expected;
              continue;
            }
            // In units of what evaluating the formula in f32 may lose: an
            // ulp of 1 in 1 + tanh (times 0.5 |x|) and an ulp of the result.
            float f = float(expected);
            double ulp = std::nextafter(std::fabs(f), INFINITY) - std::fabs(f);
            double unit = 0.5 * std::fabs(x) * 0x1p-23 + ulp;
            double units = std::fabs(got - expected) / unit;
            worstUnits = std::max(worstUnits, units);
            wrong += units > 64;
          }
      std::printf("gemm f32 epilogue %s: %s (misaligned bias %s), %zu wrong, "
                  "largest error %.2f units, relu of NaN %s\n",
                  e.label, taken ? "taken" : "not taken",
                  misaligned ? "taken" : "declined", wrong, worstUnits,
                  nanResult.c_str());
      SMOKE_CHECK(taken && !misaligned && wrong == 0, "epilogue %s", e.label);
      SMOKE_CHECK(!(relu && withBias) || nanResult == "NaN",
                  "epilogue %s: ReLU of a NaN gave %s (the compiler matches "
                  "maximumf, which keeps it)",
                  e.label, nanResult.c_str());
    }
  }

  // C in A's buffer (a product over its own operand; cuBLASLt's in-place
  // products are undefined): declined, for the compiled loops.
  {
    GemmOperand a(F32, aRow, batch, m, k),
        square(F32, GemmLayout{0, 0, 1, k}, batch, k, k);
    bool taken = ptensor_rt_gpu_gemm(
        F32, F32, batch, m, k, k, a.address(), aRow.offset, aRow.batchStride,
        aRow.rowStride, aRow.colStride, square.address(), 0, 0, 1, k,
        a.address(), aRow.offset, aRow.batchStride, aRow.rowStride,
        aRow.colStride);
    std::printf("gemm f32, C in A's buffer: %s\n",
                taken ? "taken" : "declined");
    SMOKE_CHECK(!taken, "a product writing over its operand was taken");
  }

  // Allowed TF32 loses the 2^-15 (a plan of its own, not the cached f32 one).
  ptensor_rt_set_allow_tf32(true);
  GemmOperand a(F32, aRow, batch, m, k), b(F32, bCol, batch, k, n),
      c(F32, cRow, batch, m, n);
  a.fill([](int64_t, int64_t, int64_t) { return 1.0 + 1.0 / 32768; });
  b.fill([](int64_t, int64_t, int64_t) { return 1.0; });
  a.upload();
  b.upload();
  bool taken = ptensor_rt_gpu_gemm(
      F32, F32, batch, m, n, k, a.address(), aRow.offset, aRow.batchStride,
      aRow.rowStride, aRow.colStride, b.address(), bCol.offset,
      bCol.batchStride, bCol.rowStride, bCol.colStride, c.address(),
      cRow.offset, cRow.batchStride, cRow.rowStride, cRow.colStride);
  ptensor_rt_set_allow_tf32(false);
  SMOKE_CHECK(ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS, "tf32: %s",
              ptensor_rt_last_error());
  c.download();
  SMOKE_CHECK(ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS, "tf32: %s",
              ptensor_rt_last_error());
  std::printf("gemm f32 with TF32 allowed: %s, C[0] = %.9g (exact %.9g)\n",
              taken ? "taken" : "not taken", c.at(0, 0, 0),
              double(k) * (1.0 + 1.0 / 32768));
  SMOKE_CHECK(taken && c.at(0, 0, 0) == double(k),
              "tf32: expected the 2^-15 rounded away (%g)", c.at(0, 0, 0));
  return failures ? 1 : 0;
}

/// In a child: cuBLASLt's workspace stays allocated until exit, which the
/// allocator checks at the end of main would see.
void testGemm(const char *self) {
  std::string output;
  int code = runChild(self, "--child-gemm", &output);
  std::printf("--child-gemm: exit %d:\n%s\n", code, output.c_str());
  SMOKE_CHECK(code == 0, "matrix products through cuBLASLt exited %d", code);
}

int childMode(const char *mode) {
  if (std::strcmp(mode, "--child-gemm") == 0)
    return gemmChecks();
  if (std::strcmp(mode, "--child-oom") == 0) {
    mgpuMemAlloc(uint64_t(1) << 50, nullptr, false);
    return 0; // Not reached.
  }
  if (std::strcmp(mode, "--child-bad-launch") == 0) {
    void *module = mgpuModuleLoadJIT(const_cast<char *>(kPtx), 2);
    void *function = mgpuModuleGetFunction(module, "ptensor_smoke_add_one");
    void *stream = mgpuStreamCreate();
    void *buffer = mgpuMemAlloc(4096 * 4, stream, false);
    launchAddOne(function, buffer, buffer, 4096, 4096, 0, stream);
    return 0; // Not reached.
  }
  if (std::strcmp(mode, "--child-cluster") == 0) {
    // Thread-block clusters need sm_90+; run apart so older GPUs only fail
    // this check.
    void *module = mgpuModuleLoadJIT(const_cast<char *>(kPtx), 2);
    void *function = mgpuModuleGetFunction(module, "ptensor_smoke_add_one");
    void *stream = mgpuStreamCreate();
    unsigned n = 1000;
    auto *buffer = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
    mgpuMemset32(buffer, 0, n, stream); // 0.0f
    void *params[] = {&buffer, &buffer, &n};
    mgpuLaunchClusterKernel(function, 2, 1, 1, 8, 1, 1, 128, 1, 1, 0, stream,
                            params, nullptr, 3);
    std::vector<float> host(n);
    mgpuMemcpy(host.data(), buffer, n * 4, stream);
    mgpuStreamSynchronize(stream);
    for (unsigned i = 0; i < n; ++i)
      if (host[i] != 1.0f)
        return 3;
    std::printf("cluster launch ok\n");
    return 0;
  }
  if (std::strcmp(mode, "--child-bad-ptx") == 0) {
    char ptx[] = ".version 7.0\n.target sm_50\n.address_size 64\n"
                 ".visible .entry broken() { bogus.instruction; }\n";
    // Outside a trap the failed load is kept (compiled code loads its
    // kernels in a global constructor): the first use reports it.
    void *module = mgpuModuleLoadJIT(ptx, 2);
    if (!module) // the failed load's own handle, not null
      return 4;
    mgpuModuleGetFunction(module, "broken");
    return 0; // Not reached.
  }
  if (std::strcmp(mode, "--child-bad-device") == 0) {
    mgpuSetDefaultDevice(77);
    mgpuStreamCreate();
    return 0; // Not reached.
  }
  if (std::strcmp(mode, "--child-fault") == 0) {
    void *module = mgpuModuleLoadJIT(const_cast<char *>(kPtx), 2);
    void *function = mgpuModuleGetFunction(module, "ptensor_smoke_add_one");
    void *stream = mgpuStreamCreate();
    // Reads and writes through a bogus device address: faults on the GPU,
    // reported by the next synchronization.
    void *bogus = reinterpret_cast<void *>(uintptr_t(0x10));
    launchAddOne(function, bogus, bogus, 1024, 128, 0, stream);
    mgpuStreamSynchronize(stream);
    return 0; // Not reached.
  }
  std::fprintf(stderr, "unknown mode %s\n", mode);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2)
    return childMode(argv[1]);
  if (!ptensor_rt_cuda_available()) {
    std::printf("FAILED: no usable CUDA device: %s\n", ptensor_rt_last_error());
    return 1;
  }
  int count = 0;
  ptensor_rt_device_count(&count);
  std::printf("CUDA devices: %d\n", count);

  void *stream = mgpuStreamCreate();
  testMemory(stream);
  testKernelAndModuleCache(stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  testThreads();
  testOutOfMemory("/proc/self/exe");
  testFailures("/proc/self/exe");
  testGemm("/proc/self/exe");

  void *cachedBlock = mgpuMemAlloc(1 << 20, nullptr, false);
  mgpuMemFree(cachedBlock, nullptr);
  printStats("before empty_cache");
  SMOKE_CHECK(stats().bytes_cached == (caching ? 1u << 20 : 0u),
              "expected %s cached", caching ? "1 MiB" : "nothing");
  SMOKE_CHECK(ptensor_rt_empty_cache() == PTENSOR_RT_SUCCESS, "%s",
              ptensor_rt_last_error());
  printStats("after empty_cache");
  SMOKE_CHECK(stats().bytes_cached == 0 && stats().bytes_in_use == 0,
              "allocator not empty");
  if (failures)
    std::printf("FAILED gpu smoke: %d check(s)\n", failures);
  else
    std::printf("PASSED gpu smoke\n");
  return failures ? 1 : 0;
}
