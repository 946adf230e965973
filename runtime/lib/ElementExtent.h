//===- ElementExtent.h - how far a strided layout reaches -------*- C++ -*-===//
//
// The furthest element of a strided layout (sizes and strides in elements),
// computed once for the runtime: the memref span that host registration
// pins (MgpuMemory.cpp) and the operand spans a GEMM's output must not
// overlap (GpuGemm.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_ELEMENTEXTENT_H
#define PTENSOR_RUNTIME_LIB_ELEMENTEXTENT_H

#include <cstdint>

namespace ptensor::rt {

/// Where the elements of a strided layout end.
struct ElementExtent {
  enum Status {
    Ok,       ///< `furthest` is the index of the furthest element
    Empty,    ///< a dimension has size 0: no element at all
    Negative, ///< dimension `dim` has a negative size or stride
    Overflow, ///< the furthest index does not fit 64 bits
  } status = Ok;
  uint64_t furthest = 0;
  int64_t dim = -1;
};

/// The furthest element of `rank` dimensions of `sizes` and `strides`:
/// the sum of (size - 1) * stride. Dimensions are read in order and the
/// first that decides wins (a size of 0 after a negative stride is still an
/// error, as memref registration always reported).
inline ElementExtent furthestElement(const int64_t *sizes,
                                     const int64_t *strides, int64_t rank) {
  ElementExtent extent;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0) {
      extent.status = ElementExtent::Empty;
      return extent;
    }
    if (sizes[i] < 0 || strides[i] < 0) {
      extent.status = ElementExtent::Negative;
      extent.dim = i;
      return extent;
    }
    uint64_t term = 0;
    if (__builtin_mul_overflow(uint64_t(sizes[i] - 1), uint64_t(strides[i]),
                               &term) ||
        __builtin_add_overflow(extent.furthest, term, &extent.furthest)) {
      extent.status = ElementExtent::Overflow;
      return extent;
    }
  }
  return extent;
}

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_ELEMENTEXTENT_H
