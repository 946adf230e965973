/*===- Sort.h - sorting along a dim, for compiled code -------------*- C -*-===*\
|*                                                                            *|
|* Compiled code (the pass convert-ptensor-sort-to-library) calls these for   *|
|* ptensor.sort and ptensor.argsort: the lines of an input buffer along one   *|
|* dim are sorted into a values buffer and/or their sorted positions written  *|
|* to an i64 indices buffer. The order is docs/Semantics.md's "Sorting":      *|
|* ascending or descending, floats with -0.0 equal to 0.0 and every NaN       *|
|* after +inf (first when descending), stable (equal keys keep their order). *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_RUNTIME_SORT_H
#define PTENSOR_RUNTIME_SORT_H

#include "ptensor/Runtime/Status.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of the keys (the values are ABI). BOOL elements are bytes
/// (0 or 1).
typedef enum ptensor_rt_sort_type {
  PTENSOR_RT_SORT_BOOL = 0,
  PTENSOR_RT_SORT_I8 = 1,
  PTENSOR_RT_SORT_I16 = 2,
  PTENSOR_RT_SORT_I32 = 3,
  PTENSOR_RT_SORT_I64 = 4,
  PTENSOR_RT_SORT_U8 = 5,
  PTENSOR_RT_SORT_U16 = 6,
  PTENSOR_RT_SORT_U32 = 7,
  PTENSOR_RT_SORT_U64 = 8,
  PTENSOR_RT_SORT_F16 = 9,
  PTENSOR_RT_SORT_BF16 = 10,
  PTENSOR_RT_SORT_F32 = 11,
  PTENSOR_RT_SORT_F64 = 12,
} ptensor_rt_sort_type;

/// Bits of `flags`.
enum {
  PTENSOR_RT_SORT_DESCENDING = 1,
  PTENSOR_RT_SORT_STABLE = 2,
};

/// Sorts each line along dim `dim` of the rank-`rank` buffer of `keyType`
/// elements at `input` (aligned address) + `inputOffset` elements, with
/// `sizes[rank]` and `inputStrides[rank]` (elements, any sign), and writes
/// the sorted line to `values` (same type and sizes, its own offset and
/// strides) and/or, as i64 positions along the dim, to `indices`: element j
/// of an output line is the line's j-th element in sorted order, or its
/// position in the input line. An output whose address is 0 is not
/// written; an output may be the input itself (each line is read whole
/// before it is written). Host buffers. A failure (out of host memory)
/// leaves through the caller's trap (ptensor_rt_call_checked) like a failed
/// run-time check.
PTENSOR_RT_EXPORT void ptensor_rt_cpu_sort(
    int64_t keyType, int64_t flags, int64_t rank, int64_t dim, intptr_t sizes,
    intptr_t input, int64_t inputOffset, intptr_t inputStrides,
    intptr_t values, int64_t valuesOffset, intptr_t valuesStrides,
    intptr_t indices, int64_t indicesOffset, intptr_t indexStrides);

/// ptensor_rt_cpu_sort with the sort's `runs` hint: `runEndCount` int64
/// ends, `runEndStride` elements apart from `runEnds`, of runs that each
/// line (along `dim`) is made of, each sorted in the call's order (the
/// last end may be short of the line: a last run to its end). The ends are
/// checked (non-decreasing, within the line; otherwise the call fails like
/// a failed run-time check); where every run of a line is sorted (checked,
/// one pass over its keys), the runs are merged, else the line is sorted
/// whole: the result is ptensor_rt_cpu_sort's either way.
PTENSOR_RT_EXPORT void ptensor_rt_cpu_sort_runs(
    int64_t keyType, int64_t flags, int64_t rank, int64_t dim, intptr_t sizes,
    intptr_t input, int64_t inputOffset, intptr_t inputStrides,
    intptr_t values, int64_t valuesOffset, intptr_t valuesStrides,
    intptr_t indices, int64_t indicesOffset, intptr_t indexStrides,
    intptr_t runEnds, int64_t runEndStride, int64_t runEndCount);

/// The same for device buffers of the runtime's current device, on the
/// thread's compute stream (ptensor_rt_get_stream), like compiled kernels:
/// a gather kernel makes the keys (as the host sort does; with positions
/// for argsort), CUB sorts them (its radix sort for one line, its segmented
/// sort for many) and a scatter kernel writes the outputs (docs/Semantics.md
/// "Sorting and nonzero").
/// Needs libptensor_runtime_cuda.so (the runtime built with
/// -DPTENSOR_RUNTIME_CUDA_KERNELS=ON; loaded on the first call), ranks up
/// to 16 and at most 2^31 - 1 elements; otherwise, and on CUDA errors, the
/// call fails through the caller's trap with a message.
PTENSOR_RT_EXPORT void ptensor_rt_gpu_sort(
    int64_t keyType, int64_t flags, int64_t rank, int64_t dim, intptr_t sizes,
    intptr_t input, int64_t inputOffset, intptr_t inputStrides,
    intptr_t values, int64_t valuesOffset, intptr_t valuesStrides,
    intptr_t indices, int64_t indicesOffset, intptr_t indexStrides);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // PTENSOR_RUNTIME_SORT_H
