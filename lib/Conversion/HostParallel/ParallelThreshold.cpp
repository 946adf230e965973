//===- ParallelThreshold.cpp - small parallel loop nests stay serial ------===//

#include "ptensor/Conversion/HostParallel/HostParallel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORPARALLELTHRESHOLD
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {
/// The loop nest that `parallel`'s worksharing loop runs, if it has one.
omp::LoopNestOp findLoopNest(omp::ParallelOp parallel) {
  omp::LoopNestOp nest;
  parallel.getRegion().walk([&](omp::LoopNestOp op) {
    if (!nest && op->getParentOfType<omp::ParallelOp>() == parallel)
      nest = op;
  });
  return nest;
}

/// Whether every value of `values` is defined outside `op`.
bool definedAbove(ValueRange values, Operation *op) {
  return llvm::all_of(values, [&](Value v) {
    return !op->isAncestor(v.getParentRegion()->getParentOp());
  });
}

struct ParallelThreshold
    : mlir::ptensor::impl::PTensorParallelThresholdBase<ParallelThreshold> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<omp::ParallelOp> outermost;
    getOperation()->walk([&](omp::ParallelOp op) {
      if (!op->getParentOfType<omp::ParallelOp>() && !op.getIfExpr())
        outermost.push_back(op);
    });
    for (omp::ParallelOp parallel : outermost) {
      omp::LoopNestOp nest = findLoopNest(parallel);
      if (!nest || !definedAbove(nest.getLoopLowerBounds(), parallel) ||
          !definedAbove(nest.getLoopUpperBounds(), parallel) ||
          !definedAbove(nest.getLoopSteps(), parallel))
        continue;
      OpBuilder b(parallel);
      Location loc = parallel.getLoc();
      Type type = nest.getLoopLowerBounds().front().getType();
      Value iterations = arith::ConstantOp::create(
          b, loc, type, b.getIntegerAttr(type, 1));
      for (auto [lower, upper, step] :
           llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                     nest.getLoopSteps())) {
        Value extent = arith::SubIOp::create(b, loc, upper, lower);
        Value trips = arith::CeilDivSIOp::create(b, loc, extent, step);
        iterations = arith::MulIOp::create(b, loc, iterations, trips);
      }
      Value threshold = arith::ConstantOp::create(
          b, loc, type, b.getIntegerAttr(type, minIterations));
      Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          iterations, threshold);
      parallel.getIfExprMutable().assign(large);
    }
  }
};
} // namespace
