//===- Views.cpp - strides of a reshape that can be a view ----------------===//

#include "ptensor/Runtime/Views.h"

#include <vector>

namespace {

/// The strides of `target` viewing `sizes`/`strides` in row-major order,
/// or false. Walks the source from its last dim, collecting chunks of dims
/// that are contiguous among themselves; the target dims that cover a chunk
/// exactly get strides inside it (PyTorch's computeStride_impl).
bool viewStrides(const std::vector<int64_t> &sizes,
                 const std::vector<int64_t> &strides,
                 const std::vector<int64_t> &target,
                 std::vector<int64_t> &result) {
  auto rank = static_cast<int64_t>(sizes.size());
  auto targetRank = static_cast<int64_t>(target.size());
  result.assign(targetRank, 0);
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  if (count == 0 || rank == 0) {
    // Any strides read an empty tensor (or the one element of a 0-d one):
    // row-major ones.
    int64_t stride = 1;
    for (int64_t d = targetRank - 1; d >= 0; --d) {
      result[d] = stride;
      stride *= target[d] > 0 ? target[d] : 1;
    }
    return true;
  }
  int64_t viewDim = targetRank - 1;
  int64_t chunkBaseStride = strides[rank - 1];
  int64_t chunkCount = 1, viewCount = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    chunkCount *= sizes[d];
    bool chunkEnds = d == 0 || (sizes[d - 1] != 1 &&
                                strides[d - 1] != chunkCount * chunkBaseStride);
    if (!chunkEnds)
      continue;
    while (viewDim >= 0 && (viewCount < chunkCount || target[viewDim] == 1)) {
      result[viewDim] = viewCount * chunkBaseStride;
      viewCount *= target[viewDim];
      --viewDim;
    }
    if (viewCount != chunkCount)
      return false;
    if (d > 0) {
      chunkBaseStride = strides[d - 1];
      chunkCount = 1;
      viewCount = 1;
    }
  }
  return viewDim == -1;
}

std::vector<int64_t> read(const int64_t *base, int64_t offset, int64_t size,
                          int64_t stride) {
  std::vector<int64_t> values(size);
  for (int64_t i = 0; i < size; ++i)
    values[i] = base[offset + i * stride];
  return values;
}

} // namespace

extern "C" PTENSOR_RT_EXPORT bool ptensor_rt_reshape_strides(
    const int64_t *, const int64_t *sourceSizes, int64_t sourceSizesOffset,
    int64_t sourceRank, int64_t sourceSizesStride, const int64_t *,
    const int64_t *sourceStrides, int64_t sourceStridesOffset, int64_t,
    int64_t sourceStridesStride, const int64_t *, const int64_t *targetSizes,
    int64_t targetSizesOffset, int64_t targetRank, int64_t targetSizesStride,
    int64_t *, int64_t *targetStrides, int64_t targetStridesOffset, int64_t,
    int64_t targetStridesStride) {
  std::vector<int64_t> result;
  if (!viewStrides(
          read(sourceSizes, sourceSizesOffset, sourceRank, sourceSizesStride),
          read(sourceStrides, sourceStridesOffset, sourceRank,
               sourceStridesStride),
          read(targetSizes, targetSizesOffset, targetRank, targetSizesStride),
          result))
    return false;
  for (int64_t i = 0; i < targetRank; ++i)
    targetStrides[targetStridesOffset + i * targetStridesStride] = result[i];
  return true;
}
