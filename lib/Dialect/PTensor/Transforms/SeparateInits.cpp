//===- SeparateInits.cpp - a fill of its own for every accumulating op ----===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORSEPARATEINITS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {
struct SeparateInitsPass
    : public ptensor::impl::PTensorSeparateInitsBase<SeparateInitsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    DenseMap<Operation *, unsigned> order; // program order, for the first use
    getOperation()->walk([&](Operation *op) {
      order[op] = order.size();
      if (auto fill = dyn_cast<linalg::FillOp>(op);
          fill && fill.hasPureTensorSemantics())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      // The uses as the init of another destination-style op, in order.
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : fill->getResult(0).getUses()) {
        auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (dps && dps.isDpsInit(&use))
          inits.push_back(&use);
      }
      if (inits.empty())
        continue;
      llvm::sort(inits, [&](OpOperand *x, OpOperand *y) {
        return order.lookup(x->getOwner()) < order.lookup(y->getOwner());
      });
      // Each accumulating user gets a fill of an empty tensor of its own:
      // an empty tensor shared with other inits (CSE merges equal ones)
      // would let bufferization reuse the accumulator's buffer for a later
      // result, a second writer that stops a library epilogue. The first
      // user keeps the original fill unless the fill is also read (then
      // accumulating into it would need a copy).
      auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
      auto ownEmpty = [&]() -> Value {
        OpBuilder b(empty);
        b.setInsertionPointAfter(empty); // where the original allocates
        return b.clone(*empty)->getResult(0);
      };
      bool alsoRead = !fill->getResult(0).hasNUses(inits.size());
      if (empty && !empty->hasOneUse() && !alsoRead)
        fill.getOutputsMutable()[0].set(ownEmpty());
      OpBuilder b(fill);
      b.setInsertionPointAfter(fill);
      for (OpOperand *use : alsoRead ? ArrayRef<OpOperand *>(inits)
                                     : ArrayRef<OpOperand *>(inits).drop_front()) {
        IRMapping mapping;
        if (empty)
          mapping.map(fill.getOutputs()[0], ownEmpty());
        Operation *clone = b.clone(*fill.getOperation(), mapping);
        use->set(clone->getResult(0));
      }
    }
  }
};
} // namespace
