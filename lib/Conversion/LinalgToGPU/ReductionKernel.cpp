//===- ReductionKernel.cpp - gpu.launch for a reduction generic -----------===//
//
// Two kernel shapes, chosen by the loop that varies fastest in memory (the
// innermost loop, which the layout pass puts on the smallest strides):
//
//   row (innermost loop reduced): a block of kBlock threads per output,
//     grid-striding over the outputs; thread t folds reduced elements
//     t, t + kBlock, ... (consecutive threads read consecutive elements),
//     then the block merges its kBlock partial results (xor shuffles in
//     each warp, the warps' results through shared memory) and thread 0
//     merges the result into the output;
//   column (innermost loop kept): a thread per output, grid-striding over
//     the outputs, folding all reduced elements in order (consecutive
//     threads read consecutive kept elements).
//
// When there are too few outputs to fill the GPU (a full reduction, a sum
// over the rows of a wide matrix), both split the reduced range into
// chunks, decided at run time: a first kernel folds each (output, chunk)
// into a partial-result buffer, a second merges each output's partials in
// chunk order. No float atomics: results do not change from run to run.
//
// Everything starts from the combiner's identity and merges into the
// output's current value (linalg's semantics: the init is the first
// accumulator).
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

/// Threads of a row-kernel block (a power of two, whole warps and at most
/// 32 of them: warp 0 merges one result per warp).
static constexpr int64_t kBlock = 256;

/// Row-kernel blocks that fill an H100 (132 SMs, 8 resident blocks of
/// kBlock threads each): fewer outputs than this split their rows.
static constexpr int64_t kResidentBlocks = 1056;

/// Fewest reduced elements per chunk of a split row (a block's threads
/// fold 16 each): smaller chunks cost more in the second kernel than they
/// gain in the first.
static constexpr int64_t kMinRowChunk = 16 * kBlock;

/// Threads that fill an H100 (132 SMs x 2048): fewer column outputs than
/// this split their columns.
static constexpr int64_t kResidentThreads = 132 * 2048;

/// Fewest reduced elements per chunk of a split column.
static constexpr int64_t kMinColumnChunk = 64;

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
  unsigned lanes = 1; ///< interleaved accumulators per thread
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

  /// Folds reduced elements lo, lo + step, ... < hi into the combiner's
  /// identity, in `lanes` interleaved accumulators (independent loads in
  /// flight per thread; buildLaneFold).
  SmallVector<Value> foldRange(OpBuilder &b, Location loc, Value k, Value lo,
                               Value hi, Value step) const {
    return buildLaneFold(
        b, loc, combiner, identity(b, loc), lanes, lo, hi, step,
        [&](OpBuilder &nb, Location nloc, Value r, ValueRange acc) {
          return fold(nb, nloc, k, r, acc);
        });
  }

  /// The accumulators' types (the outputs' element types).
  SmallVector<Type> accumulatorTypes() const {
    return getAccumulatorTypes(op);
  }

  SmallVector<Value> identity(OpBuilder &b, Location loc) const {
    return buildIdentity(b, loc, combiner, accumulatorTypes());
  }

  /// Merges the partial results partials[base + j * stride], j = lo, lo +
  /// step, ... < hi, in that order, into the combiner's identity.
  SmallVector<Value> mergeRange(OpBuilder &b, Location loc,
                                ArrayRef<Value> partials, Value base,
                                Value stride, Value lo, Value hi,
                                Value step) const {
    SmallVector<Value> init = identity(b, loc);
    auto loop = scf::ForOp::create(
        b, loc, lo, hi, step, init,
        [&](OpBuilder &nb, Location nloc, Value j, ValueRange acc) {
          Value offset = arith::MulIOp::create(nb, nloc, j, stride);
          Value at = arith::AddIOp::create(nb, nloc, base, offset);
          SmallVector<Value> next;
          for (Value buffer : partials)
            next.push_back(memref::LoadOp::create(nb, nloc, buffer, at));
          scf::YieldOp::create(nb, nloc,
                               buildCombine(nb, nloc, combiner, acc, next));
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// One partial-result buffer per accumulator, of `count` elements.
  SmallVector<Value> allocPartials(OpBuilder &b, Location loc,
                                   Value count) const {
    SmallVector<Value> buffers;
    for (Type type : accumulatorTypes()) {
      auto memrefType = MemRefType::get({ShapedType::kDynamic}, type);
      buffers.push_back(memref::AllocOp::create(b, loc, memrefType, count));
    }
    return buffers;
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

/// Threads of a warp (shuffles exchange values within one).
static constexpr int64_t kWarp = 32;

/// Warps of a row-kernel block.
static constexpr int64_t kWarpsPerBlock = kBlock / kWarp;

/// Shared-memory buffers of one accumulator per warp.
static SmallVector<Type> sharedBuffers(OpBuilder &b, const ReductionNest &nest) {
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  SmallVector<Type> shared;
  for (Type type : nest.accumulatorTypes())
    shared.push_back(
        MemRefType::get({kWarpsPerBlock}, type, AffineMap(), workgroup));
  return shared;
}

/// `value` from lane (this lane xor `offset`) of the warp. gpu.shuffle takes
/// 32- and 64-bit values: narrower integers and floats travel as i32.
static Value shuffleXor(OpBuilder &b, Location loc, Value value,
                        int64_t offset) {
  Type type = value.getType();
  Value offsetValue = i32Constant(b, loc, offset);
  Value width = i32Constant(b, loc, kWarp);
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits == 32 || bits == 64)
    return gpu::ShuffleOp::create(b, loc, value, offsetValue, width,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  Type narrowInt = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(type)
                    ? arith::BitcastOp::create(b, loc, narrowInt, value)
                    : value;
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), asInt);
  Value shuffled = gpu::ShuffleOp::create(b, loc, wide, offsetValue, width,
                                          gpu::ShuffleMode::XOR)
                       .getShuffleResult();
  Value narrow = arith::TruncIOp::create(b, loc, narrowInt, shuffled);
  return isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, type, narrow)
                              : narrow;
}

/// Merges `partial` across the first `lanes` lanes of each warp (a power
/// of two, at most kWarp) in xor-butterfly steps: lane 0 ends with the
/// merge of lanes 0 .. lanes-1, in an order fixed by the lane numbers.
static SmallVector<Value> mergeInWarp(OpBuilder &b, Location loc,
                                      const ReductionNest &nest,
                                      SmallVector<Value> partial,
                                      int64_t lanes) {
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    SmallVector<Value> other;
    for (Value v : partial)
      other.push_back(shuffleXor(b, loc, v, offset));
    partial = buildCombine(b, loc, nest.combiner, partial, other);
  }
  return partial;
}

