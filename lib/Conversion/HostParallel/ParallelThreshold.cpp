//===- ParallelThreshold.cpp - small parallel loop nests stay serial ------===//

#include "ptensor/Conversion/HostParallel/HostParallel.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/Utils/LoopBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// `v` where `b` builds (before an omp.parallel whose `region` may define
/// it): `v` itself when defined above, else a copy of its pure defining op
/// with its operands so materialized (at most `depth` ops deep); null when
/// it depends on anything else (a loop's value, a load, a division that
/// may trap).
Value materializeAbove(OpBuilder &b, Value v, Region &region, IRMapping &copies,
                       unsigned depth = 4) {
  if (!region.isAncestor(v.getParentRegion()))
    return v;
  if (Value copy = copies.lookupOrNull(v))
    return copy;
  Operation *def = v.getDefiningOp();
  // Pure: no memory effects and speculatable (no division that may trap
  // where the loop would not have run).
  if (!def || depth == 0 || def->getNumRegions() || !isPure(def))
    return nullptr;
  for (Value operand : def->getOperands())
    if (!materializeAbove(b, operand, region, copies, depth - 1))
      return nullptr;
  Operation *copy = b.clone(*def, copies);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

/// The step of `loop` where it is a positive constant (the trip counts
/// below divide by it before the loop would run); null otherwise.
Value positiveStep(OpBuilder &b, Location loc, scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0 || !isa<IndexType>(loop.getStep().getType()))
    return nullptr;
  return arith::ConstantIndexOp::create(b, loc, *step);
}

/// The trips of a loop over `extent` positions (upper - lower) by the
/// positive `step`: ceil(max(extent, 0) / step), in their integer type.
Value buildTrips(OpBuilder &b, Location loc, Value extent, Value step) {
  Type type = extent.getType();
  Value zero =
      arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
  Value positive = arith::MaxSIOp::create(b, loc, extent, zero);
  return arith::CeilDivSIOp::create(b, loc, positive, step);
}

/// The trips of a loop from `lower` to `upper` by the positive `step`.
Value buildTrips(OpBuilder &b, Location loc, Value lower, Value upper,
                 Value step) {
  Value extent = arith::SubIOp::create(b, loc, upper, lower);
  return buildTrips(b, loc, extent, step);
}

/// The most trips of `loop` (by the positive `step`) when it walks one
/// block of a tiled loop (buildBlockBounds), the block's size known before
/// the parallel region: ceil(min(size, n) / step), or with n not known
/// there ceil(size / step); null otherwise.
Value buildBlockTrips(OpBuilder &b, Location loc, scf::ForOp loop, Value step,
                      Region &region, IRMapping &copies) {
  std::optional<BlockEnd> end =
      matchBlockEnd(loop.getLowerBound(), loop.getUpperBound());
  if (!end)
    return nullptr;
  Value size = materializeAbove(b, end->size, region, copies);
  if (!size)
    return nullptr;
  if (Value n = materializeAbove(b, end->n, region, copies))
    size = arith::MinSIOp::create(b, loc, size, n);
  return buildTrips(b, loc, size, step);
}

/// The iterations of the scf.for loops in `block` per run of it, built at
/// `b` (before the omp.parallel of `region`): the sum over its loops of
/// trip count x their bodies' iterations, and over its scf.ifs of the
/// larger branch's; null without loops. A loop whose bounds are not known
/// before the parallel region counts its block's trips (buildBlockTrips),
/// or else its trips in the nest's first iteration (`first` maps the
/// nest's induction variables to their lower bounds: the nests here split
/// their work in equal tasks), or else its body once; so does one without
/// a positive constant step. So a nest of few iterations that each reduce
/// long lines (row and column sums, a full reduction's chunks) is weighed
/// by its whole work.
Value buildBodyIterations(OpBuilder &b, Location loc, Block &block,
                          Region &region, IRMapping &copies, IRMapping &first) {
  Value total;
  auto add = [&](Value work) {
    total = total ? arith::AddIOp::create(b, loc, total, work).getResult()
                  : work;
  };
  for (Operation &op : block) {
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      Value work = buildBodyIterations(b, loc, *branch.thenBlock(), region,
                                       copies, first);
      if (branch.elseBlock())
        if (Value other = buildBodyIterations(b, loc, *branch.elseBlock(),
                                              region, copies, first))
          work = work ? arith::MaxSIOp::create(b, loc, work, other).getResult()
                      : other;
      if (work)
        add(work);
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    Value work =
        buildBodyIterations(b, loc, *loop.getBody(), region, copies, first);
    Value trips;
    if (Value step = positiveStep(b, loc, loop)) {
      Value lower = materializeAbove(b, loop.getLowerBound(), region, copies);
      Value upper = materializeAbove(b, loop.getUpperBound(), region, copies);
      trips = lower && upper
                  ? buildTrips(b, loc, lower, upper, step)
                  : buildBlockTrips(b, loc, loop, step, region, copies);
      if (!trips) {
        lower = materializeAbove(b, loop.getLowerBound(), region, first);
        upper = materializeAbove(b, loop.getUpperBound(), region, first);
        if (lower && upper)
          trips = buildTrips(b, loc, lower, upper, step);
      }
    }
    if (!work)
      work = trips ? trips : arith::ConstantIndexOp::create(b, loc, 1);
    else if (trips)
      work = arith::MulIOp::create(b, loc, trips, work);
    add(work);
  }
  return total;
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
        Value trips = buildTrips(b, loc, lower, upper, step);
        iterations = arith::MulIOp::create(b, loc, iterations, trips);
      }
      // Each iteration's inner loops count too (a reduction's rows).
      IRMapping copies, first;
      for (auto [iv, lower] : llvm::zip(nest.getRegion().getArguments(),
                                        nest.getLoopLowerBounds()))
        first.map(iv, lower);
      // (1 + that: the body's own work counts once.)
      if (Value inner = buildBodyIterations(b, loc, nest.getRegion().front(),
                                            region, copies, first)) {
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        inner = arith::AddIOp::create(b, loc, inner, one);
        if (inner.getType() != type)
          inner = arith::IndexCastOp::create(b, loc, type, inner);
        iterations = arith::MulIOp::create(b, loc, iterations, inner);
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
