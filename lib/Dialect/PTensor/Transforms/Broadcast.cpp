//===- Broadcast.cpp - explicit broadcasting ------------------------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORBROADCAST
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// True for ops whose ptensor operands are broadcast to the result shape.
static bool isBroadcasting(Operation *op) {
  return isa<ElementwiseBinaryOp, ElementwiseBinaryTestOp, WhereOp,
             PointwiseOp>(op);
}

/// The run-time sizes of the dynamic dims of `shape`, the broadcast of the
/// ptensor operands of `op`: for each such dim, the first operand size that
/// is not 1 (operand sizes there are dynamic or 1).
static SmallVector<Value> computeDynamicSizes(OpBuilder &b, Operation *op,
                                              ArrayRef<int64_t> shape) {
  Location loc = op->getLoc();
  SmallVector<Value> sizes;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    Value acc = one;
    for (Value v : op->getOperands()) {
      auto pt = dyn_cast<PTensorType>(v.getType());
      int64_t lead = shape.size() - (pt ? pt.getRank() : 0);
      if (!pt || static_cast<int64_t>(i) < lead ||
          !pt.isDynamicDim(i - lead))
        continue;
      Value d = DimOp::create(b, loc, v, i - lead);
      Value accIsOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, acc, one);
      acc = arith::SelectOp::create(b, loc, accIsOne, d, acc);
    }
    sizes.push_back(acc);
  }
  return sizes;
}

namespace {
struct PTensorBroadcastPass
    : public ptensor::impl::PTensorBroadcastBase<PTensorBroadcastPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (!isBroadcasting(op) || op->getNumResults() == 0)
        return;
      auto result = cast<PTensorType>(op->getResult(0).getType());
      ArrayRef<int64_t> shape = result.getShape();
      unsigned numPTensors = llvm::count_if(
          op->getOperandTypes(), [](Type t) { return isa<PTensorType>(t); });
      OpBuilder b(op);
      SmallVector<Value> dynamicSizes;
      bool sizesComputed = false;
      for (OpOperand &operand : op->getOpOperands()) {
        auto pt = dyn_cast<PTensorType>(operand.get().getType());
        if (!pt || operand.get().getDefiningOp<BroadcastOp>())
          continue;
        // Exact shapes need nothing unless a dynamic size could be 1.
        bool exact = pt.getShape() == shape &&
                     (pt.hasStaticShape() || numPTensors == 1);
        if (exact)
          continue;
        if (!sizesComputed) {
          dynamicSizes = computeDynamicSizes(b, op, shape);
          sizesComputed = true;
        }
        auto target = pt.cloneWithShapeAndType(shape, pt.getElementType());
        Value broadcast = BroadcastOp::create(b, op->getLoc(), target,
                                              operand.get(), dynamicSizes);
        operand.set(broadcast);
      }
    });
  }
};
} // namespace
