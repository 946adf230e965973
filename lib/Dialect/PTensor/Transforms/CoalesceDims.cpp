//===- CoalesceDims.cpp - contiguous fast path of elementwise loop nests --===//
//
// The run-time half of TensorIterator's layout decisions (ptensor-layout is
// the compile-time half): every elementwise linalg.generic on memrefs is
// versioned on its operands' run-time strides. When the strides allow it, the
// fast path runs the same body over fewer, merged loop dims (one dim when no
// operand is broadcast) with a unit innermost stride; otherwise the original
// strided loop nest runs. A dim an operand's view has a static zero stride
// in (a broadcast view, as ptensor-broadcast makes them) is a dim it does
// not read, as if its indexing map lacked it: `m * v` of a matrix and a
// broadcast row runs over rows and unit-stride columns, not as a strided
// nest. Where the fast path merged dims, the strided nest is versioned once
// more on unit innermost strides alone (rows apart: a slice `m[::2, 1:]`).
//
//===----------------------------------------------------------------------===//

#include "OutputLayout.h"
#include "ptensor/Dialect/PTensor/Transforms/Passes.h"
#include "ptensor/Dialect/PTensor/Utils/RunTimeLayout.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORCOALESCEDIMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// Mark the scf.if ops this pass creates, so that a second run leaves the
/// loop nests inside them alone.
static constexpr StringLiteral kFastPathAttr = "ptensor.contiguous_fast_path";
static constexpr StringLiteral kReversedAttr = "ptensor.reversed_loop_order";

/// Loop dims merged into one loop of the fast path (ascending, adjacent).
using DimGroup = SmallVector<unsigned, 4>;

/// The positions of `operand`'s indexing map that move through memory, in
/// map order: all but those whose static stride is 0 (a broadcast view
/// reads one element along them, like a map without the dim).
static SmallVector<unsigned> readPositions(linalg::GenericOp op,
                                           OpOperand &operand) {
  unsigned rank = op.getMatchingIndexingMap(&operand).getNumResults();
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  if (auto type = dyn_cast<MemRefType>(operand.get().getType()))
    strides = type.getStridesAndOffset().first;
  SmallVector<unsigned> positions;
  for (unsigned pos = 0; pos < rank; ++pos)
    if (strides[pos] != 0)
      positions.push_back(pos);
  return positions;
}

/// The loop dims `operand` reads (readPositions), in map order.
static SmallVector<unsigned> readDims(linalg::GenericOp op,
                                      OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<unsigned> dims;
  for (unsigned pos : readPositions(op, operand))
    dims.push_back(map.getDimPosition(pos));
  return dims;
}

/// Whether `op` is a version this pass made (inside one of its scf.if ops):
/// a second run leaves it alone.
static bool isVersioned(linalg::GenericOp op) {
  auto parent = dyn_cast<scf::IfOp>(op->getParentOp());
  return parent &&
         (parent->hasAttr(kFastPathAttr) || parent->hasAttr(kReversedAttr));
}

/// Whether `op` is an elementwise loop nest the pass can version: memref
/// operands (or scalars), all loops parallel, every indexing map a
/// projected permutation (identity or broadcast). A body that reads its
/// loop indices (`linalg.index`: a triangle's mask) keeps its loops: only
/// the unit-innermost-stride version applies to it.
static bool isCandidate(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return false;
  if (op.getNumParallelLoops() != op.getNumLoops())
    return false;
  return !isVersioned(op) && hasStridedPermutedOperands(op);
}

/// A two-loop reduction this pass has not versioned yet.
static bool isUnversionedTwoLoopReduction(linalg::GenericOp op) {
  return !isVersioned(op) && isTwoLoopReduction(op);
}

/// Splits the loop dims of `op` into groups of adjacent dims that every
/// operand reads either all, at adjacent positions, or not at all: only such
/// dims can be merged (a broadcast operand that reads d2 but not d1 keeps d1
/// and d2 apart). Positions may run against the loop order (the loop nest
/// of the reversed order reads a row-major operand that way).
static SmallVector<DimGroup> planGroups(linalg::GenericOp op) {
  SmallVector<SmallVector<unsigned>> operandDims;
  for (OpOperand &operand : op->getOpOperands())
    operandDims.push_back(readDims(op, operand));
  auto mergeable = [&](unsigned d) {
    for (ArrayRef<unsigned> dims : operandDims) {
      const auto *p = llvm::find(dims, d), *q = llvm::find(dims, d + 1);
      bool readsP = p != dims.end(), readsQ = q != dims.end();
      if (readsP != readsQ || (readsP && q != p + 1 && p != q + 1))
        return false;
    }
    return true;
  };
  SmallVector<DimGroup> groups{{0}};
  for (unsigned d = 1, e = op.getNumLoops(); d < e; ++d) {
    if (mergeable(d - 1))
      groups.back().push_back(d);
    else
      groups.push_back({d});
  }
  return groups;
}

