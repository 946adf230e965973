//===- SerialInnerLoop.cpp - parallel nests keep a serial innermost loop --===//
//
// convert-scf-to-openmp collapses all dims of an scf.parallel into one
// worksharing loop (a division and a remainder per element recover the
// dims), which LLVM does not vectorize. Run before it, this pass leaves the
// innermost dim of a nest that reads and writes unit strides along it (the
// contiguous fast paths of ptensor-coalesce-dims) to a serial scf.for over
// one block of it, so each thread runs inner loops LLVM vectorizes. A nest
// with other accesses (a transposed operand's column) runs in tiles of its
// last two dims instead, two serial loops per tile.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/HostParallel/HostParallel.h"

#include "ptensor/Dialect/PTensor/Utils/LoopBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORSERIALINNERLOOP
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {

/// Whether every memref access in `op`'s body moves by at most one element
/// per step of the innermost induction variable, as the static layouts
/// say: indices are the body's arguments or values from above, and the
/// innermost one indexes only dims of static stride 0 or 1. A strided
/// access (a transposed operand's column, with dynamic strides) would be
/// vectorized by LLVM into gathers, slower than the collapsed scalar loop.
bool movesByUnitStride(scf::ParallelOp op) {
  Value innermost = op.getInductionVars().back();
  Region &body = op.getRegion();
  auto accessOk = [&](Value memref, ValueRange indices) {
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    if (failed(type.getStridesAndOffset(strides, offset)))
      return false; // a layout that is not strided: left alone
    for (auto [d, index] : llvm::enumerate(indices)) {
      if (index == innermost) {
        if (strides[d] != 0 && strides[d] != 1)
          return false;
      } else if (index.getParentRegion() == &body &&
                 !isa<BlockArgument>(index)) {
        return false; // computed in the body: maybe from the innermost
      }
    }
    return true;
  };
  WalkResult walk = body.walk([&](Operation *nested) {
    bool ok = true;
    if (auto load = dyn_cast<memref::LoadOp>(nested))
      ok = accessOk(load.getMemRef(), load.getIndices());
    else if (auto store = dyn_cast<memref::StoreOp>(nested))
      ok = accessOk(store.getMemRef(), store.getIndices());
    else if (isa<memref::MemRefDialect>(nested->getDialect()))
      ok = false; // another access (a subview, a copy): left as it is
    return ok ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Whether `op` is an outermost scf.parallel of two or more dims without
/// reductions and with a flat body (what convert-linalg-to-parallel-loops
/// makes of an elementwise nest; the reductions' nests, whose loops in the
/// body fold rows or chunks, keep every parallel dim).
bool isFlatNest(scf::ParallelOp op) {
  if (op.getNumLoops() < 2 || op.getNumResults() != 0 ||
      op->getParentOfType<scf::ParallelOp>())
    return false;
  for (Operation &nested : op.getBody()->without_terminator())
    if (nested.getNumRegions() != 0)
      return false;
  return true;
}

/// Whether the last two dims of `op` run from 0 by 1 (sizes as bounds).
bool lastTwoFromZero(scf::ParallelOp op) {
  unsigned n = op.getNumLoops();
  for (unsigned d = n - 2; d < n; ++d)
    if (!isConstantIntValue(op.getLowerBound()[d], 0) ||
        !isConstantIntValue(op.getStep()[d], 1))
      return false;
  return true;
}

/// Replaces `op`'s induction variables by `newIvs` (one per dim), moves
/// its body (less the terminator) to the end of `loop`'s body and erases
/// `op`.
void moveBodyInto(scf::ParallelOp op, ValueRange newIvs, scf::ForOp loop) {
  for (auto [iv, replacement] : llvm::zip_equal(op.getInductionVars(), newIvs))
    iv.replaceAllUsesWith(replacement);
  Block *body = op.getBody();
  Block *loopBody = loop.getBody();
  loopBody->getOperations().splice(loopBody->getTerminator()->getIterator(),
                                   body->getOperations(), body->begin(),
                                   body->getTerminator()->getIterator());
  op.erase();
}

/// Rewrites `op` into an scf.parallel over its outer dims (and the blocks
/// of `blockSize` positions of the innermost one, when it starts at 0 with
/// step 1) whose body runs the innermost dim as an scf.for over the block
/// (or whole).
void serializeInnermost(scf::ParallelOp op, int64_t blockSize) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lower = op.getLowerBound().back(), upper = op.getUpperBound().back();
  Value step = op.getStep().back();
  SmallVector<Value> lowers(op.getLowerBound().drop_back());
  SmallVector<Value> uppers(op.getUpperBound().drop_back());
  SmallVector<Value> steps(op.getStep().drop_back());
  bool blocked = isConstantIntValue(lower, 0) && isConstantIntValue(step, 1);
  Value size;
  if (blocked) {
    size = arith::ConstantIndexOp::create(b, loc, blockSize);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    // An upper bound of a loop from 0 by 1 is a size: not negative.
    Value blocks = arith::CeilDivUIOp::create(b, loc, upper, size);
    lowers.push_back(zero);
    uppers.push_back(blocks);
    steps.push_back(one);
  }
  auto outer = scf::ParallelOp::create(b, loc, lowers, uppers, steps);
  b.setInsertionPointToStart(outer.getBody());
  Value first = lower, last = upper;
  if (blocked) {
    BlockBounds bounds = buildBlockBounds(
        b, loc, outer.getInductionVars().back(), size, upper);
    first = bounds.first;
    last = bounds.last;
  }
  auto inner = scf::ForOp::create(b, loc, first, last, step);

  SmallVector<Value> newIvs(
      ArrayRef<Value>(outer.getInductionVars()).drop_back(blocked ? 1 : 0));
  newIvs.push_back(inner.getInductionVar());
  moveBodyInto(op, newIvs, inner);
}

/// Rewrites `op` (lastTwoFromZero) into an scf.parallel over its outer
/// dims and the `tile` x `tile` tiles of its last two, whose body runs one
/// tile as two serial scf.for loops (rows, then columns): a strided
/// operand's elements of a tile are reused from the cache and its pages
/// stay in the TLB, where the collapsed nest walked a transposed operand's
/// column across thousands of pages (and divided per element).
void tileLastTwo(scf::ParallelOp op, int64_t tile) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  unsigned n = op.getNumLoops();
  SmallVector<Value> lowers(op.getLowerBound().drop_back(2));
  SmallVector<Value> uppers(op.getUpperBound().drop_back(2));
  SmallVector<Value> steps(op.getStep().drop_back(2));
  Value size = arith::ConstantIndexOp::create(b, loc, tile);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (unsigned d = n - 2; d < n; ++d) {
    // An upper bound of a loop from 0 by 1 is a size: not negative.
    Value tiles =
        arith::CeilDivUIOp::create(b, loc, op.getUpperBound()[d], size);
    lowers.push_back(zero);
    uppers.push_back(tiles);
    steps.push_back(one);
  }
  auto outer = scf::ParallelOp::create(b, loc, lowers, uppers, steps);
  b.setInsertionPointToStart(outer.getBody());
  SmallVector<Value> outerIvs = outer.getInductionVars();
  BlockBounds rows = buildBlockBounds(b, loc, outerIvs[n - 2], size,
                                      op.getUpperBound()[n - 2]);
  BlockBounds columns = buildBlockBounds(b, loc, outerIvs[n - 1], size,
                                         op.getUpperBound()[n - 1]);
  auto rowLoop = scf::ForOp::create(b, loc, rows.first, rows.last, one);
  b.setInsertionPointToStart(rowLoop.getBody());
  auto columnLoop =
      scf::ForOp::create(b, loc, columns.first, columns.last, one);

  SmallVector<Value> newIvs(ArrayRef<Value>(outerIvs).drop_back(2));
  newIvs.push_back(rowLoop.getInductionVar());
  newIvs.push_back(columnLoop.getInductionVar());
  moveBodyInto(op, newIvs, columnLoop);
}

/// Rows and columns of the tiles of tileLastTwo. a.T + a of 3000^2 f32
/// (bench/cpu_elementwise.py) took 8.0-9.1 ms on one thread and 11.5-13.8
/// on two untiled (the collapsed nest); in tiles of 32, 64 and 128 about
/// 9 ms on one and 4.0, 3.85 and 4.0 on two (bench/RESULTS.md).
constexpr int64_t kStridedTile = 64;

struct SerialInnerLoop
    : mlir::ptensor::impl::PTensorSerialInnerLoopBase<SerialInnerLoop> {
  using PTensorSerialInnerLoopBase::PTensorSerialInnerLoopBase;

  void runOnOperation() override {
    if (blockSize < 1) {
      getOperation().emitError()
          << "ptensor-serial-inner-loop: block-size must be at least 1, not "
          << int64_t(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> unitStride, strided;
    getOperation()->walk([&](scf::ParallelOp op) {
      if (!isFlatNest(op))
        return;
      if (movesByUnitStride(op))
        unitStride.push_back(op);
      else if (lastTwoFromZero(op))
        strided.push_back(op);
    });
    for (scf::ParallelOp op : unitStride)
      serializeInnermost(op, int64_t(blockSize));
    for (scf::ParallelOp op : strided)
      tileLastTwo(op, kStridedTile);
  }
};

} // namespace
