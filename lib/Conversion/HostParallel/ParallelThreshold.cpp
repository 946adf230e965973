//===- ParallelThreshold.cpp - small parallel loop nests stay serial ------===//

#include "ptensor/Conversion/HostParallel/HostParallel.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

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

/// Whether `parallel` is exactly the worksharing loop `nest` over a
/// single-block body with no reductions, privatization or OpenMP ops inside
/// (what convert-scf-to-openmp makes of an scf.parallel).
bool isSoleLoopNest(omp::ParallelOp parallel, omp::LoopNestOp nest) {
  Block &block = parallel.getRegion().front();
  if (!parallel.getRegion().hasOneBlock() || block.getOperations().size() != 2)
    return false;
  auto wsloop = dyn_cast<omp::WsloopOp>(block.front());
  if (!wsloop || wsloop.getRegion().front().getOperations().size() != 1 ||
      &wsloop.getRegion().front().front() != nest.getOperation() ||
      !nest.getRegion().hasOneBlock() || wsloop.getReductionVars().size() ||
      wsloop.getPrivateVars().size() || parallel.getPrivateVars().size() ||
      parallel.getReductionVars().size())
    return false;
  bool nestedOpenMP = false;
  nest.getRegion().walk([&](Operation *op) {
    nestedOpenMP |= op != nest.getOperation() &&
                    isa<omp::OpenMPDialect>(op->getDialect()) &&
                    !isa<omp::YieldOp>(op);
  });
  return !nestedOpenMP;
}

/// Whether `nest`'s body may leave compiled code through the caller's trap
/// (a failed check, allocation or runtime call): the traps are per thread
/// and jump over the frames between, which must not include the OpenMP
/// runtime's, so such a nest stays on the calling thread.
bool mayLeaveThroughTrap(omp::LoopNestOp nest) {
  bool leaves = false;
  nest.getRegion().walk([&](Operation *op) {
    if (isa<cf::AssertOp, memref::AllocOp>(op))
      leaves = true;
    else if (auto call = dyn_cast<func::CallOp>(op))
      leaves |= call.getCallee().starts_with("ptensor_rt_");
  });
  return leaves;
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

  /// The thread count at run time (ptensor_rt_host_threads(team-size)),
  /// built before `parallel`.
  Value buildThreadCount(OpBuilder &b, Location loc) {
    ModuleOp module = getOperation();
    Type i32 = b.getI32Type();
    Type i64 = b.getI64Type();
    func::FuncOp fn = getOrDeclareRuntimeFunction(
        b, module, kHostThreadsFunction, TypeRange{i64}, TypeRange{i32});
    Value processes = arith::ConstantOp::create(
        b, loc, i64, b.getIntegerAttr(i64, teamSize));
    auto call = func::CallOp::create(b, loc, fn, ValueRange{processes});
    return call.getResult(0);
  }

  void runOnOperation() override {
    SmallVector<omp::ParallelOp> outermost;
    getOperation()->walk([&](omp::ParallelOp op) {
      if (!op->getParentOfType<omp::ParallelOp>() && !op.getIfExpr())
        outermost.push_back(op);
    });
    for (omp::ParallelOp parallel : outermost) {
      omp::LoopNestOp nest = findLoopNest(parallel);
      Region &region = parallel.getRegion();
      if (!nest || nest.getLoopInclusive() ||
          !areValuesDefinedAbove(nest.getLoopLowerBounds(), region) ||
          !areValuesDefinedAbove(nest.getLoopUpperBounds(), region) ||
          !areValuesDefinedAbove(nest.getLoopSteps(), region))
        continue;
      OpBuilder b(parallel);
      Location loc = parallel.getLoc();
      bool versioned = isSoleLoopNest(parallel, nest);
      if (versioned && mayLeaveThroughTrap(nest)) {
        buildSerialNest(b, loc, nest);
        parallel.erase();
        continue;
      }
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
      if (!parallel.getNumThreads()) {
        // The thread count where the code runs; one thread is serial.
        Value threads = buildThreadCount(b, loc);
        Value one = arith::ConstantOp::create(b, loc, b.getI32Type(),
                                              b.getI32IntegerAttr(1));
        Value several = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sgt, threads, one);
        large = arith::AndIOp::create(b, loc, large, several);
        parallel.getNumThreadsMutable().assign(threads);
      }
      if (!versioned) {
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
