//===- Axes.cpp - axis arguments ------------------------------------------===//

#include "ptensor/Semantics/Axes.h"

#include "ptensor/Semantics/Broadcast.h"

#include <algorithm>
#include <string>

using namespace ptensor::semantics;

Result<int64_t> ptensor::semantics::normalizeAxis(int64_t axis, int64_t bound,
                                                  int64_t rank) {
  if (axis < -bound || axis >= bound)
    return Error{ErrorKind::Value,
                 "axis " + std::to_string(axis) +
                     " is out of range for a tensor of rank " +
                     std::to_string(rank) + " (expected " +
                     std::to_string(-bound) + " <= axis < " +
                     std::to_string(bound) + ")"};
  return axis < 0 ? axis + bound : axis;
}

Result<std::vector<int64_t>>
ptensor::semantics::normalizeAxes(const std::vector<int64_t> &axes,
                                  int64_t rank) {
  std::vector<int64_t> dims;
  for (int64_t a : axes) {
    Result<int64_t> d = normalizeAxis(a, rank, rank);
    if (!d)
      return d.getError();
    if (std::find(dims.begin(), dims.end(), *d) != dims.end())
      return Error{ErrorKind::Value, "expected distinct axes, but " +
                                         formatShape(axes) +
                                         " names dimension " +
                                         std::to_string(*d) + " twice"};
    dims.push_back(*d);
  }
  return dims;
}