/// Called in a block of kBlock threads, thread `t` holding `partial`:
/// merges the block's partial results (in each warp by shuffles, then the
/// warps' results through `buffers` by warp 0) and calls `finish` with the
/// total in thread 0. The block may reuse the buffers afterwards.
static void emitBlockMerge(
    OpBuilder &b, Location loc, const ReductionNest &nest,
    ArrayRef<BlockArgument> buffers, Value t, ValueRange partial,
    function_ref<void(OpBuilder &, Location, ValueRange)> finish) {
  SmallVector<Value> warpTotal =
      mergeInWarp(b, loc, nest, SmallVector<Value>(partial), kWarp);
  Value warpSize = indexConstant(b, loc, kWarp);
  Value lane = arith::RemUIOp::create(b, loc, t, warpSize);
  Value warp = arith::DivUIOp::create(b, loc, t, warpSize);
  Value zero = indexConstant(b, loc, 0);
  Value isLeader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  auto ifLeader = scf::IfOp::create(b, loc, isLeader, false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifLeader.thenBlock());
    for (auto [buf, v] : llvm::zip(buffers, warpTotal))
      memref::StoreOp::create(b, loc, v, buf, warp);
  }
  gpu::BarrierOp::create(b, loc);
  // Warp 0 merges the warps' totals (lanes past the warp count hold the
  // identity, which the butterfly steps never read into lane 0's result).
  Value isFirstWarp =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, zero);
  auto ifFirstWarp = scf::IfOp::create(b, loc, isFirstWarp, false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifFirstWarp.thenBlock());
    Value warps = indexConstant(b, loc, kWarpsPerBlock);
    Value holdsOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, warps);
    SmallVector<Type> types = nest.accumulatorTypes();
    auto load = scf::IfOp::create(b, loc, types, holdsOne, true);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(load.thenBlock());
      SmallVector<Value> loaded;
      for (BlockArgument buf : buffers)
        loaded.push_back(memref::LoadOp::create(b, loc, buf, lane));
      scf::YieldOp::create(b, loc, loaded);
      b.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(b, loc, nest.identity(b, loc));
    }
    SmallVector<Value> total = mergeInWarp(
        b, loc, nest, SmallVector<Value>(load.getResults()), kWarpsPerBlock);
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
    auto ifFirst = scf::IfOp::create(b, loc, isFirst, false);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    finish(b, loc, total);
  }
  gpu::BarrierOp::create(b, loc);
}

