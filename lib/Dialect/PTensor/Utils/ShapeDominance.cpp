//===- ShapeDominance.cpp - operands known to have the broadcast shape ----===//

#include "ptensor/Dialect/PTensor/Utils/ShapeDominance.h"

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Ops whose result shape is the broadcast of their ptensor operands'.
static bool propagatesShape(Operation *op) {
  return isa<ElementwiseUnaryOp, ElementwiseUnaryTestOp, ElementwiseBinaryOp,
             ElementwiseBinaryTestOp, WhereOp, PointwiseOp, CastOp>(op);
}

/// Adds the leaves whose broadcast gives the shape of `v` to `leaves`.
/// Gives up (returns false) past `budget` visited values.
static bool collectLeaves(Value v, llvm::SmallPtrSetImpl<Value> &leaves,
                          unsigned &budget) {
  if (budget-- == 0)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def || !propagatesShape(def)) {
    leaves.insert(v);
    return true;
  }
  for (Value operand : def->getOperands())
    if (isa<PTensorType>(operand.getType()) &&
        !collectLeaves(operand, leaves, budget))
      return false;
  return true;
}

bool mlir::ptensor::hasBroadcastResultShape(Operation *op, unsigned index) {
  auto result = cast<PTensorType>(op->getResult(0).getType());
  auto type = dyn_cast<PTensorType>(op->getOperand(index).getType());
  if (!type || type.getShape() != result.getShape())
    return false;
  if (type.hasStaticShape())
    return true;
  unsigned budget = 256;
  llvm::SmallPtrSet<Value, 8> mine;
  if (!collectLeaves(op->getOperand(index), mine, budget))
    return false;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (i == index || !isa<PTensorType>(operand.getType()))
      continue;
    llvm::SmallPtrSet<Value, 8> theirs;
    if (!collectLeaves(operand, theirs, budget))
      return false;
    for (Value leaf : theirs)
      if (!mine.contains(leaf))
        return false;
  }
  return true;
}
