//===- LoopOrder.cpp - run-time loop order of loop nests ------------------===//
//
// TensorIterator's reorder_dimensions, restricted to the two orders a static
// loop nest can be generated in ahead of time: the logical (row-major) order
// and its reverse (column-major; also every 2-D transpose). Elementwise
// nests and two-loop reductions (a row reduction over a transposed view
// runs as a column reduction) take it. The decision
// compares the outermost and the innermost loop dims operand by operand, on
// strides that are known only at run time.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/Utils/RunTimeLayout.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {
/// One operand's vote on the order of loop dims `outer` and `inner`.
struct Vote {
  /// Set when the vote is known at compile time: true for reversed.
  std::optional<bool> decided;
  /// Otherwise, i1 values: whether the operand votes reversed / identity
  /// (both false when its effective strides are 0 or equal).
  Value reversed, identity;
};
} // namespace

/// The vote of `operand` on whether loop dim `outer` should run inside loop
/// dim `inner`, or none when it does not read both. A decided vote is exact
/// whenever any operand votes: a loop dim of size 1 silences every operand
/// reading it, and only then can a static layout stay silent.
static std::optional<Vote> voteOf(IndexMath &math, linalg::GenericOp op,
                                  OpOperand &operand, unsigned outer,
                                  unsigned inner) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (!type)
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  MLIRContext *ctx = op.getContext();
  std::optional<unsigned> p = map.getResultPosition(getAffineDimExpr(outer, ctx));
  std::optional<unsigned> q = map.getResultPosition(getAffineDimExpr(inner, ctx));
  if (!p || !q)
    return std::nullopt; // a broadcast operand: stride 0, no vote
  // Identity layout: strides decrease with the position.
  if (type.getLayout().isIdentity())
    return Vote{*p > *q, {}, {}};
  auto [strides, offset] = type.getStridesAndOffset();
  int64_t sp = strides[*p], sq = strides[*q];
  if (!ShapedType::isDynamic(sp) && !ShapedType::isDynamic(sq) && sp != 0 &&
      sq != 0) {
    if (std::abs(sp) == std::abs(sq))
      return std::nullopt;
    return Vote{std::abs(sp) < std::abs(sq), {}, {}};
  }
  Layout layout = getLayout(math.b, math.loc, operand.get());
  Value ep = math.effectiveStride(layout.sizes[*p], layout.strides[*p]);
  Value eq = math.effectiveStride(layout.sizes[*q], layout.strides[*q]);
  Value zero = math.value(math.b.getIndexAttr(0));
  Value pNonZero = math.notI(math.eq(ep, zero));
  Value qNonZero = math.notI(math.eq(eq, zero));
  return Vote{std::nullopt, math.andI(pNonZero, math.ult(ep, eq)),
              math.andI(qNonZero, math.ult(eq, ep))};
}

Value mlir::ptensor::buildReversedOrderCondition(IndexMath &math,
                                                 linalg::GenericOp op,
                                                 OrderVote rule) {
  unsigned n = op.getNumLoops();
  if (n < 2)
    return math.boolean(false);
  // Outputs first, as TensorIterator orders its operands.
  SmallVector<OpOperand *> operands;
  for (OpOperand &o : op.getDpsInitsMutable())
    if (rule == OrderVote::FirstDecides)
      operands.push_back(&o);
  for (OpOperand *o : op.getDpsInputOperands())
    operands.push_back(o);

  if (rule == OrderVote::FirstDecides) {
    // From the last operand to the first: an earlier vote overrides.
    Value result = math.boolean(false);
    for (OpOperand *o : llvm::reverse(operands)) {
      std::optional<Vote> v = voteOf(math, op, *o, 0, n - 1);
      if (!v)
        continue;
      if (v->decided)
        result = math.boolean(*v->decided);
      else
        result = math.orI(v->reversed,
                          math.andI(math.notI(v->identity), result));
    }
    return result;
  }
  // InputsAgree: some input votes reversed and none votes identity.
  Value anyReversed = math.boolean(false), noIdentity;
  for (OpOperand *o : operands) {
    std::optional<Vote> v = voteOf(math, op, *o, 0, n - 1);
    if (!v)
      continue;
    if (v->decided == false)
      return math.boolean(false); // votes identity whenever anyone votes
    if (v->decided == true) {
      anyReversed = math.boolean(true);
      continue;
    }
    anyReversed = math.orI(anyReversed, v->reversed);
    noIdentity = math.andI(noIdentity, math.notI(v->identity));
  }
  return math.andI(anyReversed, noIdentity);
}

bool mlir::ptensor::hasStridedPermutedOperands(linalg::GenericOp op) {
  return llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
    Type type = operand.get().getType();
    if (isa<UnrankedMemRefType>(type))
      return false;
    if (auto memref = dyn_cast<MemRefType>(type))
      if (!memref.isStrided())
        return false;
    return op.getMatchingIndexingMap(&operand).isProjectedPermutation();
  });
}

bool mlir::ptensor::isTwoLoopReduction(linalg::GenericOp op) {
  return op.hasPureBufferSemantics() && op.getNumLoops() == 2 &&
         op.getNumReductionLoops() == 1 && !op.hasIndexSemantics() &&
         hasStridedPermutedOperands(op);
}

linalg::GenericOp mlir::ptensor::createReversedCopy(linalg::GenericOp op) {
  IRRewriter rewriter(op.getContext());
  rewriter.setInsertionPoint(op);
  auto copy = cast<linalg::GenericOp>(rewriter.clone(*op));
  SmallVector<unsigned> reversed;
  for (unsigned d = op.getNumLoops(); d > 0; --d)
    reversed.push_back(d - 1);
  // A reversal is a valid permutation: interchange cannot fail.
  return *linalg::interchangeGenericOp(rewriter, copy, reversed);
}
