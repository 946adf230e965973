//===- ParallelThreshold.cpp - small parallel loop nests stay serial ------===//

#include "ptensor/Conversion/HostParallel/HostParallel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

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

/// The loop nest of `parallel` when the region is exactly one worksharing
/// loop over a single-block body (what convert-scf-to-openmp makes of an
/// scf.parallel), else null.
omp::LoopNestOp soleLoopNest(omp::ParallelOp parallel, omp::LoopNestOp nest) {
  Block &block = parallel.getRegion().front();
  if (!parallel.getRegion().hasOneBlock() || block.getOperations().size() != 2)
    return {};
  auto wsloop = dyn_cast<omp::WsloopOp>(block.front());
  if (!wsloop || wsloop.getRegion().front().getOperations().size() != 1 ||
      &wsloop.getRegion().front().front() != nest.getOperation() ||
      !nest.getRegion().hasOneBlock() || wsloop.getReductionVars().size() ||
      wsloop.getPrivateVars().size() || parallel.getPrivateVars().size() ||
      parallel.getReductionVars().size())
    return {};
  return nest;
}

/// Builds, at `b`'s insertion point, `nest`'s loops as a serial scf.for nest
/// running a copy of its body.
void buildSerialNest(OpBuilder &b, Location loc, omp::LoopNestOp nest) {
  IRMapping mapping;
  Block &body = nest.getRegion().front();
  for (auto [lower, upper, step, iv] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps(), body.getArguments())) {
    auto loop = scf::ForOp::create(b, loc, lower, upper, step);
    mapping.map(iv, loop.getInductionVar());
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
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
      if (!soleLoopNest(parallel, nest)) {
        // Serialized by the OpenMP runtime when small (a call remains).
        parallel.getIfExprMutable().assign(large);
        continue;
      }
      // Small nests run a serial copy: no OpenMP runtime call at all.
      auto branch = scf::IfOp::create(b, loc, large, /*withElseRegion=*/true);
      parallel->moveBefore(branch.thenBlock()->getTerminator());
      b.setInsertionPoint(branch.elseBlock()->getTerminator());
      buildSerialNest(b, loc, nest);
    }
  }
};
} // namespace
