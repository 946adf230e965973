//===- GpuSort.cpp - GPU sort along a dim through CUB ----------------------===//
//
// ptensor_rt_gpu_sort (Sort.h). The CUB code is compiled by nvcc into
// libptensor_runtime_cuda.so (cuda/SortKernels.cu, built with
// -DPTENSOR_RUNTIME_CUDA_KERNELS=ON), which this file loads with dlopen on
// the first GPU sort — from the directory of libptensor_runtime itself, or
// the file named by PTENSOR_RUNTIME_CUDA_LIBRARY — so the runtime keeps no
// link-time CUDA dependency and builds without the toolkit. It runs on the
// thread's compute stream with scratch from the caching allocator.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Sort.h"

#include "DeviceAllocator.h"
#include "DeviceContext.h"
#include "Errors.h"
#include "SortArguments.h"
#include "SortKernels.h"

#include <cstdlib>
#include <mutex>
#include <string>

#include <dlfcn.h>

using namespace ptensor::rt;

namespace {

/// The library's entry point, loaded once; null with the reason in `why`.
GpuSortFn loadSortLibrary(std::string &why) {
  static std::once_flag once;
  static GpuSortFn fn = nullptr;
  static std::string reason;
  std::call_once(once, [] {
    std::string path;
    if (const char *env = std::getenv("PTENSOR_RUNTIME_CUDA_LIBRARY")) {
      path = env;
    } else {
      Dl_info info;
      if (dladdr(reinterpret_cast<void *>(&ptensor_rt_gpu_sort), &info) &&
          info.dli_fname) {
        path = info.dli_fname;
        size_t slash = path.rfind('/');
        path = slash == std::string::npos ? "" : path.substr(0, slash + 1);
      }
      path += "libptensor_runtime_cuda.so";
    }
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *error = dlerror();
      reason = "the GPU sort needs libptensor_runtime_cuda.so (the runtime "
               "built with -DPTENSOR_RUNTIME_CUDA_KERNELS=ON and the CUDA "
               "toolkit), which did not load: " +
               std::string(error ? error : path);
      return;
    }
    fn = reinterpret_cast<GpuSortFn>(dlsym(handle, kGpuSortSymbol));
    if (!fn)
      reason = path + " has no " + kGpuSortSymbol;
  });
  why = reason;
  return fn;
}

/// The device and stream of a call's scratch.
struct AllocatorContext {
  int device;
  void *stream;
};

void *allocateScratch(void *context, size_t bytes) {
  auto *c = static_cast<AllocatorContext *>(context);
  void *p = nullptr;
  return deviceAllocate(c->device, bytes, c->stream, &p) ? p : nullptr;
}

void releaseScratch(void *context, void *ptr) {
  deviceFree(ptr, static_cast<AllocatorContext *>(context)->stream);
}

bool runGpuSort(const SortArguments &a) {
  if (a.rank > kMaxSortRank)
    return setErrorf(ErrorKind::Unsupported,
                     "ptensor_rt_gpu_sort: a rank-%lld buffer (the GPU sort "
                     "takes ranks 1 to %d)",
                     static_cast<long long>(a.rank), kMaxSortRank);
  std::string why;
  GpuSortFn fn = loadSortLibrary(why);
  if (!fn)
    return setError(ErrorKind::Unsupported, why);
  GpuSortCall call{};
  call.format = a.format;
  call.descending = a.descending;
  call.rank = static_cast<int32_t>(a.rank);
  call.dim = static_cast<int32_t>(a.dim);
  for (int64_t d = 0; d < a.rank; ++d) {
    call.sizes[d] = a.sizes[d];
    call.inputStrides[d] = a.inputStrides[d];
    call.valueStrides[d] = a.values ? a.valueStrides[d] : 0;
    call.indexStrides[d] = a.indices ? a.indexStrides[d] : 0;
  }
  call.input = a.input;
  call.values = a.values;
  call.indices = a.indices;
  AllocatorContext context{defaultDevice(), ptensor_rt_get_stream()};
  ScopedContext scope(context.device);
  if (!scope.ok())
    return false;
  call.stream = context.stream;
  call.allocate = allocateScratch;
  call.release = releaseScratch;
  call.allocatorContext = &context;
  char error[512];
  // The allocator records an out-of-memory error; nothing older may count.
  clearError();
  if (fn(&call, error, sizeof error))
    return setError(lastErrorKind() == ErrorKind::OutOfMemory
                        ? ErrorKind::OutOfMemory
                        : ErrorKind::Cuda,
                    error);
  if (syncLaunches())
    return ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS;
  return true;
}

} // namespace

extern "C" void ptensor_rt_gpu_sort(int64_t keyType, int64_t flags,
                                    int64_t rank, int64_t dim, intptr_t sizes,
                                    intptr_t input, int64_t inputOffset,
                                    intptr_t inputStrides, intptr_t values,
                                    int64_t valuesOffset,
                                    intptr_t valuesStrides, intptr_t indices,
                                    int64_t indicesOffset,
                                    intptr_t indexStrides) {
  // No object with a destructor is alive here: the jump skips this frame.
  SortArguments a;
  if (!decodeSortArguments("ptensor_rt_gpu_sort", keyType, flags, rank, dim,
                           sizes, input, inputOffset, inputStrides, values,
                           valuesOffset, valuesStrides, indices,
                           indicesOffset, indexStrides, a) ||
      !runGpuSort(a))
    leaveCompiledCode();
}
