//===- ReductionsToLoops.cpp - CPU loops for reduction generics -----------===//
//
// linalg-to-loops would keep a reduction's accumulator in the output buffer
// (a load and a store per element, one dependent chain through memory) and
// LLVM cannot reorder float combines to vectorize it. Here the accumulators
// are loop values and the innermost loop folds `lanes` independent
// accumulators, merged in a fixed order: vectorizable and deterministic.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/ReductionsToLoops/ReductionsToLoops.h"

#include "ptensor/Conversion/LinalgToGPU/LinalgToGPU.h"
#include "ptensor/Dialect/PTensor/Utils/GenericBody.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"
#include "ptensor/Dialect/PTensor/Utils/LoopBlocks.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::ptensor {
#define GEN_PASS_DEF_CONVERTPTENSORREDUCTIONSTOLOOPS
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {

/// A reduction whose innermost loop is reduced folds its outermost reduced
/// loop in chunks of about kChunkSize positions (whole rows of the inner
/// reduced loops, at least one), of equal size, at most kMaxChunks tasks
/// with its outputs (ReductionLoops::planChunks).
constexpr int64_t kChunkSize = 65536;
constexpr int64_t kMaxChunks = 64;

/// The positions of an argmax/argmin row folded at once
/// (ReductionLoops::foldInnermostInBlocks): its extremum is found first,
/// then, rarely on most data, searched for while the block is in L1.
constexpr int64_t kArgBlock = 256;

/// The outputs of a reduction generic at one iteration: where each element
/// is and its current value (loadOutputs), stored back by storeOutputs.
struct OutputElements {
  SmallVector<SmallVector<Value>> at;
  SmallVector<Value> values;
};

/// Loads `op`'s outputs at iteration `ids` (whose reduced dims they do not
/// read).
OutputElements loadOutputs(OpBuilder &b, Location loc, linalg::GenericOp op,
                           ValueRange ids) {
  OutputElements outputs;
  for (OpOperand &out : op.getDpsInitsMutable()) {
    outputs.at.push_back(indicesThroughMap(b, loc, op, &out, ids));
    outputs.values.push_back(
        memref::LoadOp::create(b, loc, out.get(), outputs.at.back()));
  }
  return outputs;
}

/// Stores `values` where loadOutputs found `outputs`.
void storeOutputs(OpBuilder &b, Location loc, linalg::GenericOp op,
                  const OutputElements &outputs, ValueRange values) {
  for (auto [out, v, indices] :
       llvm::zip(op.getDpsInitsMutable(), values, outputs.at))
    memref::StoreOp::create(b, loc, v, out.get(), indices);
}

/// A full reduction's chunk partials (one stack array of kMaxChunks per
/// accumulator, in the function's entry block) and the plan they were
/// folded under (`plan`: a memref<2xindex> of the outermost loop's size and
/// the chunk size, stored when the chunks are folded).
struct ChunkPartials {
  SmallVector<Value> partials;
  Value plan;
};

/// The chunk partials of the full reductions lowered so far, by the output
/// buffer they merge into: the unit-stride versions of one generic share
/// them, and an argmax's first-match search reads the extremum's
/// (ReductionLoops::emitFirstMatchOutput).
using PartialsByOutput = DenseMap<Value, ChunkPartials>;

/// How the outermost reduced loop (`n` iterations) is split: `count`
/// chunks of `size` iterations (the last one smaller).
struct ChunkPlan {
  Value n, count, size;
};

/// The number of iterations of loops of `sizes` (the kept tasks), folded
/// where the sizes are constants.
Value buildCount(OpBuilder &b, Location loc, ValueRange sizes) {
  IndexMath math(b, loc);
  return math.value(math.product(getAsOpFoldResult(sizes)));
}

/// The split of the outermost reduced loop (`n` rows) beside `tasks` kept
/// tasks: enough chunks for kMaxChunks tasks in all, but no more than one
/// per `minRows` rows (rounded up), and at least 1. From the sizes alone,
/// so that an output combines its elements in one order on any number of
/// threads.
ChunkPlan buildChunkPlan(OpBuilder &b, Location loc, Value tasks, Value n,
                         Value minRows) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value maxChunks = arith::ConstantIndexOp::create(b, loc, kMaxChunks);
  // Folded: a full reduction's single task makes these constants.
  Value someTasks = b.createOrFold<arith::MaxSIOp>(loc, tasks, one);
  Value wanted = b.createOrFold<arith::CeilDivSIOp>(loc, maxChunks, someTasks);
  Value byRows = arith::CeilDivSIOp::create(b, loc, n, minRows);
  Value fewer = arith::MinSIOp::create(b, loc, wanted, byRows);
  Value count = arith::MaxSIOp::create(b, loc, fewer, one);
  Value size = arith::CeilDivSIOp::create(b, loc, n, count);
  return {n, count, size};
}

/// The partials of chunks 1 .. count - 1 of a reduction with kept loops of
/// `keptSizes`: one heap buffer [count - 1, kept dims...] per accumulator
/// type (empty with one chunk; merged into the outputs in chunk order).
SmallVector<Value> buildPartialRows(OpBuilder &b, Location loc, Value count,
                                    ValueRange keptSizes, TypeRange types) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> partialSizes{arith::SubIOp::create(b, loc, count, one)};
  llvm::append_range(partialSizes, keptSizes);
  SmallVector<int64_t> shape(partialSizes.size(), ShapedType::kDynamic);
  SmallVector<Value> partials;
  for (Type type : types)
    partials.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get(shape, type), partialSizes));
  return partials;
}

/// `acc` combined with the partials `partialAt(c)` of chunks c = `lo` ..
/// `hi` - 1, in that order: an scf.for carrying the accumulators.
SmallVector<Value>
buildOrderedMerge(OpBuilder &b, Location loc, const Combiner &combiner,
                  ValueRange acc, Value lo, Value hi,
                  function_ref<SmallVector<Value>(OpBuilder &, Location, Value)>
                      partialAt) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto merge = scf::ForOp::create(
      b, loc, lo, hi, one, acc,
      [&](OpBuilder &nb, Location nl, Value c, ValueRange state) {
        SmallVector<Value> partial = partialAt(nb, nl, c);
        scf::YieldOp::create(nb, nl,
                             buildCombine(nb, nl, combiner, state, partial));
      });
  return SmallVector<Value>(merge.getResults());
}

