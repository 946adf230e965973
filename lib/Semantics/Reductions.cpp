//===- Reductions.cpp - the rules of the reductions -----------------------===//

#include "ptensor/Semantics/Reductions.h"

#include "ptensor/Semantics/Axes.h"

#include "ptensor/Semantics/Promotion.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace ptensor;
using namespace ptensor::semantics;

const char *semantics::reductionOpName(ReductionOp op) {
  switch (op) {
  case ReductionOp::Reduce:
    return "reduce";
  case ReductionOp::Test:
    return "test";
  case ReductionOp::FindIndex:
    return "find_index";
  }
  return "reduce";
}

Result<ReductionOp> semantics::parseReductionOp(std::string_view name) {
  for (ReductionOp op :
       {ReductionOp::Reduce, ReductionOp::Test, ReductionOp::FindIndex})
    if (name == reductionOpName(op))
      return op;
  return Error{ErrorKind::Value, "unknown reduction op '" + std::string(name) +
                                     "', expected reduce, test or find_index"};
}

const std::vector<ReductionKind> &semantics::allReductionKinds() {
  static const std::vector<ReductionKind> kinds = {
#define Yes true
#define No false
#define PTENSOR_REDUCTION_KIND(OP, NAME, RESULT, OPERANDS, EMPTY, ACCUMULATE,  \
                               CORRECTION)                                     \
  {ReductionOp::OP,           #NAME,                                          \
   ReductionResult::RESULT,   ReductionOperands::OPERANDS,                    \
   EmptyReduction::EMPTY,     ReductionAccumulator::ACCUMULATE,               \
   CORRECTION},
#include "ptensor/Semantics/Reductions.def"
#undef Yes
#undef No
  };
  return kinds;
}

Result<ReductionKind> semantics::lookupReductionKind(ReductionOp op,
                                                     std::string_view name) {
  std::string known;
  for (const ReductionKind &k : allReductionKinds()) {
    if (k.op != op)
      continue;
    if (name == k.name)
      return k;
    known += known.empty() ? "" : ", ";
    known += k.name;
  }
  return Error{ErrorKind::Value, "unknown kind '" + std::string(name) +
                                     "' of ptensor." + reductionOpName(op) +
                                     " (expected one of " + known + ")"};
}

Result<std::vector<int64_t>>
semantics::normalizeReductionAxes(const std::optional<std::vector<int64_t>> &axes,
                                  int64_t rank) {
  std::vector<int64_t> dims;
  if (!axes) {
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
    return dims;
  }
  Result<std::vector<int64_t>> normalized = normalizeAxes(*axes, rank);
  if (!normalized)
    return normalized.getError();
  dims = *normalized;
  std::sort(dims.begin(), dims.end());
  return dims;
}

std::optional<Error>
semantics::checkFindIndexAxes(const std::optional<std::vector<int64_t>> &axes) {
  if (axes && axes->size() != 1)
    return Error{ErrorKind::Value,
                 "argmax and argmin take one axis or none (the flattened "
                 "tensor), but got " +
                     std::to_string(axes->size()) + " axes " +
                     formatShape(*axes)};
  return std::nullopt;
}

/// The default result dtype of a sum or product: numpy's (and the array
/// API's) widening of bool and integers to the largest integer of their
/// signedness.
static DType defaultSumDType(DType input) {
  switch (dtypeKind(input)) {
  case DTypeKind::Bool:
  case DTypeKind::Signed:
    return DType::I64;
  case DTypeKind::Unsigned:
    return DType::U64;
  case DTypeKind::Float:
    return input;
  }
  return input;
}

Result<DType> semantics::reductionResultDType(const ReductionKind &kind,
                                              DType input,
                                              std::optional<DType> requested) {
  if (kind.operands == ReductionOperands::Float && !isFloatDType(input))
    return Error{ErrorKind::DType,
                 std::string(kind.name) + " needs a floating-point input, "
                 "but got " + dtypeName(input) +
                     " (the array API defines it for floats only; cast "
                     "first)"};
  if (requested && kind.result != ReductionResult::Sum)
    return Error{ErrorKind::DType, std::string(kind.name) +
                                       " takes no result dtype (only sum "
                                       "and prod do), but got " +
                                       dtypeName(*requested)};
  switch (kind.result) {
  case ReductionResult::Same:
    return input;
  case ReductionResult::Bool:
    return DType::Bool;
  case ReductionResult::Index:
    return DType::I64;
  case ReductionResult::Sum:
    break;
  }
  if (!requested)
    return defaultSumDType(input);
  // The array API (like numpy and torch) casts the input to the requested
  // dtype first, which may be narrower or of another kind (i1: numpy's
  // bool add and multiply, a logical or and and).
  return *requested;
}

DType semantics::reductionAccumulatorDType(const ReductionKind &kind,
                                           DType input, DType result) {
  switch (kind.accumulator) {
  case ReductionAccumulator::Bool:
    return DType::Bool;
  case ReductionAccumulator::Compute:
    return computeDType(input);
  case ReductionAccumulator::Wide:
    break;
  }
  return isFloatDType(result) ? DType::F64 : result;
}

Result<Shape> semantics::reductionResultShape(const ReductionKind &kind,
                                              const Shape &shape,
                                              const std::vector<int64_t> &dims,
                                              bool keepdims) {
  Shape result;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    bool reduced = std::find(dims.begin(), dims.end(), d) != dims.end();
    if (reduced && shape[d] == 0 && kind.empty == EmptyReduction::Error)
      return Error{ErrorKind::Value,
                   std::string(kind.name) + " of an empty axis: dimension " +
                       std::to_string(d) + " of " + formatShape(shape) +
                       " has size 0, and " + kind.name +
                       " has no identity"};
    if (!reduced)
      result.push_back(shape[d]);
    else if (keepdims)
      result.push_back(1);
  }
  return result;
}

std::optional<Error> semantics::checkCorrection(const ReductionKind &kind,
                                                double correction) {
  if (!kind.takesCorrection) {
    if (correction != 0.0)
      return Error{ErrorKind::Value, std::string(kind.name) +
                                         " takes no correction (only var "
                                         "and std do), but got " +
                                         std::to_string(correction)};
    return std::nullopt;
  }
  if (!(correction >= 0.0) || std::isinf(correction))
    return Error{ErrorKind::Value,
                 "the correction of " + std::string(kind.name) +
                     " must be a finite number >= 0, but got " +
                     std::to_string(correction)};
  return std::nullopt;
}

std::string semantics::emptyReductionMessage(const ReductionKind &kind) {
  return std::string(kind.name) +
         " of an empty axis: a reduced dimension has size 0, and " +
         kind.name + " has no identity";
}