/// A launch of blocks of kBlock threads with shared buffers for the
/// accumulators, grid-striding over `items` (at most `maxBlocks` blocks):
/// `body(b, loc, item, t, buffers)` runs for each item in every thread t.
static void emitBlockPerItem(
    OpBuilder &b, Location loc, const ReductionNest &nest, Value items,
    int64_t maxBlocks,
    function_ref<void(OpBuilder &, Location, Value, Value,
                      ArrayRef<BlockArgument>)>
        body) {
  SmallVector<Type> shared = sharedBuffers(b, nest);
  Value maxBlocksValue = indexConstant(b, loc, maxBlocks);
  Value capped = arith::MinUIOp::create(b, loc, items, maxBlocksValue);
  Value one = indexConstant(b, loc, 1);
  Value blocks = arith::MaxUIOp::create(b, loc, capped, one);
  Value blockSize = indexConstant(b, loc, kBlock);
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch = beginLaunch(b, loc, blocks, blockSize, shared);
  ArrayRef<BlockArgument> buffers = launch.getWorkgroupAttributions();
  Value t = launch.getThreadIds().x;
  Value block = launch.getBlockIds().x;
  Value grid = launch.getGridSize().x;
  scf::ForOp::create(b, loc, block, items, grid, ValueRange(),
                     [&](OpBuilder &nb, Location nloc, Value item, ValueRange) {
                       body(nb, nloc, item, t, buffers);
                       scf::YieldOp::create(nb, nloc);
                     });
}

/// A launch of threads grid-striding over `items`: `body(b, loc, item)`.
static void emitThreadPerItem(
    OpBuilder &b, Location loc, Value items, const KernelConfig &config,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value blocks = gridFor(b, loc, items, config);
  Value blockSize = indexConstant(b, loc, config.blockSize);
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch = beginLaunch(b, loc, blocks, blockSize);
  Value t = launch.getThreadIds().x, block = launch.getBlockIds().x;
  Value size = launch.getBlockSize().x, grid = launch.getGridSize().x;
  Value blockStart = arith::MulIOp::create(b, loc, block, size);
  Value start = arith::AddIOp::create(b, loc, blockStart, t);
  Value step = arith::MulIOp::create(b, loc, grid, size);
  scf::ForOp::create(b, loc, start, items, step, ValueRange(),
                     [&](OpBuilder &nb, Location nloc, Value item, ValueRange) {
                       body(nb, nloc, item);
                       scf::YieldOp::create(nb, nloc);
                     });
}

/// How many chunks the reduced range of each output splits into: enough
/// that outputs x chunks reaches `target`, none smaller than `minChunk`
/// elements (1: no split).
static Value chunkCount(OpBuilder &b, Location loc, const ReductionNest &nest,
                        int64_t target, int64_t minChunk) {
  Value targetValue = indexConstant(b, loc, target);
  Value minChunkValue = indexConstant(b, loc, minChunk);
  Value wanted =
      arith::CeilDivUIOp::create(b, loc, targetValue, nest.keptCount);
  Value most =
      arith::CeilDivUIOp::create(b, loc, nest.reducedCount, minChunkValue);
  Value chunks = arith::MinUIOp::create(b, loc, wanted, most);
  Value one = indexConstant(b, loc, 1);
  return arith::MaxUIOp::create(b, loc, chunks, one);
}

/// The bounds [lo, hi) of chunk `c` of `chunks` over the reduced range.
static std::pair<Value, Value> chunkBounds(OpBuilder &b, Location loc,
                                           const ReductionNest &nest,
                                           Value chunks, Value c) {
  Value length = arith::CeilDivUIOp::create(b, loc, nest.reducedCount, chunks);
  Value lo = arith::MulIOp::create(b, loc, c, length);
  Value end = arith::AddIOp::create(b, loc, lo, length);
  Value hi = arith::MinUIOp::create(b, loc, end, nest.reducedCount);
  return {lo, hi};
}

/// Emits `split(chunks)` where `chunks` > 1, else `whole()`.
static void emitSplitOrWhole(OpBuilder &b, Location loc, Value chunks,
                             function_ref<void()> split,
                             function_ref<void()> whole) {
  Value one = indexConstant(b, loc, 1);
  Value isSplit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, chunks, one);
  auto ifSplit = scf::IfOp::create(b, loc, isSplit, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifSplit.thenBlock());
  split();
  b.setInsertionPointToStart(ifSplit.elseBlock());
  whole();
}

