//===- Indexing.h - the rules of take ---------------------------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the operand rule of take (the
// array API's `take`, numpy's with 1-D indices) and its run-time message.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_INDEXING_H
#define PTENSOR_SEMANTICS_INDEXING_H

#include "ptensor/Semantics/Searching.h"

#include <optional>

namespace ptensor::semantics {

/// What take gives.
struct Take {
  Shape result; ///< x's shape with the axis's size the indices'
  int64_t axis; ///< the axis taken along, in [0, rank)
};

/// The rule of take(x, indices, axis): x has rank 1 or more; `indices` is
/// 1-D of an integer dtype (not bool); `axis` counts from the end when
/// negative and may be left out only when x is 1-D (the array API). The
/// result has x's dtype and shape, but the axis has as many elements as
/// `indices`. Errors: a Value error for a rank, an axis out of range or a
/// missing axis, a DType error for indices that are not integers.
Result<Take> take(const TypedShape &x, const TypedShape &indices,
                  std::optional<int64_t> axis);

/// The message of an index outside [-size, size) of the axis (a run-time
/// check: the indices are data; negative ones count from the end).
const char *takeRangeMessage();

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_INDEXING_H
