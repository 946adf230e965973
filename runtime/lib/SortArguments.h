//===- SortArguments.h - the arguments of the runtime's sorts --*- C++ -*-===//
///
/// \file
/// ptensor_rt_cpu_sort and ptensor_rt_gpu_sort take the same arguments
/// (Sort.h); this decodes and checks them once for both.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_SORTARGUMENTS_H
#define PTENSOR_RUNTIME_LIB_SORTARGUMENTS_H

#include "SortKeys.h"

#include <stdint.h>

namespace ptensor::rt {

/// A sort call: buffers at element (0, ..., 0), strides in elements.
struct SortArguments {
  SortFormat format;
  bool descending;
  int64_t rank, dim;
  const int64_t *sizes;
  const char *input;
  const int64_t *inputStrides;
  char *values; ///< null: not written
  const int64_t *valueStrides;
  int64_t *indices; ///< null: not written
  const int64_t *indexStrides;
  /// The `runs` hint of a host sort: the bounds of each line's sorted runs
  /// (0, ..., the line's size; runBoundCount of them), or none.
  const int64_t *runBounds = nullptr;
  int64_t runBoundCount = 0;

  /// The number of lines along `dim`.
  int64_t lines() const;
};

/// Decodes the arguments of `function` (its name, for messages); false
/// with the error recorded for an unknown key type or a dim out of range.
bool decodeSortArguments(const char *function, int64_t keyType, int64_t flags,
                         int64_t rank, int64_t dim, intptr_t sizes,
                         intptr_t input, int64_t inputOffset,
                         intptr_t inputStrides, intptr_t values,
                         int64_t valuesOffset, intptr_t valuesStrides,
                         intptr_t indices, int64_t indicesOffset,
                         intptr_t indexStrides, SortArguments &out);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_SORTARGUMENTS_H