/// Whether the fast path differs from `op`: fewer loops, or an operand read
/// along the innermost loop without a static unit stride.
static bool isProfitable(linalg::GenericOp op, ArrayRef<DimGroup> groups) {
  if (groups.size() < op.getNumLoops())
    return true;
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<unsigned> positions = readPositions(op, operand);
    if (positions.size() < map.getNumResults())
      return true; // a broadcast view to drop
    for (unsigned pos : positions)
      if (map.getDimPosition(pos) == innermost &&
          type.getStridesAndOffset().first[pos] != 1)
        return true;
  }
  return false;
}

namespace {
/// Builds the fast path of one generic: the run-time condition and the
/// flattened views of its operands.
class FastPathBuilder {
public:
  FastPathBuilder(OpBuilder &b, linalg::GenericOp op,
                  ArrayRef<DimGroup> groups)
      : b(b), math(b, op.getLoc()), op(op), groups(groups) {
    for (auto [g, group] : llvm::enumerate(groups))
      groupOf.append(group.size(), g);
  }

  /// Emits the checks of every memref operand; returns the i1 that is true
  /// when all of them can be addressed through merged dims (null: always).
  Value buildCondition() {
    Value all;
    for (OpOperand &operand : op->getOpOperands())
      if (auto type = dyn_cast<MemRefType>(operand.get().getType()))
        if (type.getRank() > 0)
          all = math.andI(all, checkOperand(operand));
    return all;
  }

