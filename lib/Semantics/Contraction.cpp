//===- Contraction.cpp - matmul, vecdot and tensordot as loop nests -------===//

#include "ptensor/Semantics/Contraction.h"

#include "ptensor/Semantics/Promotion.h"

#include <algorithm>

using namespace ptensor;
using namespace ptensor::semantics;

std::string ptensor::semantics::contractionMismatchMessage(
    const char *name, const Shape &lhs, int64_t lhsDim, const Shape &rhs,
    int64_t rhsDim) {
  auto size = [](int64_t s) {
    return s == kDynamicSize ? std::string("?") : std::to_string(s);
  };
  return std::string(name) + ": contracted dimensions differ: dimension " +
         std::to_string(lhsDim) + " of shape " + formatShape(lhs) +
         " has size " + size(lhs[lhsDim]) + " and dimension " +
         std::to_string(rhsDim) + " of shape " + formatShape(rhs) +
         " has size " + size(rhs[rhsDim]);
}

Result<DType> ptensor::semantics::contractionDType(const char *name, DType lhs,
                                                   DType rhs) {
  if (lhs == DType::Bool || rhs == DType::Bool)
    return Error{ErrorKind::DType,
                 std::string(name) + " needs numeric operands, but got " +
                     dtypeName(lhs) + " and " + dtypeName(rhs)};
  return promoteDTypes({{lhs, false}, {rhs, false}});
}

namespace {
/// Builds a contraction: the result dims' loops are numbered as they are
/// added, the contracted ones after them.
struct Builder {
  const char *name;
  const Shape &lhs, &rhs;
  Contraction c;

  Builder(const char *name, const Shape &lhs, const Shape &rhs, DType dtype)
      : name(name), lhs(lhs), rhs(rhs) {
    c.dtype = dtype;
    c.accumulator = computeDType(dtype);
    c.lhsLoops.assign(lhs.size(), 0);
    c.rhsLoops.assign(rhs.size(), 0);
    c.lhsStretched.assign(lhs.size(), false);
    c.rhsStretched.assign(rhs.size(), false);
  }

  /// A result dim of size `size`: the next loop.
  int64_t addResultDim(int64_t size) {
    c.result.push_back(size);
    return static_cast<int64_t>(c.result.size()) - 1;
  }

  /// Lines up lhs (`isLhs`) or rhs dim `dim` with result loop `loop`,
  /// stretched when it is a 1 and the result's size is not.
  void index(bool isLhs, int64_t dim, int64_t loop) {
    const Shape &shape = isLhs ? lhs : rhs;
    (isLhs ? c.lhsLoops : c.rhsLoops)[dim] = loop;
    (isLhs ? c.lhsStretched : c.rhsStretched)[dim] =
        shape[dim] == 1 && c.result[loop] != 1;
  }

  /// Contracts lhs dim `l` with rhs dim `r`: an error when static sizes
  /// differ.
  std::optional<Error> contract(int64_t l, int64_t r) {
    if (lhs[l] != kDynamicSize && rhs[r] != kDynamicSize && lhs[l] != rhs[r])
      return Error{ErrorKind::Broadcast,
                   contractionMismatchMessage(name, lhs, l, rhs, r)};
    c.contracted.push_back({l, r});
    return std::nullopt;
  }

  /// Numbers the contracted loops after the result's.
  Contraction finish() {
    int64_t rank = c.result.size();
    for (size_t i = 0; i < c.contracted.size(); ++i) {
      c.lhsLoops[c.contracted[i].first] = rank + i;
      c.rhsLoops[c.contracted[i].second] = rank + i;
    }
    c.numLoops = rank + c.contracted.size();
    return c;
  }
};

/// A Value error for a 0-d operand of `name`.
Error zeroDimOperand(const char *name, const Shape &lhs, const Shape &rhs) {
  return Error{ErrorKind::Value,
               std::string(name) +
                   " needs operands of rank 1 or more, but got shapes " +
                   formatShape(lhs) + " and " + formatShape(rhs)};
}
} // namespace

