//===- HostSort.h - Highway's VQSort, loaded on first use -------*- C++ -*-===//
///
/// \file
/// The host sort's ascending sort of unsigned keys (CpuSort.cpp) is
/// Highway's VQSort, in libptensor_runtime_vqsort.so (vqsort/VQSort.cpp),
/// loaded on the first sort (SiblingLibrary.h says why).
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_HOSTSORT_H
#define PTENSOR_RUNTIME_LIB_HOSTSORT_H

#include <stddef.h>
#include <stdint.h>

namespace ptensor::rt {

/// A 128-bit key as VQSort orders it: by `hi`, then `lo` (hwy::uint128_t's
/// layout).
struct alignas(16) Key128 {
  uint64_t lo;
  uint64_t hi;
};

/// Loads the sort library (once); false with the error recorded when it
/// cannot be loaded. Every sortAscending call needs it first.
bool loadHostSort();

/// Sorts n keys ascending, in place (any thread; each has its scratch).
void sortAscending(uint16_t *keys, size_t n);
void sortAscending(uint32_t *keys, size_t n);
void sortAscending(uint64_t *keys, size_t n);
void sortAscending(Key128 *keys, size_t n);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_HOSTSORT_H
