//===- CudaTypes.h - CUDA driver API types, with a fallback ---------------===//
///
/// \file
/// Provides the CUDA driver API *types* the runtime uses. The functions are
/// never called by name: they are resolved with dlsym (see CudaDriver.h), so
/// the library does not link against libcuda.
///
/// Uses the toolkit's <cuda.h> when it is on the include path (CUDA 11.8 or
/// newer) and PTENSOR_RT_NO_CUDA_H is not defined; otherwise falls back to
/// CudaTypesFallback.h, which declares the handful of opaque types, enum
/// values and launch-config structs needed, with the driver's ABI.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_CUDATYPES_H
#define PTENSOR_RUNTIME_LIB_CUDATYPES_H

#if !defined(PTENSOR_RT_NO_CUDA_H) && defined(__has_include)
#if __has_include(<cuda.h>)
#include <cuda.h>
#if CUDA_VERSION < 11080
#error "cuda.h is older than CUDA 11.8 (no cuLaunchKernelEx); configure with -DPTENSOR_RUNTIME_USE_CUDA_HEADER=OFF to use the built-in declarations"
#endif
#define PTENSOR_RT_HAVE_CUDA_H 1
#endif
#endif

#ifndef PTENSOR_RT_HAVE_CUDA_H
#include "CudaTypesFallback.h"
#endif

#endif // PTENSOR_RUNTIME_LIB_CUDATYPES_H
