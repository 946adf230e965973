//===- CudaDriver.h - Lazily loaded CUDA driver API ------------*- C++ -*-===//
///
/// \file
/// The CUDA driver library is dlopen'ed on first use and the functions below
/// are resolved with dlsym by their *exported* names. Where cuda.h #defines a
/// function to a versioned symbol (cuMemAlloc -> cuMemAlloc_v2, ...), the
/// versioned name is the one resolved; per-thread-default-stream variants
/// (_ptsz/_ptds) are not used.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_CUDADRIVER_H
#define PTENSOR_RUNTIME_LIB_CUDADRIVER_H

#include "CudaTypes.h"

#include <cstdint>
#include <string>

namespace ptensor::rt {

/// X(member, exported symbol, return type, parameter list): functions that
/// every supported driver (CUDA 12+) exports. Missing ones fail the load.
#define PTENSOR_RT_CUDA_REQUIRED_FUNCTIONS(X)                                  \
  X(Init, "cuInit", CUresult, (unsigned int))                                  \
  X(DriverGetVersion, "cuDriverGetVersion", CUresult, (int *))                 \
  X(GetErrorName, "cuGetErrorName", CUresult, (CUresult, const char **))       \
  X(GetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **))   \
  X(DeviceGet, "cuDeviceGet", CUresult, (CUdevice *, int))                     \
  X(DeviceGetCount, "cuDeviceGetCount", CUresult, (int *))                     \
  X(DeviceGetAttribute, "cuDeviceGetAttribute", CUresult,                      \
    (int *, CUdevice_attribute, CUdevice))                                     \
  X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult,              \
    (CUcontext *, CUdevice))                                                   \
  X(CtxGetCurrent, "cuCtxGetCurrent", CUresult, (CUcontext *))                 \
  X(CtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext))                   \
  X(CtxPushCurrent, "cuCtxPushCurrent_v2", CUresult, (CUcontext))              \
  X(CtxPopCurrent, "cuCtxPopCurrent_v2", CUresult, (CUcontext *))              \
  X(CtxSynchronize, "cuCtxSynchronize", CUresult, ())                          \
  X(ModuleLoadData, "cuModuleLoadData", CUresult, (CUmodule *, const void *))  \
  X(ModuleLoadDataEx, "cuModuleLoadDataEx", CUresult,                          \
    (CUmodule *, const void *, unsigned int, CUjit_option *, void **))         \
  X(ModuleUnload, "cuModuleUnload", CUresult, (CUmodule))                      \
  X(ModuleGetFunction, "cuModuleGetFunction", CUresult,                        \
    (CUfunction *, CUmodule, const char *))                                    \
  X(FuncSetAttribute, "cuFuncSetAttribute", CUresult,                          \
    (CUfunction, CUfunction_attribute, int))                                   \
  X(LaunchKernel, "cuLaunchKernel", CUresult,                                  \
    (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,       \
     unsigned int, unsigned int, unsigned int, CUstream, void **, void **))    \
  X(StreamCreate, "cuStreamCreate", CUresult, (CUstream *, unsigned int))      \
  X(StreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream))                 \
  X(StreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream))            \
  X(StreamWaitEvent, "cuStreamWaitEvent", CUresult,                            \
    (CUstream, CUevent, unsigned int))                                         \
  X(EventCreate, "cuEventCreate", CUresult, (CUevent *, unsigned int))         \
  X(EventDestroy, "cuEventDestroy_v2", CUresult, (CUevent))                    \
  X(EventSynchronize, "cuEventSynchronize", CUresult, (CUevent))               \
  X(EventRecord, "cuEventRecord", CUresult, (CUevent, CUstream))               \
  X(MemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t))              \
  X(MemAllocManaged, "cuMemAllocManaged", CUresult,                            \
    (CUdeviceptr *, size_t, unsigned int))                                     \
  X(MemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                          \
  X(MemGetInfo, "cuMemGetInfo_v2", CUresult, (size_t *, size_t *))            \
  X(MemcpyAsync, "cuMemcpyAsync", CUresult,                                    \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  X(Memcpy2DAsync, "cuMemcpy2DAsync_v2", CUresult,                             \
    (const CUDA_MEMCPY2D *, CUstream))                                         \
  X(MemsetD32Async, "cuMemsetD32Async", CUresult,                              \
    (CUdeviceptr, unsigned int, size_t, CUstream))                             \
  X(MemsetD16Async, "cuMemsetD16Async", CUresult,                              \
    (CUdeviceptr, unsigned short, size_t, CUstream))                           \
  X(MemHostRegister, "cuMemHostRegister_v2", CUresult,                         \
    (void *, size_t, unsigned int))                                            \
  X(MemHostUnregister, "cuMemHostUnregister", CUresult, (void *))

/// Functions that may be missing from older drivers; null if absent.
#define PTENSOR_RT_CUDA_OPTIONAL_FUNCTIONS(X)                                  \
  X(LaunchKernelEx, "cuLaunchKernelEx", CUresult,                              \
    (const CUlaunchConfig *, CUfunction, void **, void **))                    \
  X(FuncGetName, "cuFuncGetName", CUresult, (const char **, CUfunction))

/// Table of resolved driver entry points.
struct DriverApi {
#define PTENSOR_RT_DECLARE_MEMBER(member, symbol, ret, params)                 \
  ret(*member) params = nullptr;
  PTENSOR_RT_CUDA_REQUIRED_FUNCTIONS(PTENSOR_RT_DECLARE_MEMBER)
  PTENSOR_RT_CUDA_OPTIONAL_FUNCTIONS(PTENSOR_RT_DECLARE_MEMBER)
#undef PTENSOR_RT_DECLARE_MEMBER
  /// The path passed to dlopen.
  std::string libraryPath;
};

/// Name of the environment variable overriding the driver library path.
inline constexpr const char *kDriverLibraryEnv = "PTENSOR_CUDA_DRIVER_LIBRARY";

/// Returns the loaded and cuInit'ed driver, loading it on the first call
/// (thread-safe, once per process). On failure returns nullptr and records a
/// NoDriver error ("no CUDA driver found (dlopen X failed: ...)", a missing
/// symbol, or the cuInit failure); later calls fail the same way.
const DriverApi *driver();

/// "CUDA_ERROR_X (code): description" for `result`. Needs a loaded driver
/// for names; falls back to the numeric code.
std::string cudaErrorText(CUresult result);

/// Returns true if `result` is CUDA_SUCCESS; otherwise records
/// "<what> failed: <cudaErrorText>" (OutOfMemory kind for
/// CUDA_ERROR_OUT_OF_MEMORY, Cuda otherwise) and returns false.
bool checkCuda(CUresult result, const std::string &what);

/// Like checkCuda, but also accepts CUDA_ERROR_DEINITIALIZED: used on
/// release paths that may run at process exit after the driver shut down.
bool checkCudaRelease(CUresult result, const std::string &what);

/// Reinterprets a host-visible pointer as a CUdeviceptr and back.
inline CUdeviceptr toDevicePtr(const void *ptr) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}
inline void *fromDevicePtr(CUdeviceptr ptr) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_CUDADRIVER_H
