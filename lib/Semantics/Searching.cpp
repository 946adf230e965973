//===- Searching.cpp - the rules of the searching functions ---------------===//

#include "ptensor/Semantics/Searching.h"

#include "ptensor/Semantics/Promotion.h"

using namespace ptensor::semantics;

std::optional<Error> ptensor::semantics::checkNonzero(const Shape &shape) {
  if (shape.empty())
    return Error{ErrorKind::Value, "nonzero of a 0-d tensor (expected a "
                                   "tensor of rank 1 or more)"};
  return std::nullopt;
}

Result<SearchSide> ptensor::semantics::parseSearchSide(std::string_view name) {
  if (name == "left")
    return SearchSide::Left;
  if (name == "right")
    return SearchSide::Right;
  return Error{ErrorKind::Value,
               "searchsorted side must be 'left' or 'right', got '" +
                   std::string(name) + "'"};
}

/// Whether the integer (-1)^negative * magnitude lies in the range of the
/// integer dtype `dtype`.
static bool intFits(ptensor::DType dtype, bool negative, uint64_t magnitude) {
  unsigned bits = dtypeBitWidth(dtype);
  if (isUnsignedIntDType(dtype))
    return !negative && (bits == 64 || magnitude < (uint64_t(1) << bits));
  uint64_t limit = uint64_t(1) << (bits - 1); // |min|; max is limit - 1
  return negative ? magnitude <= limit : magnitude < limit;
}

Result<SearchedScalarType>
ptensor::semantics::searchsortedScalarType(DType sorted,
                                           const SearchedScalar &value) {
  using Kind = SearchedScalar::Kind;
  if (value.kind == Kind::Bool)
    return SearchedScalarType{DType::Bool, DType::Bool};
  // A float value is carried as a float64 (an integer past 2^53 rounded
  // once there, one past 64 bits too).
  if (isFloatDType(sorted))
    return SearchedScalarType{sorted, DType::F64};
  if (value.kind == Kind::Int) {
    bool fitsI64 =
        value.magnitude && intFits(DType::I64, value.negative, *value.magnitude);
    bool fitsUI64 =
        value.magnitude && intFits(DType::U64, value.negative, *value.magnitude);
    if (!fitsI64 && !fitsUI64)
      return Error{ErrorKind::Value,
                   "searchsorted: the integer value does not fit a 64-bit "
                   "integer (expected one in [-2^63, 2^64))"};
    DType argument = fitsI64 ? DType::I64 : DType::U64;
    if (isIntDType(sorted) && intFits(sorted, value.negative, *value.magnitude))
      return SearchedScalarType{sorted, argument};
    return SearchedScalarType{argument, argument};
  }
  return SearchedScalarType{DType::F64, DType::F64};
}

std::string
ptensor::semantics::searchsortedSorterMismatchMessage(const Shape &sorted,
                                                      const Shape &sorter) {
  return "searchsorted: the sorter's shape " + formatShape(sorter) +
         " does not match the sorted tensor's shape " + formatShape(sorted) +
         " (expected one index per element)";
}

const char *ptensor::semantics::searchsortedSorterRangeMessage() {
  return "searchsorted: a sorter index is out of range (expected every "
         "index in [0, size of the sorted tensor))";
}

Result<Searchsorted>
ptensor::semantics::searchsorted(const TypedShape &sorted,
                                 const TypedShape &values,
                                 const std::optional<TypedShape> &sorter) {
  if (sorted.shape.size() != 1)
    return Error{ErrorKind::Value,
                 "searchsorted needs a 1-D sorted tensor, but got shape " +
                     formatShape(sorted.shape)};
  if (sorter) {
    if (!isIntDType(sorter->dtype))
      return Error{ErrorKind::DType,
                   std::string("searchsorted needs an integer sorter, but "
                               "got ") +
                       dtypeName(sorter->dtype)};
    if (sorter->shape.size() != 1 ||
        (sorter->shape[0] != kDynamicSize &&
         sorted.shape[0] != kDynamicSize &&
         sorter->shape[0] != sorted.shape[0]))
      return Error{ErrorKind::Value, searchsortedSorterMismatchMessage(
                                         sorted.shape, sorter->shape)};
  }
  Result<DType> compare = promoteDTypes(
      {{sorted.dtype, /*isWeak=*/false}, {values.dtype, /*isWeak=*/false}});
  if (!compare)
    return Error{compare.getError().kind,
                 "searchsorted: " + compare.getError().message};
  // numpy compares an integer against a float in float64, which holds
  // every float and every integer up to 2^53 exactly; the promoted float
  // (int32 with float32: float32) would round the integers and move them.
  bool integerAgainstFloat =
      (isIntDType(sorted.dtype) && isFloatDType(values.dtype)) ||
      (isFloatDType(sorted.dtype) && isIntDType(values.dtype));
  return Searchsorted{values.shape, DType::I64,
                      integerAgainstFloat ? DType::F64 : *compare};
}
