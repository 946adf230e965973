//===- RowGroupKernel.cpp - one gpu.launch for a row group ----------------===//
//
// A row group (RowGroups.h) becomes a launch with a block per row of its
// first reduction's kept space that computes the members in order, each
// from the same pieces as the reduction kernels (ReductionNest.h).
//
//===----------------------------------------------------------------------===//

#include "RowGroupKernel.h"

#include "ElementwiseKernel.h"
#include "ReductionKernel.h"
#include "ReductionNest.h"

#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::ptensor::reduction;

namespace {
/// What the members of a row group have computed for row k, by the buffer
/// it was stored in (rootOf): a later member's read of such a buffer is of
/// that very element (RowGroup's rule), so it takes the value, which every
/// thread holds (a reduction's total is broadcast through shared memory, a
/// PerRow member is computed by every thread), instead of a load after a
/// barrier and a global round trip.
struct RowValues {
  DenseMap<Value, Value> byBuffer;
  /// Buffers some thread has read from memory for row k since the block's
  /// last barrier: a PerRow member, stored by thread 0 alone, that writes
  /// one waits for the block first.
  DenseSet<Value> readFromMemory;

  /// The buffer `memref` views (the key of both sets).
  static Value bufferOf(Value memref) {
    bool understood;
    return rootOf(memref, understood);
  }

  Value lookup(Value memref) const { return byBuffer.lookup(bufferOf(memref)); }

  /// Per DPS input of `op`: its value for row k, or null where it is read
  /// from memory (noted).
  SmallVector<Value> inputsOf(linalg::GenericOp op) {
    SmallVector<Value> values;
    for (Value in : op.getDpsInputs()) {
      if (!isa<MemRefType>(in.getType())) {
        values.push_back(Value());
        continue;
      }
      values.push_back(lookup(in));
      if (!values.back())
        readFromMemory.insert(bufferOf(in));
    }
    return values;
  }

  /// Per DPS init of `op`: its current value for row k, or null.
  SmallVector<Value> outputsOf(linalg::GenericOp op) const {
    return llvm::map_to_vector(op.getDpsInits(),
                               [&](Value out) { return lookup(out); });
  }

  /// Whether `op` writes a buffer read from memory for row k.
  bool writesReadBuffer(linalg::GenericOp op) const {
    return llvm::any_of(op.getDpsInits(), [&](Value out) {
      return readFromMemory.contains(bufferOf(out));
    });
  }

  /// Notes `values` as the row's elements of `op`'s outputs.
  void record(linalg::GenericOp op, ValueRange values) {
    for (auto [out, v] : llvm::zip(op.getDpsInits(), values))
      byBuffer[bufferOf(out)] = v;
  }
};
} // namespace

/// Stores `values` into the outputs of elementwise `op` at iteration `ids`.
static void storeOutputs(OpBuilder &b, Location loc, linalg::GenericOp op,
                         ArrayRef<Value> ids, ArrayRef<Value> values) {
  for (auto [out, v] : llvm::zip(op.getDpsInitsMutable(), values)) {
    SmallVector<Value> at = indicesThroughMap(b, loc, op, &out, ids);
    memref::StoreOp::create(b, loc, v, out.get(), at);
  }
}