/// The merge of chunks 1 .. count - 1 into the outputs (`merge`), where
/// `plan` has more than one chunk (with one there is nothing to merge, and
/// no threads to start), then the release of their `partials`.
void emitChunkMerge(OpBuilder &b, Location loc, const ChunkPlan &plan,
                    ValueRange partials,
                    function_ref<void(OpBuilder &, Location)> merge) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value several =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, plan.count, one);
  scf::IfOp::create(b, loc, several, [&](OpBuilder &tb, Location tl) {
    merge(tb, tl);
    scf::YieldOp::create(tb, tl);
  });
  for (Value partial : partials)
    memref::DeallocOp::create(b, loc, partial);
}

/// One reduction generic's loops, as both lowerings see them: each loop's
/// size, which loops are kept and which reduced, and the iteration being
/// built (one index value per loop, set as the loops are emitted).
struct ReductionNest {
  linalg::GenericOp op;
  Combiner combiner;
  SmallVector<Value> sizes;            ///< every loop's size
  SmallVector<unsigned> kept, reduced; ///< loop dims of each kind, in order
  SmallVector<Value> ids;              ///< the iteration being built

  /// The nest of `op` (a marked reduction), its sizes built at `b`.
  ReductionNest(OpBuilder &b, linalg::GenericOp op)
      : op(op), combiner(*getMarkedCombiner(op.getBody()->getTerminator())),
        ids(op.getNumLoops(), Value()) {
    auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
    for (Range range : linalgOp.createLoopRanges(b, op.getLoc()))
      sizes.push_back(
          getValueOrCreateConstantIndexOp(b, op.getLoc(), range.size));
    for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
      (it == utils::IteratorType::reduction ? reduced : kept).push_back(d);
  }

  SmallVector<Value> identity(OpBuilder &b, Location loc) const {
    return buildIdentity(b, loc, combiner, getAccumulatorTypes(op));
  }

  /// The sizes of the kept loops, in order.
  SmallVector<Value> keptSizes() const {
    SmallVector<Value> extents;
    for (unsigned d : kept)
      extents.push_back(sizes[d]);
    return extents;
  }
};

/// The loops of one reduction generic whose innermost loop is reduced.
struct ReductionLoops : ReductionNest {
  unsigned lanes;
  PartialsByOutput &partialsByOutput;

  ReductionLoops(OpBuilder &b, linalg::GenericOp op, unsigned lanes,
                 PartialsByOutput &partialsByOutput)
      : ReductionNest(b, op), lanes(lanes), partialsByOutput(partialsByOutput) {}

  /// Folds the innermost loop from `lo` to `hi` at iteration `ids` (its
  /// own entry unset) into `acc`: an argmax/argmin in blocks
  /// (foldInnermostInBlocks), a float max/min through buildExtremum, any
  /// other combine in `lanes` interleaved accumulators over the bulk,
  /// merged, then the remainder (buildLaneFold; 1 lane where LLVM's
  /// vectorizer folds it, letVectorizerFold).
  SmallVector<Value> foldInnermost(OpBuilder &b, Location loc,
                                   SmallVector<Value> ids, ValueRange acc,
                                   Value lo, Value hi) {
    if (isArgCombiner(combiner))
      return foldInnermostInBlocks(b, loc, ids, acc, lo, hi);
    unsigned inner = op.getNumLoops() - 1;
    if (combiner == Combiner::MaxF || combiner == Combiner::MinF) {
      Value extremum = buildExtremum(
          b, loc, combiner, lo, hi, [&](OpBuilder &nb, Location nl, Value i) {
            return emitElementAlone(nb, nl, ids, i)[0];
          });
      return buildCombine(b, loc, combiner, acc, {extremum});
    }
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    return buildLaneFold(
        b, loc, combiner, acc, lanes, lo, hi, one,
        [&](OpBuilder &nb, Location nloc, Value i, ValueRange state) {
          ids[inner] = i;
          return emitElement(nb, nloc, op, ids, {}, state);
        });
  }

  /// The accumulators of element `i` of the innermost loop at iteration
  /// `ids` alone: the body's element merged into the identity, which it
  /// always is or beats (LLVM folds the merge away; an argmax's pair keeps
  /// its position, a tie with the identity's INT64_MAX being won).
  SmallVector<Value> emitElementAlone(OpBuilder &b, Location loc,
                                      SmallVector<Value> &ids, Value i) {
    ids[op.getNumLoops() - 1] = i;
    return emitElement(b, loc, op, ids, {},
                       buildIdentity(b, loc, combiner, getAccumulatorTypes(op)));
  }