  /// Creates the merged views and the fast-path generic at the builder's
  /// insertion point; call after buildCondition.
  void buildFastPath() {
    buildViews();
    SmallVector<Value> operands;
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : op->getOpOperands()) {
      maps.push_back(mergedMap(operand));
      auto it = views.find(operand.getOperandNumber());
      operands.push_back(it == views.end() ? operand.get() : it->second);
    }
    // A group's dims are all kept or all reduced (only a reduction's single
    // dims come here, each its own group).
    SmallVector<utils::IteratorType> iterators;
    for (const DimGroup &group : groups)
      iterators.push_back(op.getIteratorTypesArray()[group.front()]);
    unsigned numInputs = op.getNumDpsInputs();
    auto fast = linalg::GenericOp::create(
        b, op.getLoc(), TypeRange(), ArrayRef(operands).take_front(numInputs),
        ArrayRef(operands).drop_front(numInputs), maps, iterators);
    IRMapping mapping;
    op.getRegion().cloneInto(&fast.getRegion(), mapping);
  }

private:
  /// The operand's positions of each group it reads (readPositions), in
  /// the order of its positions; inside a group, in loop order (the
  /// innermost loop's last).
  SmallVector<SmallVector<unsigned>> operandGroups(OpOperand &operand) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<SmallVector<unsigned>> result;
    std::optional<unsigned> lastGroup;
    for (unsigned pos : readPositions(op, operand)) {
      unsigned g = groupOf[map.getDimPosition(pos)];
      if (lastGroup != g)
        result.emplace_back();
      lastGroup = g;
      result.back().push_back(pos);
    }
    for (SmallVector<unsigned> &positions : result)
      llvm::sort(positions, [&](unsigned x, unsigned y) {
        return map.getDimPosition(x) < map.getDimPosition(y);
      });
    return result;
  }

  /// Whether `map` reads the loop dims in loop order (an identity or a
  /// broadcast, not a permutation).
  static bool isOrdered(AffineMap map) {
    for (unsigned pos = 1, e = map.getNumResults(); pos < e; ++pos)
      if (map.getDimPosition(pos - 1) > map.getDimPosition(pos))
        return false;
    return true;
  }

  bool isInnermostGroup(AffineMap map, ArrayRef<unsigned> positions) {
    return groupOf[map.getDimPosition(positions.front())] ==
           groups.size() - 1;
  }

  /// The check of one operand: inside each group it reads, every dim of
  /// size other than 1 has the stride of the row-major layout whose
  /// innermost stride is 1 (innermost group) or the group's innermost
  /// stride (other groups). Identity layouts read in loop order pass. Also
  /// records the sizes
  /// and strides of the operand's merged view.
  Value checkOperand(OpOperand &operand) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = cast<MemRefType>(operand.get().getType());
    bool rowMajor = type.getLayout().isIdentity() && isOrdered(map);
    SmallVector<int64_t> typeStrides = type.getStridesAndOffset().first;
    Layout layout = getLayout(b, op.getLoc(), operand.get());
    Value ok;
    SmallVector<SmallVector<unsigned>> groupsRead = operandGroups(operand);
    // Whether the view differs from the operand (dims merged, a broadcast
    // dim dropped, a unit stride made static).
    bool changed = readPositions(op, operand).size() < map.getNumResults();
    PendingView view{operand.getOperandNumber(), {}, {}, layout.offset};
    for (ArrayRef<unsigned> positions : groupsRead) {
      bool unitInner = isInnermostGroup(map, positions);
      unsigned last = positions.back();
      changed |= positions.size() > 1 || (unitInner && typeStrides[last] != 1);
      OpFoldResult inner =
          unitInner ? OpFoldResult(b.getIndexAttr(1)) : layout.strides[last];
      OpFoldResult size = b.getIndexAttr(1); // of the dims inside `pos`
      for (unsigned pos : llvm::reverse(positions)) {
        if (!rowMajor && (pos != last || unitInner)) {
          Value unit = math.eq(layout.sizes[pos], b.getIndexAttr(1));
          Value match = math.eq(layout.strides[pos], math.mul(inner, size));
          ok = math.andI(ok, math.orI(unit, match));
        }
        size = math.mul(size, layout.sizes[pos]);
      }
      view.sizes.push_back(size);
      view.strides.push_back(inner);
    }
    if (changed)
      pending.push_back(std::move(view));
    return ok;
  }

  /// Creates the merged views of the checked operands at the builder's
  /// insertion point.
  void buildViews() {
    for (PendingView &p : pending) {
      Value source = op->getOperand(p.operandNumber);
      auto type = cast<MemRefType>(source.getType());
      auto dynOr = [](OpFoldResult v) {
        return getConstantIntValue(v).value_or(ShapedType::kDynamic);
      };
      SmallVector<int64_t> shape, staticStrides;
      for (auto [size, stride] : llvm::zip(p.sizes, p.strides)) {
        shape.push_back(dynOr(size));
        staticStrides.push_back(dynOr(stride));
      }
      auto layout = StridedLayoutAttr::get(b.getContext(), dynOr(p.offset),
                                           staticStrides);
      auto viewType = MemRefType::get(shape, type.getElementType(), layout,
                                      type.getMemorySpace());
      views[p.operandNumber] = memref::ReinterpretCastOp::create(
          b, op.getLoc(), viewType, source, p.offset, p.sizes, p.strides);
    }
  }

  /// `operand`'s map over the merged loops: one result per group it reads.
  AffineMap mergedMap(OpOperand &operand) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> results;
    for (ArrayRef<unsigned> positions : operandGroups(operand))
      results.push_back(b.getAffineDimExpr(
          groupOf[map.getDimPosition(positions.front())]));
    return AffineMap::get(groups.size(), 0, results, b.getContext());
  }

  struct PendingView {
    unsigned operandNumber;
    SmallVector<OpFoldResult> sizes, strides;
    OpFoldResult offset;
  };

  OpBuilder &b;
  IndexMath math;
  linalg::GenericOp op;
  ArrayRef<DimGroup> groups;
  SmallVector<unsigned> groupOf; ///< loop dim -> group
  SmallVector<PendingView> pending;
  DenseMap<unsigned, Value> views;
};

