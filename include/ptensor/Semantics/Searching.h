//===- Searching.h - the rules of the searching functions -------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): nonzero's operand rule. (argmax
// and argmin are reductions: Reductions.h.)
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_SEARCHING_H
#define PTENSOR_SEMANTICS_SEARCHING_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/Error.h"

#include <optional>

namespace ptensor::semantics {

/// nonzero takes a tensor of rank 1 or more (the array API: a 0-d input is
/// an error) and gives one i64 index tensor per dim, of the (run-time)
/// number of non-zero elements. A Value error names a 0-d input.
std::optional<Error> checkNonzero(const Shape &shape);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_SEARCHING_H
