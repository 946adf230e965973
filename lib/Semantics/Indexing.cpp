//===- Indexing.cpp - the rules of take -----------------------------------===//

#include "ptensor/Semantics/Indexing.h"

#include "ptensor/Semantics/Axes.h"

#include <string>

using namespace ptensor::semantics;

Result<Take> ptensor::semantics::take(const TypedShape &x,
                                      const TypedShape &indices,
                                      std::optional<int64_t> axis) {
  int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0)
    return Error{ErrorKind::Value,
                 "take of a 0-d tensor (expected a tensor of rank 1 or more)"};
  if (indices.shape.size() != 1)
    return Error{ErrorKind::Value,
                 "take needs 1-D indices, but got shape " +
                     formatShape(indices.shape)};
  if (!isIntDType(indices.dtype))
    return Error{ErrorKind::DType,
                 std::string("take needs integer indices, but got ") +
                     dtypeName(indices.dtype)};
  if (!axis && rank != 1)
    return Error{ErrorKind::Value,
                 "take of a tensor of shape " + formatShape(x.shape) +
                     " needs an axis (it may be left out for a 1-D tensor "
                     "only)"};
  Result<int64_t> normalized = normalizeAxis(axis.value_or(0), rank, rank);
  if (!normalized)
    return Error{normalized.getError().kind,
                 "take: " + normalized.getError().message};
  Shape result = x.shape;
  result[*normalized] = indices.shape[0];
  return Take{result, *normalized};
}

const char *ptensor::semantics::takeRangeMessage() {
  return "take: an index is out of range (expected every index in [-size, "
         "size) of the axis taken along; negative ones count from the end)";
}
