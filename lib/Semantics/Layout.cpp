//===- Layout.cpp - row-major order of strided arrays ---------------------===//

#include "ptensor/Semantics/Layout.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace ptensor::semantics;

bool ptensor::semantics::isRowMajor(const int64_t *sizes,
                                    const int64_t *strides, size_t rank) {
  if (std::find(sizes, sizes + rank, 0) != sizes + rank)
    return true; // no element: any strides
  int64_t expected = 1;
  for (size_t d = rank; d-- > 0;) {
    if (sizes[d] != 1 && strides[d] != expected)
      return false;
    expected *= sizes[d];
  }
  return true;
}

void ptensor::semantics::packRowMajor(const void *first, size_t itemBytes,
                                      const int64_t *sizes,
                                      const int64_t *strides, size_t rank,
                                      void *out) {
  auto *from = static_cast<const std::byte *>(first);
  auto *to = static_cast<std::byte *>(out);
  int64_t elements = 1;
  for (size_t d = 0; d < rank; ++d)
    elements *= sizes[d];
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < elements; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(to + n * int64_t(itemBytes), from + offset * int64_t(itemBytes),
                itemBytes);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}