  /// Folds the innermost loop from `lo` to `hi` of an argmax/argmin (its
  /// (value, position) pairs) into `acc` with one read of the data and one
  /// search: the extremum of each block of kArgBlock positions (a plain
  /// max/min, which LLVM vectorizes; buildExtremum), keeping the first
  /// block with the best; then the search of that block alone for the first
  /// position holding it. LLVM vectorizes no select-based pair combine, and
  /// eight scalar lanes ran at a tenth of numpy's speed. The same result as
  /// the pair combine element by element: a later block is kept only when
  /// its extremum is strictly better (NaN beating numbers).
  SmallVector<Value> foldInnermostInBlocks(OpBuilder &b, Location loc,
                                           SmallVector<Value> ids,
                                           ValueRange acc, Value lo, Value hi) {
    SmallVector<Type> types = getAccumulatorTypes(op);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value block = arith::ConstantIndexOp::create(b, loc, kArgBlock);
    auto element = [&](OpBuilder &nb, Location nl, Value i) {
      return emitElementAlone(nb, nl, ids, i);
    };
    auto blockEnd = [&](OpBuilder &nb, Location nl, Value first) -> Value {
      Value end = arith::AddIOp::create(nb, nl, first, block);
      return arith::MinSIOp::create(nb, nl, end, hi);
    };
    // Pair indices that make a tie keep the earlier block.
    Value earlier = arith::ConstantOp::create(b, loc, types[1],
                                              b.getIntegerAttr(types[1], 0));
    Value later = arith::ConstantOp::create(b, loc, types[1],
                                            b.getIntegerAttr(types[1], 1));
    Value noValue = buildIdentity(b, loc, combiner, types)[0];
    auto blocks = scf::ForOp::create(
        b, loc, lo, hi, block, ValueRange{noValue, hi},
        [&](OpBuilder &nb, Location nl, Value first, ValueRange best) {
          Value blockBest = buildExtremum(
              nb, nl, getExtremumCombiner(combiner), first,
              blockEnd(nb, nl, first),
              [&](OpBuilder &vb, Location vl, Value i) {
                return element(vb, vl, i)[0];
              });
          Value noneYet = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::eq, best[1], hi);
          Value better = buildArgTakesRhs(nb, nl, combiner, {best[0], earlier},
                                          {blockBest, later});
          Value take = arith::OrIOp::create(nb, nl, noneYet, better);
          scf::YieldOp::create(
              nb, nl,
              ValueRange{
                  arith::SelectOp::create(nb, nl, take, blockBest, best[0]),
                  arith::SelectOp::create(nb, nl, take, first, best[1])});
        });
    Value extremum = blocks.getResult(0), bestFirst = blocks.getResult(1);
    Value found = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        bestFirst, hi);
    auto searched = scf::IfOp::create(
        b, loc, found,
        [&](OpBuilder &tb, Location tl) {
          Value noPosition = buildIdentity(tb, tl, combiner, types)[1];
          auto search = scf::ForOp::create(
              tb, tl, bestFirst, blockEnd(tb, tl, bestFirst), one,
              ValueRange{noPosition},
              [&](OpBuilder &sb, Location sl, Value i, ValueRange state) {
                SmallVector<Value> pair = element(sb, sl, i);
                Value match = buildMatchesExtremum(sb, sl, pair[0], extremum);
                Value position =
                    arith::SelectOp::create(sb, sl, match, pair[1], noPosition);
                scf::YieldOp::create(
                    sb, sl,
                    ValueRange{
                        arith::MinSIOp::create(sb, sl, state[0], position)});
              });
          scf::YieldOp::create(
              tb, tl,
              buildCombine(tb, tl, combiner, acc,
                           {extremum, search.getResult(0)}));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, acc); });
    return SmallVector<Value>(searched.getResults());
  }

  /// The max or min (`extremum`: MaxF, MinF or an integer one) of the
  /// values at positions `first` .. `last` - 1 (`valueAt`; the identity
  /// when there are none). Floats fold a max (min) that may ignore NaN and
  /// the sign of zero (`nnan nsz`, which LLVM needs to vectorize it: one
  /// vmaxps, where arith.maximumf's NaN and -0.0 rules take six
  /// instructions) beside whether a NaN was seen, and give NaN then: NaN
  /// propagates as in maximumf. Of -0.0 and 0.0 either may come out, as in
  /// numpy (whose max of [0.0, -0.0] is -0.0, of [-0.0, 0.0] 0.0); they
  /// compare equal.
  Value buildExtremum(
      OpBuilder &b, Location loc, Combiner extremum, Value first, Value last,
      function_ref<Value(OpBuilder &, Location, Value)> valueAt) {
    Type t = getAccumulatorTypes(op).front();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value none = buildIdentity(b, loc, extremum, t).front();
    auto floatType = dyn_cast<FloatType>(t);
    if (!floatType)
      return buildLaneFold(
          b, loc, extremum, {none}, /*lanes=*/1, first, last, one,
          [&](OpBuilder &nb, Location nl, Value i, ValueRange state) {
            Value v = valueAt(nb, nl, i);
            return buildCombine(nb, nl, extremum, state, {v});
          })[0];
    bool max = extremum == Combiner::MaxF;
    auto noNaN = arith::FastMathFlagsAttr::get(
        b.getContext(), arith::FastMathFlags::nnan | arith::FastMathFlags::nsz);
    Value noNaNSeen = arith::ConstantIntOp::create(b, loc, 0, 1);
    auto scan = scf::ForOp::create(
        b, loc, first, last, one, ValueRange{none, noNaNSeen},
        [&](OpBuilder &nb, Location nl, Value i, ValueRange state) {
          Value v = valueAt(nb, nl, i);
          Value folded =
              max ? arith::MaxNumFOp::create(nb, nl, state[0], v, noNaN)
                        .getResult()
                  : arith::MinNumFOp::create(nb, nl, state[0], v, noNaN)
                        .getResult();
          Value isNaN =
              arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, v, v);
          Value nanSeen = arith::OrIOp::create(nb, nl, state[1], isNaN);
          scf::YieldOp::create(nb, nl, ValueRange{folded, nanSeen});
        });
    Value nan = arith::ConstantOp::create(
        b, loc, t,
        b.getFloatAttr(t, APFloat::getNaN(floatType.getFloatSemantics())));
    return arith::SelectOp::create(b, loc, scan.getResult(1), nan,
                                   scan.getResult(0));
  }

  /// Whether `op` is a first-match search (kFirstMatchAttrName on its
  /// combine, one i64 output: the least position whose element matches).
  bool isFirstMatchSearch() {
    Operation *combine =
        op.getBody()->getTerminator()->getOperand(0).getDefiningOp();
    return combine && combine->hasAttr(kFirstMatchAttrName) &&
           isa<arith::MinSIOp>(combine) && op.getNumDpsInits() == 1 &&
           getAccumulatorTypes(op).front().isInteger(64);
  }

  /// Folds the reduced loops from `level` on at iteration `ids` into
  /// `acc`: the outer ones as scf.for carrying the accumulators, the
  /// loop at `level` from `lo` to `hi` (null: its whole size).
  SmallVector<Value> foldReduced(OpBuilder &b, Location loc,
                                 SmallVector<Value> ids, ValueRange acc,
                                 size_t level, Value lo = {}, Value hi = {}) {
    unsigned d = reduced[level];
    if (!lo) {
      lo = arith::ConstantIndexOp::create(b, loc, 0);
      hi = sizes[d];
    }
    if (level + 1 == reduced.size())
      return foldInnermost(b, loc, ids, acc, lo, hi);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(
        b, loc, lo, hi, one, acc,
        [&](OpBuilder &nb, Location nloc, Value i, ValueRange state) {
          ids[d] = i;
          scf::YieldOp::create(nb, nloc,
                               foldReduced(nb, nloc, ids, state, level + 1));
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// The reductions of every kept iteration into the outputs, on threads:
  /// an scf.parallel over the kept loops and chunks of the outermost
  /// reduced loop (planChunks: several chunks only where the kept
  /// iterations are fewer than kMaxChunks, no more than one per
  /// buildRowsPerChunkLimit rows). Chunk 0 merges into the outputs,
  /// chunk c > 0 is stored in row c - 1 of a partials buffer, merged into
  /// the outputs in chunk order afterwards: the same result on any number
  /// of threads.
  void emitKeptOutputs(OpBuilder &b, Location loc) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<Value> keptSizes = this->keptSizes();
    ChunkPlan plan = planChunks(b, loc, buildCount(b, loc, keptSizes));
    SmallVector<Value> partials = buildPartialRows(
        b, loc, plan.count, keptSizes, getAccumulatorTypes(op));
    auto setKept = [&](ValueRange ivs) {
      for (auto [d, iv] : llvm::zip(kept, ivs))
        ids[d] = iv;
      for (unsigned r : reduced)
        ids[r] = zero; // outputs do not read reduced dims
    };
    auto partialIndices = [&](Value row, ValueRange keptIvs) {
      SmallVector<Value> indices{row};
      llvm::append_range(indices, keptIvs);
      return indices;
    };
    SmallVector<Value> lbs(kept.size() + 1, zero), steps(kept.size() + 1, one);
    SmallVector<Value> ubs(keptSizes);
    ubs.push_back(plan.count);
    scf::ParallelOp::create(
        b, loc, lbs, ubs, steps, [&](OpBuilder &nb, Location nl, ValueRange ivs) {
          ValueRange keptIvs = ivs.drop_back();
          Value chunk = ivs.back();
          setKept(keptIvs);
          BlockBounds rows = buildBlockBounds(nb, nl, chunk, plan.size, plan.n);
          SmallVector<Value> acc = foldReduced(
              nb, nl, ids, identity(nb, nl), 0, rows.first, rows.last);
          Value first =
              arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, chunk, zero);
          scf::IfOp::create(
              nb, nl, first,
              [&](OpBuilder &tb, Location tl) {
                OutputElements outputs = loadOutputs(tb, tl, op, ids);
                storeOutputs(tb, tl, op, outputs,
                             buildCombine(tb, tl, combiner, outputs.values, acc));
                scf::YieldOp::create(tb, tl);
              },
              [&](OpBuilder &eb, Location el) {
                Value row = arith::SubIOp::create(eb, el, chunk, one);
                for (auto [partial, v] : llvm::zip(partials, acc))
                  memref::StoreOp::create(eb, el, v, partial,
                                          partialIndices(row, keptIvs));
                scf::YieldOp::create(eb, el);
              });
        });
    emitChunkMerge(b, loc, plan, partials, [&](OpBuilder &tb, Location tl) {
      scf::ParallelOp::create(
          tb, tl, ValueRange(lbs).drop_back(), keptSizes,
          ValueRange(steps).drop_back(),
          [&](OpBuilder &pb, Location pl, ValueRange keptIvs) {
            setKept(keptIvs);
            OutputElements outputs = loadOutputs(pb, pl, op, ids);
            SmallVector<Value> merged = buildOrderedMerge(
                pb, pl, combiner, outputs.values, one, plan.count,
                [&](OpBuilder &nb, Location nl, Value c) {
                  Value row = arith::SubIOp::create(nb, nl, c, one);
                  SmallVector<Value> partial;
                  for (Value p : partials)
                    partial.push_back(memref::LoadOp::create(
                        nb, nl, p, partialIndices(row, keptIvs)));
                  return partial;
                });
            storeOutputs(pb, pl, op, outputs, merged);
          });
    });
  }

  /// The rows of the outermost reduced loop that make one chunk's worth:
  /// kChunkSize positions (at least 1 row), a row being one iteration of
  /// the inner reduced loops (buildChunkPlan's `minRows`).
  Value buildRowsPerChunkLimit(OpBuilder &b, Location loc) {
    Value chunkLimit = arith::ConstantIndexOp::create(b, loc, kChunkSize);
    if (reduced.size() == 1)
      return chunkLimit;
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value row = sizes[reduced[1]];
    for (unsigned d : ArrayRef<unsigned>(reduced).drop_front(2))
      row = arith::MulIOp::create(b, loc, row, sizes[d]);
    Value someRow = arith::MaxSIOp::create(b, loc, row, one);
    Value rows = arith::DivSIOp::create(b, loc, chunkLimit, someRow);
    return arith::MaxSIOp::create(b, loc, rows, one);
  }

  /// The split of the outermost reduced loop in chunks beside `tasks`
  /// kept tasks (buildChunkPlan: no more than one chunk per
  /// buildRowsPerChunkLimit rows, rounded up).
  ChunkPlan planChunks(OpBuilder &b, Location loc, Value tasks) {
    return buildChunkPlan(b, loc, tasks, sizes[reduced.front()],
                          buildRowsPerChunkLimit(b, loc));
  }

  /// The split of a full reduction's outermost loop (one task).
  ChunkPlan planFullChunks(OpBuilder &b, Location loc) {
    return planChunks(b, loc, arith::ConstantIndexOp::create(b, loc, 1));
  }

  /// This generic's chunk partials: those of the full reductions into the
  /// same output before it when they have its accumulator types (its
  /// other unit-stride version; one runs), else new ones (in the function's
  /// entry block) that replace them.
  ChunkPartials &getChunkPartials(Location loc) {
    ChunkPartials &known = partialsByOutput[op.getDpsInits().front()];
    SmallVector<Type> types = getAccumulatorTypes(op);
    SmallVector<Type> knownTypes;
    for (Value partial : known.partials)
      knownTypes.push_back(cast<MemRefType>(partial.getType()).getElementType());
    if (known.plan && knownTypes == types)
      return known;
    known.partials.clear();
    auto func = op->getParentOfType<func::FuncOp>();
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    for (Type type : types)
      known.partials.push_back(memref::AllocaOp::create(
          entry, loc, MemRefType::get({kMaxChunks}, type)));
    known.plan = memref::AllocaOp::create(
        entry, loc, MemRefType::get({2}, entry.getIndexType()));
    return known;
  }

  /// The reduction over every loop (none kept) into the outputs, folded on
  /// threads: the outermost loop in chunks (planFullChunks), each folded
  /// with the inner loops into a partial, the partials then merged in order
  /// into the outputs: the same result on any number of threads. `known`:
  /// that plan, already built.
  void emitChunkedOutput(OpBuilder &b, Location loc,
                         std::optional<ChunkPlan> known = std::nullopt) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    ChunkPlan plan = known ? *known : planFullChunks(b, loc);
    ChunkPartials &chunkPartials = getChunkPartials(loc);
    SmallVector<Value> partials = chunkPartials.partials;
    memref::StoreOp::create(b, loc, plan.n, chunkPartials.plan, zero);
    memref::StoreOp::create(b, loc, plan.size, chunkPartials.plan, one);
    scf::ParallelOp::create(
        b, loc, ValueRange{zero}, ValueRange{plan.count}, ValueRange{one},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          BlockBounds chunk =
              buildBlockBounds(nb, nloc, ivs[0], plan.size, plan.n);
          SmallVector<Value> acc = foldReduced(
              nb, nloc, ids, identity(nb, nloc), 0, chunk.first, chunk.last);
          for (auto [partial, v] : llvm::zip(partials, acc))
            memref::StoreOp::create(nb, nloc, v, partial, ivs[0]);
        });
    for (unsigned r : reduced)
      ids[r] = zero; // outputs do not read reduced dims
    OutputElements outputs = loadOutputs(b, loc, op, ids);
    SmallVector<Value> merged = buildOrderedMerge(
        b, loc, combiner, outputs.values, zero, plan.count,
        [&](OpBuilder &nb, Location nl, Value c) {
          SmallVector<Value> partial;
          for (Value p : partials)
            partial.push_back(memref::LoadOp::create(nb, nl, p, c));
          return partial;
        });
    storeOutputs(b, loc, op, outputs, merged);
  }

  /// The input buffer of a first-match search (kFirstMatchAttrName: one
  /// integer accumulator) holding the extremum it searches for (the input
  /// that the compare marked kFirstMatchExtremumAttrName reads), when an
  /// earlier full reduction folded it in chunks of one partial of its type;
  /// else null.
  Value getSearchedExtremum() {
    if (!isFirstMatchSearch())
      return {};
    Block *body = op.getBody();
    SmallVector<Operation *> compares;
    for (Operation &o : body->without_terminator())
      if (o.hasAttr(kFirstMatchExtremumAttrName) && o.getNumOperands() == 2)
        compares.push_back(&o);
    if (compares.size() != 1)
      return {};
    auto arg = dyn_cast<BlockArgument>(compares.front()->getOperand(1));
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
      return {};
    Value in = op.getDpsInputOperand(arg.getArgNumber())->get();
    auto type = dyn_cast<MemRefType>(in.getType());
    auto found = partialsByOutput.find(in);
    if (!type || type.getRank() != 0 || found == partialsByOutput.end())
      return {};
    ValueRange partials = found->second.partials;
    if (partials.size() != 1 ||
        cast<MemRefType>(partials.front().getType()).getElementType() !=
            type.getElementType())
      return {};
    return in;
  }

  /// The first-match search (argmax/argmin's second pass) of the extremum
  /// in `best`, reading only the first chunk whose partial extremum (from
  /// the chunks that folded `best`) is the extremum: no earlier chunk holds
  /// it, so the first match in that chunk is the first of all. Floats:
  /// equal, or NaN (then the extremum is NaN too; -0.0 and 0.0 equal, as
  /// the search's own match). The whole search (emitChunkedOutput) where
  /// the extremum's chunks were split otherwise or the chunk has no match.
  void emitFirstMatchOutput(OpBuilder &b, Location loc, Value best) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    // A copy: the fallback's emitChunkedOutput inserts into the map.
    ChunkPartials known = partialsByOutput.find(best)->second;
    Value extremumPartials = known.partials.front();
    ChunkPlan plan = planFullChunks(b, loc);
    Value extremum = memref::LoadOp::create(b, loc, best, ValueRange{});
    auto find = scf::ForOp::create(
        b, loc, zero, plan.count, one, ValueRange{plan.count},
        [&](OpBuilder &nb, Location nl, Value c, ValueRange state) {
          Value p = memref::LoadOp::create(nb, nl, extremumPartials, c);
          Value hit;
          if (isa<FloatType>(p.getType())) {
            Value equal = arith::CmpFOp::create(
                nb, nl, arith::CmpFPredicate::OEQ, p, extremum);
            Value isNaN =
                arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, p, p);
            hit = arith::OrIOp::create(nb, nl, equal, isNaN);
          } else {
            hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, p,
                                        extremum);
          }
          Value unset = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::eq, state[0], plan.count);
          Value take = arith::AndIOp::create(nb, nl, hit, unset);
          scf::YieldOp::create(
              nb, nl, ValueRange{arith::SelectOp::create(nb, nl, take, c,
                                                         state[0])});
        });
    Value chunk = find.getResult(0);
    Value knownN = memref::LoadOp::create(b, loc, known.plan, zero);
    Value knownSize = memref::LoadOp::create(b, loc, known.plan, one);
    Value sameN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        knownN, plan.n);
    Value sameSize = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           knownSize, plan.size);
    Value found = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        chunk, plan.count);
    Value samePlan = arith::AndIOp::create(b, loc, sameN, sameSize);
    Value usable = arith::AndIOp::create(b, loc, samePlan, found);
    SmallVector<Value> none = identity(b, loc);
    auto inChunk = scf::IfOp::create(
        b, loc, usable,
        [&](OpBuilder &tb, Location tl) {
          BlockBounds bounds =
              buildBlockBounds(tb, tl, chunk, plan.size, plan.n);
          scf::YieldOp::create(tb, tl,
                               foldReduced(tb, tl, ids, none, 0, bounds.first,
                                           bounds.last));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, none); });
    Value position = inChunk.getResult(0);
    Value missed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         position, none.front());
    scf::IfOp::create(
        b, loc, missed,
        [&](OpBuilder &tb, Location tl) {
          emitChunkedOutput(tb, tl, plan);
          scf::YieldOp::create(tb, tl);
        },
        [&](OpBuilder &eb, Location el) {
          for (unsigned r : reduced)
            ids[r] = zero; // outputs do not read reduced dims
          OutputElements outputs = loadOutputs(eb, el, op, ids);
          storeOutputs(eb, el, op, outputs,
                       buildCombine(eb, el, combiner, outputs.values,
                                    ValueRange{position}));
          scf::YieldOp::create(eb, el);
        });
  }
};

