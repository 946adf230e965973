//===- Sets.h - the rules of the set functions (unique_*) -------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): what each of the array API's
// unique_* functions gives (docs/Semantics.md "Set functions"). The
// dialect's type inference and Python (its named tuples) ask these
// functions, so the results and their order have one owner.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_SETS_H
#define PTENSOR_SEMANTICS_SETS_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/DType.h"

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace ptensor::semantics {

/// unique_all, unique_counts, unique_inverse, unique_values.
enum class UniqueKind { All, Counts, Inverse, Values };

/// One result of a unique_* function.
enum class UniqueResult { Values, Indices, InverseIndices, Counts };

/// The kind named `name` ("all", "counts", "inverse", "values"; the
/// dialect's keywords), or nothing.
std::optional<UniqueKind> uniqueKindFromName(std::string_view name);

/// The results of `kind` in the array API's order: values (the sorted
/// unique values of the flattened input, the input's dtype), then, as the
/// kind has them, indices (i64: the first occurrence of each in the
/// flattened input), inverse_indices (i64, the input's shape: the position
/// of each element's value in values) and counts (i64).
std::vector<UniqueResult> uniqueResults(UniqueKind kind);

/// The array API's field name of `result` ("values", "indices",
/// "inverse_indices", "counts").
const char *uniqueResultName(UniqueResult result);

/// The shape and dtype of `result` for an input of `shape` and `dtype`:
/// values `[?]` of the input's dtype, inverse_indices the input's shape in
/// i64, indices and counts `[?]` in i64 (`?`: kDynamicSize, a size known
/// only when the function has run).
std::pair<Shape, DType> uniqueResultType(UniqueResult result,
                                         const Shape &shape, DType dtype);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_SETS_H
