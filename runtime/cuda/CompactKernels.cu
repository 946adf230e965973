//===- CompactKernels.cu - GPU count, select and scatter, around CUB ------===//
//
// libptensor_runtime_cuda: ptensor_cuda_compact (CompactKernels.h), called
// by libptensor_runtime's ptensor_rt_gpu_count_true, _select_true and
// _scatter_runs, on the caller's stream:
//  - count_true: the number of nonzero flag bytes into scratch, copied to
//    the host (the call waits for the stream): contiguous flags by
//    FlagKernels.cu's countContiguous, strided ones by CUB's
//    DeviceReduce::TransformReduce of the flags as int64;
//  - select_true: the positions of the true flags: contiguous, 16-byte
//    aligned flags by FlagKernels.cu's selectAligned, others by CUB's
//    DeviceSelect::Flagged of the positions 0, 1, ... (a counting
//    iterator);
//  - scatter_runs: DeviceScan::InclusiveSum of the starts as int64 (the
//    run number + 1 of each sorted position) into scratch, and a kernel
//    storing run - 1 at each position's permutation entry.
// Scratch comes from the runtime's caching allocator, released in stream
// order.
//
//===----------------------------------------------------------------------===//

#include "CompactKernels.h"
#include "CubSupport.cuh"
#include "FlagKernels.cuh"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>

using namespace ptensor::rt;
using namespace ptensor::rt::gpu;

namespace {

/// A flag byte as an int64 count (0 or 1).
struct FlagToInt64 {
  __host__ __device__ int64_t operator()(uint8_t flag) const {
    return flag != 0;
  }
};

struct Plus {
  __host__ __device__ int64_t operator()(int64_t a, int64_t b) const {
    return a + b;
  }
};

/// Element i of a strided buffer: base[i * stride].
struct Scaled {
  int64_t stride;
  __host__ __device__ int64_t operator()(int64_t i) const {
    return i * stride;
  }
};

/// Calls `f(flags)` with the call's flags as a pointer when contiguous, or
/// as an iterator over the strided bytes.
template <typename F> int withFlags(const GpuCompactCall &c, F f) {
  if (c.flagsStride == 1)
    return f(c.flags);
  auto offsets = thrust::make_transform_iterator(
      thrust::counting_iterator<int64_t>(0), Scaled{c.flagsStride});
  return f(thrust::make_permutation_iterator(c.flags, offsets));
}

__global__ void scatterRuns(const int64_t *runs, const int64_t *permutation,
                            int64_t permutationStride, int64_t *inverse,
                            int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    inverse[permutation[i * permutationStride]] = runs[i] - 1;
}

int countTrue(GpuCompactCall &c, cudaStream_t stream, char *error,
              size_t errorSize) {
  Scratch s(c.shared);
  int64_t *count = s.get<int64_t>(1);
  if (!count)
    return outOfMemoryFor(error, errorSize, "the count");
  int failed = c.flagsStride == 1
                   ? countContiguous(c.flags, c.n, count, stream, error,
                                     errorSize)
                   : withFlags(c, [&](auto flags) {
    auto run = [&](void *temp, size_t &bytes) {
      return cub::DeviceReduce::TransformReduce(temp, bytes, flags, count,
                                                c.n, Plus{}, FlagToInt64{},
                                                int64_t(0), stream);
    };
    return runCub(s, "CUB's DeviceReduce::TransformReduce", run, error,
                  errorSize);
  });
  if (failed)
    return 1;
  if (cudaError_t status = cudaMemcpyAsync(&c.count, count, sizeof(int64_t),
                                           cudaMemcpyDeviceToHost, stream))
    return fail(error, errorSize, "copying the count to the host", status);
  if (cudaError_t status = cudaStreamSynchronize(stream))
    return fail(error, errorSize, "waiting for the count", status);
  return 0;
}

int selectTrue(GpuCompactCall &c, cudaStream_t stream, char *error,
               size_t errorSize) {
  Scratch s(c.shared);
  if (c.flagsStride == 1 && reinterpret_cast<uintptr_t>(c.flags) % 16 == 0)
    return selectAligned(s, c.flags, c.n, c.output, stream, error, errorSize);
  int64_t *selected = s.get<int64_t>(1);
  if (!selected)
    return outOfMemoryFor(error, errorSize, "the number selected");
  thrust::counting_iterator<int64_t> positions(0);
  return withFlags(c, [&](auto flags) {
    auto run = [&](void *temp, size_t &bytes) {
      return cub::DeviceSelect::Flagged(temp, bytes, positions, flags,
                                        c.output, selected, c.n, stream);
    };
    return runCub(s, "CUB's DeviceSelect::Flagged", run, error, errorSize);
  });
}

int scatterRunNumbers(GpuCompactCall &c, cudaStream_t stream, char *error,
                      size_t errorSize) {
  Scratch s(c.shared);
  int64_t *runs = s.get<int64_t>(size_t(c.n));
  if (!runs)
    return outOfMemoryFor(error, errorSize, "the run numbers");
  int failed = withFlags(c, [&](auto flags) {
    auto starts = thrust::make_transform_iterator(flags, FlagToInt64{});
    auto run = [&](void *temp, size_t &bytes) {
      return cub::DeviceScan::InclusiveSum(temp, bytes, starts, runs, c.n,
                                           stream);
    };
    return runCub(s, "CUB's DeviceScan::InclusiveSum", run, error, errorSize);
  });
  if (failed)
    return 1;
  int64_t blocks = (c.n + 255) / 256;
  scatterRuns<<<unsigned(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(
      runs, c.permutation, c.permutationStride, c.output, c.n);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the scatter kernel", status);
  return 0;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
ptensor_cuda_compact(GpuCompactCall *call, char *error, size_t errorSize) {
  GpuCompactCall &c = *call;
  auto stream = static_cast<cudaStream_t>(c.shared.stream);
  switch (c.step) {
  case CompactStep::CountTrue:
    return countTrue(c, stream, error, errorSize);
  case CompactStep::SelectTrue:
    return selectTrue(c, stream, error, errorSize);
  case CompactStep::ScatterRuns:
    return scatterRunNumbers(c, stream, error, errorSize);
  }
  std::snprintf(error, errorSize, "unknown compaction step %d",
                static_cast<int>(c.step));
  return 1;
}