/// Whether `op` is a reduction generic this pass handles: memrefs, a
/// marked combiner, maps of dims and constants.
bool isMarkedReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0)
    return false;
  if (!getMarkedCombiner(op.getBody()->getTerminator()))
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr e : map.getResults())
      if (!isa<AffineDimExpr, AffineConstantExpr>(e))
        return false;
  return true;
}

/// Whether the innermost loop of `op` is a reduction (lowered here to
/// register loops) rather than kept (plain loops that walk the outputs
/// innermost, which LLVM vectorizes across them).
bool reducesInnermost(linalg::GenericOp op) {
  return op.getIteratorTypesArray().back() == utils::IteratorType::reduction;
}

/// Whether LLVM's loop vectorizer folds the innermost loop in vector lanes
/// of its own (interleaved for the target; the order is fixed per compiled
/// kernel) once the combine may be reassociated: integer and bitwise
/// combines, NaN-propagating max/min, and float add/mul, which are given
/// the `reassoc` flag here. Select-based combines (an argmax/argmin's
/// (value, index) pair) are not vectorized by LLVM; the innermost loop
/// folds them in blocks (ReductionLoops::foldInnermostInBlocks), so no host
/// combine uses explicit lanes now (the pass's `lanes` option is kept for
/// combines that may come).
bool letVectorizerFold(linalg::GenericOp op) {
  Operation *yield = op.getBody()->getTerminator();
  Operation *combine = yield->getOperand(0).getDefiningOp();
  if (!combine)
    return false;
  if (isa<arith::AddIOp, arith::MulIOp, arith::AndIOp, arith::OrIOp,
          arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
          arith::MaximumFOp, arith::MinimumFOp>(combine))
    return true;
  if (!isa<arith::AddFOp, arith::MulFOp>(combine))
    return false;
  auto fastMath = cast<arith::ArithFastMathInterface>(combine);
  auto flags = fastMath.getFastMathFlagsAttr().getValue() |
               arith::FastMathFlags::reassoc;
  combine->setAttr(fastMath.getFastMathAttrName(),
                   arith::FastMathFlagsAttr::get(op.getContext(), flags));
  return true;
}

