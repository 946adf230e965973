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

/// Folds an involution: `kind(kind(x))` is `x` when the types agree.
static Value foldInvolution(ElementwiseUnaryOp op) {
  auto inner = op.getInput().getDefiningOp<ElementwiseUnaryOp>();
  if (!inner || inner.getKind() != op.getKind() ||
      inner.getInput().getType() != op.getType())
    return {};
  return inner.getInput();
}

Value mlir::ptensor::getIdentityFold(Operation *op) {
  if (auto unary = dyn_cast<ElementwiseUnaryOp>(op)) {
    switch (unary.getKind()) {
    case UnaryOpKind::positive:
      return unary.getInput().getType() == unary.getType() ? unary.getInput()
                                                           : Value();
    case UnaryOpKind::negative:
    case UnaryOpKind::bitwise_invert:
      return foldInvolution(unary);
    default:
      return {};
    }
  }
  if (isa<CastOp, CopyOp>(op) &&
      op->getOperand(0).getType() == op->getResult(0).getType())
    return op->getOperand(0);
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
