//===- ReductionKernel.cpp - gpu.launch for a reduction generic -----------===//
//
// Two kernel shapes, chosen by the loop that varies fastest in memory (the
// innermost loop, which the layout pass puts on the smallest strides):
//
//   row (innermost loop reduced): a block of kBlock threads per output,
//     grid-striding over the outputs; thread t folds reduced elements
//     t, t + kBlock, ... (consecutive threads read consecutive elements),
//     then the block merges its kBlock partial results in shared memory
//     (a tree of halving steps) and thread 0 merges the result into the
//     output;
//   column (innermost loop kept): a thread per output, grid-striding over
//     the outputs, folding all reduced elements in order (consecutive
//     threads read consecutive kept elements).
//
// Both start from the combiner's identity and merge into the output's
// current value (linalg's semantics: the init is the first accumulator).
//
//===----------------------------------------------------------------------===//

#include "ReductionKernel.h"

#include "KernelCommon.h"

#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Threads of a row-kernel block (a power of two: the shared-memory tree
/// halves it).
static constexpr int64_t kBlock = 256;

/// Checks that `op` is a generic this lowering handles.
static LogicalResult checkSupported(RewriterBase &rewriter,
                                    linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "expected buffer semantics");
  if (op.getNumReductionLoops() == 0)
    return rewriter.notifyMatchFailure(op, "expected reduction loops");
  if (!getMarkedCombiner(op.getBody()->getTerminator()))
    return rewriter.notifyMatchFailure(op, "expected a marked combiner");
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr e : map.getResults())
      if (!isa<AffineDimExpr, AffineConstantExpr>(e))
        return rewriter.notifyMatchFailure(op, "expected dims or constants");
  return success();
}

namespace {
/// The loop structure of a reduction generic and the code of one element.
struct ReductionNest {
  mutable linalg::GenericOp op; ///< (its accessors are not const)
  Combiner combiner;
  SmallVector<Value> sizes;       ///< every loop's size (index)
  SmallVector<unsigned> kept, reduced; ///< loop dims of each kind
  Value keptCount, reducedCount;  ///< products of their sizes

  SmallVector<Value> sizesOf(ArrayRef<unsigned> dims) const {
    SmallVector<Value> s;
    for (unsigned d : dims)
      s.push_back(sizes[d]);
    return s;
  }

  /// Loop indices from the kept and reduced linear positions.
  SmallVector<Value> ids(OpBuilder &b, Location loc, Value k, Value r) const {
    SmallVector<Value> all(sizes.size());
    for (auto [d, v] : llvm::zip(kept, delinearize(b, loc, k, sizesOf(kept))))
      all[d] = v;
    for (auto [d, v] :
         llvm::zip(reduced, delinearize(b, loc, r, sizesOf(reduced))))
      all[d] = v;
    return all;
  }

  /// The accumulators after folding element (k, r) into `acc`.
  SmallVector<Value> fold(OpBuilder &b, Location loc, Value k, Value r,
                          ValueRange acc) const {
    return emitElement(b, loc, op, ids(b, loc, k, r), {}, acc);
  }

  /// Folds reduced elements lo, lo + step, ... < reducedCount into the
  /// combiner's identity.
  SmallVector<Value> foldRange(OpBuilder &b, Location loc, Value k, Value lo,
                               Value step) const {
    SmallVector<Value> init = identity(b, loc);
    auto loop = scf::ForOp::create(
        b, loc, lo, reducedCount, step, init,
        [&](OpBuilder &nb, Location nloc, Value r, ValueRange acc) {
          scf::YieldOp::create(nb, nloc, fold(nb, nloc, k, r, acc));
        });
    return SmallVector<Value>(loop.getResults());
  }

  SmallVector<Value> identity(OpBuilder &b, Location loc) const {
    SmallVector<Type> types;
    for (OpOperand &out : op.getDpsInitsMutable())
      types.push_back(cast<MemRefType>(out.get().getType()).getElementType());
    return buildIdentity(b, loc, combiner, types);
  }

  /// Merges `partial` into the outputs at kept position `k`.
  void store(OpBuilder &b, Location loc, Value k, ValueRange partial) const {
    Value zero = indexConstant(b, loc, 0);
    SmallVector<Value> at = ids(b, loc, k, zero);
    SmallVector<SmallVector<Value>> indices;
    SmallVector<Value> old;
    for (OpOperand &out : op.getDpsInitsMutable()) {
      indices.push_back(indicesThroughMap(b, loc, op, &out, at));
      old.push_back(memref::LoadOp::create(b, loc, out.get(), indices.back()));
    }
    SmallVector<Value> merged = buildCombine(b, loc, combiner, old, partial);
    for (auto [out, v, at] :
         llvm::zip(op.getDpsInitsMutable(), merged, indices))
      memref::StoreOp::create(b, loc, v, out.get(), at);
  }
};
} // namespace

