//===- Contraction.h - the rules of matmul, vecdot and tensordot -*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the RFC's linear algebra as one
// description, a contraction — a loop nest whose first loops are the
// result's dims and whose last ones are the contracted dims, with the loop
// that indexes each operand dim. Result shapes and dtypes, axis checks and
// every message come from here; the dialect's type inference, its lowering
// and Python ask these functions.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_CONTRACTION_H
#define PTENSOR_SEMANTICS_CONTRACTION_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <utility>
#include <vector>

namespace ptensor::semantics {

/// A contraction as one loop nest.
struct Contraction {
  Shape result;        ///< the result shape
  DType dtype;         ///< the result dtype: the operands' promoted dtype
  DType accumulator;   ///< the dtype products are summed in (f32 for f16/bf16)
  int64_t numLoops;    ///< result rank + number of contracted dims
  /// Per operand dim: the loop it lines up with.
  std::vector<int64_t> lhsLoops, rhsLoops;
  /// Per operand dim: whether it is a static 1 stretched over a result dim
  /// that is not (NumPy broadcasting): read at index 0, not at the loop's.
  std::vector<bool> lhsStretched, rhsStretched;
  /// The contracted dims as (lhs dim, rhs dim), in the order of their loops
  /// (loops result.size(), result.size() + 1, ...). Their sizes must be
  /// equal; a dynamic one is checked at run time.
  std::vector<std::pair<int64_t, int64_t>> contracted;
};

/// The result dtype of a contraction of `lhs` and `rhs` (op `name`): the
/// promoted dtype, a DType error for bool operands (the array API wants
/// numeric ones) or dtypes that do not promote.
Result<DType> contractionDType(const char *name, DType lhs, DType rhs);

/// The array API's matmul: a 1-D lhs is a row (its dim removed from the
/// result), a 1-D rhs a column; the dims before the last two (the batch
/// dims) broadcast. A 0-d operand is a Value error, contracted sizes that
/// differ statically a Broadcast error naming both shapes.
Result<Contraction> matmulContraction(const Shape &lhs, DType lhsDType,
                                      const Shape &rhs, DType rhsDType);

/// The array API's vecdot: the dot product along `axis` (negative, counted
/// from the end of both operands; a non-negative axis when both ranks are
/// equal) of operands that broadcast in the other dims. The axis is
/// removed from the broadcast shape.
Result<Contraction> vecdotContraction(const Shape &lhs, DType lhsDType,
                                      const Shape &rhs, DType rhsDType,
                                      int64_t axis);

/// The array API's tensordot: the sum over the pairs (lhsAxes[i],
/// rhsAxes[i]) (negative axes count from the end; each dim at most once);
/// the result is lhs's other dims followed by rhs's.
Result<Contraction> tensordotContraction(const Shape &lhs, DType lhsDType,
                                         const Shape &rhs, DType rhsDType,
                                         const std::vector<int64_t> &lhsAxes,
                                         const std::vector<int64_t> &rhsAxes);

/// tensordot's `axes=n`: the last n dims of lhs with the first n of rhs.
/// A Value error when n is negative or more than a rank.
Result<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
tensordotAxes(int64_t n, int64_t lhsRank, int64_t rhsRank);

/// The message of contracted sizes that differ (static or at run time):
/// names both shapes, the dims and their sizes.
std::string contractionMismatchMessage(const char *name, const Shape &lhs,
                                       int64_t lhsDim, const Shape &rhs,
                                       int64_t rhsDim);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_CONTRACTION_H