void lowerLoops(RewriterBase &rewriter, linalg::GenericOp op, unsigned lanes,
                PartialsByOutput &partialsByOutput) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  if (letVectorizerFold(op))
    lanes = 1;
  ReductionLoops loops(rewriter, op, lanes, partialsByOutput);
  if (Value best = loops.kept.empty() ? loops.getSearchedExtremum() : Value()) {
    loops.emitFirstMatchOutput(rewriter, loc, best);
  } else if (loops.kept.empty()) {
    loops.emitChunkedOutput(rewriter, loc);
  } else {
    loops.emitKeptOutputs(rewriter, loc);
  }
  rewriter.eraseOp(op);
}

/// Whether every output of `op` is indexed by all of its kept (parallel)
/// loops and by none of its reduced ones, so that distinct kept iterations
/// write distinct elements and an output element is known outside the
/// reduced loops (what the scf.parallels of both lowerings need).
bool outputsIndexEveryKeptLoop(linalg::GenericOp op) {
  for (OpOperand &out : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&out);
    for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if ((it == utils::IteratorType::parallel) !=
          map.isFunctionOfDim(unsigned(d)))
        return false;
  }
  return true;
}

/// Lowers `op` to serial loops (linalg's): where kept iterations may share
/// an output element, or an output reads a reduced dim.
void lowerSerially(RewriterBase &rewriter, linalg::GenericOp op) {
  rewriter.setInsertionPoint(op);
  if (succeeded(linalg::linalgOpToLoops(rewriter, op)))
    rewriter.eraseOp(op);
}