/// Per memref input of AlongRow member `op`: its element of row k where
/// an earlier member computed it (`values`), else loaded once where its
/// indexing map uses none of the row's (reduced) dims and `op` does not
/// write it (loaded in the loop, it is reloaded per iteration, as the
/// loop's stores may alias it); else null. The load is in bounds for an
/// empty row too.
static SmallVector<Value> loadRowInvariants(OpBuilder &b, Location loc,
                                            linalg::GenericOp op,
                                            const ReductionNest &space, Value k,
                                            RowValues &values) {
  SmallVector<Value> invariant = values.inputsOf(op);
  SmallVector<Value> ids;
  for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
    if (invariant[i] || !isa<MemRefType>(in->get().getType()) ||
        llvm::is_contained(op.getDpsInits(), in->get()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(in);
    if (llvm::any_of(space.reduced,
                     [&](unsigned d) { return map.isFunctionOfDim(d); }))
      continue;
    if (ids.empty()) {
      Value zero = indexConstant(b, loc, 0);
      ids = space.ids(b, loc, k, zero);
    }
    invariant[i] = loadThroughMap(b, loc, op, in, ids);
  }
  return invariant;
}

/// An AlongRow member's row k, thread t taking elements t, t + kBlock, ...
/// of the row, or with `rows` vectors of rows->width elements from
/// width * t on (an input in `cache` read from the block's cached row).
static void emitAlongRow(OpBuilder &b, Location loc, linalg::GenericOp op,
                         const ReductionNest &space, Value k, Value t,
                         const std::optional<RowVectors> &rows,
                         const RowCache *cache, RowValues &values) {
  int64_t width = rows ? rows->width : 1;
  SmallVector<Value> invariant =
      loadRowInvariants(b, loc, op, space, k, values);
  Value first = threadStart(b, loc, Value(), t, width);
  Value step = blockStride(b, loc, width);
  scf::ForOp::create(
      b, loc, first, space.reducedCount, step, ValueRange(),
      [&](OpBuilder &lb, Location lloc, Value r, ValueRange) {
        SmallVector<Value> ids = space.ids(lb, lloc, k, r);
        if (!rows) {
          storeOutputs(lb, lloc, op, ids,
                       emitElement(lb, lloc, op, ids, invariant));
          scf::YieldOp::create(lb, lloc);
          return;
        }
        SmallVector<Value> vectors =
            loadRowVectors(lb, lloc, op, rows->inputs, width, ids, cache, r);
        SmallVector<SmallVector<Value>> lanes(op.getNumDpsInits());
        for (int64_t lane = 0; lane < width; ++lane)
          for (auto [i, v] : llvm::enumerate(
                   emitLane(lb, lloc, op, ids, vectors, lane, {}, invariant)))
            lanes[i].push_back(v);
        for (auto [out, view, values] :
             llvm::zip(op.getDpsInitsMutable(), rows->outputs, lanes)) {
          Type element = cast<MemRefType>(view.getType()).getElementType();
          auto type = VectorType::get({width}, element);
          Value vector = vector::FromElementsOp::create(lb, lloc, type, values);
          SmallVector<Value> at = indicesThroughMap(lb, lloc, op, &out, ids);
          vector::StoreOp::create(lb, lloc, vector, view, at,
                                  /*nontemporal=*/false,
                                  llvm::Align(rowAlignment(width, element)));
        }
        scf::YieldOp::create(lb, lloc);
      });
}

/// Most bytes of a row kept in shared memory: within the default limit of
/// a block's dynamic shared memory (48 KiB; more needs an opt-in per
/// kernel) with the merge buffers beside it; 4 such blocks of kBlock
/// threads still fit an H100 SM.
static constexpr int64_t kMaxCachedRowBytes = 47 * 1024;

/// Bytes of a static shared-memory buffer, rounded up to 16.
static int64_t sharedBytes(MemRefType type) {
  int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
  return llvm::alignTo(bytes, 16);
}

/// The shared-memory buffers of a Reduce member in a row group: one
/// accumulator per warp (sharedBuffers), then the total, which thread 0
/// broadcasts to the block.
static SmallVector<Type> memberBuffers(OpBuilder &b,
                                       const ReductionNest &nest) {
  SmallVector<Type> buffers = sharedBuffers(b, nest);
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  for (Type type : nest.accumulatorTypes())
    buffers.push_back(MemRefType::get({1}, type, AffineMap(), workgroup));
  return buffers;
}

/// The input a row group's vector launch keeps a row of in shared memory.
struct CachedInput {
  Value memref;    ///< the members' operand
  Type element;    ///< its element type
  Value rowBytes;  ///< a row's bytes (index, on the host)
  Value mergeAt;   ///< where the merge buffers start (index, 16-aligned)
  Value bytes;     ///< the launch's dynamic shared memory (i32)
  /// Per member: its DPS input that reads the row as row vectors, if any
  /// (RowCache::input); the first reduction's fills the row.
  SmallVector<std::optional<unsigned>> inputs;
};

/// The DPS input of `op` that is `memref` and is read as row vectors
/// (`views`), for a RowCache.
static std::optional<unsigned> cachedInputOf(linalg::GenericOp op,
                                             ArrayRef<Value> views,
                                             Value memref) {
  for (auto [i, in, view] : llvm::enumerate(op.getDpsInputs(), views))
    if (in == memref && view)
      return i;
  return std::nullopt;
}

/// The launch of a row group: a block per row k of the space of `nests`
/// (one per Reduce member, in order) computing the members in order:
/// Reduce as the row kernel, thread 0 merging into the output and
/// broadcasting the total to the block; PerRow element k in every thread
/// (thread 0 stores it); AlongRow the row's elements strided over the
/// threads (with vectors where `alongRowVectors` has them), then a barrier
/// (the next row's first reduction refills the cached row). Later members
/// take earlier members' results as values (RowValues).
static void emitRowGroupLaunch(
    OpBuilder &b, Location loc, const RowGroup &group,
    ArrayRef<ReductionNest> nests,
    ArrayRef<std::optional<RowVectors>> alongRowVectors,
    const std::optional<CachedInput> &cached, const KernelConfig &config) {
  SmallVector<Type> shared;
  SmallVector<size_t> sharedStart;
  for (const ReductionNest &nest : nests) {
    sharedStart.push_back(shared.size());
    llvm::append_range(shared, memberBuffers(b, nest));
  }
  const ReductionNest &space = nests.front();
  // With a cached row the merge buffers live in the dynamic shared memory.
  TypeRange attributions = cached ? TypeRange() : TypeRange(shared);
  emitBlockPerItem(
      b, loc, attributions, space.keptCount, config,
      [&](OpBuilder &nb, Location nloc, Value k, Value t,
          ArrayRef<BlockArgument> buffers) {
        // The cached row: the first reduction fills it, later members
        // reading the same input read it from there.
        SmallVector<ReductionNest, 2> local(nests);
        SmallVector<std::optional<RowCache>> caches(group.members.size());
        SmallVector<Value> mergeBuffers(buffers.begin(), buffers.end());
        if (cached) {
          // Everything in the dynamic shared memory: the row, then the
          // merge buffers. (MLIR 22's NVVM lowering declares the dynamic
          // region as an internal global that NVPTX demotes to a static
          // one of no size at the start of the block's shared memory, so a
          // static buffer beside it would overlap the row.)
          auto workgroup = gpu::AddressSpaceAttr::get(
              nb.getContext(), gpu::AddressSpace::Workgroup);
          auto rawType = MemRefType::get({ShapedType::kDynamic},
                                         nb.getI8Type(), AffineMap(),
                                         workgroup);
          auto rowType = MemRefType::get({ShapedType::kDynamic},
                                         cached->element, AffineMap(),
                                         workgroup);
          Value raw = gpu::DynamicSharedMemoryOp::create(nb, nloc, rawType);
          Value zero = indexConstant(nb, nloc, 0);
          Value row = memref::ViewOp::create(nb, nloc, rowType, raw, zero,
                                             ValueRange{space.reducedCount});
          Value at = cached->mergeAt;
          for (Type type : shared) {
            auto bufferType = cast<MemRefType>(type);
            mergeBuffers.push_back(memref::ViewOp::create(
                nb, nloc, bufferType, raw, at, ValueRange()));
            Value bufferBytes =
                indexConstant(nb, nloc, sharedBytes(bufferType));
            at = arith::AddIOp::create(nb, nloc, at, bufferBytes);
          }
          size_t reduce = 0;
          for (auto [m, step] : llvm::enumerate(group.steps)) {
            if (std::optional<unsigned> input = cached->inputs[m])
              caches[m] = RowCache{*input, row,
                                   /*fills=*/step == RowStep::Reduce &&
                                       reduce == 0};
            if (step == RowStep::Reduce)
              local[reduce++].cache = caches[m];
          }
        }
        RowValues values;
        Value zero = indexConstant(nb, nloc, 0);
        size_t next = 0;
        for (auto [m, member, step] :
             llvm::enumerate(group.members, group.steps)) {
          linalg::GenericOp op = member;
          if (step == RowStep::Reduce) {
            ReductionNest &nest = local[next];
            size_t count = nest.accumulatorTypes().size();
            ValueRange own =
                ValueRange(mergeBuffers).slice(sharedStart[next], count);
            ValueRange broadcast = ValueRange(mergeBuffers)
                                       .slice(sharedStart[next] + count, count);
            ++next;
            nest.invariant = values.inputsOf(op);
            SmallVector<Value> current = values.outputsOf(op);
            Value first = nest.threadStart(nb, nloc, Value(), t);
            Value stride = nest.blockStride(nb, nloc);
            SmallVector<Value> partial = nest.foldRange(
                nb, nloc, k, first, nest.reducedCount, stride);
            emitBlockMerge(
                nb, nloc, nest, own, t, partial,
                [&](OpBuilder &fb, Location floc, ValueRange total) {
                  SmallVector<Value> merged =
                      nest.store(fb, floc, k, total, current);
                  for (auto [buffer, v] : llvm::zip(broadcast, merged))
                    memref::StoreOp::create(fb, floc, v, buffer, zero);
                });
            // After the merge's closing barrier.
            SmallVector<Value> totals;
            for (Value buffer : broadcast)
              totals.push_back(memref::LoadOp::create(nb, nloc, buffer, zero));
            values.record(op, totals);
            values.readFromMemory.clear();
            continue;
          }
          if (step == RowStep::AlongRow) {
            emitAlongRow(nb, nloc, op, space, k, t, alongRowVectors[m],
                         caches[m] ? &*caches[m] : nullptr, values);
            gpu::BarrierOp::create(nb, nloc);
            values.readFromMemory.clear();
            continue;
          }
          SmallVector<Value> all = space.ids(nb, nloc, k, zero);
          SmallVector<Value> ids;
          for (unsigned d : space.kept)
            ids.push_back(all[d]);
          SmallVector<Value> results =
              emitElement(nb, nloc, op, ids, values.inputsOf(op));
          values.record(op, results);
          if (values.writesReadBuffer(op)) {
            gpu::BarrierOp::create(nb, nloc);
            values.readFromMemory.clear();
          }
          Value isFirst = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::eq, t, zero);
          auto ifFirst = scf::IfOp::create(nb, nloc, isFirst, false);
          OpBuilder::InsertionGuard g(nb);
          nb.setInsertionPointToStart(ifFirst.thenBlock());
          storeOutputs(nb, nloc, op, ids, results);
        }
      },
      cached ? cached->bytes : Value());
}


