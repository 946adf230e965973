//===- Searching.cpp - the rules of the searching functions ---------------===//

#include "ptensor/Semantics/Searching.h"

using namespace ptensor::semantics;

std::optional<Error> ptensor::semantics::checkNonzero(const Shape &shape) {
  if (shape.empty())
    return Error{ErrorKind::Value, "nonzero of a 0-d tensor (expected a "
                                   "tensor of rank 1 or more)"};
  return std::nullopt;
}
