//===- Broadcast.cpp - explicit broadcasting ------------------------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"
#include "ptensor/Dialect/PTensor/Utils/ShapeDominance.h"

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
    // Decide on the IR as written (inserted broadcasts would hide which
    // operand already has the result shape), then rewrite.
    SmallVector<std::pair<Operation *, SmallVector<unsigned>>> work;
    getOperation()->walk([&](Operation *op) {
      if (!isBroadcasting(op) || op->getNumResults() == 0)
        return;
      unsigned numPTensors = llvm::count_if(
          op->getOperandTypes(), [](Type t) { return isa<PTensorType>(t); });
      SmallVector<unsigned> toBroadcast;
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<PTensorType>(operand.get().getType()) ||
            operand.get().getDefiningOp<BroadcastOp>() || numPTensors == 1 ||
            hasBroadcastResultShape(op, operand.getOperandNumber()))
          continue;
        toBroadcast.push_back(operand.getOperandNumber());
      }
      if (!toBroadcast.empty())
        work.push_back({op, toBroadcast});
    });
    for (auto &[op, indices] : work) {
      auto result = cast<PTensorType>(op->getResult(0).getType());
      OpBuilder b(op);
      SmallVector<Value> dynamicSizes =
          computeDynamicSizes(b, op, result.getShape());
      for (unsigned i : indices) {
        Value v = op->getOperand(i);
        auto pt = cast<PTensorType>(v.getType());
        auto target = pt.cloneWithShapeAndType(result.getShape(),
                                               pt.getElementType());
        op->setOperand(i, BroadcastOp::create(b, op->getLoc(), target, v,
                                              dynamicSizes));
      }
    }
  }
};
} // namespace
