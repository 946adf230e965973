//===- RowGroups.cpp - generics one kernel computes a row at a time -------===//

#include "RowGroups.h"

#include "ElementwiseKernel.h"
#include "KernelCommon.h"
#include "ReductionKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {
/// The space of a row group: that of its first reduction.
struct Space {
  SmallVector<utils::IteratorType> iterators;
  SmallVector<unsigned> kept; ///< the parallel loops: a row per point
  /// (input, indexing map) pairs of the first reduction whose map visits
  /// every loop: a member reading one has the same loop sizes.
  SmallVector<std::pair<Value, AffineMap>> fullReads;
};
} // namespace

static Space spaceOf(linalg::GenericOp reduction) {
  Space space;
  space.iterators = reduction.getIteratorTypesArray();
  for (auto [d, it] : llvm::enumerate(space.iterators))
    if (it == utils::IteratorType::parallel)
      space.kept.push_back(d);
  for (OpOperand *in : reduction.getDpsInputOperands()) {
    AffineMap map = reduction.getMatchingIndexingMap(in);
    if (isa<MemRefType>(in->get().getType()) && map.isPermutation())
      space.fullReads.push_back({in->get(), map});
  }
  return space;
}

static bool readsSpace(linalg::GenericOp op, const Space &space) {
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    AffineMap map = op.getMatchingIndexingMap(in);
    return llvm::is_contained(space.fullReads,
                              std::make_pair(in->get(), map));
  });
}

/// What `op` would compute for a row of `space`, if it can be a member: a
/// generic the reduction or elementwise lowering takes on its own (the
/// fallback), whose body touches no memory but its operands.
static std::optional<RowStep> classify(linalg::GenericOp op,
                                       const Space &space) {
  bool bodyIsPure = llvm::all_of(op.getBody()->without_terminator(),
                                 [](Operation &inner) {
                                   return isMemoryEffectFree(&inner);
                                 });
  if (!bodyIsPure)
    return std::nullopt;
  if (op.getNumReductionLoops() > 0) {
    if (isRowReduction(op) && op.getIteratorTypesArray() == space.iterators &&
        readsSpace(op, space))
      return RowStep::Reduce;
    return std::nullopt;
  }
  if (whyNotElementwiseKernel(op))
    return std::nullopt;
  if (op.getNumLoops() == space.iterators.size() && readsSpace(op, space))
    return RowStep::AlongRow;
  if (op.getNumLoops() == space.kept.size())
    return RowStep::PerRow;
  return std::nullopt;
}

Value mlir::ptensor::rootOf(Value v, bool &understood) {
  understood = true;
  while (Operation *def = v.getDefiningOp()) {
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(
            def)) {
      v = def->getOperand(0);
      continue;
    }
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    understood = false;
    v = view.getViewSource();
  }
  return v;
}

/// Whether buffer `root` (rootOf) is an allocation or an argument of the
/// function: any other start (a select of buffers, a region's or a call's
/// result) may alias any buffer.
static bool isKnownBuffer(Value root) {
  if (root.getDefiningOp<memref::AllocOp>())
    return true;
  auto argument = dyn_cast<BlockArgument>(root);
  return argument &&
         isa<FunctionOpInterface>(argument.getOwner()->getParentOp());
}

/// Where in its buffer the element lies that `op` accesses through
/// `operand`: offset + sum of stride x index, as a function of the group's
/// loops (`groupDims[i]` is the group loop of op's loop i); null when the
/// strides are not static.
static AffineExpr positionOf(linalg::GenericOp op, OpOperand &operand,
                             ArrayRef<unsigned> groupDims) {
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return AffineExpr();
  MLIRContext *ctx = op.getContext();
  AffineExpr position = getAffineConstantExpr(offset, ctx);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [index, stride] : llvm::zip(map.getResults(), strides)) {
    AffineExpr groupIndex = index;
    if (auto dim = dyn_cast<AffineDimExpr>(index))
      groupIndex = getAffineDimExpr(groupDims[dim.getPosition()], ctx);
    position = position + groupIndex * stride;
  }
  return position;
}