/// The input whose rows the vector launch keeps in shared memory: the
/// first reduction's first input read as row vectors, where a later member
/// reads it as row vectors too (else none). Its `bytes` are computed here.
static std::optional<CachedInput>
chooseCachedInput(OpBuilder &b, Location loc, const RowGroup &group,
                  ArrayRef<ReductionNest> nests,
                  ArrayRef<std::optional<RowVectors>> alongRowVectors) {
  const ReductionNest &first = nests.front();
  auto at = llvm::find_if(first.rowInputs, [](Value v) { return bool(v); });
  if (at == first.rowInputs.end())
    return std::nullopt;
  Value memref = first.op.getDpsInputs()[at - first.rowInputs.begin()];
  SmallVector<std::optional<unsigned>> inputs(group.members.size());
  bool readLater = false;
  size_t reduce = 0;
  for (auto [m, member, step] : llvm::enumerate(group.members, group.steps)) {
    if (step == RowStep::Reduce)
      inputs[m] = cachedInputOf(member, nests[reduce].rowInputs, memref);
    else if (step == RowStep::AlongRow && alongRowVectors[m])
      inputs[m] = cachedInputOf(member, alongRowVectors[m]->inputs, memref);
    bool firstReduction = step == RowStep::Reduce && reduce == 0;
    readLater |= inputs[m] && !firstReduction;
    if (step == RowStep::Reduce)
      ++reduce;
  }
  if (!readLater)
    return std::nullopt;
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  Value elementBytes =
      indexConstant(b, loc, element.getIntOrFloatBitWidth() / 8);
  Value rowBytes =
      arith::MulIOp::create(b, loc, first.reducedCount, elementBytes);
  Value sixteen = indexConstant(b, loc, 16);
  Value rowChunks = arith::CeilDivUIOp::create(b, loc, rowBytes, sixteen);
  Value mergeAt = arith::MulIOp::create(b, loc, rowChunks, sixteen);
  int64_t mergeBytes = 0;
  for (const ReductionNest &nest : nests)
    for (Type type : memberBuffers(b, nest))
      mergeBytes += sharedBytes(cast<MemRefType>(type));
  Value mergeBytesValue = indexConstant(b, loc, mergeBytes);
  Value total = arith::AddIOp::create(b, loc, mergeAt, mergeBytesValue);
  Value total32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), total);
  return CachedInput{memref, element, rowBytes, mergeAt, total32,
                     std::move(inputs)};
}

