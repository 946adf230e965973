//===- Layout.cpp - output layout follows the inputs' stride order --------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORLAYOUT
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// The permutation shared by all ptensor operands of `op` (each defined by
/// `permute_dims` with the same axes), or none.
static std::optional<SmallVector<int64_t>> getSharedPermutation(Operation *op) {
  std::optional<SmallVector<int64_t>> axes;
  for (Value v : op->getOperands()) {
    if (!isa<PTensorType>(v.getType()))
      continue;
    auto permute = v.getDefiningOp<PermuteDimsOp>();
    if (!permute)
      return std::nullopt;
    SmallVector<int64_t> these(permute.getAxes());
    if (axes && *axes != these)
      return std::nullopt;
    axes = these;
  }
  return axes;
}

/// Computes `op` on the unpermuted operands and permutes its results: the
/// result then has the inputs' layout and the loop nest walks memory in order.
static void hoistPermutation(Operation *op, ArrayRef<int64_t> axes) {
  OpBuilder b(op);
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    auto permute = v.getDefiningOp<PermuteDimsOp>();
    operands.push_back(permute ? permute.getSource() : v);
  }
  Operation *inner = b.clone(*op);
  inner->setOperands(operands);
  SmallVector<Type> types;
  if (auto castOp = dyn_cast<CastOp>(inner)) {
    // A cast keeps the (unpermuted) shape and takes the result's dtype.
    auto src = castOp.getSource().getType();
    types.push_back(src.cloneWithShapeAndType(
        src.getShape(), castOp.getType().getElementType()));
  } else if (failed(cast<InferTypeOpInterface>(inner).inferReturnTypes(
                 op->getContext(), op->getLoc(), operands,
                 inner->getAttrDictionary(), inner->getPropertiesStorage(),
                 inner->getRegions(), types))) {
    inner->erase();
    return;
  }
  for (auto [r, t] : llvm::zip(inner->getResults(), types))
    r.setType(t);
  for (auto [old, computed] : llvm::zip(op->getResults(), inner->getResults()))
    old.replaceAllUsesWith(
        PermuteDimsOp::create(b, op->getLoc(), computed, axes).getResult());
  op->erase();
}

namespace {
struct PTensorLayoutPass
    : public ptensor::impl::PTensorLayoutBase<PTensorLayoutPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, SmallVector<int64_t>>> work;
    getOperation()->walk([&](Operation *op) {
      if (!isa<ElementwiseUnaryOp, ElementwiseUnaryTestOp, ElementwiseBinaryOp,
               ElementwiseBinaryTestOp, WhereOp, PointwiseOp, CastOp>(op))
        return;
      if (auto axes = getSharedPermutation(op))
        work.push_back({op, *axes});
    });
    for (auto &[op, axes] : work)
      hoistPermutation(op, axes);
  }
};
} // namespace
