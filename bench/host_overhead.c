/* Host overhead of a small compiled ptensor call, through the runtime alone
 * (no Python): the per-call cost of `r = a + b` (or of `r = sum(a)`) on 4096
 * floats and the latency of a fresh process's first call.
 *
 *   host_overhead RUNTIME.so KERNEL.so [--op add|sum] [--entry NAME]
 *                 [--calls N] [--batches B] [--no-check] [--json FILE]
 *
 * KERNEL.so is a library of `ptensor-compile --target=cuda` (bench/build.py's
 * small_add_4096.so or sum_4096.so) with `void _mlir_ciface_NAME(MemRef1 *res,
 * MemRef1 *a, MemRef1 *b)` for `--op add` (the default) or
 * `void _mlir_ciface_NAME(MemRef0 *res, MemRef1 *a)` for `--op sum`, whose
 * result is 0-d (NAME defaults to the file's base name). Like a real caller,
 * it allocates the inputs once through the runtime, then per call lets the
 * compiled code allocate the result (caching allocator) and frees it with
 * mgpuMemFree; the host waits for the GPU only at the end of each batch of N
 * calls. Reported: the median over B batches of wall time / N.
 *
 * First-call latency in this fresh process is split into: loading the
 * runtime, the CUDA driver (cuInit), the primary context (first
 * allocation), loading KERNEL.so (its constructors load the GPU modules),
 * and the first call until its result is on the host.
 *
 * Results are checked against a + b or sum(a) computed here (--no-check
 * skips that, for the fake driver of fake_cuda.c, which runs no kernels).
 * Build: cc -O2 -o host_overhead bench/host_overhead.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, size, stride;
} MemRef1;

/* A 0-d result: no sizes, no strides. */
typedef struct {
  float *allocated, *aligned;
  int64_t offset;
} MemRef0;

typedef void (*AddFn)(MemRef1 *, MemRef1 *, MemRef1 *);
typedef void (*SumFn)(MemRef0 *, MemRef1 *);

enum Op { OP_ADD, OP_SUM };

/* The result of one call: the buffer to free and its first element. */
typedef struct {
  float *allocated, *data;
  int64_t size, stride;
} Result;

/* The runtime's C API (runtime/include/ptensor/Runtime/PTensorRuntime.h),
 * resolved with dlsym so that loading it can be timed. */
static int (*rt_cuda_available)(void);
static const char *(*rt_last_error)(void);
static int (*rt_alloc)(int, size_t, void *, void **);
static int (*rt_free)(void *, void *);
static int (*rt_synchronize)(void);
static void *(*rt_get_stream)(void);
static void *(*mgpu_mem_alloc)(uint64_t, void *, _Bool);
static void (*mgpu_mem_free)(void *, void *);
static void (*mgpu_memcpy)(void *, void *, size_t, void *);

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "host_overhead: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

static void *sym(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p)
    die("missing symbol", name);
  return p;
}

