//===- CudaTypesFallback.h - Minimal CUDA driver API declarations ---------===//
///
/// \file
/// Used only when <cuda.h> is unavailable (see CudaTypes.h). Declares, with
/// the same names, values and layouts as the CUDA 12/13 driver API, only what
/// the runtime uses. Values are part of the driver's stable ABI.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_CUDATYPESFALLBACK_H
#define PTENSOR_RUNTIME_LIB_CUDATYPESFALLBACK_H

#include <cstddef>

extern "C" {

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

typedef struct CUarray_st *CUarray;

typedef enum CUmemorytype_enum {
  CU_MEMORYTYPE_DEVICE = 0x02,
} CUmemorytype;

/// cuMemcpy2DAsync_v2's description of a copy of rows between pitches.
typedef struct CUDA_MEMCPY2D_st {
  size_t srcXInBytes;
  size_t srcY;
  CUmemorytype srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  CUmemorytype dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
} CUDA_MEMCPY2D;

enum { CU_STREAM_NON_BLOCKING = 0x1 };
enum { CU_EVENT_DISABLE_TIMING = 0x2 };
enum { CU_MEM_ATTACH_GLOBAL = 0x1 };

typedef enum CUjit_option_enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
} CUjit_option;

typedef enum CUdevice_attribute_enum {
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
} CUdevice_attribute;

typedef enum CUfunction_attribute_enum {
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
} CUfunction_attribute;

typedef enum CUlaunchAttributeID_enum {
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
} CUlaunchAttributeID;

/// 64-byte union in the driver; only the cluster shape member is needed.
typedef union CUlaunchAttributeValue_union {
  char pad[64];
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
} CUlaunchConfig;

} // extern "C"

static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute ABI");
static_assert(sizeof(CUlaunchConfig) == 56, "CUlaunchConfig ABI");
static_assert(sizeof(CUDA_MEMCPY2D) == 128, "CUDA_MEMCPY2D ABI");

#endif // PTENSOR_RUNTIME_LIB_CUDATYPESFALLBACK_H
