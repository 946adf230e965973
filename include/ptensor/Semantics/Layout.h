//===- Layout.h - row-major order of strided arrays ------------*- C++ -*-===//
//
// Whether a strided array is packed in row-major order, its row-major
// copy and back: the one loop the hosts use to hand a strided result on
// (the JIT's copyToHostArray, Python's gather of split team results) and
// to gather written team arguments back into their arrays.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_LAYOUT_H
#define PTENSOR_SEMANTICS_LAYOUT_H

#include <cstddef>
#include <cstdint>

namespace ptensor::semantics {

/// Whether an array of `rank` dims of `sizes` and `strides` (in elements)
/// is packed in row-major order (a size-1 dim's stride is never used; an
/// array with no element is packed whatever its strides).
bool isRowMajor(const int64_t *sizes, const int64_t *strides, size_t rank);

/// Copies the array whose element (0, ..., 0) is at `first` (elements of
/// `itemBytes`, any strides, 0 and negative included) into `out` in
/// row-major order.
void packRowMajor(const void *first, size_t itemBytes, const int64_t *sizes,
                  const int64_t *strides, size_t rank, void *out);

/// The inverse: the row-major elements at `in` stored into the array whose
/// element (0, ..., 0) is at `first` (no stride 0: each element once).
void unpackRowMajor(const void *in, size_t itemBytes, const int64_t *sizes,
                    const int64_t *strides, size_t rank, void *first);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_LAYOUT_H