/// Columns of the innermost (kept) loop that one task of a column
/// reduction walks.
constexpr int64_t kColumnBlock = 1024;

/// Rows of the innermost reduced loop that a column reduction folds at
/// once: their elements are merged in a tree first (buildLaneMerge), then
/// into the accumulators, which are loaded and stored once per kRowsAtOnce
/// rows.
constexpr int64_t kRowsAtOnce = 4;

/// A column reduction splits its outermost reduced loop in chunks until it
/// has kMaxChunks tasks (with its blocks of columns), no more than one per
/// kMinChunkRows rows: so narrow outputs (few blocks) are reduced on
/// threads too.
constexpr int64_t kMinChunkRows = 64;

/// The lowering of one reduction generic whose innermost loop is kept (a
/// column reduction), with the accumulators in memory, walked innermost so
/// that LLVM vectorizes across them: an scf.parallel over the outer kept
/// loops, blocks of kColumnBlock columns and chunks of the outermost
/// reduced loop; in each task the reduced loops in their order, the
/// innermost kRowsAtOnce rows at a time (a remainder loop after), then the
/// block's columns. Chunk 0 folds into the outputs, chunk c > 0 into row
/// c - 1 of a partials buffer (from the identity), merged into the outputs
/// in chunk order afterwards. The number of chunks follows from the sizes
/// alone: every output combines its elements in one fixed order, on any
/// number of threads.
struct ColumnReduction : ReductionNest {
  Value zero, one;

  ColumnReduction(OpBuilder &b, linalg::GenericOp op) : ReductionNest(b, op) {}

  unsigned inner() const { return kept.back(); }
  ArrayRef<unsigned> outerKept() const {
    return ArrayRef<unsigned>(kept).drop_back();
  }

  /// Where the accumulators of the iteration `ids` are: the outputs, or
  /// row `partialRow` of the `partials` buffers ([chunk - 1, kept dims...]).
  struct Target {
    ValueRange partials;
    Value partialRow; ///< null: the outputs
  };

  SmallVector<Value> partialIndices(Value row) const {
    SmallVector<Value> indices{row};
    for (unsigned d : kept)
      indices.push_back(ids[d]);
    return indices;
  }

  OutputElements load(OpBuilder &b, Location loc, const Target &target) {
    if (!target.partialRow)
      return loadOutputs(b, loc, op, ids);
    OutputElements acc;
    for (Value partial : target.partials) {
      acc.at.push_back(partialIndices(target.partialRow));
      acc.values.push_back(
          memref::LoadOp::create(b, loc, partial, acc.at.back()));
    }
    return acc;
  }