/// Converts each member of `group` on its own, in order.
static LogicalResult convertEachMember(RewriterBase &rewriter,
                                       const RowGroup &group,
                                       const KernelConfig &config) {
  for (auto [member, step] : llvm::zip(group.members, group.steps)) {
    auto clone =
        cast<linalg::GenericOp>(rewriter.clone(*linalg::GenericOp(member)));
    LogicalResult converted =
        step == RowStep::Reduce
            ? convertReductionToKernel(rewriter, clone, config)
            : convertGenericToKernel(rewriter, clone, config);
    if (failed(converted))
      return failure();
  }
  return success();
}

LogicalResult mlir::ptensor::convertRowGroupToKernel(
    RewriterBase &rewriter, const RowGroup &group,
    const KernelConfig &kernelConfig) {
  KernelConfig config = kernelConfig;
  SmallVector<linalg::GenericOp, 2> reductions;
  for (auto [member, step] : llvm::zip(group.members, group.steps))
    if (step == RowStep::Reduce)
      reductions.push_back(linalg::GenericOp(member));
  config.reductionLanes =
      std::max(kernelConfig.reductionLanes,
               minimumRowFoldLanes(reductions, RowFold::InGroup));
  // Everything at the last member: the ops between members have no memory
  // effect, and every operand is defined by then.
  linalg::GenericOp last = group.members.back();
  Location loc = last.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(last);
  SmallVector<ReductionNest, 2> nests;
  for (auto [member, step] : llvm::zip(group.members, group.steps))
    if (step == RowStep::Reduce)
      nests.push_back(buildNest(rewriter, loc, member, config));
  beginNonEmpty(rewriter, loc, nests.front());
  // Rows too few to fill the GPU: each member on its own (the row kernel
  // then splits its rows).
  Value chunks = chunkCount(rewriter, loc, nests.front(),
                            nests.front().keptCount, kResidentBlocks,
                            kMinRowChunk);
  Value one = indexConstant(rewriter, loc, 1);
  Value fills = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      chunks, one);
  // Rows read across a transposed view: each member on its own too (a
  // reduction then runs with its loops swapped, a column kernel).
  IndexMath math(rewriter, loc);
  for (const ReductionNest &nest : nests)
    if (Value swap = buildSwapCondition(rewriter, loc, nest.op))
      fills = math.andI(fills, math.notI(swap));
  auto ifFills = scf::IfOp::create(rewriter, loc, fills, /*withElse=*/true);
  rewriter.setInsertionPointToStart(ifFills.elseBlock());
  if (failed(convertEachMember(rewriter, group, config)))
    return failure();
  rewriter.setInsertionPointToStart(ifFills.thenBlock());
  // The vector form: every Reduce member's vector path, and AlongRow
  // members' where they have one (else their scalar loop in it).
  SmallVector<ReductionNest, 2> vectorNests(nests);
  Value vectorsOk = arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getBoolAttr(true));
  for (ReductionNest &nest : vectorNests) {
    Value ok = prepareRowVectors(rewriter, loc, nest);
    vectorsOk = ok ? arith::AndIOp::create(rewriter, loc, vectorsOk, ok)
                   : Value();
    if (!vectorsOk)
      break;
  }
  SmallVector<std::optional<RowVectors>> scalarRows(group.members.size());
  if (vectorsOk) {
    SmallVector<std::optional<RowVectors>> vectorRows(group.members.size());
    for (auto [m, member, step] :
         llvm::enumerate(group.members, group.steps)) {
      if (step != RowStep::AlongRow)
        continue;
      vectorRows[m] = prepareRowVectorsOf(rewriter, loc, member,
                                          nests.front().sizes.back(), true);
      if (vectorRows[m])
        vectorsOk =
            arith::AndIOp::create(rewriter, loc, vectorsOk, vectorRows[m]->ok);
    }
    auto ifVectors =
        scf::IfOp::create(rewriter, loc, vectorsOk, /*withElse=*/true);
    rewriter.setInsertionPointToStart(ifVectors.thenBlock());
    // Rows that fit in shared memory are read from DRAM once.
    std::optional<CachedInput> cached =
        chooseCachedInput(rewriter, loc, group, vectorNests, vectorRows);
    if (cached) {
      Value limit = indexConstant(rewriter, loc, kMaxCachedRowBytes);
      Value fits = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, cached->rowBytes, limit);
      auto ifFits = scf::IfOp::create(rewriter, loc, fits, /*withElse=*/true);
      rewriter.setInsertionPointToStart(ifFits.thenBlock());
      emitRowGroupLaunch(rewriter, loc, group, vectorNests, vectorRows, cached,
                         config);
      rewriter.setInsertionPointToStart(ifFits.elseBlock());
    }
    emitRowGroupLaunch(rewriter, loc, group, vectorNests, vectorRows,
                       std::nullopt, config);
    rewriter.setInsertionPointToStart(ifVectors.elseBlock());
  }
  emitRowGroupLaunch(rewriter, loc, group, nests, scalarRows, std::nullopt,
                     config);
  for (linalg::GenericOp member : llvm::reverse(group.members))
    rewriter.eraseOp(member);
  return success();
}