/// Checks the members' buffer accesses (see RowGroup).
static bool isValidGroup(const RowGroup &group, const Space &space) {
  unsigned wholeRows = llvm::count_if(
      group.steps, [](RowStep s) { return s != RowStep::PerRow; });
  if (wholeRows < 2)
    return false;
  SmallVector<unsigned> allDims =
      llvm::to_vector(llvm::seq<unsigned>(0, space.iterators.size()));
  // The buffers members write: at row k's element of the kept space, or
  // along row k by one AlongRow member.
  DenseMap<Value, AffineExpr> atRow;
  DenseMap<Value, Operation *> alongRow;
  for (auto [member, step] : llvm::zip(group.members, group.steps))
    for (Value out : linalg::GenericOp(member).getDpsInits()) {
      bool understood;
      Value root = rootOf(out, understood);
      if (!understood || !root.getDefiningOp<memref::AllocOp>() ||
          alongRow.count(root))
        return false;
      if (step == RowStep::AlongRow) {
        if (atRow.count(root))
          return false;
        alongRow[root] = member;
      } else {
        atRow[root] = AffineExpr();
      }
    }
  // Every access of a written buffer at row k's one position; every PerRow
  // member touches a buffer a whole-row member accesses too (so its loops,
  // sized like its operands, span the kept space).
  DenseSet<Value> touchedByWholeRows;
  for (auto [member, step] : llvm::zip(group.members, group.steps)) {
    linalg::GenericOp op = member;
    ArrayRef<unsigned> dims =
        step == RowStep::PerRow ? ArrayRef<unsigned>(space.kept) : allDims;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      bool understood;
      Value root = rootOf(operand.get(), understood);
      if (!isKnownBuffer(root))
        return false;
      if (auto it = alongRow.find(root); it != alongRow.end()) {
        if (it->second != op.getOperation())
          return false;
        continue;
      }
      auto it = atRow.find(root);
      if (it == atRow.end())
        continue; // read only
      AffineExpr position =
          understood ? positionOf(op, operand, dims) : AffineExpr();
      if (!position)
        return false;
      // Row k's own element: every kept loop and no reduced one.
      for (auto [d, iterator] : llvm::enumerate(space.iterators))
        if ((iterator == utils::IteratorType::reduction) ==
            position.isFunctionOfDim(d))
          return false;
      if (it->second && it->second != position)
        return false;
      it->second = position;
      if (step != RowStep::PerRow)
        touchedByWholeRows.insert(root);
    }
  }
  auto touchesWholeRowBuffer = [&](linalg::GenericOp op) {
    return llvm::any_of(op->getOperands(), [&](Value v) {
      bool understood;
      return isa<MemRefType>(v.getType()) &&
             touchedByWholeRows.contains(rootOf(v, understood));
    });
  };
  for (auto [op, step] : llvm::zip(group.members, group.steps))
    if (step == RowStep::PerRow && !touchesWholeRowBuffer(op))
      return false;
  return true;
}

/// The groups among `run` (generics separated only by neutral ops): from
/// each reduction not yet taken, the longest valid run of members around
/// it (PerRow members before it, any members after it).
static void findGroupsInRun(ArrayRef<linalg::GenericOp> run,
                            SmallVector<RowGroup> &groups) {
  size_t taken = 0; // run[0, taken) belong to earlier groups or none
  for (size_t i = 0; i < run.size(); ++i) {
    if (i < taken || !isRowReduction(run[i]))
      continue;
    Space space = spaceOf(run[i]);
    if (classify(run[i], space) != RowStep::Reduce)
      continue; // it reads no input through a map visiting every loop
    size_t first = i;
    while (first > taken &&
           classify(run[first - 1], space) == RowStep::PerRow)
      --first;
    size_t end = i + 1;
    while (end < run.size() && classify(run[end], space))
      ++end;
    // From the first PerRow member before it, else from the reduction.
    SmallVector<size_t, 2> begins = {first};
    if (first != i)
      begins.push_back(i);
    for (size_t begin : begins) {
      for (size_t last = end; last > i + 1; --last) {
        RowGroup group;
        for (size_t j = begin; j < last; ++j) {
          group.members.push_back(run[j]);
          group.steps.push_back(*classify(run[j], space));
        }
        if (!isValidGroup(group, space))
          continue;
        groups.push_back(std::move(group));
        taken = last;
        break;
      }
      if (taken > i)
        break;
    }
  }
}

SmallVector<RowGroup> mlir::ptensor::findRowGroups(func::FuncOp f) {
  SmallVector<RowGroup> groups;
  f.walk([&](Block *block) {
    SmallVector<linalg::GenericOp> run;
    for (Operation &op : *block) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        run.push_back(generic);
        continue;
      }
      if (isNeutralBetweenKernels(op))
        continue;
      findGroupsInRun(run, groups);
      run.clear();
    }
    findGroupsInRun(run, groups);
  });
  return groups;
}