  void store(OpBuilder &b, Location loc, const Target &target,
             const OutputElements &acc, ValueRange values) {
    if (!target.partialRow)
      return storeOutputs(b, loc, op, acc, values);
    for (auto [partial, v, indices] : llvm::zip(target.partials, values, acc.at))
      memref::StoreOp::create(b, loc, v, partial, indices);
  }

  /// A loop from `lo` to `hi` by `step` running `body` at each iteration.
  void loop(OpBuilder &b, Location loc, Value lo, Value hi, Value step,
            function_ref<void(OpBuilder &, Location, Value)> body) {
    scf::ForOp::create(b, loc, lo, hi, step, ValueRange{},
                       [&](OpBuilder &nb, Location nl, Value i, ValueRange) {
                         body(nb, nl, i);
                         scf::YieldOp::create(nb, nl);
                       });
  }

  /// The columns `columns` of `rows` rows from the innermost reduced
  /// iteration `row`: load, fold the rows' elements, combine, store.
  void emitColumns(OpBuilder &b, Location loc, BlockBounds columns, Value row,
                   int64_t rows, const Target &target) {
    unsigned rowDim = reduced.back();
    loop(b, loc, columns.first, columns.last, one,
         [&](OpBuilder &nb, Location nl, Value j) {
           ids[inner()] = j;
           OutputElements acc = load(nb, nl, target);
           SmallVector<Value> merged;
           if (rows == 1) {
             ids[rowDim] = row;
             merged = emitElement(nb, nl, op, ids, {}, acc.values);
           } else {
             SmallVector<Value> init = identity(nb, nl);
             SmallVector<Value> elements;
             for (int64_t k = 0; k < rows; ++k) {
               Value offset = arith::ConstantIndexOp::create(nb, nl, k);
               ids[rowDim] = arith::AddIOp::create(nb, nl, row, offset);
               llvm::append_range(elements,
                                  emitElement(nb, nl, op, ids, {}, init));
             }
             SmallVector<Value> rowsFolded =
                 buildLaneMerge(nb, nl, combiner, elements, unsigned(rows));
             merged = buildCombine(nb, nl, combiner, acc.values, rowsFolded);
           }
           store(nb, nl, target, acc, merged);
         });
  }

  /// The reduced loops from `level` on, outermost first, around the
  /// columns; the outermost one over `chunkRows` only.
  void emitReduced(OpBuilder &b, Location loc, size_t level,
                   BlockBounds chunkRows, BlockBounds columns,
                   const Target &target) {
    unsigned d = reduced[level];
    Value lo = level == 0 ? chunkRows.first : zero;
    Value hi = level == 0 ? chunkRows.last : sizes[d];
    if (level + 1 < reduced.size())
      return loop(b, loc, lo, hi, one, [&](OpBuilder &nb, Location nl, Value r) {
        ids[d] = r;
        emitReduced(nb, nl, level + 1, chunkRows, columns, target);
      });
    Value rowsAtOnce = arith::ConstantIndexOp::create(b, loc, kRowsAtOnce);
    Value extent = arith::SubIOp::create(b, loc, hi, lo);
    Value rest = arith::RemSIOp::create(b, loc, extent, rowsAtOnce);
    Value bulk = arith::SubIOp::create(b, loc, hi, rest);
    loop(b, loc, lo, bulk, rowsAtOnce, [&](OpBuilder &nb, Location nl, Value r) {
      emitColumns(nb, nl, columns, r, kRowsAtOnce, target);
    });
    loop(b, loc, bulk, hi, one, [&](OpBuilder &nb, Location nl, Value r) {
      emitColumns(nb, nl, columns, r, 1, target);
    });
  }

  /// Merges rows 0 .. chunks - 2 of `partials` into the outputs, in order,
  /// on threads over the outer kept loops and the blocks of columns: chunk
  /// by chunk, each over the block's columns (a partial row is contiguous
  /// and vectorizes across columns; buildOrderedMerge's loop over chunks
  /// per element would not).
  void emitMerge(OpBuilder &b, Location loc, ValueRange lbs, ValueRange ubs,
                 ValueRange steps, Value block, Value chunks,
                 ValueRange partials) {
    scf::ParallelOp::create(
        b, loc, lbs, ubs, steps, [&](OpBuilder &pb, Location pl, ValueRange ivs) {
          for (auto [d, iv] : llvm::zip(outerKept(), ivs.drop_back()))
            ids[d] = iv;
          BlockBounds columns =
              buildBlockBounds(pb, pl, ivs.back(), block, sizes[inner()]);
          loop(pb, pl, one, chunks, one, [&](OpBuilder &cb, Location cl, Value c) {
            Value row = arith::SubIOp::create(cb, cl, c, one);
            loop(cb, cl, columns.first, columns.last, one,
                 [&](OpBuilder &nb, Location nl, Value j) {
                   ids[inner()] = j;
                   OutputElements outputs = loadOutputs(nb, nl, op, ids);
                   OutputElements partial = load(nb, nl, Target{partials, row});
                   storeOutputs(nb, nl, op, outputs,
                                buildCombine(nb, nl, combiner, outputs.values,
                                             partial.values));
                 });
          });
        });
  }

