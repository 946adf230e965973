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
//     merges the result into the output. Where every input read along
//     the row has unit stride and 16-byte aligned rows and the row length
//     is a multiple of the vector width (tested at run time), a thread
//     reads `width` consecutive elements with one vector load per input
//     instead (elements w*t .. w*t + w-1, then w*(t + kBlock), ...): the
//     row-vector path, 0.65 -> 0.91 of copy bandwidth for a row sum on
//     the H100;
//   column (innermost loop kept): a thread per output, grid-striding over
//     the outputs, folding all reduced elements in order (consecutive
//     threads read consecutive kept elements).
//
// When there are too few outputs to fill the GPU (a full reduction, a sum
// over the rows of a wide matrix), both split the reduced range into
// chunks, decided at run time: a first kernel folds each (output, chunk)
// into a partial-result buffer, a second merges each output's partials in
// a fixed order. No float atomics: results do not change from run to run.
// (A column kernel reading a vector of neighbouring columns per thread was
// tried and measured no faster on the H100: 0.77 of copy either way. What
// limits it is the loads a thread has in flight: the column fold is
// unrolled by kColumnLoadsInFlight over one accumulator set.)
//
// A reduction over two loops reading its inputs against their layout (a row
// reduction over a transposed view: rows of stride N) runs the kernels of
// its loops swapped where the strides say so at run time: the row kernel of
// a transposed view's rows is the column kernel of the matrix.
//
// Everything starts from the combiner's identity and merges into the
// output's current value (linalg's semantics: the init is the first
// accumulator).
//
//===----------------------------------------------------------------------===//

#include "ReductionKernel.h"

#include "KernelCommon.h"
#include "ReductionNest.h"

#include "ptensor/Conversion/GPUModules/GPUModules.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"
#include "ptensor/Dialect/PTensor/Utils/RunTimeLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::ptensor::reduction;

const char *mlir::ptensor::whyNotReductionKernel(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return "expected buffer semantics";
  if (op.getNumReductionLoops() == 0)
    return "expected reduction loops";
  if (!getMarkedCombiner(op.getBody()->getTerminator()))
    return "expected a marked combiner";
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr e : map.getResults())
      if (!isa<AffineDimExpr, AffineConstantExpr>(e))
        return "expected dims or constants";
  return nullptr;
}

bool mlir::ptensor::isRowReduction(linalg::GenericOp op) {
  return !whyNotReductionKernel(op) &&
         op.getIteratorTypesArray().back() == utils::IteratorType::reduction;
}

/// Checks that `op` is a generic this lowering handles.
static LogicalResult checkSupported(RewriterBase &rewriter,
                                    linalg::GenericOp op) {
  if (const char *why = whyNotReductionKernel(op))
    return rewriter.notifyMatchFailure(op, why);
  return success();
}

SmallVector<Value> reduction::loadRowVectors(OpBuilder &b, Location loc,
                                             linalg::GenericOp op,
                                             ArrayRef<Value> views,
                                             int64_t width, ArrayRef<Value> at,
                                             const RowCache *cache, Value r) {
  SmallVector<Value> vectors;
  for (auto [i, in, view] :
       llvm::enumerate(op.getDpsInputOperands(), views)) {
    if (!view) {
      vectors.push_back(Value());
      continue;
    }
    Type element = cast<MemRefType>(view.getType()).getElementType();
    auto type = VectorType::get({width}, element);
    llvm::Align align(rowAlignment(width, element));
    bool cached = cache && cache->input == i;
    if (cached && !cache->fills) {
      vectors.push_back(vector::LoadOp::create(b, loc, type, cache->row, r,
                                               /*nontemporal=*/false, align));
      continue;
    }
    SmallVector<Value> indices = indicesThroughMap(b, loc, op, in, at);
    Value vector = vector::LoadOp::create(b, loc, type, view, indices,
                                          /*nontemporal=*/false, align);
    if (cached)
      vector::StoreOp::create(b, loc, vector, cache->row, r,
                              /*nontemporal=*/false, align);
    vectors.push_back(vector);
  }
  return vectors;
}

