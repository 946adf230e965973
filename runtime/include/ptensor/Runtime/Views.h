/*===- Views.h - strides of views that compiled code computes -----*- C -*-===*\
|*                                                                            *|
|* Host functions that compiled code calls to decide a view at run time.     *|
|* Pure functions of the metadata they are given: no device, no allocation.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_RUNTIME_VIEWS_H
#define PTENSOR_RUNTIME_VIEWS_H

#include "ptensor/Runtime/Status.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether a tensor of `sourceSizes` and `sourceStrides` (both of
/// `sourceRank` entries, strides in elements) can be read in row-major
/// order as a tensor of `targetSizes` (`targetRank` entries, the same
/// element count) without a copy: a view. When it can, `targetStrides`
/// receives the view's strides and the result is true; otherwise false and
/// nothing is written. Dims of the source that merge into one target dim
/// must be contiguous among themselves (any stride for the group), size-1
/// dims may have any stride, and an empty tensor is always viewable
/// (numpy's `_attempt_nocopy_reshape`, PyTorch's `computeStride`). Each
/// array is a `memref<?xi64>` in MLIR's default calling convention
/// (allocated and aligned pointers, offset, size, stride).
PTENSOR_RT_EXPORT bool ptensor_rt_reshape_strides(
    const int64_t *sourceSizesAllocated, const int64_t *sourceSizes,
    int64_t sourceSizesOffset, int64_t sourceRank, int64_t sourceSizesStride,
    const int64_t *sourceStridesAllocated, const int64_t *sourceStrides,
    int64_t sourceStridesOffset, int64_t sourceStridesSize,
    int64_t sourceStridesStride, const int64_t *targetSizesAllocated,
    const int64_t *targetSizes, int64_t targetSizesOffset, int64_t targetRank,
    int64_t targetSizesStride, int64_t *targetStridesAllocated,
    int64_t *targetStrides, int64_t targetStridesOffset,
    int64_t targetStridesSize, int64_t targetStridesStride);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // PTENSOR_RUNTIME_VIEWS_H
