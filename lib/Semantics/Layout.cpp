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

/// Calls copy(n, offset) for the elements of a strided array in row-major
/// order: n counts them, offset is element n's in the array (elements).
template <typename Copy>
static void forEachRowMajor(const int64_t *sizes, const int64_t *strides,
                            size_t rank, Copy copy) {
  int64_t elements = 1;
  for (size_t d = 0; d < rank; ++d)
    elements *= sizes[d];
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < elements; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    copy(n, offset);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

void ptensor::semantics::packRowMajor(const void *first, size_t itemBytes,
                                      const int64_t *sizes,
                                      const int64_t *strides, size_t rank,
                                      void *out) {
  auto *from = static_cast<const std::byte *>(first);
  auto *to = static_cast<std::byte *>(out);
  auto item = int64_t(itemBytes);
  forEachRowMajor(sizes, strides, rank, [&](int64_t n, int64_t offset) {
    std::memcpy(to + n * item, from + offset * item, itemBytes);
  });
}

void ptensor::semantics::unpackRowMajor(const void *in, size_t itemBytes,
                                        const int64_t *sizes,
                                        const int64_t *strides, size_t rank,
                                        void *first) {
  auto *from = static_cast<const std::byte *>(in);
  auto *to = static_cast<std::byte *>(first);
  auto item = int64_t(itemBytes);
  forEachRowMajor(sizes, strides, rank, [&](int64_t n, int64_t offset) {
    std::memcpy(to + offset * item, from + n * item, itemBytes);
  });
}