SmallVector<Value> reduction::emitLane(OpBuilder &b, Location loc,
                                       linalg::GenericOp op, ArrayRef<Value> at,
                                       ArrayRef<Value> vectors, int64_t lane,
                                       ValueRange acc,
                                       ArrayRef<Value> invariant) {
  SmallVector<Value> laneIds(at);
  Value laneOffset = indexConstant(b, loc, lane);
  laneIds.back() = arith::AddIOp::create(b, loc, at.back(), laneOffset);
  SmallVector<Value> preloaded;
  for (auto [i, v] : llvm::enumerate(vectors)) {
    if (v)
      preloaded.push_back(vector::ExtractOp::create(b, loc, v, lane));
    else
      preloaded.push_back(i < invariant.size() ? invariant[i] : Value());
  }
  return emitElement(b, loc, op, laneIds, preloaded, acc);
}

/// Threads an SM holds at once (an H100, an H200).
static constexpr int64_t kThreadsPerSM = 2048;

/// Threads that fill an H100 (132 SMs x 2048): fewer column outputs than
/// this split their columns.
static constexpr int64_t kResidentThreads = 132 * kThreadsPerSM;

/// Fewest reduced elements per chunk of a split column.
static constexpr int64_t kMinColumnChunk = 64;

/// Rows a column-kernel thread has in flight: its fold loop is unrolled by
/// this factor over one accumulator set (the loads do not depend on the
/// accumulators, so they issue together; the registers stay those of one
/// lane: full occupancy). bench/micro/column_sum.cu on an H200, sum over
/// the rows of 8192^2 f32: 0.88 of copy, against 0.57 with two
/// interleaved accumulator sets (two loads in flight) and 0.72 with four
/// (40 registers: fewer threads per SM).
static constexpr uint64_t kColumnLoadsInFlight = 4;

/// Moves the loads of `loop`'s body, with the index arithmetic they need,
/// ahead of the body's other work (in order; the body writes no memory):
/// the loads of an unrolled loop's iterations then issue before its first
/// accumulation. ptxas does not always hoist them itself: with the sizes
/// of a column sum known to the kernel it kept two of four loads in flight
/// (H200, 8192^2 f32: 0.55 of copy; 0.86 with the loads first).
static void issueLoadsFirst(scf::ForOp loop) {
  Block *body = loop.getBody();
  bool writes = false;
  body->walk([&](Operation *op) {
    writes |= !isMemoryEffectFree(op) &&
              !hasSingleEffect<MemoryEffects::Read>(op);
  });
  if (writes)
    return;
  llvm::SmallPtrSet<Operation *, 16> early;
  auto isEarly = [&](Value v) {
    if (v == loop.getInductionVar())
      return true;
    if (Operation *def = v.getDefiningOp())
      return def->getBlock() != body || early.contains(def);
    return v.getParentBlock() != body; // not an iteration argument
  };
  Operation *firstLate = &body->front();
  for (Operation &op :
       llvm::make_early_inc_range(body->without_terminator())) {
    bool movable = op.getNumRegions() == 0 &&
                   (isPure(&op) || isa<memref::LoadOp, vector::LoadOp>(op)) &&
                   llvm::all_of(op.getOperands(), isEarly);
    if (!movable)
      continue;
    early.insert(&op);
    if (&op == firstLate)
      firstLate = op.getNextNode();
    else
      op.moveBefore(firstLate);
  }
}

