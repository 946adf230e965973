//===- ReductionNest.h - what the reduction kernels share ------*- C++ -*-===//
//
// The row and column kernels of a reduction (ReductionKernel.cpp) and the
// kernel of a row group (RowGroupKernel.cpp) are built from the same
// pieces: the loop structure of a reduction generic and the code of its
// elements, a block's merge of its threads' partial results, the launches,
// and the row views of the vector paths.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONNEST_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONNEST_H

#include "ConstantInits.h"
#include "KernelCommon.h"

#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::ptensor::reduction {

/// Threads of a row-kernel block (a power of two, whole warps and at most
/// 32 of them: warp 0 merges one result per warp).
inline constexpr int64_t kBlock = 256;

/// Row-kernel blocks that fill an H100 (132 SMs, 8 resident blocks of
/// kBlock threads each): fewer outputs than this split their rows.
inline constexpr int64_t kResidentBlocks = 1056;

/// Fewest reduced elements per chunk of a split row (a block's threads
/// fold 16 each): smaller chunks cost more in the second kernel than they
/// gain in the first.
inline constexpr int64_t kMinRowChunk = 16 * kBlock;

/// Interleaved partial results of a thread merging chunks: a column
/// kernel's second stage runs a thread per output, few of them, each
/// merging every chunk of its output; with one load in flight at a time it
/// waits a memory latency per chunk.
inline constexpr unsigned kMergeLanes = 8;

/// A row of one input kept in the block's dynamic shared memory (a row
/// group's vector launch where the row fits): the first member reading the
/// input fills it as it reads the row, later members read the row from it.
struct RowCache {
  unsigned input = 0; ///< the member's DPS input the row is of
  Value row;          ///< memref<?xT, workgroup>: reduced element r at r
  bool fills = false; ///< this member fills it (else reads it)
};

/// One vector load of `width` elements along the innermost loop from
/// (loop indices) `at`, per input of `op` that has a row view in `views`
/// (null for the others); with `cache`, its input's vector comes from the
/// cached row at reduced position `r` (or is also stored there).
SmallVector<Value> loadRowVectors(OpBuilder &b, Location loc,
                                  linalg::GenericOp op,
                                  ArrayRef<Value> views, int64_t width,
                                  ArrayRef<Value> at,
                                  const RowCache *cache = nullptr,
                                  Value r = Value());

/// The element of `op` `lane` places along the innermost loop from `at`,
/// its inputs taken from `vectors` where loaded (loadRowVectors), else from
/// `invariant` where given (a value loaded once for the row), its output
/// block arguments bound to `acc`.
SmallVector<Value> emitLane(OpBuilder &b, Location loc,
                            linalg::GenericOp op, ArrayRef<Value> at,
                            ArrayRef<Value> vectors, int64_t lane,
                            ValueRange acc = {},
                            ArrayRef<Value> invariant = {});

/// The first element thread `t` of a block of kBlock threads reads along a
/// row, from `lo` (null: 0), when each thread reads `width` consecutive
/// elements (threads take width * t, then kBlock * width further on); and
/// that stride.
inline Value threadStart(OpBuilder &b, Location loc, Value lo, Value t,
                         int64_t width) {
  Value offset = t;
  if (width > 1)
    offset = arith::MulIOp::create(b, loc, t, indexConstant(b, loc, width));
  return lo ? arith::AddIOp::create(b, loc, lo, offset) : offset;
}
inline Value blockStride(OpBuilder &b, Location loc, int64_t width) {
  return indexConstant(b, loc, kBlock * width);
}

/// The loop structure of a reduction generic and the code of one element.
struct ReductionNest {
  mutable linalg::GenericOp op; ///< (its accessors are not const)
  Combiner combiner;
  unsigned lanes = 1; ///< interleaved accumulators per thread
  /// Consecutive elements of the innermost (reduced) loop a thread reads
  /// at a time: > 1 on the row-vector path, where each input read along
  /// the row comes from its row view (`rowInputs`, unit innermost stride,
  /// aligned rows) by one vector load, and the innermost size is a
  /// multiple of `width`.
  int64_t width = 1;
  SmallVector<Value> rowInputs; ///< per DPS input: its row view, or null
  /// On the row-vector path of a row group: the input whose row the block
  /// keeps in shared memory.
  std::optional<RowCache> cache;
  /// In a row group: per DPS input, its element at the row being folded
  /// where an earlier member computed it (the same in every element of the
  /// row), else null: read from memory.
  SmallVector<Value> invariant;
  /// An elementwise generic over the kept space that reads the results
  /// (takeReductionEpilogue), computed where they are stored; or null.
  mutable linalg::GenericOp epilogue;
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