Result<Contraction> ptensor::semantics::matmulContraction(const Shape &lhs,
                                                          DType lhsDType,
                                                          const Shape &rhs,
                                                          DType rhsDType) {
  const char *name = "matmul";
  if (lhs.empty() || rhs.empty())
    return zeroDimOperand(name, lhs, rhs);
  Result<DType> dtype = contractionDType(name, lhsDType, rhsDType);
  if (!dtype)
    return dtype.getError();
  int64_t lhsRank = lhs.size(), rhsRank = rhs.size();
  Shape lhsBatch(lhs.begin(), lhs.end() - std::min<int64_t>(lhsRank, 2));
  Shape rhsBatch(rhs.begin(), rhs.end() - std::min<int64_t>(rhsRank, 2));
  Result<Shape> batch = broadcastShapes({lhsBatch, rhsBatch});
  if (!batch)
    return Error{ErrorKind::Broadcast,
                 "matmul: the batch dimensions of shapes " + formatShape(lhs) +
                     " and " + formatShape(rhs) + " do not broadcast (" +
                     batch.getError().message + ")"};
  Builder b(name, lhs, rhs, *dtype);
  for (int64_t size : *batch)
    b.addResultDim(size);
  int64_t numBatch = batch->size();
  for (size_t d = 0; d < lhsBatch.size(); ++d)
    b.index(/*isLhs=*/true, d, numBatch - lhsBatch.size() + d);
  for (size_t d = 0; d < rhsBatch.size(); ++d)
    b.index(/*isLhs=*/false, d, numBatch - rhsBatch.size() + d);
  if (lhsRank >= 2)
    b.c.lhsLoops[lhsRank - 2] = b.addResultDim(lhs[lhsRank - 2]);
  if (rhsRank >= 2)
    b.c.rhsLoops[rhsRank - 1] = b.addResultDim(rhs[rhsRank - 1]);
  int64_t rhsK = rhsRank >= 2 ? rhsRank - 2 : 0;
  if (std::optional<Error> error = b.contract(lhsRank - 1, rhsK))
    return *error;
  return b.finish();
}

Result<Contraction> ptensor::semantics::vecdotContraction(const Shape &lhs,
                                                          DType lhsDType,
                                                          const Shape &rhs,
                                                          DType rhsDType,
                                                          int64_t axis) {
  const char *name = "vecdot";
  if (lhs.empty() || rhs.empty())
    return zeroDimOperand(name, lhs, rhs);
  int64_t lhsRank = lhs.size(), rhsRank = rhs.size();
  int64_t minRank = std::min(lhsRank, rhsRank);
  // Compared before negating: -axis overflows for INT64_MIN.
  bool inRange = axis < 0 ? axis >= -minRank
                          : axis < (lhsRank == rhsRank ? lhsRank : 0) &&
                                lhsRank - axis <= minRank;
  if (!inRange)
    return Error{ErrorKind::Value,
                 "vecdot: axis " + std::to_string(axis) +
                     " is out of range for shapes " + formatShape(lhs) +
                     " and " + formatShape(rhs) + " (expected -" +
                     std::to_string(minRank) + " to -1" +
                     (lhsRank == rhsRank
                          ? ", or 0 to " + std::to_string(lhsRank - 1)
                          : std::string()) +
                     ")"};
  int64_t fromEnd = axis < 0 ? -axis : lhsRank - axis;
  Result<DType> dtype = contractionDType(name, lhsDType, rhsDType);
  if (!dtype)
    return dtype.getError();
  // Broadcast the other dims: the contracted ones as 1s, put back below.
  Shape lhsOthers = lhs, rhsOthers = rhs;
  lhsOthers[lhsRank - fromEnd] = 1;
  rhsOthers[rhsRank - fromEnd] = 1;
  Result<Shape> full = broadcastShapes({lhsOthers, rhsOthers});
  if (!full)
    return Error{ErrorKind::Broadcast,
                 "vecdot: shapes " + formatShape(lhs) + " and " +
                     formatShape(rhs) +
                     " do not broadcast outside the contracted axis (" +
                     full.getError().message + ")"};
  Builder b(name, lhs, rhs, *dtype);
  int64_t rank = full->size(), axisPos = rank - fromEnd;
  for (int64_t p = 0; p < rank; ++p) {
    if (p == axisPos)
      continue;
    int64_t loop = b.addResultDim((*full)[p]);
    if (int64_t d = p - (rank - lhsRank); d >= 0)
      b.index(/*isLhs=*/true, d, loop);
    if (int64_t d = p - (rank - rhsRank); d >= 0)
      b.index(/*isLhs=*/false, d, loop);
  }
  if (std::optional<Error> error =
          b.contract(lhsRank - fromEnd, rhsRank - fromEnd))
    return *error;
  return b.finish();
}

