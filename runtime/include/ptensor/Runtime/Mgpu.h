//===- Mgpu.h - MLIR GPU host runtime of libptensor_runtime -------*- C -*-===//
///
/// \file
/// The `mgpu*` entry points of libptensor_runtime (and the compute stream
/// they run on), apart from PTensorRuntime.h so that code that needs only
/// them (libptensor_team's GPU collectives, TeamDevice.cpp) includes no
/// DLPack. PTensorRuntime.h includes this header; its top comment says how
/// errors leave these functions.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_MGPU_H
#define PTENSOR_RUNTIME_MGPU_H

#include "ptensor/Runtime/Status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// MLIR GPU host runtime (`mgpu*`): signatures of MLIR 22's GPU-to-LLVM host
// lowering. Handles are CUDA driver handles passed as void*: modules are
// CUmodule, functions CUfunction, streams CUstream, events CUevent. All of
// them act on the calling thread's default device (primary context); an
// error leaves through the caller's trap, or aborts the process when there
// is none (see the top of this file).
//===----------------------------------------------------------------------===//

/// Loads a cubin/fatbin blob of `gpuBlobSize` bytes. Loading the same blob
/// (same address, size and contents) again returns the cached module and
/// bumps its reference count.
PTENSOR_RT_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize);

/// Loads a NUL-terminated PTX string, JIT-compiled by the driver at
/// `optLevel` (0-4). Cached like mgpuModuleLoad. On failure the JIT error
/// log is printed.
PTENSOR_RT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);

/// Drops one reference to `module`; the last one unloads it (making its
/// context current first). NULL is a no-op; errors caused by the driver
/// having already shut down at process exit are ignored.
PTENSOR_RT_EXPORT void mgpuModuleUnload(void *module);

/// Returns the kernel `name` of `module`.
PTENSOR_RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);

/// Launches `function` on `stream`. Dimensions must be in [1, 2^32-1] and
/// `smem` (dynamic shared memory bytes) non-negative; more than 48 KiB is
/// opted in up to the device maximum. `paramsCount` is informational.
PTENSOR_RT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                        intptr_t gridY, intptr_t gridZ,
                                        intptr_t blockX, intptr_t blockY,
                                        intptr_t blockZ, int32_t smem,
                                        void *stream, void **params,
                                        void **extra, size_t paramsCount);

/// Like mgpuLaunchKernel with a thread-block cluster shape (sm_90+), through
/// cuLaunchKernelEx. MLIR 22 passes no `paramsCount` here; it is unused.
PTENSOR_RT_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t paramsCount);

/// Sets the stream compiled code runs on in the calling thread (a CUstream,
/// e.g. torch.cuda.current_stream().cuda_stream; NULL = the legacy default
/// stream, the initial value).
PTENSOR_RT_EXPORT void ptensor_rt_set_stream(void *stream);
/// The calling thread's compute stream.
PTENSOR_RT_EXPORT void *ptensor_rt_get_stream(void);
/// Blocks until the calling thread's compute stream is idle; reports a
/// failed kernel here when launches are stream-ordered.
PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_synchronize(void);

/// Returns the thread's compute stream (no new stream, no blocking) unless
/// PTENSOR_SYNC_LAUNCHES=1, in which case it creates a non-blocking stream.
PTENSOR_RT_EXPORT void *mgpuStreamCreate(void);

/// Synchronizes and destroys `stream`; its cached allocator blocks become
/// reusable by any stream.
PTENSOR_RT_EXPORT void mgpuStreamDestroy(void *stream);

/// Blocks until all work queued on `stream` is done.
PTENSOR_RT_EXPORT void mgpuStreamSynchronize(void *stream);

/// Makes future work on `stream` wait for `event`.
PTENSOR_RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);

/// Creates an event without timing.
PTENSOR_RT_EXPORT void *mgpuEventCreate(void);

/// Destroys `event`.
PTENSOR_RT_EXPORT void mgpuEventDestroy(void *event);

/// Blocks until `event` completes.
PTENSOR_RT_EXPORT void mgpuEventSynchronize(void *event);

/// Records `event` on `stream`.
PTENSOR_RT_EXPORT void mgpuEventRecord(void *event, void *stream);

/// Allocates `sizeBytes` on the default device through the caching allocator,
/// or managed memory (not cached) if `isHostShared`. Returns NULL for 0 bytes.
PTENSOR_RT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                     bool isHostShared);

/// Frees memory from mgpuMemAlloc, stream-ordered on `stream`. NULL is a
/// no-op; a pointer this runtime did not allocate is an error (the caller's
/// trap, or an abort).
PTENSOR_RT_EXPORT void mgpuMemFree(void *ptr, void *stream);

/// Copies `sizeBytes` from `src` to `dst` (any direction, unified
/// addressing) asynchronously on `stream`.
PTENSOR_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                  void *stream);

/// Copies `rows` runs of `widthBytes` bytes of device memory from `src`,
/// one every `srcPitch` bytes, to `dst`, one every `dstPitch` bytes,
/// asynchronously on `stream` (cuMemcpy2DAsync: the device's strided copy,
/// e.g. columns placed in rows).
PTENSOR_RT_EXPORT void ptensor_rt_gpu_copy_rows(void *dst, size_t dstPitch,
                                               const void *src,
                                               size_t srcPitch,
                                               size_t widthBytes, size_t rows,
                                               void *stream);

/// Sets `count` 32-bit words at `dst` to `value` on `stream`.
PTENSOR_RT_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                    void *stream);

/// Sets `count` 16-bit words at `dst` to `value` on `stream`.
PTENSOR_RT_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                    size_t count, void *stream);

/// Page-locks (registers) `sizeBytes` of host memory at `ptr`.
PTENSOR_RT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);

/// Unregisters host memory registered with mgpuMemHostRegister.
PTENSOR_RT_EXPORT void mgpuMemHostUnregister(void *ptr);

/// Registers the host memory spanned by a ranked memref. `descriptor` points
/// to MLIR's strided memref struct {T *allocated; T *aligned; int64_t offset;
/// int64_t sizes[rank]; int64_t strides[rank]}. Strides must be
/// non-negative; empty memrefs are a no-op.
PTENSOR_RT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                 int64_t elementSizeBytes);

/// Unregisters a memref registered with mgpuMemHostRegisterMemRef.
PTENSOR_RT_EXPORT void
mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes);

/// Sets the calling thread's default device ordinal for the mgpu* functions
/// (validated on the next call that uses it).
PTENSOR_RT_EXPORT void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // PTENSOR_RUNTIME_MGPU_H