  /// On the row-vector path: the vectors at `at` (loadRowVectors).
  SmallVector<Value> loadVectors(OpBuilder &b, Location loc,
                                 ArrayRef<Value> at, Value r) const {
    return loadRowVectors(b, loc, op, rowInputs, width, at,
                          cache ? &*cache : nullptr, r);
  }

  /// Folds the element `lane` places along the innermost loop from `at`
  /// into `acc` (emitLane).
  SmallVector<Value> foldLane(OpBuilder &b, Location loc, ArrayRef<Value> at,
                              ArrayRef<Value> vectors, int64_t lane,
                              ValueRange acc) const {
    return emitLane(b, loc, op, at, vectors, lane, acc, invariant);
  }

  /// The accumulators after folding element (k, r) into `acc`; on the
  /// row-vector path, elements r .. r + width - 1 (r a multiple of width),
  /// in order.
  SmallVector<Value> fold(OpBuilder &b, Location loc, Value k, Value r,
                          ValueRange acc) const {
    SmallVector<Value> at = ids(b, loc, k, r);
    if (width == 1)
      return emitElement(b, loc, op, at, invariant, acc);
    SmallVector<Value> vectors = loadVectors(b, loc, at, r);
    SmallVector<Value> state(acc);
    for (int64_t lane = 0; lane < width; ++lane)
      state = foldLane(b, loc, at, vectors, lane, state);
    return state;
  }

