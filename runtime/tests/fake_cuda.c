/* A stand-in CUDA driver (libcuda.so.1 API subset) that does no GPU work:
 * "device" memory is host memory, launches and synchronizations return at
 * once. Loaded by libptensor_runtime through PTENSOR_CUDA_DRIVER_LIBRARY, it
 * lets bench/host_overhead measure the runtime's own host work per call
 * (everything but the real driver's) on a machine without a GPU:
 *
 *   cc -O2 -shared -fPIC -o fake_cuda.so runtime/tests/fake_cuda.c
 *   PTENSOR_CUDA_DRIVER_LIBRARY=$PWD/fake_cuda.so host_overhead ... --no-check
 *
 * Like the real driver, a thread starts with no current context. Only the
 * functions libptensor_runtime resolves are provided; results are never
 * computed, so correctness checks must be skipped. The build makes it as
 * libptensor_fake_cuda.so for tests that run GPU modules' host side here
 * (test/Integration/GPU/runner-fake-driver.mlir): memory copies are real.
 *
 * Fault injection, read once by cuInit:
 *   PTENSOR_FAKE_CUDA_MAX_ALLOC=<bytes>: cuMemAlloc_v2 and cuMemAllocManaged
 *     return CUDA_ERROR_OUT_OF_MEMORY (2) for larger requests, and
 *     cuMemGetInfo_v2 reports <bytes> free (test/Integration/GPU/
 *     runner-fake-driver-errors.mlir, runtime/tests/TrapTests.cpp).
 *
 * fake_cuda_context_state() tells tests whether the runtime left the calling
 * thread's context stack as it found it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef void *Handle;

static int primary_ctx;
static int function_obj, stream_obj, event_obj;
static __thread void *ctx_stack[16];
static __thread int ctx_depth;
static __thread void *current_ctx;
/* Counts of the calls that cost real time in a driver, printed by
 * host_overhead through fake_cuda_counters(). */
static uint64_t counters[8];
enum { kLaunch, kCtxQuery, kCtxSwitch, kGetFunction, kMemAlloc, kMemFree, kSync };

/* PTENSOR_FAKE_CUDA_MAX_ALLOC, or SIZE_MAX when unset. */
static size_t max_alloc = SIZE_MAX;

void fake_cuda_counters(uint64_t out[8]) { memcpy(out, counters, sizeof(counters)); }

/* The calling thread's context stack depth (pushes not yet popped) and its
 * current context. */
void fake_cuda_context_state(int *depth, void **current) {
  *depth = ctx_depth;
  *current = current_ctx;
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  const char *limit = getenv("PTENSOR_FAKE_CUDA_MAX_ALLOC");
  if (limit && *limit) {
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(limit, &end, 10);
    if (errno == 0 && *end == '\0')
      max_alloc = (size_t)value;
  }
  return 0;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuGetErrorName(CUresult r, const char **s) { (void)r; *s = "FAKE_ERROR"; return 0; }
CUresult cuGetErrorString(CUresult r, const char **s) { (void)r; *s = "fake driver error"; return 0; }
CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) { (void)attr; (void)dev; *v = 232448; return 0; }
CUresult cuDevicePrimaryCtxRetain(Handle *c, int dev) { (void)dev; *c = &primary_ctx; return 0; }
CUresult cuCtxGetCurrent(Handle *c) { ++counters[kCtxQuery]; *c = current_ctx; return 0; }
CUresult cuCtxSetCurrent(Handle c) { ++counters[kCtxSwitch]; current_ctx = c; return 0; }
CUresult cuCtxPushCurrent_v2(Handle c) {
  ++counters[kCtxSwitch];
  ctx_stack[ctx_depth++ & 15] = current_ctx;
  current_ctx = c;
  return 0;
}
CUresult cuCtxPopCurrent_v2(Handle *c) {
  ++counters[kCtxSwitch];
  if (c) *c = current_ctx;
  current_ctx = ctx_depth > 0 ? ctx_stack[--ctx_depth & 15] : NULL;
  return 0;
}
CUresult cuCtxSynchronize(void) { ++counters[kSync]; return 0; }
/* Every load gets its own handle, as the runtime's module cache expects. */
/* Whether `image` looks like a kernel image: a cubin (ELF), a fatbinary or
   PTX text. Anything else, such as a placeholder the compiler did not
   replace, is refused as the real driver would (CUDA_ERROR_INVALID_IMAGE). */
