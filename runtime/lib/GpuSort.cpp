//===- GpuSort.cpp - GPU sort along a dim through CUB ----------------------===//
//
// ptensor_rt_gpu_sort (Sort.h). The CUB code is in libptensor_runtime_cuda
// (cuda/SortKernels.cu; loaded on the first GPU sort: CudaKernels.h). It
// runs on the thread's compute stream with scratch from the caching
// allocator.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Sort.h"

#include "CudaKernels.h"
#include "DeviceContext.h"
#include "Errors.h"
#include "SortArguments.h"
#include "SortKernels.h"

#include <string>

using namespace ptensor::rt;

namespace {

bool runGpuSort(const SortArguments &a) {
  if (a.rank > kMaxSortRank)
    return setErrorf(ErrorKind::Unsupported,
                     "ptensor_rt_gpu_sort: a rank-%lld buffer (the GPU sort "
                     "takes ranks 1 to %d)",
                     static_cast<long long>(a.rank), kMaxSortRank);
  std::string why;
  auto fn = reinterpret_cast<GpuSortFn>(
      cudaKernelsSymbol(kGpuSortSymbol, "GPU sort", why));
  if (!fn)
    return setError(ErrorKind::Unsupported, why);
  GpuSortCall call{};
  call.format = a.format;
  call.descending = a.descending;
  call.rank = static_cast<int32_t>(a.rank);
  call.dim = static_cast<int32_t>(a.dim);
  for (int64_t d = 0; d < a.rank; ++d) {
    call.sizes[d] = a.sizes[d];
    call.inputStrides[d] = a.inputStrides[d];
    call.valueStrides[d] = a.values ? a.valueStrides[d] : 0;
    call.indexStrides[d] = a.indices ? a.indexStrides[d] : 0;
  }
  call.input = a.input;
  call.values = a.values;
  call.indices = a.indices;
  return runCudaKernels(call.shared, "", [&](char *error, size_t size) {
    return fn(&call, error, size);
  });
}

} // namespace

extern "C" void ptensor_rt_gpu_sort(int64_t keyType, int64_t flags,
                                    int64_t rank, int64_t dim, intptr_t sizes,
                                    intptr_t input, int64_t inputOffset,
                                    intptr_t inputStrides, intptr_t values,
                                    int64_t valuesOffset,
                                    intptr_t valuesStrides, intptr_t indices,
                                    int64_t indicesOffset,
                                    intptr_t indexStrides) {
  // No object with a destructor is alive here: the jump skips this frame.
  SortArguments a;
  if (!decodeSortArguments("ptensor_rt_gpu_sort", keyType, flags, rank, dim,
                           sizes, input, inputOffset, inputStrides, values,
                           valuesOffset, valuesStrides, indices,
                           indicesOffset, indexStrides, a) ||
      !runGpuSort(a))
    leaveCompiledCode();
}
