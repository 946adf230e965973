/*===- capi-threads.c - the C API from eight threads at once --------------===*\
|*                                                                            *|
|* Four threads call one compiled function 200 times each while four others *|
|* compile modules of their own (each a different constant, no disk cache)  *|
|* and call them: ptensorJITCompile and ptensorJITInvoke are documented     *|
|* thread-safe (ptensor-c/JIT.h). Every result is checked in C; the program *|
|* exits non-zero on a mismatch or a failed call. Run by capi-threads.test, *|
|* also in the ASan/UBSan build.                                             *|
\*===----------------------------------------------------------------------===*/

#include "ptensor-c/JIT.h"
#include "ptensor-c/Support.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { kCallers = 4, kCompilers = 4, kCalls = 200, kN = 1000 };

static const char *kShared =
    "func.func @scale(%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {\n"
    "  %c = arith.constant 3.0 : f32\n"
    "  %r = ptensor.elementwise_binary multiply %x, %c : (!ptensor.ptensor<?xf32>, f32) -> !ptensor.ptensor<?xf32>\n"
    "  return %r : !ptensor.ptensor<?xf32>\n"
    "}\n";

static PTensorJITModule shared;
static float input[kN];

static DLTensor vector(float *data, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* Calls @scale of `module` on `input`; returns the number of wrong elements
   (kN + 1 for a failed call). */
static int callScale(PTensorJITModule module, float factor) {
  int64_t shape[1] = {kN};
  DLTensor x = vector(input, shape);
  PTensorJITArg arg = ptensorJITArgTensor(&x);
  DLManagedTensor *result = NULL;
  char *message = NULL;
  if (ptensorJITInvoke(module, "scale", &arg, 1, &result, 1, &message) !=
      PTENSOR_STATUS_OK) {
    fprintf(stderr, "invoke failed: %s\n", message ? message : "?");
    ptensorFreeString(message);
    return kN + 1;
  }
  const float *out = (const float *)result->dl_tensor.data;
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    wrong += out[i] != input[i] * factor;
  result->deleter(result);
  return wrong;
}

static void *caller(void *arg) {
  int *wrong = (int *)arg;
  for (int i = 0; i < kCalls; ++i)
    *wrong += callScale(shared, 3.0f);
  return NULL;
}

struct CompileJob {
  int index;
  int wrong;
};

static void *compileAndCall(void *arg) {
  struct CompileJob *job = (struct CompileJob *)arg;
  char ir[1024];
  float factor = 5.0f + (float)job->index;
  snprintf(ir, sizeof ir,
           "func.func @scale(%%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {\n"
           "  %%c = arith.constant %.1f : f32\n"
           "  %%r = ptensor.elementwise_binary multiply %%x, %%c : (!ptensor.ptensor<?xf32>, f32) -> !ptensor.ptensor<?xf32>\n"
           "  return %%r : !ptensor.ptensor<?xf32>\n"
           "}\n",
           factor);
  PTensorJITModule module;
  char *message = NULL;
  if (ptensorJITCompile(ir, "", &module, &message) != PTENSOR_STATUS_OK) {
    fprintf(stderr, "compile failed: %s\n", message ? message : "?");
    ptensorFreeString(message);
    job->wrong = kN + 1;
    return NULL;
  }
  for (int i = 0; i < 20; ++i)
    job->wrong += callScale(module, factor);
  ptensorJITModuleDestroy(module);
  return NULL;
}

int main(void) {
  for (int i = 0; i < kN; ++i)
    input[i] = (float)(i % 97) - 48.0f;
  char *message = NULL;
  if (ptensorJITCompile(kShared, "", &shared, &message) != PTENSOR_STATUS_OK) {
    fprintf(stderr, "compile failed: %s\n", message ? message : "?");
    return 1;
  }
  pthread_t threads[kCallers + kCompilers];
  int callerWrong[kCallers] = {0};
  struct CompileJob jobs[kCompilers];
  for (int i = 0; i < kCallers; ++i)
    pthread_create(&threads[i], NULL, caller, &callerWrong[i]);
  for (int i = 0; i < kCompilers; ++i) {
    jobs[i].index = i;
    jobs[i].wrong = 0;
    pthread_create(&threads[kCallers + i], NULL, compileAndCall, &jobs[i]);
  }
  for (int i = 0; i < kCallers + kCompilers; ++i)
    pthread_join(threads[i], NULL);
  int wrong = 0;
  for (int i = 0; i < kCallers; ++i)
    wrong += callerWrong[i];
  for (int i = 0; i < kCompilers; ++i)
    wrong += jobs[i].wrong;
  ptensorJITModuleDestroy(shared);
  printf("threads: %d callers x %d calls, %d compilers x 20 calls: %d wrong "
         "element(s)\n",
         kCallers, kCalls, kCompilers, wrong);
  return wrong == 0 ? 0 : 1;
}
