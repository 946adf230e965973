//===- Searching.h - the rules of the searching functions -------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the operand rules of nonzero and
// searchsorted, and searchsorted's sides and messages. (argmax and argmin
// are reductions: Reductions.h.)
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_SEARCHING_H
#define PTENSOR_SEMANTICS_SEARCHING_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptensor::semantics {

/// nonzero takes a tensor of rank 1 or more (the array API: a 0-d input is
/// an error) and gives one i64 index tensor per dim, of the (run-time)
/// number of non-zero elements. A Value error names a 0-d input.
std::optional<Error> checkNonzero(const Shape &shape);

/// searchsorted's `side`: the first position whose element is not less than
/// the value (`Left`, numpy's default), or the first whose element is
/// greater (`Right`).
enum class SearchSide { Left, Right };

/// The side named `name` ("left", "right"; the dialect's keywords), or a
/// Value error naming it.
Result<SearchSide> parseSearchSide(std::string_view name);

/// A shape and dtype: one operand of searchsorted.
struct TypedShape {
  Shape shape;
  DType dtype;
};

/// What searchsorted gives and how it compares.
struct Searchsorted {
  Shape result;      ///< the values' shape
  DType resultDType; ///< I64 (the default index dtype)
  DType compare;     ///< the dtype both sides are compared in (a sort
                     ///< dtype; f16/bf16 compare in f32)
};

/// The rule of searchsorted(sorted, values, sorter): `sorted` is 1-D
/// (ascending in ptensor.sort's order, or made so by `sorter`); `values`
/// has any shape; both are compared in their promoted dtype (Promotion.h),
/// or in f64 when one is an integer and the other a float (numpy's rule:
/// exact where the promoted float would round the integers);
/// `sorter`, when given, is a 1-D integer tensor with as many elements as
/// `sorted` (a dynamic size is checked when the code runs). Errors: a
/// Value error for a rank or a size, a DType error for dtypes that do not
/// promote or a sorter that is not integer.
Result<Searchsorted> searchsorted(const TypedShape &sorted,
                                  const TypedShape &values,
                                  const std::optional<TypedShape> &sorter);

/// A builtin scalar searched for (searchsorted's x2 given as a Python
/// scalar): its kind and, for an integer, its sign and magnitude
/// (std::nullopt: more than 64 bits).
struct SearchedScalar {
  enum class Kind { Bool, Int, Float } kind;
  bool negative = false;
  std::optional<uint64_t> magnitude;
};

/// How a scalar value is searched: the dtype it becomes, and the builtin
/// argument type (Bool, I64, U64 or F64) that carries it into the kernel.
struct SearchedScalarType {
  DType value;
  DType argument;
};

/// The dtype a scalar value is searched as in `sorted`'s dtype. Weak, as
/// the array API's scalar rule (and torch's) says, where it fits: a float
/// `sorted`'s dtype for int and float scalars (1.1 against float32 data is
/// float32's 1.1, where numpy compares the float64 1.1), an integer
/// `sorted`'s dtype for an int that it holds (2 against uint64 data).
/// Otherwise the scalar's own kind (bool, int64, uint64 past int64,
/// float64), which searchsorted's comparison rule then promotes, so int8
/// data gives numpy's answers for 1000 and 2.5. An integer that no 64-bit
/// type holds is a Value error against integer or bool data (against
/// float data it is a float64 like any other).
Result<SearchedScalarType> searchsortedScalarType(DType sorted,
                                                  const SearchedScalar &value);

/// The message of a sorter whose size differs from the sorted tensor's
/// (the verifier's for static sizes, the runtime's for dynamic ones).
std::string searchsortedSorterMismatchMessage(const Shape &sorted,
                                              const Shape &sorter);

/// The message of a sorter element outside [0, size of sorted) (a run-time
/// check: the elements are data).
const char *searchsortedSorterRangeMessage();

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_SEARCHING_H
