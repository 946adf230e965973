//===- FlagKernels.cuh - own count and select of flags ---------*- CUDA -*-===//
//
// The count and the select of compaction (CompactKernels.cu) for
// contiguous flags, written by hand because CUB's generic versions read
// the flags a byte per item: for nonzero of 2^26 flags, half true, on the
// H100 (stop 87), DeviceReduce::TransformReduce counted them in 40 us and
// countContiguous does in 32 (reading at copy speed: 24);
// DeviceSelect::Flagged wrote the positions in 185 us, selectAligned's
// three kernels in 139 + 29 (end to end nonzero_1d went from 270 to 231
// us; torch's, which calls CUB, 265). Its one pass (stop 89) takes 151-152
// us against the three kernels' 188-194 in bench/micro/select_flags.cu
// (scratch included); nonzero_1d end to end 190-197.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_CUDA_FLAGKERNELS_CUH
#define PTENSOR_RUNTIME_CUDA_FLAGKERNELS_CUH

#include "CubSupport.cuh"

#include <cuda_runtime.h>

#include <cstdint>

namespace ptensor::rt::gpu {

/// Counts the nonzero bytes of the `n` contiguous `flags` (any alignment)
/// into `*count` (device memory), on `stream`. Returns 0, or 1 with a
/// message in `error`.
int countContiguous(const uint8_t *flags, int64_t n, int64_t *count,
                    cudaStream_t stream, char *error, size_t errorSize);

/// Writes the positions of the nonzero bytes of the `n` contiguous,
/// 16-byte aligned `flags` to `positions`, in order, on `stream`; scratch
/// from `s`. `maxBlocks` > 0 caps the grid (bench/micro/select_flags.cu's
/// checks: each warp then takes many chunks). Returns 0, or 1 with a
/// message in `error`.
int selectAligned(Scratch &s, const uint8_t *flags, int64_t n,
                  int64_t *positions, cudaStream_t stream, char *error,
                  size_t errorSize, int maxBlocks = 0);

} // namespace ptensor::rt::gpu

#endif // PTENSOR_RUNTIME_CUDA_FLAGKERNELS_CUH
