//===- PTensorFolds.cpp - folds of ptensor ops ----------------------------===//
//
// Only folds that are obviously right: identities (cast to the same dtype,
// copy to the same placement, broadcast to its own static shape, identity
// permutation, positive) and involutions (double negative, double bitwise
// invert, flipping the same axes twice).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

using namespace mlir;
using namespace mlir::ptensor;

/// The kind of `op` when it is an elementwise_unary that has one.
static std::optional<UnaryOpKind> getUnaryKind(Operation *op) {
  auto unary = dyn_cast<ElementwiseUnaryOp>(op);
  if (!unary || !unary.getKindAttr())
    return std::nullopt;
  return unary.getKind();
}

/// Folds an involution: `kind(kind(x))` is `x` when the types agree.
static Value foldInvolution(Operation *op, UnaryOpKind kind) {
  Operation *inner = op->getOperand(0).getDefiningOp();
  if (!inner || inner->getNumOperands() != 1 || getUnaryKind(inner) != kind ||
      inner->getOperand(0).getType() != op->getResult(0).getType())
    return {};
  return inner->getOperand(0);
}

/// Through the generic Operation API only: the delete verifier asks about
/// ops it reaches through uses, which may not be verified yet (no kind, a
/// builtin operand type, another operand count).
Value mlir::ptensor::getIdentityFold(Operation *op) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return {};
  Value input = op->getOperand(0);
  bool sameType = input.getType() == op->getResult(0).getType();
  if (std::optional<UnaryOpKind> kind = getUnaryKind(op)) {
    switch (*kind) {
    case UnaryOpKind::positive:
      return sameType ? input : Value();
    case UnaryOpKind::negative:
    case UnaryOpKind::bitwise_invert:
      return foldInvolution(op, *kind);
    default:
      return {};
    }
  }
  if (isa<CastOp, CopyOp>(op) && sameType)
    return input;
  return {};
}

OpFoldResult ElementwiseUnaryOp::fold(FoldAdaptor) {
  return getIdentityFold(*this);
}

OpFoldResult CastOp::fold(FoldAdaptor) { return getIdentityFold(*this); }

OpFoldResult CopyOp::fold(FoldAdaptor) { return getIdentityFold(*this); }

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType() && getType().hasStaticShape())
    return getSource();
  return {};
}

/// Maps possibly negative axes into [0, rank), sorted; the verifier has
/// already checked that they are in range.
static SmallVector<int64_t> normalizedAxisSet(ArrayRef<int64_t> axes,
                                              int64_t rank) {
  SmallVector<int64_t> result;
  for (int64_t a : axes)
    result.push_back(a < 0 ? a + rank : a);
  llvm::sort(result);
  return result;
}

OpFoldResult PermuteDimsOp::fold(FoldAdaptor) {
  int64_t rank = getType().getRank();
  for (auto [i, a] : llvm::enumerate(getAxes()))
    if (a != static_cast<int64_t>(i) && a != static_cast<int64_t>(i) - rank)
      return {};
  return getSource();
}

OpFoldResult FlipOp::fold(FoldAdaptor) {
  if (getAxes().empty())
    return getSource();
  auto inner = getSource().getDefiningOp<FlipOp>();
  int64_t rank = getType().getRank();
  if (inner && normalizedAxisSet(inner.getAxes(), rank) ==
                   normalizedAxisSet(getAxes(), rank))
    return inner.getSource();
  return {};
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  PTensorType type = getSource().getType();
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), type.getDimSize(dim));
}
