//===- CudaKernels.h - loading libptensor_runtime_cuda ----------*- C++ -*-===//
///
/// \file
/// libptensor_runtime_cuda.so holds the CUB code (the GPU sort,
/// SortKernels.h; the GPU count/select/scatter steps, CompactKernels.h),
/// compiled by nvcc when the runtime is built with
/// -DPTENSOR_RUNTIME_CUDA_KERNELS=ON. libptensor_runtime loads it with
/// dlopen on first use — from its own directory, or the file named by
/// PTENSOR_RUNTIME_CUDA_LIBRARY — so it keeps no link-time CUDA dependency
/// and builds without the toolkit. Its calls take scratch memory from the
/// caching allocator in stream order through the functions below.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_CUDAKERNELS_H
#define PTENSOR_RUNTIME_LIB_CUDAKERNELS_H

#include <stddef.h>

#include <functional>
#include <string>

namespace ptensor::rt {

/// The address of `symbol` in libptensor_runtime_cuda.so (loaded once), or
/// null with the reason in `why`, which names `purpose` ("GPU sort", ...).
void *cudaKernelsSymbol(const char *symbol, const char *purpose,
                        std::string &why);

/// The device and stream of a call's scratch.
struct ScratchContext {
  int device;
  void *stream;
};

/// Device memory of `bytes` for a call with the ScratchContext `context`,
/// in stream order from the caching allocator; null when out of memory
/// (the error is recorded).
void *allocateScratch(void *context, size_t bytes);

/// Returns scratch from allocateScratch, in stream order.
void releaseScratch(void *context, void *ptr);

/// The part of a call of the library every entry point shares: its
/// stream and scratch allocator, set by runCudaKernels.
struct CudaKernelsCall {
  void *stream; ///< the thread's compute stream (a CUstream)
  /// Device memory in stream order from the caching allocator: null when
  /// out of memory (the runtime has recorded the error).
  void *(*allocate)(void *context, size_t bytes);
  void (*release)(void *context, void *ptr);
  void *allocatorContext;
};

/// Sets `shared` to the thread's compute stream of the default device and
/// the caching allocator, and runs `entry(error, errorSize)`, a call of
/// the library (0 on success, else a message in `error`); false with the
/// error recorded (out of memory as such; the message after `prefix`).
bool runCudaKernels(CudaKernelsCall &shared, const char *prefix,
                    const std::function<int(char *error, size_t errorSize)> &entry);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_CUDAKERNELS_H
