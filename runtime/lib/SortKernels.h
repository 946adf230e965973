//===- SortKernels.h - the CUDA sort library's entry point ------*- C++ -*-===//
///
/// \file
/// The interface between libptensor_runtime (GpuSort.cpp, which loads the
/// library with dlopen) and libptensor_runtime_cuda (cuda/SortKernels.cu,
/// built with nvcc around CUB). Internal: both come from one build.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_SORTKERNELS_H
#define PTENSOR_RUNTIME_LIB_SORTKERNELS_H

#include "CudaKernels.h"
#include "SortKeys.h"

#include <stddef.h>
#include <stdint.h>

namespace ptensor::rt {

/// The most dims a GPU sort takes (the kernels' parameter block).
constexpr int kMaxSortRank = 16;

/// One GPU sort (ptensor_rt_gpu_sort's arguments, checked): device buffers
/// of the current context, strides in elements.
struct GpuSortCall {
  SortFormat format;
  bool descending;
  int32_t rank, dim;
  int64_t sizes[kMaxSortRank];
  int64_t inputStrides[kMaxSortRank];
  int64_t valueStrides[kMaxSortRank];
  int64_t indexStrides[kMaxSortRank];
  const void *input; ///< element (0, ..., 0)
  void *values;      ///< element (0, ..., 0), or null: not written
  int64_t *indices;  ///< element (0, ..., 0), or null: not written
  CudaKernelsCall shared; ///< stream and scratch (runCudaKernels)
};

/// The entry point's name and type (extern "C" in the library).
inline constexpr const char *kGpuSortSymbol = "ptensor_cuda_sort";
/// Returns 0 on success, else writes a message into `error` (of
/// `errorSize` bytes) and returns 1.
using GpuSortFn = int (*)(const GpuSortCall *call, char *error,
                          size_t errorSize);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_SORTKERNELS_H
