//===- FuseElementwise.cpp - fuse elementwise linalg.generic chains -------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Utils/DeviceFunction.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORFUSEELEMENTWISE
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// The tensor whose buffer `value` reads (through ptensor.strided_view).
static Value getViewedTensor(Value value) {
  while (auto view = value.getDefiningOp<StridedViewOp>())
    value = view.getSource();
  return value;
}

/// Whether fusing `producer` into `consumer` would move a read of a tensor
/// past a ptensor.strided_write into it: the fused op, where the consumer
/// is, would read the written buffer, but the producer reads the values
/// from before the write (and one-shot bufferize rejects such IR).
static bool readsAcrossWrite(Operation *producer, Operation *consumer) {
  Block *block = producer->getBlock();
  Operation *at = block->findAncestorOpInBlock(*consumer);
  if (!at)
    return true;
  for (Value input : producer->getOperands()) {
    Value viewed = getViewedTensor(input);
    for (Operation *user : viewed.getUsers()) {
      auto write = dyn_cast<StridedWriteOp>(user);
      if (write && write.getDest() == viewed && write->getBlock() == block &&
          producer->isBeforeInBlock(write) && write->isBeforeInBlock(at))
        return true;
    }
  }
  return false;
}

/// Whether `producer` rounds the f32 sums of a device function's f16/bf16
/// matrix product that a library may compute: it stays its own generic,
/// which cuBLASLt then applies in the product (writing the rounded result),
/// so that consumers read f16/bf16 instead of the f32 sums. Exact: the
/// consumers read the same rounded values.
static bool roundsDeviceProduct(Operation *producer) {
  if (!producer->hasAttr(kRoundsContractionAttrName) ||
      producer->getNumOperands() == 0)
    return false;
  // A product of the library pass's shape (only those are marked).
  auto product = producer->getOperand(0).getDefiningOp<linalg::GenericOp>();
  auto function = producer->getParentOfType<func::FuncOp>();
  return product && product->hasAttr(kLibraryContractionAttrName) &&
         function && function->hasAttr(kDeviceAttrName);
}

namespace {
struct PTensorFuseElementwisePass
    : public ptensor::impl::PTensorFuseElementwiseBase<
          PTensorFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    unsigned limit = maxRecomputeOps;
    // Single-use producers always fuse; a producer with several users is
    // recomputed in each consumer when its body is small.
    linalg::ControlFusionFn control = [limit](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || readsAcrossWrite(producer, fused->getOwner()) ||
          roundsDeviceProduct(producer) ||
          fused->getOwner()->hasAttr(kLibraryContractionAttrName))
        return false;
      if (producer->hasOneUse())
        return true;
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      if (!generic)
        return false;
      // Cost of recomputing the body: math functions count 8 scalar ops.
      unsigned cost = 0;
      for (Operation &op : generic.getBody()->without_terminator())
        cost += isa<math::MathDialect>(op.getDialect()) ? 8 : 1;
      return cost <= limit;
    };
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    // `tensor.dim` of a producer's result would keep the producer alive
    // after fusion: read the size from its init operand instead.
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
