//===- Sorting.h - the rules of sort and argsort ----------------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the axis a sort works along, the
// result dtype of each sort kind, and the order (docs/Semantics.md
// "Sorting"). The dialect's type inference, the C API and Python ask these
// functions and get the same messages.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_SORTING_H
#define PTENSOR_SEMANTICS_SORTING_H

#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <cstdint>

namespace ptensor::semantics {

/// What a sort gives: the sorted values (`sort`) or the indices that sort
/// (`argsort`).
enum class SortKind { Values, Indices };

/// "sort" or "argsort".
const char *sortKindName(SortKind kind);

/// The dim a sort of a rank-`rank` tensor works along: `axis` with negative
/// axes counted from the end. A Value error names a 0-d input (the array
/// API sorts tensors of rank 1 or more) or an axis out of range.
Result<int64_t> sortAxis(SortKind kind, int64_t axis, int64_t rank);

/// The result dtype of `kind` on an `input` tensor: the input's for sort,
/// i64 for argsort. Every dtype sorts (bool: false before true).
DType sortResultDType(SortKind kind, DType input);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_SORTING_H