  /// The first reduced element thread `t` of a block reads, from `lo`
  /// (null: 0), and the block's stride.
  Value threadStart(OpBuilder &b, Location loc, Value lo, Value t) const {
    return reduction::threadStart(b, loc, lo, t, width);
  }
  Value blockStride(OpBuilder &b, Location loc) const {
    return reduction::blockStride(b, loc, width);
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
  /// step, ... < hi, into the combiner's identity, in kMergeLanes
  /// interleaved sets (buildLaneFold's fixed order: the loads of a thread
  /// that merges many chunks alone are in flight together).
  SmallVector<Value> mergeRange(OpBuilder &b, Location loc,
                                ArrayRef<Value> partials, Value base,
                                Value stride, Value lo, Value hi,
                                Value step) const {
    return buildLaneFold(
        b, loc, combiner, identity(b, loc), kMergeLanes, lo, hi, step,
        [&](OpBuilder &nb, Location nloc, Value j, ValueRange acc) {
          Value offset = arith::MulIOp::create(nb, nloc, j, stride);
          Value at = arith::AddIOp::create(nb, nloc, base, offset);
          SmallVector<Value> next;
          for (Value buffer : partials)
            next.push_back(memref::LoadOp::create(nb, nloc, buffer, at));
          return buildCombine(nb, nloc, combiner, acc, next);
        });
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

  /// Merges `partial` into the outputs at kept position `k`: into their
  /// current values (`current[i]` where given and not null, else loaded),
  /// or into the constants they start as (constantInitsOf: their fills
  /// folded away). Returns the merged values.
  SmallVector<Value> store(OpBuilder &b, Location loc, Value k,
                           ValueRange partial,
                           ArrayRef<Value> current = {}) const {
    Value zero = indexConstant(b, loc, 0);
    SmallVector<Value> at = ids(b, loc, k, zero);
    std::optional<SmallVector<TypedAttr>> inits = constantInitsOf(op);
    SmallVector<SmallVector<Value>> indices;
    SmallVector<Value> old;
    for (OpOperand &out : op.getDpsInitsMutable()) {
      indices.push_back(indicesThroughMap(b, loc, op, &out, at));
      if (inits) {
        TypedAttr init =
            (*inits)[out.getOperandNumber() - op.getNumDpsInputs()];
        old.push_back(arith::ConstantOp::create(b, loc, init));
        continue;
      }
      size_t i = old.size();
      if (i < current.size() && current[i]) {
        old.push_back(current[i]);
        continue;
      }
      old.push_back(memref::LoadOp::create(b, loc, out.get(), indices.back()));
    }
    SmallVector<Value> merged = buildCombine(b, loc, combiner, old, partial);
    for (auto [out, v, at] :
         llvm::zip(op.getDpsInitsMutable(), merged, indices))
      memref::StoreOp::create(b, loc, v, out.get(), at);
    if (epilogue)
      storeEpilogue(b, loc, indices.front(), merged);
    return merged;
  }

  /// Computes the epilogue's element at kept position `at` (the outputs'
  /// indices, alike for all), its reads of the results being `results`,
  /// and stores it.
  void storeEpilogue(OpBuilder &b, Location loc, ValueRange at,
                     ValueRange results) const {
    SmallVector<Value> outputs(op.getDpsInits());
    SmallVector<Value> preloaded;
    for (OpOperand *in : epilogue.getDpsInputOperands()) {
      auto *it = llvm::find(outputs, in->get());
      preloaded.push_back(it == outputs.end() ? Value()
                                              : results[it - outputs.begin()]);
    }
    SmallVector<Value> values = emitElement(b, loc, epilogue, at, preloaded);
    for (auto [v, out] : llvm::zip(values, epilogue.getDpsInits()))
      memref::StoreOp::create(b, loc, v, out, at);
  }
};

/// Row views through which a generic reads (and, elementwise, writes)
/// `width` consecutive elements of the innermost loop at a time.
struct RowVectors {
  Value ok; ///< the run-time test of the views
  int64_t width = 1;
  SmallVector<Value> inputs;  ///< per DPS input: its row view, or null
  SmallVector<Value> outputs; ///< per DPS init (when asked for)
};

/// Shared-memory buffers of one accumulator per warp.
SmallVector<Type> sharedBuffers(OpBuilder &b,
                                const ReductionNest &nest);

/// Called in a block of kBlock threads, thread `t` holding `partial`:
/// merges the block's partial results (in each warp by shuffles, then the
/// warps' results through `buffers` by warp 0) and calls `finish` with the
/// total in thread 0. The block may reuse the buffers afterwards.
void emitBlockMerge(
    OpBuilder &b, Location loc, const ReductionNest &nest,
    ValueRange buffers, Value t, ValueRange partial,
    function_ref<void(OpBuilder &, Location, ValueRange)> finish);

/// A launch of blocks of kBlock threads with `shared` buffers (for
/// accumulators) and `dynamicSharedBytes` (i32) of dynamic shared memory
/// when given, grid-striding over `items` (at most `config.maxBlocks`
/// blocks, with the registers of `config.rowBlocksPerSM` blocks per SM
/// where set): `body(b, loc, item, t, buffers)` runs for each item in
/// every thread t.
void emitBlockPerItem(OpBuilder &b, Location loc, TypeRange shared, Value items,
                      const KernelConfig &config,
                      function_ref<void(OpBuilder &, Location, Value, Value,
                                        ArrayRef<BlockArgument>)>
                          body,
                      Value dynamicSharedBytes = Value());

/// How many chunks the reduced range of each output splits into: enough
/// that `items` (outputs, or groups of them) x chunks reaches `target`,
/// none smaller than `minChunk` elements (1: no split).
Value chunkCount(OpBuilder &b, Location loc,
                 const ReductionNest &nest, Value items,
                 int64_t target, int64_t minChunk);

/// The row views of `op` and their run-time test: every input read along
/// the row (and every output, with `outputs`) has unit innermost stride and
/// aligned rows, and the innermost size `innermost` is a multiple of the
/// width (16 bytes of the narrowest such operand). None when the path
/// cannot apply: an input read across rows, i1 buffers (bit-packed as
/// vectors), or nothing read or written along the row.
std::optional<RowVectors>
prepareRowVectorsOf(OpBuilder &b, Location loc, linalg::GenericOp op,
                    Value innermost, bool outputs);

/// Prepares `nest` for the row-vector path and returns its run-time test
/// (null when the path cannot apply).
Value prepareRowVectors(OpBuilder &b, Location loc,
                        ReductionNest &nest);

/// The loop structure of reduction `op`, its sizes computed at the
/// insertion point (an argmax/argmin body is rewritten for folds in
/// order: foldArgInOrder).
ReductionNest buildNest(OpBuilder &b, Location loc,
                        linalg::GenericOp op,
                        const KernelConfig &config);

/// Where a block folds whole rows: alone (a row kernel) or as a member of a
/// row group, which reads each row again after the fold.
enum class RowFold { Alone, InGroup };

/// The fewest interleaved accumulator sets of a block folding whole rows of
/// `reductions` (`reduction-lanes` raises it, never lowers it): the one
/// owner of the measured minimums (ReductionKernel.cpp says why each).
unsigned minimumRowFoldLanes(ArrayRef<linalg::GenericOp> reductions,
                             RowFold fold);

/// An scf.if on `nest` having outputs, with the insertion point moved into
/// it (no outputs: nothing to launch; a zero-block grid is a CUDA error).
void beginNonEmpty(OpBuilder &b, Location loc,
                   const ReductionNest &nest);

/// The i1, built at `b`'s insertion point, that is true when two-loop
/// reduction `op` (isTwoLoopReduction) reads its inputs with smaller strides
/// along its outer loop than along its inner one (a row reduction over a
/// transposed view): its reversed copy's kernels then read along unit
/// strides. Null when the loops cannot swap or never should (static
/// strides that say so).
Value buildSwapCondition(OpBuilder &b, Location loc, linalg::GenericOp op);

} // namespace mlir::ptensor::reduction

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_REDUCTIONNEST_H
