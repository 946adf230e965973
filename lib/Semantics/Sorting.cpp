//===- Sorting.cpp - the rules of sort and argsort ------------------------===//

#include "ptensor/Semantics/Sorting.h"

#include "ptensor/Semantics/Axes.h"

#include <string>

using namespace ptensor;
using namespace ptensor::semantics;

const char *ptensor::semantics::sortKindName(SortKind kind) {
  return kind == SortKind::Values ? "sort" : "argsort";
}

Result<int64_t> ptensor::semantics::sortAxis(SortKind kind, int64_t axis,
                                             int64_t rank) {
  if (rank == 0)
    return Error{ErrorKind::Value,
                 std::string(sortKindName(kind)) +
                     " of a 0-d tensor (expected a tensor of rank 1 or more)"};
  Result<int64_t> dim = normalizeAxis(axis, rank, rank);
  if (!dim)
    return Error{ErrorKind::Value, std::string(sortKindName(kind)) + ": " +
                                       dim.getError().message};
  return dim;
}

DType ptensor::semantics::sortResultDType(SortKind kind, DType input) {
  return kind == SortKind::Values ? input : DType::I64;
}
