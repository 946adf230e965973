//===- CudaKernels.cpp - loading libptensor_runtime_cuda ------------------===//

#include "CudaKernels.h"

#include "DeviceAllocator.h"
#include "DeviceContext.h"
#include "Errors.h"
#include "SiblingLibrary.h"

#include <cstdlib>
#include <mutex>

#include <dlfcn.h>

using namespace ptensor::rt;

namespace {

/// The library's handle, loaded once; null with dlerror's text in `error`.
void *loadLibrary(std::string &error) {
  static std::once_flag once;
  static void *handle = nullptr;
  static std::string reason;
  std::call_once(once, [] {
    handle = openSiblingLibrary("libptensor_runtime_cuda.so",
                                "PTENSOR_RUNTIME_CUDA_LIBRARY", reason);
  });
  error = reason;
  return handle;
}

} // namespace

void *ptensor::rt::cudaKernelsSymbol(const char *symbol, const char *purpose,
                                     std::string &why) {
  std::string error;
  void *handle = loadLibrary(error);
  if (!handle) {
    why = std::string("the ") + purpose +
          " needs libptensor_runtime_cuda.so (the runtime built with "
          "-DPTENSOR_RUNTIME_CUDA_KERNELS=ON and the CUDA toolkit), which "
          "did not load: " +
          error;
    return nullptr;
  }
  void *address = dlsym(handle, symbol);
  if (!address)
    why = std::string("libptensor_runtime_cuda.so has no ") + symbol +
          " (built from other sources than this runtime)";
  return address;
}

void *ptensor::rt::allocateScratch(void *context, size_t bytes) {
  auto *c = static_cast<ScratchContext *>(context);
  void *p = nullptr;
  return deviceAllocate(c->device, bytes, c->stream, &p) ? p : nullptr;
}

void ptensor::rt::releaseScratch(void *context, void *ptr) {
  deviceFree(ptr, static_cast<ScratchContext *>(context)->stream);
}

bool ptensor::rt::runCudaKernels(
    CudaKernelsCall &shared, const char *prefix,
    const std::function<int(char *, size_t)> &entry) {
  ScratchContext context{defaultDevice(), ptensor_rt_get_stream()};
  ScopedContext scope(context.device);
  if (!scope.ok())
    return false;
  shared.stream = context.stream;
  shared.allocate = allocateScratch;
  shared.release = releaseScratch;
  shared.allocatorContext = &context;
  char error[512];
  // The allocator records an out-of-memory error; nothing older may count.
  clearError();
  if (entry(error, sizeof error))
    return setErrorf(lastErrorKind() == ErrorKind::OutOfMemory
                         ? ErrorKind::OutOfMemory
                         : ErrorKind::Cuda,
                     "%s%s", prefix, error);
  if (syncLaunches())
    return ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS;
  return true;
}