/// The dims `axes` of a rank-`rank` operand with negative ones counted from
/// the end, or a Value error for one out of range or repeated.
static Result<std::vector<int64_t>>
normalizeTensordotAxes(const std::vector<int64_t> &axes, int64_t rank,
                       const char *which) {
  std::vector<int64_t> dims;
  for (int64_t a : axes) {
    int64_t d = a < 0 ? a + rank : a;
    if (d < 0 || d >= rank)
      return Error{ErrorKind::Value, std::string("tensordot: axis ") +
                                         std::to_string(a) + " of " + which +
                                         " is out of range for rank " +
                                         std::to_string(rank)};
    if (std::count(dims.begin(), dims.end(), d))
      return Error{ErrorKind::Value, std::string("tensordot: axis ") +
                                         std::to_string(a) + " of " + which +
                                         " is given twice"};
    dims.push_back(d);
  }
  return dims;
}

Result<Contraction> ptensor::semantics::tensordotContraction(
    const Shape &lhs, DType lhsDType, const Shape &rhs, DType rhsDType,
    const std::vector<int64_t> &lhsAxes, const std::vector<int64_t> &rhsAxes) {
  const char *name = "tensordot";
  if (lhsAxes.size() != rhsAxes.size())
    return Error{ErrorKind::Value,
                 "tensordot: the two axis lists must have the same length, "
                 "but got " +
                     std::to_string(lhsAxes.size()) + " and " +
                     std::to_string(rhsAxes.size())};
  Result<std::vector<int64_t>> l = normalizeTensordotAxes(lhsAxes, lhs.size(), "x1");
  if (!l)
    return l.getError();
  Result<std::vector<int64_t>> r = normalizeTensordotAxes(rhsAxes, rhs.size(), "x2");
  if (!r)
    return r.getError();
  Result<DType> dtype = contractionDType(name, lhsDType, rhsDType);
  if (!dtype)
    return dtype.getError();
  Builder b(name, lhs, rhs, *dtype);
  for (size_t d = 0; d < lhs.size(); ++d)
    if (!std::count(l->begin(), l->end(), int64_t(d)))
      b.c.lhsLoops[d] = b.addResultDim(lhs[d]);
  for (size_t d = 0; d < rhs.size(); ++d)
    if (!std::count(r->begin(), r->end(), int64_t(d)))
      b.c.rhsLoops[d] = b.addResultDim(rhs[d]);
  for (size_t i = 0; i < l->size(); ++i)
    if (std::optional<Error> error = b.contract((*l)[i], (*r)[i]))
      return *error;
  return b.finish();
}

Result<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
ptensor::semantics::tensordotAxes(int64_t n, int64_t lhsRank,
                                  int64_t rhsRank) {
  if (n < 0 || n > lhsRank || n > rhsRank)
    return Error{ErrorKind::Value,
                 "tensordot: axes=" + std::to_string(n) +
                     " must be between 0 and the smaller rank (" +
                     std::to_string(std::min(lhsRank, rhsRank)) + ")"};
  std::vector<int64_t> l, r;
  for (int64_t i = 0; i < n; ++i) {
    l.push_back(lhsRank - n + i);
    r.push_back(i);
  }
  return std::make_pair(l, r);
}