struct PTensorCoalesceDimsPass
    : public ptensor::impl::PTensorCoalesceDimsBase<PTensorCoalesceDimsPass> {
  using PTensorCoalesceDimsBase::PTensorCoalesceDimsBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates, reductions;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isCandidate(op))
        candidates.push_back(op);
      else if (reorderLoops && isUnversionedTwoLoopReduction(op))
        reductions.push_back(op);
    });
    // A reduction's loops in the order its inputs vote for, each version on
    // unit innermost strides (the loops' own order: nothing merges).
    for (linalg::GenericOp op : reductions)
      for (linalg::GenericOp version :
           versionOnOrder(op, OrderVote::InputsAgree))
        versionRows(version);
    for (linalg::GenericOp op : candidates) {
      if (op.hasIndexSemantics()) {
        versionRows(op);
      } else if (reorderLoops) {
        followInputOrder(op);
        versionOrder(op);
      } else {
        version(op);
      }
    }
  }

  /// Versions `op` on its run-time loop order (versionOnOrder), then each
  /// version on contiguity.
  void versionOrder(linalg::GenericOp op) {
    for (linalg::GenericOp version :
         versionOnOrder(op, OrderVote::FirstDecides))
      this->version(version);
  }

  /// Replaces `op` by `scf.if (reversed) { op with reversed loops } else
  /// { op }`, reversed as `rule` votes, or by one of them when the
  /// condition folds; returns the generics left (the reversed one first).
  /// A two-loop reduction takes it with the inputs voting: where they read
  /// the reduced loop with the larger strides, the lowerings then walk the
  /// kept loop's unit strides.
  SmallVector<linalg::GenericOp, 2> versionOnOrder(linalg::GenericOp op,
                                                   OrderVote rule) {
    CreatedOps created;
    OpBuilder b(op, &created);
    IndexMath math(b, op.getLoc());
    Value reversed = buildReversedOrderCondition(math, op, rule);
    if (matchPattern(reversed, m_Zero())) {
      created.eraseDead();
      return {op};
    }
    linalg::GenericOp copy = createReversedCopy(op);
    if (matchPattern(reversed, m_One())) {
      op.erase();
      created.eraseDead();
      return {copy};
    }
    auto ifOp = scf::IfOp::create(b, op.getLoc(), reversed,
                                  /*withElseRegion=*/true);
    ifOp->setAttr(kReversedAttr, b.getUnitAttr());
    copy->moveBefore(ifOp.thenBlock()->getTerminator());
    op->moveBefore(ifOp.elseBlock()->getTerminator());
    created.eraseDead();
    return {copy, op};
  }

  /// Versions `op` on contiguity (the groups of planGroups), then, where
  /// the strided nest stays and merged the dims, on unit innermost strides.
  void version(linalg::GenericOp op) {
    SmallVector<DimGroup> groups = planGroups(op);
    if (!isProfitable(op, groups) || !versionOn(op, groups))
      return;
    if (groups.size() < op.getNumLoops())
      versionRows(op); // else the fast path kept every loop: it is that one
  }

  /// Versions `op` on unit innermost strides alone: every dim its own
  /// group, so the check asks only for a unit innermost stride of each
  /// operand that reads the innermost loop, and the view makes it static.
  /// A slice `m[::2, 1:]` (rows apart) or a broadcast passed with zero
  /// strides then runs unit-stride rows: vectorized, and on threads
  /// (ptensor-serial-inner-loop), where the strided nest is scalar.
  void versionRows(linalg::GenericOp op) {
    unsigned loops = op.getNumLoops();
    if (loops < 2)
      return;
    SmallVector<DimGroup> rows;
    for (unsigned d = 0; d < loops; ++d)
      rows.push_back({d});
    if (isProfitable(op, rows))
      versionOn(op, rows);
  }

  /// Replaces `op` by `scf.if (fits) { fast path } else { op }` over the
  /// dim `groups`, by the fast path alone when the check folds to true,
  /// and leaves it alone when the check folds to false. Returns whether
  /// `op` is still there (the else-branch, or left alone).
  bool versionOn(linalg::GenericOp op, ArrayRef<DimGroup> groups) {
    CreatedOps created;
    OpBuilder b(op, &created);
    FastPathBuilder builder(b, op, groups);
    Value fits = builder.buildCondition();
    if (fits && matchPattern(fits, m_Zero())) {
      created.eraseDead();
      return true;
    }
    if (!fits || matchPattern(fits, m_One())) {
      builder.buildFastPath();
      op.erase();
      created.eraseDead();
      return false;
    }
    auto ifOp = scf::IfOp::create(b, op.getLoc(), fits,
                                  /*withElseRegion=*/true);
    ifOp->setAttr(kFastPathAttr, b.getUnitAttr());
    op->moveBefore(ifOp.elseBlock()->getTerminator());
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    builder.buildFastPath();
    created.eraseDead();
    return true;
  }
};
} // namespace
