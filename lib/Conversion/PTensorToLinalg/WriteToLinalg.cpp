//===- WriteToLinalg.cpp - ptensor.write, ordered with later reads --------===//
//
// ptensor.write mutates its destination, but the builtin tensors it lowers
// to are values. The write becomes `ptensor.strided_write` into the tensor
// the destination is (or is a view of), whose result is the tensor after
// the write; every later use of the old tensor in the block then uses that
// result, so reads come after the write in the IR that bufferization sees
// (PyTorch's order: `a.add_(s)` then `a * 2` reads the new `a`).
//
// One-shot bufferize writes the strided_write in place into the
// destination's buffer and, after empty-tensor elimination, lets the op
// computing the value write there directly unless one of its inputs
// overlaps the destination other than element for element.
//
//===----------------------------------------------------------------------===//

#include "PatternsInternal.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ptensor;

/// The views from `value` back to the tensor they view, innermost first.
static SmallVector<Operation *> getViewChain(Value value) {
  SmallVector<Operation *> chain;
  for (Operation *op = value.getDefiningOp(); op && isViewOp(op);
       op = op->getOperand(0).getDefiningOp())
    chain.push_back(op);
  return chain;
}

/// Views of `viewed` made before `write` and used after it: a clone after
/// the write replaces those later uses, so that they view the tensor as
/// written (views alias: PyTorch reads the new values through them).
static void rebuildViewsAfter(WriteOp write, Value viewed) {
  Block *block = write->getBlock();
  auto isLater = [&](OpOperand &use) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    return user && write->isBeforeInBlock(user);
  };
  SmallVector<Operation *> views, worklist;
  for (Operation *user : viewed.getUsers())
    worklist.push_back(user);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isViewOp(op) || op->getBlock() != block ||
        !op->isBeforeInBlock(write) || llvm::is_contained(views, op))
      continue;
    views.push_back(op);
    llvm::append_range(worklist, op->getUsers());
  }
  llvm::sort(views, [](Operation *x, Operation *y) {
    return x->isBeforeInBlock(y);
  });
  OpBuilder b(write->getContext());
  b.setInsertionPointAfter(write);
  IRMapping map;
  for (Operation *view : views) {
    Value result = view->getResult(0);
    if (llvm::none_of(result.getUses(), isLater))
      continue;
    // A named vector: llvm::reverse of a temporary would dangle (the
    // range-for keeps only the outermost temporary alive).
    SmallVector<Operation *> chain = getViewChain(result);
    for (Operation *inner : llvm::reverse(chain))
      if (!map.contains(inner->getResult(0)))
        b.clone(*inner, map);
    result.replaceUsesWithIf(map.lookup(result), isLater);
  }
}

LogicalResult mlir::ptensor::prepareWrites(Operation *root) {
  WalkResult result = root->walk([](WriteOp write) {
    SmallVector<Operation *> chain = getViewChain(write.getDest());
    Value viewed =
        chain.empty() ? write.getDest() : chain.back()->getOperand(0);
    if (viewed.getParentBlock() != write->getBlock()) {
      write.emitOpError("expected the written tensor to be defined in the "
                        "block of the write (later reads could not be "
                        "ordered after it), found it defined outside");
      return WalkResult::interrupt();
    }
    // A view made before an earlier write must view the tensor as it is at
    // this write: views are free, so rebuild the chain here.
    if (!chain.empty()) {
      OpBuilder b(write);
      IRMapping map;
      for (Operation *view : llvm::reverse(chain))
        b.clone(*view, map);
      write.getDestMutable().assign(map.lookup(write.getDest()));
    }
    rebuildViewsAfter(write, viewed);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void mlir::ptensor::orderReadsAfterWrites(ArrayRef<StridedWriteOp> writes) {
  // In program order: a later write's destination is the earlier one's
  // result by then.
  for (StridedWriteOp write : writes) {
    Block *block = write->getBlock();
    write.getDest().replaceUsesWithIf(write.getResult(), [&](OpOperand &use) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      return user && write->isBeforeInBlock(user);
    });
  }
}

namespace {

/// ptensor.write -> ptensor.strided_write into the viewed tensor (with the
/// view's offset and strides when the destination is a view).
struct WritePattern : public OpConversionPattern<WriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value dest = adaptor.getDest();
    auto view = dest.getDefiningOp<StridedViewOp>();
    if (!view) {
      rewriter.replaceOpWithNewOp<StridedWriteOp>(
          op, dest.getType(), adaptor.getValue(), dest, /*offset=*/Value(),
          ValueRange(), ValueRange());
      return success();
    }
    // Offsets and strides of a view are from the base of the buffer, so a
    // view of a view writes into the innermost source.
    Value viewed = view.getSource();
    while (auto inner = viewed.getDefiningOp<StridedViewOp>())
      viewed = inner.getSource();
    rewriter.replaceOpWithNewOp<StridedWriteOp>(
        op, viewed.getType(), adaptor.getValue(), viewed, view.getOffset(),
        view.getSizes(), view.getStrides());
    return success();
  }
};

} // namespace

void mlir::ptensor::populateWriteToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WritePattern>(converter, patterns.getContext());
}
