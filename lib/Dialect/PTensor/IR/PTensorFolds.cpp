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

OpFoldResult ElementwiseUnaryOp::fold(FoldAdaptor) {
  switch (getKind()) {
  case UnaryOpKind::positive:
    if (getInput().getType() == getType())
      return getInput();
    return {};
  case UnaryOpKind::negative:
  case UnaryOpKind::bitwise_invert:
    return foldInvolution(*this);
  default:
    return {};
  }
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  return {};
}

OpFoldResult CopyOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  return {};
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType() && getType().hasStaticShape())
    return getSource();
  return {};
}

OpFoldResult PermuteDimsOp::fold(FoldAdaptor) {
  for (auto [i, a] : llvm::enumerate(getAxes()))
    if (a != static_cast<int64_t>(i))
      return {};
  return getSource();
}

OpFoldResult FlipOp::fold(FoldAdaptor) {
  if (getAxes().empty())
    return getSource();
  auto inner = getSource().getDefiningOp<FlipOp>();
  if (inner && inner.getAxes() == getAxes())
    return inner.getSource();
  return {};
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  PTensorType type = getSource().getType();
  if (getDim() < 0 || getDim() >= type.getRank() ||
      type.isDynamicDim(getDim()))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          type.getDimSize(getDim()));
}
