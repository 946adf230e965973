/*===- Compact.h - count, select and scatter steps for compiled code -*- C -*-===*\
|*                                                                            *|
|* Compiled code (the pass convert-ptensor-sort-to-library) calls these for   *|
|* the ops whose result size is a count of flags — nonzero, extract_mask,     *|
|* unique: the flags are counted, the results allocated with the count, and   *|
|* the positions of the true flags written (docs/Semantics.md "Sorting and    *|
|* nonzero", "Set functions"). All buffers are 1-D, given by the address of  *|
|* their first element: `flags` and `starts` of n bytes (0 or 1) and the     *|
|* `permutation` (int64_t) with a stride in elements (any sign), the outputs *|
|* (int64_t) contiguous.                                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_RUNTIME_COMPACT_H
#define PTENSOR_RUNTIME_COMPACT_H

#include "ptensor/Runtime/Status.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The number of non-zero bytes among the n at `flags` (host buffers).
PTENSOR_RT_EXPORT int64_t ptensor_rt_cpu_count_true(intptr_t flags,
                                                    int64_t flagsStride,
                                                    int64_t n);

/// Writes the positions of the non-zero bytes among the n at `flags`, in
/// ascending order, to `positions` (as many as ptensor_rt_cpu_count_true
/// gives).
PTENSOR_RT_EXPORT void ptensor_rt_cpu_select_true(intptr_t flags,
                                                  int64_t flagsStride,
                                                  int64_t n,
                                                  intptr_t positions);

/// For a sorted line of n elements whose runs of equal elements start where
/// `starts` is non-zero, and the `permutation` that sorted it, writes
/// inverse[permutation[i]] = (number of non-zero starts[0..i]) - 1.
PTENSOR_RT_EXPORT void ptensor_rt_cpu_scatter_runs(
    intptr_t starts, int64_t startsStride, intptr_t permutation,
    int64_t permutationStride, int64_t n, intptr_t inverse);

/// The same three for device buffers of the runtime's current device, on
/// the thread's compute stream, through CUB (DeviceReduce, DeviceSelect,
/// DeviceScan) in libptensor_runtime_cuda.so (loaded on the first call,
/// like the GPU sort's). The count is copied to the host (the call waits
/// for the stream). A failure (no library, a CUDA error, out of device
/// memory) leaves through the caller's trap with a message.
PTENSOR_RT_EXPORT int64_t ptensor_rt_gpu_count_true(intptr_t flags,
                                                    int64_t flagsStride,
                                                    int64_t n);
PTENSOR_RT_EXPORT void ptensor_rt_gpu_select_true(intptr_t flags,
                                                  int64_t flagsStride,
                                                  int64_t n,
                                                  intptr_t positions);
PTENSOR_RT_EXPORT void ptensor_rt_gpu_scatter_runs(
    intptr_t starts, int64_t startsStride, intptr_t permutation,
    int64_t permutationStride, int64_t n, intptr_t inverse);

#ifdef __cplusplus
}
#endif

#endif // PTENSOR_RUNTIME_COMPACT_H