/// A block per output: strided folds, then a shared-memory tree.
static void emitRowKernel(OpBuilder &b, Location loc, const ReductionNest &nest,
                          const KernelConfig &config) {
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  SmallVector<Type> shared;
  for (OpOperand &out : nest.op.getDpsInitsMutable())
    shared.push_back(MemRefType::get(
        {kBlock}, cast<MemRefType>(out.get().getType()).getElementType(),
        AffineMap(), workgroup));
  Value maxBlocks = indexConstant(b, loc, config.maxBlocks);
  Value capped = arith::MinUIOp::create(b, loc, nest.keptCount, maxBlocks);
  Value one = indexConstant(b, loc, 1);
  Value blocks = arith::MaxUIOp::create(b, loc, capped, one);
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch =
      beginLaunch(b, loc, blocks, indexConstant(b, loc, kBlock), shared);
  ArrayRef<BlockArgument> buffers = launch.getWorkgroupAttributions();
  Value t = launch.getThreadIds().x, block = launch.getBlockIds().x,
        grid = launch.getGridSize().x;
  Value blockSize = indexConstant(b, loc, kBlock);
  scf::ForOp::create(
      b, loc, block, nest.keptCount, grid, ValueRange(),
      [&](OpBuilder &nb, Location nloc, Value k, ValueRange) {
        SmallVector<Value> partial = nest.foldRange(nb, nloc, k, t, blockSize);
        for (auto [buf, v] : llvm::zip(buffers, partial))
          memref::StoreOp::create(nb, nloc, v, buf, t);
        gpu::BarrierOp::create(nb, nloc);
        for (int64_t half = kBlock / 2; half >= 1; half /= 2) {
          Value active = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult,
                                               t, indexConstant(nb, nloc, half));
          auto ifActive = scf::IfOp::create(nb, nloc, active, false);
          {
            OpBuilder::InsertionGuard g(nb);
            nb.setInsertionPointToStart(ifActive.thenBlock());
            Value other = arith::AddIOp::create(nb, nloc, t,
                                                indexConstant(nb, nloc, half));
            SmallVector<Value> mine, theirs;
            for (BlockArgument buf : buffers) {
              mine.push_back(memref::LoadOp::create(nb, nloc, buf, t));
              theirs.push_back(memref::LoadOp::create(nb, nloc, buf, other));
            }
            SmallVector<Value> merged =
                buildCombine(nb, nloc, nest.combiner, mine, theirs);
            for (auto [buf, v] : llvm::zip(buffers, merged))
              memref::StoreOp::create(nb, nloc, v, buf, t);
          }
          gpu::BarrierOp::create(nb, nloc);
        }
        Value first = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq,
                                            t, indexConstant(nb, nloc, 0));
        auto ifFirst = scf::IfOp::create(nb, nloc, first, false);
        {
          OpBuilder::InsertionGuard g(nb);
          nb.setInsertionPointToStart(ifFirst.thenBlock());
          SmallVector<Value> total;
          Value zero = indexConstant(nb, nloc, 0);
          for (BlockArgument buf : buffers)
            total.push_back(memref::LoadOp::create(nb, nloc, buf, zero));
          nest.store(nb, nloc, k, total);
        }
        // The next output reuses the shared buffers.
        gpu::BarrierOp::create(nb, nloc);
        scf::YieldOp::create(nb, nloc);
      });
}

/// A thread per output: sequential folds.
static void emitColumnKernel(OpBuilder &b, Location loc,
                             const ReductionNest &nest,
                             const KernelConfig &config) {
  Value blocks = gridFor(b, loc, nest.keptCount, config);
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch = beginLaunch(
      b, loc, blocks, indexConstant(b, loc, config.blockSize));
  Value t = launch.getThreadIds().x, block = launch.getBlockIds().x;
  Value blockSize = launch.getBlockSize().x, grid = launch.getGridSize().x;
  Value start = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block, blockSize), t);
  Value step = arith::MulIOp::create(b, loc, grid, blockSize);
  scf::ForOp::create(
      b, loc, start, nest.keptCount, step, ValueRange(),
      [&](OpBuilder &nb, Location nloc, Value k, ValueRange) {
        Value zero = indexConstant(nb, nloc, 0), one = indexConstant(nb, nloc, 1);
        nest.store(nb, nloc, k, nest.foldRange(nb, nloc, k, zero, one));
        scf::YieldOp::create(nb, nloc);
      });
}

LogicalResult mlir::ptensor::convertReductionToKernel(
    RewriterBase &rewriter, linalg::GenericOp op, const KernelConfig &config) {
  if (failed(checkSupported(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  ReductionNest nest;
  nest.op = op;
  nest.combiner = *getMarkedCombiner(op.getBody()->getTerminator());
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  for (Range range : linalgOp.createLoopRanges(rewriter, loc))
    nest.sizes.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  nest.keptCount = indexConstant(rewriter, loc, 1);
  nest.reducedCount = indexConstant(rewriter, loc, 1);
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool isReduced = it == utils::IteratorType::reduction;
    (isReduced ? nest.reduced : nest.kept).push_back(d);
    Value &count = isReduced ? nest.reducedCount : nest.keptCount;
    count = arith::MulIOp::create(rewriter, loc, count, nest.sizes[d]);
  }
  // No outputs: nothing to launch (a zero-block grid is a CUDA error).
  Value nonEmpty =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt,
                            nest.keptCount, indexConstant(rewriter, loc, 0));
  auto ifNonEmpty = scf::IfOp::create(rewriter, loc, nonEmpty, false);
  rewriter.setInsertionPointToStart(ifNonEmpty.thenBlock());
  if (nest.reduced.back() == op.getNumLoops() - 1)
    emitRowKernel(rewriter, loc, nest, config);
  else
    emitColumnKernel(rewriter, loc, nest, config);
  rewriter.eraseOp(op);
  return success();
}