static void check(int status, const char *what) {
  if (status != 0)
    die(what, rt_last_error());
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, n, sizeof(double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static MemRef1 vec(float *p, int64_t n) {
  MemRef1 m = {p, p, 0, n, 1};
  return m;
}

/* One call of the entry, whose result the compiled code allocates. */
static Result call_entry(enum Op op, void *fn, MemRef1 *a, MemRef1 *b) {
  Result out;
  if (op == OP_SUM) {
    MemRef0 r = {0};
    ((SumFn)fn)(&r, a);
    out.allocated = r.allocated, out.data = r.aligned + r.offset, out.size = 1, out.stride = 1;
  } else {
    MemRef1 r = {0};
    ((AddFn)fn)(&r, a, b);
    out.allocated = r.allocated, out.data = r.aligned + r.offset, out.size = r.size,
    out.stride = r.stride;
  }
  return out;
}

/* How many result elements in hr differ from the reference computed from
 * the n elements of the inputs ha and hb. */
static int count_wrong(enum Op op, const float *hr, const float *ha, const float *hb, int n) {
  if (op == OP_SUM) { /* bound: a few roundings of the sum of magnitudes */
    double sum = 0, magnitude = 0;
    for (int i = 0; i < n; ++i)
      sum += ha[i], magnitude += fabs(ha[i]);
    return fabs(hr[0] - sum) > 1e-5 * magnitude;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += fabsf(hr[i] - (ha[i] + hb[i])) > 1e-6f * fabsf(ha[i] + hb[i]);
  return bad;
}

int main(int argc, char **argv) {
  double t_start = now_us();
  const char *runtime_path = NULL, *kernel_path = NULL, *entry = NULL, *json_path = NULL;
  int calls = 2000, batches = 15, do_check = 1;
  enum Op op = OP_ADD;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--entry") && i + 1 < argc) entry = argv[++i];
    else if (!strcmp(argv[i], "--op") && i + 1 < argc) {
      const char *o = argv[++i];
      if (strcmp(o, "add") && strcmp(o, "sum"))
        die("--op must be add or sum, not", o);
      op = strcmp(o, "sum") ? OP_ADD : OP_SUM;
    }
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc) calls = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--batches") && i + 1 < argc) batches = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) json_path = argv[++i];
    else if (!strcmp(argv[i], "--no-check")) do_check = 0;
    else if (!runtime_path) runtime_path = argv[i];
    else if (!kernel_path) kernel_path = argv[i];
    else die("unexpected argument", argv[i]);
  }
  if (!runtime_path || !kernel_path || calls < 1 || batches < 1)
    die("usage: host_overhead RUNTIME.so KERNEL.so [--op add|sum] [--entry NAME] [--calls N] "
        "[--batches B] [--no-check] [--json FILE]", NULL);
  char name[256];
  if (!entry) { /* the kernel file's base name without .so */
    const char *base = strrchr(kernel_path, '/');
    snprintf(name, sizeof(name), "%s", base ? base + 1 : kernel_path);
    char *dot = strstr(name, ".so");
    if (dot) *dot = 0;
    entry = name;
  }

  /* ---- first call in a fresh process, phase by phase ---- */
  double t0 = now_us();
  void *rt = dlopen(runtime_path, RTLD_NOW | RTLD_GLOBAL);
  if (!rt)
    die("cannot load the runtime", dlerror());
  rt_cuda_available = sym(rt, "ptensor_rt_cuda_available");
  rt_last_error = sym(rt, "ptensor_rt_last_error");
  rt_alloc = sym(rt, "ptensor_rt_alloc");
  rt_free = sym(rt, "ptensor_rt_free");
  rt_synchronize = sym(rt, "ptensor_rt_synchronize");
  rt_get_stream = sym(rt, "ptensor_rt_get_stream");
  mgpu_mem_alloc = sym(rt, "mgpuMemAlloc");
  mgpu_mem_free = sym(rt, "mgpuMemFree");
  mgpu_memcpy = sym(rt, "mgpuMemcpy");
  double t_runtime = now_us();
  if (!rt_cuda_available())
    die("no CUDA", rt_last_error());
  double t_driver = now_us();

  enum { N = 4096 };
  size_t bytes = N * sizeof(float);
  float *ha = malloc(bytes), *hb = malloc(bytes), *hr = malloc(bytes);
  srand(1);
  for (int i = 0; i < N; ++i) {
    ha[i] = (float)rand() / RAND_MAX - 0.25f;
    hb[i] = (float)rand() / RAND_MAX + 0.5f;
  }
  void *da = NULL, *db = NULL;
  check(rt_alloc(0, bytes, NULL, &da), "ptensor_rt_alloc"); /* retains the context */
  double t_context = now_us();
  check(rt_alloc(0, bytes, NULL, &db), "ptensor_rt_alloc");
  mgpu_memcpy(da, ha, bytes, NULL);
  mgpu_memcpy(db, hb, bytes, NULL);
  check(rt_synchronize(), "ptensor_rt_synchronize");

  double t1 = now_us();
  void *kernel = dlopen(kernel_path, RTLD_NOW | RTLD_LOCAL); /* loads the GPU modules */
  if (!kernel)
    die("cannot load the kernel library", dlerror());
  char ciface[300];
  snprintf(ciface, sizeof(ciface), "_mlir_ciface_%s", entry);
  void *fn = sym(kernel, ciface);
  const char *signature = sym(kernel, "ptensor_module_signature");
  if (!strstr(signature, entry))
    die("the module signature does not name the entry", signature);
  double t_load = now_us();
  MemRef1 a = vec(da, N), b = vec(db, N);
  int n_result = op == OP_SUM ? 1 : N;
  size_t result_bytes = n_result * sizeof(float);
  Result r = call_entry(op, fn, &a, &b);
  mgpu_memcpy(hr, r.data, result_bytes, NULL); /* stream-ordered */
  check(rt_synchronize(), "ptensor_rt_synchronize");
  double t_first = now_us();
  if (r.size != n_result || r.stride != 1)
    die("unexpected result shape", NULL);
  int bad = do_check ? count_wrong(op, hr, ha, hb, N) : 0;
  mgpu_mem_free(r.allocated, rt_get_stream());

  /* ---- per call ---- */
  void *stream = rt_get_stream();
  for (int i = 0; i < 200; ++i) /* warm-up */
    mgpu_mem_free(call_entry(op, fn, &a, &b).allocated, stream);
  check(rt_synchronize(), "ptensor_rt_synchronize");
  double *per_call = malloc(sizeof(double) * batches);
  double *alloc_free = malloc(sizeof(double) * batches);
  for (int k = 0; k < batches; ++k) {
    double s = now_us();
    for (int i = 0; i < calls; ++i)
      mgpu_mem_free(call_entry(op, fn, &a, &b).allocated, stream);
    check(rt_synchronize(), "ptensor_rt_synchronize");
    per_call[k] = (now_us() - s) / calls;
    /* The allocator's share: the result's allocation + free alone. */
    s = now_us();
    for (int i = 0; i < calls; ++i)
      mgpu_mem_free(mgpu_mem_alloc(result_bytes, stream, 0), stream);
    alloc_free[k] = (now_us() - s) / calls;
  }
  /* The last result, checked again after the timed calls. */
  r = call_entry(op, fn, &a, &b);
  mgpu_memcpy(hr, r.data, result_bytes, NULL);
  check(rt_synchronize(), "ptensor_rt_synchronize");
  mgpu_mem_free(r.allocated, stream);
  if (do_check)
    bad += count_wrong(op, hr, ha, hb, N);
  double best = per_call[0];
  for (int k = 1; k < batches; ++k)
    best = per_call[k] < best ? per_call[k] : best;
  double med = median(per_call, batches), med_alloc = median(alloc_free, batches);
  check(rt_free(da, NULL), "ptensor_rt_free");
  check(rt_free(db, NULL), "ptensor_rt_free");

  printf("host_overhead %s: %d batches x %d calls\n", entry, batches, calls);
  printf("  per call (median): %.2f us (best batch %.2f us); result alloc+free alone %.3f us\n",
         med, best, med_alloc);
  printf("  first call, fresh process: load runtime %.1f ms, CUDA driver init %.1f ms, "
         "context %.1f ms, load kernel library + GPU modules %.2f ms, first call %.2f ms\n",
         (t_runtime - t0) / 1e3, (t_driver - t_runtime) / 1e3, (t_context - t_driver) / 1e3,
         (t_load - t1) / 1e3, (t_first - t_load) / 1e3);
  printf("  process start to first result: %.1f ms (without driver init and context: %.2f ms)\n",
         (t_first - t_start) / 1e3,
         ((t_runtime - t0) + (t_first - t1)) / 1e3);
  printf("  correctness: %s\n", !do_check ? "not checked (--no-check)"
                                          : bad ? "MISMATCH"
                                          : op == OP_SUM ? "matches sum(a)" : "matches a + b");
  const char *driver_path = getenv("PTENSOR_CUDA_DRIVER_LIBRARY");
  void *driver = driver_path && *driver_path ? dlopen(driver_path, RTLD_NOW | RTLD_NOLOAD) : NULL;
  void (*counters)(uint64_t *) =
      driver ? (void (*)(uint64_t *))dlsym(driver, "fake_cuda_counters") : NULL;
  if (counters) { /* the fake driver of fake_cuda.c: its calls so far */
    uint64_t c[8];
    counters(c);
    printf("  fake driver calls so far: launch %lu, ctx query %lu, ctx switch %lu, "
           "get function %lu, mem alloc %lu, mem free %lu, sync %lu\n",
           (unsigned long)c[0], (unsigned long)c[1], (unsigned long)c[2], (unsigned long)c[3],
           (unsigned long)c[4], (unsigned long)c[5], (unsigned long)c[6]);
  }
  if (json_path) {
    FILE *f = fopen(json_path, "w");
    if (!f)
      die("cannot write", json_path);
    fprintf(f,
            "{\"entry\": \"%s\", \"calls\": %d, \"batches\": %d, \"per_call_us\": %.3f, "
            "\"best_per_call_us\": %.3f, \"alloc_free_us\": %.4f, \"runtime_load_ms\": %.3f, "
            "\"driver_init_ms\": %.3f, \"context_ms\": %.3f, \"kernel_load_ms\": %.3f, "
            "\"first_call_ms\": %.3f, \"process_to_first_result_ms\": %.3f, "
            "\"checked\": %s, \"correct\": %s}\n",
            entry, calls, batches, med, best, med_alloc, (t_runtime - t0) / 1e3,
            (t_driver - t_runtime) / 1e3, (t_context - t_driver) / 1e3, (t_load - t1) / 1e3,
            (t_first - t_load) / 1e3, (t_first - t_start) / 1e3, do_check ? "true" : "false",
            bad ? "false" : "true");
    fclose(f);
  }
  return bad ? 1 : 0;
}
