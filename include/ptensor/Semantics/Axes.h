//===- Axes.h - axis arguments: ranges, negative axes, repeats --*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the one rule for an axis
// argument, used by the views, reductions and manipulation ops alike.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_AXES_H
#define PTENSOR_SEMANTICS_AXES_H

#include "ptensor/Semantics/Error.h"

#include <cstdint>
#include <vector>

namespace ptensor::semantics {

/// `axis` in [0, bound): negative axes count from `bound`. A Value error
/// names the range otherwise; `rank` is the rank of the tensor the axis
/// refers to (bound is rank + 1 where an axis may name a new dim).
Result<int64_t> normalizeAxis(int64_t axis, int64_t bound, int64_t rank);

/// Each of `axes` normalized for a tensor of rank `rank`, in the given
/// order; a Value error names an axis out of range or one given twice.
Result<std::vector<int64_t>> normalizeAxes(const std::vector<int64_t> &axes,
                                           int64_t rank);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_AXES_H
