//===- GpuCompact.cpp - GPU count, select and scatter steps through CUB ---===//
//
// ptensor_rt_gpu_count_true, _select_true, _scatter_runs (Compact.h). The
// CUB code is in libptensor_runtime_cuda (cuda/CompactKernels.cu; loaded on
// first use: CudaKernels.h). Each runs on the thread's compute stream with
// scratch from the caching allocator; count_true waits for its result.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Compact.h"

#include "CompactKernels.h"
#include "CudaKernels.h"
#include "DeviceContext.h"
#include "Errors.h"

#include <string>

using namespace ptensor::rt;

namespace {

/// Runs `call` (its step and buffers set); false with the error recorded.
bool runGpuCompact(GpuCompactCall &call, const char *what) {
  std::string why;
  auto fn = reinterpret_cast<GpuCompactFn>(cudaKernelsSymbol(
      kGpuCompactSymbol, "GPU compaction (nonzero, extract_mask, unique)",
      why));
  if (!fn)
    return setError(ErrorKind::Unsupported, why);
  std::string prefix = std::string(what) + ": ";
  return runCudaKernels(call.shared, prefix.c_str(),
                        [&](char *error, size_t size) {
                          return fn(&call, error, size);
                        });
}

} // namespace

// No object with a destructor is alive in these frames when
// leaveCompiledCode jumps over them.

extern "C" int64_t ptensor_rt_gpu_count_true(intptr_t flags,
                                              int64_t flagsStride, int64_t n) {
  if (n <= 0)
    return 0;
  GpuCompactCall call{};
  call.step = CompactStep::CountTrue;
  call.n = n;
  call.flags = reinterpret_cast<const uint8_t *>(flags);
  call.flagsStride = flagsStride;
  if (!runGpuCompact(call, "ptensor_rt_gpu_count_true"))
    leaveCompiledCode();
  return call.count;
}

extern "C" void ptensor_rt_gpu_select_true(intptr_t flags,
                                           int64_t flagsStride, int64_t n,
                                           intptr_t positions) {
  if (n <= 0)
    return;
  GpuCompactCall call{};
  call.step = CompactStep::SelectTrue;
  call.n = n;
  call.flags = reinterpret_cast<const uint8_t *>(flags);
  call.flagsStride = flagsStride;
  call.output = reinterpret_cast<int64_t *>(positions);
  if (!runGpuCompact(call, "ptensor_rt_gpu_select_true"))
    leaveCompiledCode();
}

extern "C" void ptensor_rt_gpu_scatter_runs(intptr_t starts,
                                            int64_t startsStride,
                                            intptr_t permutation,
                                            int64_t permutationStride,
                                            int64_t n, intptr_t inverse) {
  if (n <= 0)
    return;
  GpuCompactCall call{};
  call.step = CompactStep::ScatterRuns;
  call.n = n;
  call.flags = reinterpret_cast<const uint8_t *>(starts);
  call.flagsStride = startsStride;
  call.permutation = reinterpret_cast<const int64_t *>(permutation);
  call.permutationStride = permutationStride;
  call.output = reinterpret_cast<int64_t *>(inverse);
  if (!runGpuCompact(call, "ptensor_rt_gpu_scatter_runs"))
    leaveCompiledCode();
}