/// A block per output (row kernel); few outputs split their rows: a block
/// per (output, chunk) writes partials[k * chunks + c], then a block per
/// output merges its chunks.
static void emitRowKernel(OpBuilder &b, Location loc, const ReductionNest &nest,
                          const KernelConfig &config) {
  Value blockSize = indexConstant(b, loc, kBlock);
  Value chunks = chunkCount(b, loc, nest, kResidentBlocks, kMinRowChunk);
  auto whole = [&] {
    emitBlockPerItem(
        b, loc, nest, nest.keptCount, config.maxBlocks,
        [&](OpBuilder &nb, Location nloc, Value k, Value t,
            ArrayRef<BlockArgument> buffers) {
          SmallVector<Value> partial =
              nest.foldRange(nb, nloc, k, t, nest.reducedCount, blockSize);
          emitBlockMerge(nb, nloc, nest, buffers, t, partial,
                         [&](OpBuilder &fb, Location floc, ValueRange total) {
                           nest.store(fb, floc, k, total);
                         });
        });
  };
  auto split = [&] {
    Value items = arith::MulIOp::create(b, loc, nest.keptCount, chunks);
    SmallVector<Value> partials = nest.allocPartials(b, loc, items);
    emitBlockPerItem(
        b, loc, nest, items, config.maxBlocks,
        [&](OpBuilder &nb, Location nloc, Value item, Value t,
            ArrayRef<BlockArgument> buffers) {
          Value k = arith::DivUIOp::create(nb, nloc, item, chunks);
          Value c = arith::RemUIOp::create(nb, nloc, item, chunks);
          auto [lo, hi] = chunkBounds(nb, nloc, nest, chunks, c);
          Value first = arith::AddIOp::create(nb, nloc, lo, t);
          SmallVector<Value> partial =
              nest.foldRange(nb, nloc, k, first, hi, blockSize);
          emitBlockMerge(nb, nloc, nest, buffers, t, partial,
                         [&](OpBuilder &fb, Location floc, ValueRange total) {
                           for (auto [buffer, v] : llvm::zip(partials, total))
                             memref::StoreOp::create(fb, floc, v, buffer, item);
                         });
        });
    emitBlockPerItem(
        b, loc, nest, nest.keptCount, config.maxBlocks,
        [&](OpBuilder &nb, Location nloc, Value k, Value t,
            ArrayRef<BlockArgument> buffers) {
          Value base = arith::MulIOp::create(nb, nloc, k, chunks);
          Value one = indexConstant(nb, nloc, 1);
          SmallVector<Value> partial = nest.mergeRange(
              nb, nloc, partials, base, one, t, chunks, blockSize);
          emitBlockMerge(nb, nloc, nest, buffers, t, partial,
                         [&](OpBuilder &fb, Location floc, ValueRange total) {
                           nest.store(fb, floc, k, total);
                         });
        });
    for (Value buffer : partials)
      memref::DeallocOp::create(b, loc, buffer);
  };
  emitSplitOrWhole(b, loc, chunks, split, whole);
}

/// A thread per output (column kernel); few outputs split their columns: a
/// thread per (chunk, output) writes partials[c * outputs + k] (neighbouring
/// threads still read neighbouring elements), then a thread per output
/// merges its chunks in order.
static void emitColumnKernel(OpBuilder &b, Location loc,
                             const ReductionNest &nest,
                             const KernelConfig &config) {
  Value chunks = chunkCount(b, loc, nest, kResidentThreads, kMinColumnChunk);
  auto whole = [&] {
    emitThreadPerItem(b, loc, nest.keptCount, config,
                      [&](OpBuilder &nb, Location nloc, Value k) {
                        Value zero = indexConstant(nb, nloc, 0);
                        Value one = indexConstant(nb, nloc, 1);
                        SmallVector<Value> total = nest.foldRange(
                            nb, nloc, k, zero, nest.reducedCount, one);
                        nest.store(nb, nloc, k, total);
                      });
  };
  auto split = [&] {
    Value items = arith::MulIOp::create(b, loc, nest.keptCount, chunks);
    SmallVector<Value> partials = nest.allocPartials(b, loc, items);
    emitThreadPerItem(
        b, loc, items, config, [&](OpBuilder &nb, Location nloc, Value item) {
          Value c = arith::DivUIOp::create(nb, nloc, item, nest.keptCount);
          Value k = arith::RemUIOp::create(nb, nloc, item, nest.keptCount);
          auto [lo, hi] = chunkBounds(nb, nloc, nest, chunks, c);
          Value one = indexConstant(nb, nloc, 1);
          SmallVector<Value> partial = nest.foldRange(nb, nloc, k, lo, hi, one);
          for (auto [buffer, v] : llvm::zip(partials, partial))
            memref::StoreOp::create(nb, nloc, v, buffer, item);
        });
    emitThreadPerItem(
        b, loc, nest.keptCount, config,
        [&](OpBuilder &nb, Location nloc, Value k) {
          Value zero = indexConstant(nb, nloc, 0);
          Value one = indexConstant(nb, nloc, 1);
          SmallVector<Value> total = nest.mergeRange(
              nb, nloc, partials, k, nest.keptCount, zero, chunks, one);
          nest.store(nb, nloc, k, total);
        });
    for (Value buffer : partials)
      memref::DeallocOp::create(b, loc, buffer);
  };
  emitSplitOrWhole(b, loc, chunks, split, whole);
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
  nest.lanes = config.reductionLanes;
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