/// The fold of output `k` of a column kernel over the reduced positions
/// [lo, hi) (in order, one accumulator set) with kColumnLoadsInFlight
/// loads in flight.
static SmallVector<Value> foldColumn(OpBuilder &b, Location loc,
                                     const ReductionNest &nest, Value k,
                                     Value lo, Value hi) {
  ReductionNest inOrder = nest;
  inOrder.lanes = 1;
  Value one = indexConstant(b, loc, 1);
  // The unrolled loop's trip count is computed unsigned: an empty chunk
  // past the end must not have hi < lo.
  Value end = arith::MaxUIOp::create(b, loc, hi, lo);
  SmallVector<Value> folded = inOrder.foldRange(b, loc, k, lo, end, one);
  auto loop = folded.front().getDefiningOp<scf::ForOp>();
  if (!loop)
    return folded;
  // A temporary user of the results: unrolling redirects it to whatever
  // yields them afterwards (the epilogue loop, or the body of a loop it
  // erased for having one iteration).
  auto holder = UnrealizedConversionCastOp::create(
      b, loc, ValueRange(folded).getTypes(), folded);
  FailureOr<UnrolledLoopInfo> unrolled =
      loopUnrollByFactor(loop, kColumnLoadsInFlight);
  if (succeeded(unrolled) && unrolled->mainLoopOp)
    issueLoadsFirst(*unrolled->mainLoopOp);
  SmallVector<Value> results(holder.getOperands());
  holder.erase();
  return results;
}

/// Threads of a warp (shuffles exchange values within one).
static constexpr int64_t kWarp = 32;

/// Warps of a row-kernel block.
static constexpr int64_t kWarpsPerBlock = kBlock / kWarp;

/// Shared-memory buffers of one accumulator per warp.
SmallVector<Type> reduction::sharedBuffers(OpBuilder &b,
                                           const ReductionNest &nest) {
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

/// mergeInWarp for argmax/argmin (value, index) pairs, in two butterflies
/// instead of one of pairs: the lanes' extremum (the NaN-propagating max or
/// min of the values alone), then the smallest index among the lanes whose
/// value matches it (buildMatchesExtremum), or INT64_MAX where none does.
/// That is the index the full rule's merges give (NaN first, then the
/// first occurrence; -0.0 ties 0.0), in about a third of the instructions:
/// one shuffle and a max a step for the value, two shuffles and a 64-bit
/// min for the index, where a merge of pairs takes three shuffles and a
/// dozen compares and selects. The value is the extremum, which may be
/// 0.0 where the index's element is -0.0 (a tie either way) or another NaN:
/// later merges compare it the same way, and only the index is a result.
static SmallVector<Value> mergeArgInWarp(OpBuilder &b, Location loc,
                                         Combiner combiner,
                                         ArrayRef<Value> partial,
                                         int64_t lanes) {
  Combiner extremumCombiner = getExtremumCombiner(combiner);
  Value extremum = partial[0];
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    Value other = shuffleXor(b, loc, extremum, offset);
    extremum = buildCombine(b, loc, extremumCombiner, extremum, other)[0];
  }
  Value matches = buildMatchesExtremum(b, loc, partial[0], extremum);
  Value noIndex = buildNoIndex(b, loc, partial[1].getType());
  Value index = arith::SelectOp::create(b, loc, matches, partial[1], noIndex);
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    Value other = shuffleXor(b, loc, index, offset);
    index = arith::MinSIOp::create(b, loc, index, other);
  }
  return {extremum, index};
}