  void lower(RewriterBase &rewriter) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value block = arith::ConstantIndexOp::create(rewriter, loc, kColumnBlock);
    Value blocks =
        arith::CeilDivSIOp::create(rewriter, loc, sizes[inner()], block);
    SmallVector<Value> lbs(kept.size(), zero), steps(kept.size(), one), ubs;
    for (unsigned d : outerKept())
      ubs.push_back(sizes[d]);
    ubs.push_back(blocks);
    Value tasks = buildCount(rewriter, loc, ubs);
    Value minRows = arith::ConstantIndexOp::create(rewriter, loc, kMinChunkRows);
    ChunkPlan plan = buildChunkPlan(rewriter, loc, tasks,
                                    sizes[reduced.front()], minRows);
    SmallVector<Value> partials = buildPartialRows(
        rewriter, loc, plan.count, keptSizes(), getAccumulatorTypes(op));
    SmallVector<Value> taskLbs(lbs), taskUbs(ubs), taskSteps(steps);
    taskLbs.push_back(zero);
    taskUbs.push_back(plan.count);
    taskSteps.push_back(one);
    scf::ParallelOp::create(
        rewriter, loc, taskLbs, taskUbs, taskSteps,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          for (auto [d, iv] : llvm::zip(outerKept(), ivs.drop_back(2)))
            ids[d] = iv;
          Value chunk = ivs.back();
          BlockBounds columns =
              buildBlockBounds(b, l, ivs[ivs.size() - 2], block, sizes[inner()]);
          BlockBounds rows =
              buildBlockBounds(b, l, chunk, plan.size, plan.n);
          Value first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                              chunk, zero);
          scf::IfOp::create(
              b, l, first,
              [&](OpBuilder &tb, Location tl) {
                emitReduced(tb, tl, 0, rows, columns, Target{partials, {}});
                scf::YieldOp::create(tb, tl);
              },
              [&](OpBuilder &eb, Location el) {
                Target target{partials, arith::SubIOp::create(eb, el, chunk, one)};
                SmallVector<Value> init = identity(eb, el);
                loop(eb, el, columns.first, columns.last, one,
                     [&](OpBuilder &nb, Location nl, Value j) {
                       ids[inner()] = j;
                       for (auto [partial, v] : llvm::zip(partials, init))
                         memref::StoreOp::create(
                             nb, nl, v, partial,
                             partialIndices(target.partialRow));
                     });
                emitReduced(eb, el, 0, rows, columns, target);
                scf::YieldOp::create(eb, el);
              });
        });
    emitChunkMerge(rewriter, loc, plan, partials, [&](OpBuilder &b, Location l) {
      emitMerge(b, l, lbs, ubs, steps, block, plan.count, partials);
    });
    rewriter.eraseOp(op);
  }
};

/// Lowers `op`, whose innermost loop is kept (a column reduction): see
/// ColumnReduction.
void lowerKeptInnermost(RewriterBase &rewriter, linalg::GenericOp op) {
  rewriter.setInsertionPoint(op);
  ColumnReduction(rewriter, op).lower(rewriter);
}

/// The view of `md`'s memref with a static unit stride in its innermost
/// dim (where the run-time stride was found to be 1). A reinterpret_cast,
/// not a memref.cast: folders drop casts to more static layouts.
Value buildUnitStrideView(OpBuilder &b, Location loc,
                          memref::ExtractStridedMetadataOp md) {
  auto type = cast<MemRefType>(md.getSource().getType());
  auto [strides, offset] = type.getStridesAndOffset();
  strides.back() = 1;
  auto pick = [&](int64_t v, Value dynamic) -> OpFoldResult {
    if (ShapedType::isDynamic(v))
      return dynamic;
    return b.getIndexAttr(v);
  };
  SmallVector<OpFoldResult> sizes, strideValues;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    sizes.push_back(pick(type.getDimSize(d), md.getSizes()[d]));
    strideValues.push_back(pick(strides[d], md.getStrides()[d]));
  }
  auto layout = StridedLayoutAttr::get(type.getContext(), offset, strides);
  auto viewType = MemRefType::get(type.getShape(), type.getElementType(),
                                  layout, type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, md.getBaseBuffer(), pick(offset, md.getOffset()), sizes,
      strideValues);
}

/// The inputs of `op` that walk its innermost loop with a stride not known
/// to be 1 (their last indexing-map result is the innermost loop dim).
SmallVector<OpOperand *> stridedInnerInputs(linalg::GenericOp op) {
  SmallVector<OpOperand *> inputs;
  unsigned inner = op.getNumLoops() - 1;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    AffineMap map = op.getMatchingIndexingMap(in);
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() != inner)
      continue;
    auto [strides, offset] = type.getStridesAndOffset();
    if (strides.back() != 1)
      inputs.push_back(in);
  }
  return inputs;
}

/// Calls `lower` on `op`; when inputs walk the innermost loop with a
/// dynamic stride, on two versions chosen at run time: unit strides
/// (views with a static stride of 1, so that consecutive loads vectorize)
/// and any strides.
void versionOnUnitStride(RewriterBase &rewriter, linalg::GenericOp op,
                         function_ref<void(linalg::GenericOp)> lower) {
  SmallVector<OpOperand *> strided = stridedInnerInputs(op);
  if (strided.empty())
    return lower(op);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value unit;
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<memref::ExtractStridedMetadataOp> layouts;
  for (OpOperand *in : strided) {
    auto md = memref::ExtractStridedMetadataOp::create(rewriter, loc, in->get());
    layouts.push_back(md);
    Value isOne = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        md.getStrides().back(), one);
    unit = unit ? arith::AndIOp::create(rewriter, loc, unit, isOne).getResult()
                : isOne;
  }
  auto ifUnit = scf::IfOp::create(rewriter, loc, unit, /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(ifUnit.thenBlock());
  auto fast = cast<linalg::GenericOp>(rewriter.clone(*op));
  rewriter.setInsertionPoint(fast);
  for (auto [in, md] : llvm::zip(strided, layouts)) {
    OpOperand &operand = fast->getOpOperand(in->getOperandNumber());
    Value view = buildUnitStrideView(rewriter, loc, md);
    operand.set(view);
  }
  rewriter.setInsertionPointToStart(ifUnit.elseBlock());
  auto general = cast<linalg::GenericOp>(rewriter.clone(*op));
  rewriter.eraseOp(op);
  lower(fast);
  lower(general);
}

struct ConvertPTensorReductionsToLoopsPass
    : public ptensor::impl::ConvertPTensorReductionsToLoopsBase<
          ConvertPTensorReductionsToLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (lanes < 1 || lanes > 64) {
      getOperation().emitError()
          << "convert-ptensor-reductions-to-loops option 'lanes' is '"
          << static_cast<unsigned>(lanes) << "'; expected 1 to 64";
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](func::FuncOp f) {
      if (f->hasAttr(kDeviceAttrName))
        return;
      f.walk([&](linalg::GenericOp g) {
        if (isMarkedReduction(g))
          generics.push_back(g);
      });
    });
    IRRewriter rewriter(&getContext());
    PartialsByOutput partialsByOutput;
    for (linalg::GenericOp g : generics) {
      // Loops now, both versions: linalg's folder would drop the
      // unit-stride cast.
      versionOnUnitStride(rewriter, g, [&](linalg::GenericOp version) {
        if (!outputsIndexEveryKeptLoop(version))
          return lowerSerially(rewriter, version);
        if (reducesInnermost(version))
          return lowerLoops(rewriter, version, lanes, partialsByOutput);
        lowerKeptInnermost(rewriter, version);
      });
    }
  }
};

} // namespace
