//===- CompactKernels.h - the CUDA compaction steps' entry point -*- C++ -*-===//
///
/// \file
/// The interface between libptensor_runtime (GpuCompact.cpp) and
/// libptensor_runtime_cuda (cuda/CompactKernels.cu, CUB): one entry point
/// for the three steps of Compact.h. Internal: both come from one build.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_COMPACTKERNELS_H
#define PTENSOR_RUNTIME_LIB_COMPACTKERNELS_H

#include "CudaKernels.h"

#include <stddef.h>
#include <stdint.h>

namespace ptensor::rt {

/// Which step a GpuCompactCall is.
enum class CompactStep : int32_t { CountTrue, SelectTrue, ScatterRuns };

/// One step on device buffers of the current context (Compact.h).
struct GpuCompactCall {
  CompactStep step;
  int64_t n;
  const uint8_t *flags;         ///< flags (count, select) or starts
  int64_t flagsStride;          ///< in elements
  const int64_t *permutation;   ///< scatter_runs
  int64_t permutationStride;    ///< in elements
  int64_t *output;              ///< positions (select) or inverse (scatter)
  int64_t count;                ///< count_true's result (written)
  CudaKernelsCall shared; ///< stream and scratch (runCudaKernels)
};

/// The entry point's name and type (extern "C" in the library).
inline constexpr const char *kGpuCompactSymbol = "ptensor_cuda_compact";
/// Returns 0 on success, else writes a message into `error` (of
/// `errorSize` bytes) and returns 1.
using GpuCompactFn = int (*)(GpuCompactCall *call, char *error,
                             size_t errorSize);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_COMPACTKERNELS_H