/// Merges `partial` across the first `lanes` lanes of each warp (a power
/// of two, at most kWarp) in xor-butterfly steps: lane 0 ends with the
/// merge of lanes 0 .. lanes-1, in an order fixed by the lane numbers.
static SmallVector<Value> mergeInWarp(OpBuilder &b, Location loc,
                                      const ReductionNest &nest,
                                      SmallVector<Value> partial,
                                      int64_t lanes) {
  if (isArgCombiner(nest.combiner))
    return mergeArgInWarp(b, loc, nest.combiner, partial, lanes);
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
void reduction::emitBlockMerge(
    OpBuilder &b, Location loc, const ReductionNest &nest,
    ValueRange buffers, Value t, ValueRange partial,
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
      for (Value buf : buffers)
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

/// A launch of blocks of kBlock threads with `shared` buffers (for
/// accumulators), grid-striding over `items` (at most `maxBlocks` blocks):
/// `body(b, loc, item, t, buffers)` runs for each item in every thread t.
void reduction::emitBlockPerItem(
    OpBuilder &b, Location loc, TypeRange shared, Value items,
    const KernelConfig &config,
    function_ref<void(OpBuilder &, Location, Value, Value,
                      ArrayRef<BlockArgument>)>
        body,
    Value dynamicSharedBytes) {
  Value maxBlocksValue = indexConstant(b, loc, config.maxBlocks);
  Value capped = arith::MinUIOp::create(b, loc, items, maxBlocksValue);
  Value one = indexConstant(b, loc, 1);
  Value blocks = arith::MaxUIOp::create(b, loc, capped, one);
  Value blockSize = indexConstant(b, loc, kBlock);
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch =
      beginLaunch(b, loc, blocks, blockSize, shared, dynamicSharedBytes);
  ArrayRef<BlockArgument> buffers = launch.getWorkgroupAttributions();
  Value t = launch.getThreadIds().x;
  Value block = launch.getBlockIds().x;
  Value grid = launch.getGridSize().x;
  auto loop = scf::ForOp::create(
      b, loc, block, items, grid, ValueRange(),
      [&](OpBuilder &nb, Location nloc, Value item, ValueRange) {
        body(nb, nloc, item, t, buffers);
        scf::YieldOp::create(nb, nloc);
      });
  if (config.rowBlocksPerSM > 0)
    loop->setAttr(kMinBlocksPerSMAttr,
                  b.getI32IntegerAttr(config.rowBlocksPerSM));
}

/// A launch of threads grid-striding over `items`: `body(b, loc, item)`.
/// `resident`: the grid is sized for every thread to be resident at once
/// (a column kernel's thread per item): the kernel asks ptxas for the
/// registers that allow it (ptensor-kernel-occupancy).
static void emitThreadPerItem(
    OpBuilder &b, Location loc, Value items, const KernelConfig &config,
    function_ref<void(OpBuilder &, Location, Value)> body,
    bool resident = false) {
  Value blocks = gridFor(b, loc, items, config);
  Value blockSize = indexConstant(b, loc, config.blockSize);
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch = beginLaunch(b, loc, blocks, blockSize);
  ThreadCoordinates c = threadCoordinates(b, loc, launch, b.getIndexType());
  auto loop = scf::ForOp::create(
      b, loc, c.globalId, items, c.threadCount, ValueRange(),
      [&](OpBuilder &nb, Location nloc, Value item, ValueRange) {
        body(nb, nloc, item);
        scf::YieldOp::create(nb, nloc);
      });
  int64_t blocksPerSM = kThreadsPerSM / config.blockSize;
  if (resident && blocksPerSM > 1) {
    loop->setAttr(kMinBlocksPerSMAttr, b.getI32IntegerAttr(blocksPerSM));
    // In the registers that occupancy leaves, the fold's constants as
    // immediates cost loads in flight (ptensor-sink-kernel-constants).
    launch->setAttr(kKeepKernelParametersAttr, b.getUnitAttr());
  }
}

/// How many chunks the reduced range of each output splits into: enough
/// that `items` (outputs, or groups of them) x chunks reaches `target`,
/// none smaller than `minChunk` elements (1: no split).
Value reduction::chunkCount(OpBuilder &b, Location loc,
                            const ReductionNest &nest, Value items,
                            int64_t target, int64_t minChunk) {
  Value targetValue = indexConstant(b, loc, target);
  Value minChunkValue = indexConstant(b, loc, minChunk);
  Value wanted =
      arith::CeilDivUIOp::create(b, loc, targetValue, items);
  Value most =
      arith::CeilDivUIOp::create(b, loc, nest.reducedCount, minChunkValue);
  Value chunks = arith::MinUIOp::create(b, loc, wanted, most);
  Value one = indexConstant(b, loc, 1);
  return arith::MaxUIOp::create(b, loc, chunks, one);
}

/// The bounds [lo, hi) of chunk `c` of `chunks` over the reduced range,
/// each chunk a multiple of `granule` elements long (whole vectors on the
/// row-vector path).
static std::pair<Value, Value> chunkBounds(OpBuilder &b, Location loc,
                                           const ReductionNest &nest,
                                           Value chunks, Value c,
                                           int64_t granule) {
  Value length = arith::CeilDivUIOp::create(b, loc, nest.reducedCount, chunks);
  if (granule > 1) {
    Value granuleValue = indexConstant(b, loc, granule);
    Value granules = arith::CeilDivUIOp::create(b, loc, length, granuleValue);
    length = arith::MulIOp::create(b, loc, granules, granuleValue);
  }
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

/// `nest` with the accumulator sets of a block per row folding it alone.
static ReductionNest wholeRowNest(const ReductionNest &nest) {
  ReductionNest whole = nest;
  whole.lanes =
      std::max(nest.lanes, minimumRowFoldLanes({nest.op}, RowFold::Alone));
  return whole;
}

/// A block per output (row kernel); few outputs split their rows: a block
/// per (output, chunk) writes partials[k * chunks + c], then a block per
/// output merges its chunks.
static void emitRowKernel(OpBuilder &b, Location loc, const ReductionNest &nest,
                          const KernelConfig &config) {
  Value blockSize = indexConstant(b, loc, kBlock);
  Value chunks =
      chunkCount(b, loc, nest, nest.keptCount, kResidentBlocks, kMinRowChunk);
  auto whole = [&] {
    ReductionNest rows = wholeRowNest(nest);
    emitBlockPerItem(
        b, loc, sharedBuffers(b, rows), rows.keptCount, config,
        [&](OpBuilder &nb, Location nloc, Value k, Value t,
            ArrayRef<BlockArgument> buffers) {
          Value first = rows.threadStart(nb, nloc, Value(), t);
          Value stride = rows.blockStride(nb, nloc);
          SmallVector<Value> partial =
              rows.foldRange(nb, nloc, k, first, rows.reducedCount, stride);
          emitBlockMerge(nb, nloc, rows, buffers, t, partial,
                         [&](OpBuilder &fb, Location floc, ValueRange total) {
                           rows.store(fb, floc, k, total);
                         });
        });
  };
  auto split = [&] {
    Value items = arith::MulIOp::create(b, loc, nest.keptCount, chunks);
    SmallVector<Value> partials = nest.allocPartials(b, loc, items);
    emitBlockPerItem(
        b, loc, sharedBuffers(b, nest), items, config,
        [&](OpBuilder &nb, Location nloc, Value item, Value t,
            ArrayRef<BlockArgument> buffers) {
          Value k = arith::DivUIOp::create(nb, nloc, item, chunks);
          Value c = arith::RemUIOp::create(nb, nloc, item, chunks);
          auto [lo, hi] = chunkBounds(nb, nloc, nest, chunks, c, nest.width);
          Value first = nest.threadStart(nb, nloc, lo, t);
          Value stride = nest.blockStride(nb, nloc);
          SmallVector<Value> partial =
              nest.foldRange(nb, nloc, k, first, hi, stride);
          emitBlockMerge(nb, nloc, nest, buffers, t, partial,
                         [&](OpBuilder &fb, Location floc, ValueRange total) {
                           for (auto [buffer, v] : llvm::zip(partials, total))
                             memref::StoreOp::create(fb, floc, v, buffer, item);
                         });
        });
    emitBlockPerItem(
        b, loc, sharedBuffers(b, nest), nest.keptCount, config,
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

/// The row views of `op` and their run-time test: every input read along
/// the row (and every output, with `outputs`) has unit innermost stride and
/// aligned rows, and the innermost size `innermost` is a multiple of the
/// width (16 bytes of the narrowest such operand). None when the path
/// cannot apply: an input read across rows, i1 buffers (bit-packed as
/// vectors), or nothing read or written along the row.
std::optional<RowVectors>
reduction::prepareRowVectorsOf(OpBuilder &b, Location loc, linalg::GenericOp op,
                               Value innermost, bool outputs) {
  if (!hasByteElements(op))
    return std::nullopt;
  auto isAlongRow = [&](OpOperand *operand) {
    if (!isa<MemRefType>(operand->get().getType()))
      return false;
    return op.isDpsInit(operand) ? outputs
                                 : rowAccessOf(op, operand) == RowAccess::AlongRow;
  };
  int64_t narrowest = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!op.isDpsInit(&operand) &&
        isa<MemRefType>(operand.get().getType()) &&
        rowAccessOf(op, &operand) == RowAccess::Unsupported)
      return std::nullopt;
    if (!isAlongRow(&operand))
      continue;
    auto type = cast<MemRefType>(operand.get().getType());
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    narrowest = narrowest ? std::min(narrowest, bytes) : bytes;
  }
  if (narrowest == 0)
    return std::nullopt;
  RowVectors rows;
  rows.width = 16 / narrowest;
  Value widthValue = indexConstant(b, loc, rows.width);
  Value rest = arith::RemUIOp::create(b, loc, innermost, widthValue);
  Value zero = indexConstant(b, loc, 0);
  rows.ok =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest, zero);
  for (OpOperand &operand : op->getOpOperands()) {
    Value view;
    if (isAlongRow(&operand)) {
      auto type = cast<MemRefType>(operand.get().getType());
      GuardedView row =
          rowView(b, loc, operand.get(), rows.width,
                  rowAlignment(rows.width, type.getElementType()));
      rows.ok = arith::AndIOp::create(b, loc, rows.ok, row.ok);
      view = row.view;
    }
    (op.isDpsInit(&operand) ? rows.outputs : rows.inputs).push_back(view);
  }
  return rows;
}

/// Prepares `nest` for the row-vector path and returns its run-time test
/// (null when the path cannot apply).
Value reduction::prepareRowVectors(OpBuilder &b, Location loc,
                                   ReductionNest &nest) {
  std::optional<RowVectors> rows =
      prepareRowVectorsOf(b, loc, nest.op, nest.sizes.back(), false);
  if (!rows)
    return Value();
  nest.width = rows->width;
  nest.rowInputs = rows->inputs;
  return rows->ok;
}

/// A thread per output (column kernel); few outputs split their columns: a
/// thread per (chunk, output) writes partials[c * outputs + k] (neighbouring
/// threads still read neighbouring elements), then a thread per output
/// merges its chunks.
static void emitColumnKernel(OpBuilder &b, Location loc,
                             const ReductionNest &nest,
                             const KernelConfig &config) {
  Value chunks = chunkCount(b, loc, nest, nest.keptCount, kResidentThreads,
                            kMinColumnChunk);
  auto whole = [&] {
    emitThreadPerItem(b, loc, nest.keptCount, config,
                      [&](OpBuilder &nb, Location nloc, Value k) {
                        Value zero = indexConstant(nb, nloc, 0);
                        SmallVector<Value> total = foldColumn(
                            nb, nloc, nest, k, zero, nest.reducedCount);
                        nest.store(nb, nloc, k, total);
                      },
                      /*resident=*/true);
  };
  auto split = [&] {
    Value items = arith::MulIOp::create(b, loc, nest.keptCount, chunks);
    SmallVector<Value> partials = nest.allocPartials(b, loc, items);
    emitThreadPerItem(
        b, loc, items, config, [&](OpBuilder &nb, Location nloc, Value item) {
          Value c = arith::DivUIOp::create(nb, nloc, item, nest.keptCount);
          Value k = arith::RemUIOp::create(nb, nloc, item, nest.keptCount);
          auto [lo, hi] = chunkBounds(nb, nloc, nest, chunks, c, 1);
          SmallVector<Value> partial = foldColumn(nb, nloc, nest, k, lo, hi);
          for (auto [buffer, v] : llvm::zip(partials, partial))
            memref::StoreOp::create(nb, nloc, v, buffer, item);
        },
        /*resident=*/true);
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

/// The row kernel, on the row-vector path where its run-time test holds.
static void emitRowKernels(OpBuilder &b, Location loc,
                           const ReductionNest &nest,
                           const KernelConfig &config) {
  ReductionNest vectorNest = nest;
  Value vectorsOk = prepareRowVectors(b, loc, vectorNest);
  if (!vectorsOk) {
    emitRowKernel(b, loc, nest, config);
    return;
  }
  auto ifVectors = scf::IfOp::create(b, loc, vectorsOk, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifVectors.thenBlock());
  emitRowKernel(b, loc, vectorNest, config);
  b.setInsertionPointToStart(ifVectors.elseBlock());
  emitRowKernel(b, loc, nest, config);
}

/// The loop structure of reduction `op`, its sizes computed at the
/// insertion point.
ReductionNest reduction::buildNest(OpBuilder &b, Location loc,
                                   linalg::GenericOp op,
                                   const KernelConfig &config) {
  // Each thread of every kernel folds its elements in increasing order
  // (partial results merge with buildCombine's full rule): an argmax's
  // fold needs no tie rule (H200, argmax_rows: compute-bound before).
  foldArgInOrder(op);
  ReductionNest nest;
  nest.op = op;
  nest.combiner = *getMarkedCombiner(op.getBody()->getTerminator());
  nest.lanes = config.reductionLanes;
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  for (Range range : linalgOp.createLoopRanges(b, loc))
    nest.sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  nest.keptCount = indexConstant(b, loc, 1);
  nest.reducedCount = indexConstant(b, loc, 1);
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool isReduced = it == utils::IteratorType::reduction;
    (isReduced ? nest.reduced : nest.kept).push_back(d);
    Value &count = isReduced ? nest.reducedCount : nest.keptCount;
    count = arith::MulIOp::create(b, loc, count, nest.sizes[d]);
  }
  return nest;
}

/// Whether the combiner or an input computation of a reduction in
/// `reductions` calls a math function (callsMathFunction: not the cheap
/// ones).
static bool foldsComputeMath(ArrayRef<linalg::GenericOp> reductions) {
  return llvm::any_of(reductions, callsMathFunction);
}

/// Whether a reduction in `reductions` accumulates into a 64-bit float.
static bool foldsIntoF64(ArrayRef<linalg::GenericOp> reductions) {
  return llvm::any_of(reductions, [](linalg::GenericOp op) {
    return llvm::any_of(getAccumulatorTypes(op),
                        [](Type type) { return type.isF64(); });
  });
}

/// Whether a reduction in `reductions` folds (value, index) pairs.
static bool foldsArgPairs(ArrayRef<linalg::GenericOp> reductions) {
  return llvm::any_of(reductions, [](linalg::GenericOp op) {
    std::optional<Combiner> combiner =
        getMarkedCombiner(op.getBody()->getTerminator());
    return combiner && isArgCombiner(*combiner);
  });
}

/// The measurements behind each minimum (H200, fraction of copy; the lone
/// row kernel's default of one set: KernelOptions.def `reduction-lanes`):
/// - Alone, folding into f64 (f32 sums and means accumulate in f64, whose
///   adds take twice an f32 add's latency): 2. Stop 67, three to five
///   runs, one set against two: sum_rows 0.88-0.91 / 0.91-0.94, mean_rows
///   0.87-0.91 / 0.91-0.94, matvec_f32 0.91-0.92 / 0.95; max_rows (f32)
///   and argmax_rows gained nothing, and a full sum (the split path, which
///   keeps `reduction-lanes`) lost 0.01-0.02 with two.
/// - Alone, folding (value, index) pairs (argmax, argmin): 2. Stop 68,
///   once the fold went in order (foldArgInOrder), one run: argmax_rows
///   0.84 with one set, 0.89 with two, 0.87 with four (0.78-0.80 either
///   way with stop 67's tie rule in the fold).
/// - In a row group (each row read again after the fold): 2. Stop 52:
///   var_rows 0.71 against 0.69 with one, softmax_rows 0.71 against 0.68.
/// - In a row group whose fold computes a math function (softmax's exp),
///   whose long dependent chains need more sets in flight: 4. Stop 67,
///   same run: softmax_rows 0.83 against 0.79-0.80 with two; var_rows and
///   standardize_rows (a few adds or multiplies) 0.82-0.87 either way.
unsigned reduction::minimumRowFoldLanes(ArrayRef<linalg::GenericOp> reductions,
                                        RowFold fold) {
  if (fold == RowFold::InGroup)
    return foldsComputeMath(reductions) ? 4 : 2;
  return foldsIntoF64(reductions) || foldsArgPairs(reductions) ? 2 : 1;
}

/// An scf.if on `nest` having outputs, with the insertion point moved into
/// it (no outputs: nothing to launch; a zero-block grid is a CUDA error).
void reduction::beginNonEmpty(OpBuilder &b, Location loc,
                              const ReductionNest &nest) {
  Value zero = indexConstant(b, loc, 0);
  Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         nest.keptCount, zero);
  auto ifNonEmpty = scf::IfOp::create(b, loc, nonEmpty, false);
  b.setInsertionPointToStart(ifNonEmpty.thenBlock());
}

Value reduction::buildSwapCondition(OpBuilder &b, Location loc,
                                    linalg::GenericOp op) {
  if (!isTwoLoopReduction(op))
    return Value();
  CreatedOps created;
  OpBuilder::Listener *listener = b.getListener();
  b.setListener(&created);
  IndexMath math(b, loc);
  Value swap = buildReversedOrderCondition(math, op, OrderVote::InputsAgree);
  b.setListener(listener);
  if (matchPattern(swap, m_Zero())) {
    created.eraseDead();
    return Value();
  }
  return swap;
}

/// The kernels of reduction `op` at `b`'s insertion point: row kernels
/// where its innermost loop is reduced, else the column kernel.
static void emitKernels(OpBuilder &b, Location loc, linalg::GenericOp op,
                        const KernelConfig &config,
                        linalg::GenericOp epilogue) {
  OpBuilder::InsertionGuard guard(b);
  ReductionNest nest = buildNest(b, loc, op, config);
  nest.epilogue = epilogue;
  beginNonEmpty(b, loc, nest);
  if (isRowReduction(op))
    emitRowKernels(b, loc, nest, config);
  else
    emitColumnKernel(b, loc, nest, config);
}

LogicalResult mlir::ptensor::convertReductionToKernel(
    RewriterBase &rewriter, linalg::GenericOp op, const KernelConfig &config,
    linalg::GenericOp epilogue) {
  if (failed(checkSupported(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Value swap = buildSwapCondition(rewriter, loc, op);
  if (!swap) {
    emitKernels(rewriter, loc, op, config, epilogue);
  } else {
    linalg::GenericOp swapped = createReversedCopy(op);
    if (matchPattern(swap, m_One())) {
      emitKernels(rewriter, loc, swapped, config, epilogue);
    } else {
      auto ifSwap = scf::IfOp::create(rewriter, loc, swap, /*withElse=*/true);
      rewriter.setInsertionPointToStart(ifSwap.thenBlock());
      emitKernels(rewriter, loc, swapped, config, epilogue);
      rewriter.setInsertionPointToStart(ifSwap.elseBlock());
      emitKernels(rewriter, loc, op, config, epilogue);
    }
    rewriter.eraseOp(swapped);
  }
  rewriter.eraseOp(op);
  if (epilogue)
    rewriter.eraseOp(epilogue);
  return success();
}
