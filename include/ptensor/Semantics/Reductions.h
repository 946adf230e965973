//===- Reductions.h - the rules of the reductions ---------------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the reduction kinds of
// Reductions.def and their rules — axes, result shape and dtype, the dtype
// they accumulate in, `correction`, and empty axes. The dialect's type
// inference and verifiers, the C API and Python ask these functions and get
// the same messages.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_REDUCTIONS_H
#define PTENSOR_SEMANTICS_REDUCTIONS_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ptensor::semantics {

/// The dialect op of a reduction kind.
enum class ReductionOp { Reduce, Test, FindIndex };

/// The result dtype rule of a kind (Reductions.def's RESULT).
enum class ReductionResult { Same, Sum, Bool, Index };

/// The dtypes a kind accepts (Reductions.def's OPERANDS).
enum class ReductionOperands { Any, Float };

/// What a kind gives over an empty axis (Reductions.def's EMPTY).
enum class EmptyReduction { Identity, NaN, Error };

/// The dtype a kind accumulates in (Reductions.def's ACCUMULATE).
enum class ReductionAccumulator { Compute, Wide, Bool };

/// One row of Reductions.def.
struct ReductionKind {
  ReductionOp op;
  const char *name;
  ReductionResult result;
  ReductionOperands operands;
  EmptyReduction empty;
  ReductionAccumulator accumulator;
  bool takesCorrection; ///< var, std
};

/// "reduce", "test" or "find_index".
const char *reductionOpName(ReductionOp op);

/// The op of a dialect op name ("reduce", "test", "find_index"), or a Value
/// error listing them.
Result<ReductionOp> parseReductionOp(std::string_view name);

/// Every kind, in Reductions.def's order.
const std::vector<ReductionKind> &allReductionKinds();

/// The kind `name` of `op`, or a Value error naming the op and its kinds.
Result<ReductionKind> lookupReductionKind(ReductionOp op,
                                          std::string_view name);

/// The reduced dims of a rank-`rank` input, ascending: all of them when
/// `axes` is absent, else `axes` with negative axes counted from the end.
/// A Value error names an axis out of range or repeated.
Result<std::vector<int64_t>>
normalizeReductionAxes(const std::optional<std::vector<int64_t>> &axes,
                       int64_t rank);

/// The axes a find_index kind takes: none (the flattened tensor) or one.
std::optional<Error>
checkFindIndexAxes(const std::optional<std::vector<int64_t>> &axes);

/// The result dtype of `kind` on `input`, with the `requested` dtype
/// (only sum and prod take one: any dtype, to which the input is cast
/// before it is reduced, as the array API says). A DType error names a
/// float-only kind on integers, or a kind that takes no dtype.
Result<DType> reductionResultDType(const ReductionKind &kind, DType input,
                                   std::optional<DType> requested);

/// The dtype `kind` accumulates in when its result has dtype `result` and
/// its input `input`: f64 for sums, products, means and variances with a
/// float result (accurate beyond numpy's pairwise summation, on every
/// target, in any order), the result dtype for integer sums and products
/// (which wrap like numpy's), i1 for any/all, and the compute dtype (f32
/// for f16/bf16) of max, min, argmax and argmin, which compare exactly.
DType reductionAccumulatorDType(const ReductionKind &kind, DType input,
                                DType result);

/// The result shape of reducing `dims` (normalized) of `shape`: the kept
/// dims, and size-1 dims in place of the reduced ones with `keepdims`. For
/// a kind without identity, a reduced dim of static size 0 is a Value
/// error naming it.
Result<Shape> reductionResultShape(const ReductionKind &kind,
                                   const Shape &shape,
                                   const std::vector<int64_t> &dims,
                                   bool keepdims);

/// Checks `correction` of var/std (the array API's name for numpy's
/// ddof): finite and >= 0; other kinds take none (must be 0).
std::optional<Error> checkCorrection(const ReductionKind &kind,
                                     double correction);

/// The message of the run-time check that a kind without identity reduces
/// a non-empty axis ("max of an empty axis ...").
std::string emptyReductionMessage(const ReductionKind &kind);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_REDUCTIONS_H