static int is_kernel_image(const void *image) {
  static const unsigned char fatbin[4] = {0x50, 0xed, 0x55, 0xba};
  const char *p = (const char *)image;
  return p && (memcmp(p, "\x7f" "ELF", 4) == 0 || memcmp(p, fatbin, 4) == 0 ||
               strncmp(p, "//", 2) == 0 || strncmp(p, ".version", 8) == 0);
}
CUresult cuModuleLoadData(Handle *m, const void *image) {
  if (!is_kernel_image(image))
    return 200; /* CUDA_ERROR_INVALID_IMAGE */
  *m = malloc(1);
  return 0;
}
CUresult cuModuleLoadDataEx(Handle *m, const void *image, unsigned n, void *o, void **v) {
  (void)n; (void)o; (void)v;
  return cuModuleLoadData(m, image);
}
CUresult cuModuleUnload(Handle m) { free(m); return 0; }
CUresult cuModuleGetFunction(Handle *f, Handle m, const char *name) {
  (void)m; (void)name; ++counters[kGetFunction]; *f = &function_obj; return 0;
}
CUresult cuFuncSetAttribute(Handle f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
CUresult cuLaunchKernel(Handle f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, Handle s, void **p, void **e) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem; (void)s;
  (void)p; (void)e;
  ++counters[kLaunch];
  return 0;
}
CUresult cuStreamCreate(Handle *s, unsigned flags) { (void)flags; *s = &stream_obj; return 0; }
CUresult cuStreamDestroy_v2(Handle s) { (void)s; return 0; }
CUresult cuStreamSynchronize(Handle s) { (void)s; ++counters[kSync]; return 0; }
CUresult cuStreamWaitEvent(Handle s, Handle e, unsigned f) { (void)s; (void)e; (void)f; return 0; }
CUresult cuEventCreate(Handle *e, unsigned f) { (void)f; *e = &event_obj; return 0; }
CUresult cuEventDestroy_v2(Handle e) { (void)e; return 0; }
CUresult cuEventSynchronize(Handle e) { (void)e; return 0; }
CUresult cuEventRecord(Handle e, Handle s) { (void)e; (void)s; return 0; }
CUresult cuMemAlloc_v2(uintptr_t *p, size_t n) {
  ++counters[kMemAlloc];
  *p = 0;
  if (n > max_alloc || n > SIZE_MAX - 255) /* CUDA_ERROR_OUT_OF_MEMORY */
    return 2;
  *p = (uintptr_t)aligned_alloc(256, (n + 255) / 256 * 256);
  return *p ? 0 : 2;
}
CUresult cuMemAllocManaged(uintptr_t *p, size_t n, unsigned f) { (void)f; return cuMemAlloc_v2(p, n); }
CUresult cuMemFree_v2(uintptr_t p) { ++counters[kMemFree]; free((void *)p); return 0; }
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) {
  *f = max_alloc < (size_t)1 << 34 ? max_alloc : (size_t)1 << 34;
  *t = (size_t)1 << 36;
  return 0;
}
CUresult cuMemcpyAsync(uintptr_t d, uintptr_t s, size_t n, Handle st) {
  (void)st; memcpy((void *)d, (const void *)s, n); return 0;
}
/* CUDA_MEMCPY2D's layout (cuda.h); only device-to-device copies are made. */
typedef struct {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  uintptr_t srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  uintptr_t dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
} FakeMemcpy2D;
CUresult cuMemcpy2DAsync_v2(const FakeMemcpy2D *c, Handle st) {
  (void)st;
  for (size_t r = 0; r < c->Height; ++r)
    memcpy((char *)c->dstDevice + c->dstXInBytes + (c->dstY + r) * c->dstPitch,
           (const char *)c->srcDevice + c->srcXInBytes +
               (c->srcY + r) * c->srcPitch,
           c->WidthInBytes);
  return 0;
}
CUresult cuMemsetD32Async(uintptr_t d, unsigned v, size_t n, Handle s) {
  (void)s;
  for (size_t i = 0; i < n; ++i) ((unsigned *)d)[i] = v;
  return 0;
}
CUresult cuMemsetD16Async(uintptr_t d, unsigned short v, size_t n, Handle s) {
  (void)s;
  for (size_t i = 0; i < n; ++i) ((unsigned short *)d)[i] = v;
  return 0;
}
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned f) { (void)p; (void)n; (void)f; return 0; }
CUresult cuMemHostUnregister(void *p) { (void)p; return 0; }
