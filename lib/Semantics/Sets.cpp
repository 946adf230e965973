//===- Sets.cpp - the rules of the set functions (unique_*) ---------------===//

#include "ptensor/Semantics/Sets.h"

using namespace ptensor::semantics;

std::optional<UniqueKind>
ptensor::semantics::uniqueKindFromName(std::string_view name) {
  if (name == "all")
    return UniqueKind::All;
  if (name == "counts")
    return UniqueKind::Counts;
  if (name == "inverse")
    return UniqueKind::Inverse;
  if (name == "values")
    return UniqueKind::Values;
  return std::nullopt;
}

std::vector<UniqueResult> ptensor::semantics::uniqueResults(UniqueKind kind) {
  switch (kind) {
  case UniqueKind::All:
    return {UniqueResult::Values, UniqueResult::Indices,
            UniqueResult::InverseIndices, UniqueResult::Counts};
  case UniqueKind::Counts:
    return {UniqueResult::Values, UniqueResult::Counts};
  case UniqueKind::Inverse:
    return {UniqueResult::Values, UniqueResult::InverseIndices};
  case UniqueKind::Values:
    return {UniqueResult::Values};
  }
  return {UniqueResult::Values};
}

const char *ptensor::semantics::uniqueResultName(UniqueResult result) {
  switch (result) {
  case UniqueResult::Values:
    return "values";
  case UniqueResult::Indices:
    return "indices";
  case UniqueResult::InverseIndices:
    return "inverse_indices";
  case UniqueResult::Counts:
    return "counts";
  }
  return "values";
}

std::pair<Shape, ptensor::DType>
ptensor::semantics::uniqueResultType(UniqueResult result, const Shape &shape,
                                     DType dtype) {
  switch (result) {
  case UniqueResult::Values:
    return {{kDynamicSize}, dtype};
  case UniqueResult::InverseIndices:
    return {shape, DType::I64};
  case UniqueResult::Indices:
  case UniqueResult::Counts:
    break;
  }
  return {{kDynamicSize}, DType::I64};
}
