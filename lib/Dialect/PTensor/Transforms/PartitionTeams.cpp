//===- PartitionTeams.cpp - team tensors to local blocks + communication --===//
//
// Compute follows data: each process computes the block of every team
// tensor it holds (rows split along the first dim), and communicates only
// where an op needs data of another block. The rules are in the pass's
// description (Passes.td) and docs/Teams.md.
//
//===----------------------------------------------------------------------===//

#include "PartitionTeams.h"
#include "ptensor/Dialect/PTensor/IR/ReductionKinds.h"

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"
#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/Teams.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <set>

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORPARTITIONTEAMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;
using ::ptensor::semantics::isTeamSplitAxis;
using ::ptensor::semantics::kTeamSplitDim;

/// The symbol of team 1's grid.
static constexpr llvm::StringLiteral kTeamGrid = "ptensor_team1";

static bool hasTeam(Type t) {
  auto pt = dyn_cast<PTensorType>(t);
  return pt && pt.getTeam();
}

PTensorType mlir::ptensor::wholeType(PTensorType t) {
  return PTensorType::get(t.getContext(), t.getShape(), t.getElementType(),
                          t.getDevice(), nullptr);
}

/// The type of a flat block of team type `t`'s elements (team_reblock's
/// result): 1-D, dynamic, `t`'s dtype and device.
static PTensorType flatBlockType(PTensorType t) {
  return PTensorType::get(t.getContext(), {ShapedType::kDynamic},
                          t.getElementType(), t.getDevice(), nullptr);
}

PTensorType mlir::ptensor::blockType(PTensorType t) {
  SmallVector<int64_t> shape(t.getShape());
  for (auto [d, size] : llvm::enumerate(shape))
    size = ::ptensor::semantics::teamBlockDimSize(d, size);
  return PTensorType::get(t.getContext(), shape, t.getElementType(),
                          t.getDevice(), nullptr);
}

void TeamPartitioner::localize(Value v) {
  auto pt = dyn_cast<PTensorType>(v.getType());
  if (!pt || !pt.getTeam())
    return;
  globalTypes[v] = pt;
  v.setType(blockType(pt));
  if (pt.getRank() > 0)
    split.insert(v);
}

/// Makes `sizes`, the dynamic sizes of an op of type `global`, those of the
/// process's block: the split dim (the first, so the first dynamic size
/// when it is dynamic) becomes `rows`.
static void setSplitDimSize(PTensorType global, SmallVectorImpl<Value> &sizes,
                            Value rows) {
  static_assert(kTeamSplitDim == 0, "the split dim's size is the first");
  if (global.isDynamicDim(kTeamSplitDim))
    sizes.front() = rows;
  else
    sizes.insert(sizes.begin(), rows);
}

void TeamPartitioner::markSplit(Value v, PTensorType global) {
  globalTypes[v] = global;
  split.insert(v);
}

/// Whether `op` computes each element from the elements at the same
/// position of its operands (after ptensor-broadcast they have the result's
/// shape): the blocks line up.
static bool isAligned(Operation *op) {
  return isa<ElementwiseUnaryOp, ElementwiseUnaryTestOp, ElementwiseBinaryOp,
             ElementwiseBinaryTestOp, WhereOp, PointwiseOp, CastOp>(op);
}

/// The input of `grid` that varies along the results' first dim: the
/// second with xy indexing of two or more, else the first.
static unsigned meshgridRowsInput(MeshgridOp grid) {
  return grid.getIndexing() == MeshgridIndexing::xy &&
                 grid.getInputs().size() >= 2
             ? 1
             : 0;
}

Value TeamPartitioner::rowsSource(Operation *op) const {
  if (!op)
    return {};
  if (isAligned(op)) {
    // Of the result's rank (partitionElementwise) and, after
    // ptensor-broadcast, of its shape; a static single row against more
    // (the pass run alone) is not the result's rows.
    PTensorType result = globalOf(op->getResult(0));
    auto stretched = [&](PTensorType operand) {
      return operand.getDimSize(kTeamSplitDim) == 1 &&
             result.getDimSize(kTeamSplitDim) != 1;
    };
    for (Value operand : op->getOperands())
      if (isSplit(operand) && !stretched(globalOf(operand)))
        return operand;
    return {};
  }
  if (keepsRows(op))
    return op->getOperand(0);
  if (isa<ReduceOp, TestOp, FindIndexOp>(op)) {
    // Over other dims than the first: each block reduces its own rows
    // (partitionReduction keeps them).
    std::optional<ReductionInfo> info = getReductionInfo(op);
    Value input = op->getOperand(0);
    bool keepsFirst = info && !llvm::is_contained(info->dims, kTeamSplitDim);
    return keepsFirst && isSplit(input) ? input : Value();
  }
  Value rows;
  if (isa<MatmulOp, VecdotOp, TensordotOp>(op) &&
      globalOf(op->getResult(0))) // kept on the blocks
    rows = contractionRowsOperand(op, globalOf(op->getResult(0)));
  else if (auto search = dyn_cast<SearchsortedOp>(op))
    rows = search.getValues();
  else if (auto take = dyn_cast<TakeOp>(op)) // partitionTake
    rows = take.getTakenAxis() == kTeamSplitDim ? take.getIndices()
                                                : take.getSource();
  else if (auto grid = dyn_cast<MeshgridOp>(op))
    rows = grid.getInputs()[meshgridRowsInput(grid)];
  return rows && isSplit(rows) ? rows : Value();
}

Value TeamPartitioner::globalRows(OpBuilder &b, Location loc, Value v) {
  PTensorType global = globalOf(v);
  if (!global.isDynamicDim(kTeamSplitDim))
    return arith::ConstantIndexOp::create(b, loc, global.getDimSize(kTeamSplitDim));
  // Made earlier in this block, it dominates (the pass rewrites in order).
  std::pair<Value, Block *> key{v, b.getInsertionBlock()};
  if (Value known = globalSizes.lookup(key))
    return known;
  // An op that keeps an operand's rows has its global rows: a chain of
  // elementwise ops and views sums the rows it started from once.
  Value rows;
  if (Value operand = rowsSource(v.getDefiningOp())) {
    rows = globalRows(b, loc, operand);
  } else {
    rows = partRows(b, loc, v);
  }
  globalSizes[key] = rows;
  return rows;
}

Value TeamPartitioner::partRows(OpBuilder &b, Location loc, Value part) {
  Value mine = DimOp::create(b, loc, part, kTeamSplitDim);
  return TeamSumOp::create(b, loc, b.getIndexType(), mine, grid);
}

void TeamPartitioner::checkSameGlobalRows(OpBuilder &b, Location loc, Value x,
                                          Value y, StringRef message) {
  if (!globalOf(x).isDynamicDim(kTeamSplitDim) &&
      !globalOf(y).isDynamicDim(kTeamSplitDim))
    return; // static sizes: the verifier compared them
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     globalRows(b, loc, x),
                                     globalRows(b, loc, y));
  cf::AssertOp::create(b, loc, same, message);
}

Value TeamPartitioner::gather(OpBuilder &b, Location loc, Value v,
                              bool shared) {
  auto key = std::make_pair(v, b.getInsertionBlock());
  if (shared)
    if (Value whole = gathered.lookup(key))
      return whole;
  Value rows = globalRows(b, loc, v);
  Value whole =
      TeamGatherOp::create(b, loc, wholeType(globalOf(v)), v, rows, grid);
  if (shared)
    gathered[key] = whole;
  return whole;
}

Value TeamPartitioner::block(OpBuilder &b, Location loc, Value whole,
                             PTensorType global) {
  Value result = TeamBlockOp::create(b, loc, blockType(global), whole, grid);
  markSplit(result, global);
  return result;
}

Value TeamPartitioner::blockStart(OpBuilder &b, Location loc, Value v) {
  Value rows = globalRows(b, loc, v);
  return TeamBlockStartOp::create(b, loc, b.getIndexType(), rows, grid);
}

/// A global size that is the sum of the blocks of a split value
/// (ptensor-broadcast takes result sizes from the operands) gives that
/// value's block size without communication.
Value TeamPartitioner::localRows(OpBuilder &b, Location loc,
                                 PTensorType global, ArrayRef<Value> sizes) {
  if (!global.isDynamicDim(kTeamSplitDim)) {
    Value n = arith::ConstantIndexOp::create(b, loc, global.getDimSize(kTeamSplitDim));
    return TeamBlockRowsOp::create(b, loc, b.getIndexType(), n, grid);
  }
  if (auto sum = sizes.front().getDefiningOp<TeamSumOp>())
    if (auto dim = sum.getValue().getDefiningOp<DimOp>();
        dim && dim.getDim() == kTeamSplitDim)
      return dim.getResult();
  return TeamBlockRowsOp::create(b, loc, b.getIndexType(), sizes.front(), grid);
}

int64_t mlir::ptensor::sortAxis(Operation *op, int64_t rank) {
  int64_t axis = isa<SortValuesOp>(op)
                     ? static_cast<int64_t>(cast<SortValuesOp>(op).getAxis())
                     : static_cast<int64_t>(cast<ArgsortOp>(op).getAxis());
  return axis < 0 ? axis + rank : axis;
}

/// Whether `op`'s result's first dim is its split source's and each of its
/// rows comes from that row alone (a view that transposes, flips, inserts
/// or drops other dims; a roll or a sort along another dim): the op on the
/// block alone is the result's block.
bool TeamPartitioner::keepsRows(Operation *op) const {
  if (op->getNumOperands() == 0 || !isSplit(op->getOperand(0)))
    return false;
  int64_t rank = globalOf(op->getOperand(0)).getRank();
  auto touchesFirst = [&](ArrayRef<int64_t> axes) {
    return llvm::any_of(axes,
                        [&](int64_t a) { return isTeamSplitAxis(a, rank); });
  };
  if (auto permute = dyn_cast<PermuteDimsOp>(op))
    return touchesFirst(permute.getAxes().front());
  if (auto flip = dyn_cast<FlipOp>(op))
    return !touchesFirst(flip.getAxes());
  if (auto roll = dyn_cast<RollOp>(op))
    return !touchesFirst(roll.getAxes());
  if (isa<ExtractTriangleOp>(op)) // a block of one matrix is told its
    return true;                    // first row (partitionTriangle)
  if (isa<SortValuesOp, ArgsortOp>(op)) // rows of the other dims' lines
    return rank >= 2 && sortAxis(op, rank) != kTeamSplitDim;
  if (auto squeeze = dyn_cast<SqueezeOp>(op))
    return !touchesFirst(squeeze.getAxes());
  if (auto slice = dyn_cast<ExtractSliceOp>(op))
    return slicesWholeRows(slice);
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return reshapesWithinRows(reshape);
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    // The new dim's position in the result (negative: from the end).
    int64_t axis = static_cast<int64_t>(expand.getAxis());
    return (axis < 0 ? axis + rank + 1 : axis) != 0;
  }
  return false;
}

bool TeamPartitioner::isGlobalRows(Value size, Value source,
                                   Operation *user) const {
  int64_t rows = globalOf(source).getDimSize(kTeamSplitDim);
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return !ShapedType::isDynamic(rows) && *constant == rows;
  // Written as `ptensor.dim` of the source's first dim (which partitionOp
  // replaced by the global rows), or, once rewritten by withBlockRows, of
  // the block's.
  if (auto dim = size.getDefiningOp<DimOp>())
    return dim.getSource() == source && dim.getDim() == kTeamSplitDim;
  return size == globalSizes.lookup({source, user->getBlock()});
}

/// Whether the first of sizes `staticSizes` (ShapedType::kDynamic: the
/// first of `dynamicSizes`) is the global rows of split value `source`.
bool TeamPartitioner::firstSizeIsGlobalRows(ArrayRef<int64_t> staticSizes,
                                            ValueRange dynamicSizes,
                                            Value source,
                                            Operation *user) const {
  if (staticSizes.empty())
    return false;
  int64_t first = staticSizes.front();
  if (ShapedType::isDynamic(first))
    return isGlobalRows(dynamicSizes.front(), source, user);
  return first == globalOf(source).getDimSize(kTeamSplitDim);
}

/// Makes the first of `op`'s sizes (static `staticSizes`, its dynamic ones
/// `dynamicSizes`) the rows of `source`'s block, an index operand; returns
/// the new static sizes.
static SmallVector<int64_t> withBlockRows(Operation *op, Value source,
                                          ArrayRef<int64_t> staticSizes,
                                          MutableOperandRange dynamicSizes) {
  OpBuilder b(op);
  Value rows = DimOp::create(b, op->getLoc(), source, kTeamSplitDim);
  SmallVector<Value> operands;
  for (OpOperand &operand : dynamicSizes)
    operands.push_back(operand.get());
  if (ShapedType::isDynamic(staticSizes.front()))
    operands.front() = rows; // the first dynamic size is the first dim's
  else
    operands.insert(operands.begin(), rows);
  dynamicSizes.assign(operands);
  SmallVector<int64_t> sizes(staticSizes);
  sizes.front() = ShapedType::kDynamic;
  return sizes;
}

bool TeamPartitioner::slicesWholeRows(ExtractSliceOp slice) const {
  Value source = slice.getSource();
  return isSplit(source) && slice.getOffsets()[kTeamSplitDim] == 0 &&
         slice.getSteps()[kTeamSplitDim] == 1 &&
         firstSizeIsGlobalRows(slice.getSizes(), slice.getDynamicSizes(),
                               source, slice);
}

/// The position of a -1 after the first of a reshape's `sizes` that its
/// result type knows (static sizes before it: [10, -1] of a 10x3x4), or
/// none.
static std::optional<size_t> knownInferredSize(ReshapeOp reshape) {
  ArrayRef<int64_t> sizes = reshape.getStaticSizes();
  auto found = llvm::find(sizes.drop_front(), -1);
  if (found == sizes.end())
    return std::nullopt;
  auto d = static_cast<size_t>(found - sizes.begin());
  if (reshape.getType().isDynamicDim(d))
    return std::nullopt;
  return d;
}

bool TeamPartitioner::reshapesWithinRows(ReshapeOp reshape) const {
  Value source = reshape.getSource();
  ArrayRef<int64_t> sizes = reshape.getStaticSizes();
  // A -1 after the first size: a block without rows could not infer it,
  // unless the result type knows it (partitionRowsView writes it out).
  bool inferredAfterFirst = !sizes.empty() &&
                            llvm::is_contained(sizes.drop_front(), -1) &&
                            !knownInferredSize(reshape);
  return isSplit(source) && !sizes.empty() && !inferredAfterFirst &&
         firstSizeIsGlobalRows(sizes, reshape.getSizes(), source, reshape);
}

bool TeamPartitioner::combinesBesideRows(CombineOp combine) const {
  int64_t rank = combine.getType().getRank();
  auto axis = static_cast<int64_t>(combine.getAxis());
  if (axis < 0)
    axis += rank; // an axis of the result for concat and stack alike
  if (axis == kTeamSplitDim)
    return false;
  // Static global rows, equal (verified): the blocks line up. Dynamic ones
  // would need the check that they agree to see the global sizes.
  std::optional<int64_t> rows;
  for (Value input : combine.getInputs()) {
    if (!isSplit(input))
      return false;
    int64_t inputRows = globalOf(input).getDimSize(kTeamSplitDim);
    if (ShapedType::isDynamic(inputRows) || (rows && *rows != inputRows))
      return false;
    rows = inputRows;
  }
  return rows.has_value();
}

void TeamPartitioner::partitionRowsView(Operation *op) {
  if (auto slice = dyn_cast<ExtractSliceOp>(op)) {
    slice.setSizes(withBlockRows(slice, slice.getSource(), slice.getSizes(),
                                 slice.getDynamicSizesMutable()));
  } else {
    auto reshape = cast<ReshapeOp>(op);
    std::optional<size_t> inferred = knownInferredSize(reshape);
    SmallVector<int64_t> sizes =
        withBlockRows(reshape, reshape.getSource(), reshape.getStaticSizes(),
                      reshape.getSizesMutable());
    if (inferred) // the type's size: a block of no rows infers nothing
      sizes[*inferred] = reshape.getType().getDimSize(*inferred);
    reshape.setStaticSizes(sizes);
  }
  localize(op->getResult(0));
}

bool TeamPartitioner::movesRows(Operation *op) const {
  if (!isa<ExtractSliceOp, FlipOp, RollOp>(op) || !isSplit(op->getOperand(0)))
    return false;
  // A flip or a roll that keeps the rows is done on the block alone
  // (keepsRows), a slice taking every row is one of the block: asked first.
  return !keepsRows(op);
}

void TeamPartitioner::finishOnMovedRows(Operation *op, Value moved,
                                        bool done,
                                        function_ref<void()> restrict) {
  if (done) {
    op->getResult(0).replaceAllUsesWith(moved);
    op->erase();
    return;
  }
  op->setOperand(0, moved);
  restrict();
  localize(op->getResult(0));
}

Value TeamPartitioner::moveRows(OpBuilder &b, Location loc,
                                ArrayRef<RowSlice> slices, PTensorType global,
                                Value rows) {
  SmallVector<Value> blocks, sourceRows, offsets, counts, steps;
  for (const RowSlice &slice : slices) {
    blocks.push_back(slice.block);
    sourceRows.push_back(slice.sourceRows);
    offsets.push_back(slice.offset);
    counts.push_back(slice.rows);
    steps.push_back(slice.step);
  }
  Value moved = TeamSliceRowsOp::create(b, loc, blockType(global), blocks,
                                        sourceRows, offsets, counts, steps,
                                        grid);
  markSplit(moved, global);
  if (global.isDynamicDim(kTeamSplitDim) && !isPendingRowsQuery(rows))
    globalSizes[{moved, b.getInsertionBlock()}] = rows;
  return moved;
}

void TeamPartitioner::partitionRowsMove(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value source = op->getOperand(0);
  PTensorType sourceGlobal = globalOf(source);
  auto global = cast<PTensorType>(op->getResult(0).getType());
  Value sourceRows = globalRows(b, loc, source);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value offset, rows, step;
  auto slice = dyn_cast<ExtractSliceOp>(op);
  if (slice) {
    offset = constant(slice.getOffsets()[kTeamSplitDim]);
    step = constant(slice.getSteps()[kTeamSplitDim]);
    int64_t size = slice.getSizes()[kTeamSplitDim];
    rows = ShapedType::isDynamic(size) ? slice.getDynamicSizes().front()
                                       : constant(size);
  } else { // a flip: the rows backwards
    Value one = constant(1);
    offset = arith::SubIOp::create(b, loc, sourceRows, one);
    step = constant(-1);
    rows = sourceRows;
  }
  // The moved rows: the source's other dims, the result's rows.
  SmallVector<int64_t> movedShape(sourceGlobal.getShape());
  movedShape.front() = global.getDimSize(kTeamSplitDim);
  PTensorType movedGlobal = sourceGlobal.cloneWithShapeAndType(
      movedShape, sourceGlobal.getElementType());
  Value moved = moveRows(b, loc, {{source, sourceRows, offset, rows, step}},
                         movedGlobal, rows);
  if (slice) {
    // The rest: every row of the moved block, the other dims as asked
    // (nothing when it takes them whole).
    auto takesWhole = [&](int64_t d) {
      return slice.getOffsets()[d] == 0 && slice.getSteps()[d] == 1 &&
             !sourceGlobal.isDynamicDim(d) &&
             slice.getSizes()[d] == sourceGlobal.getDimSize(d);
    };
    if (llvm::all_of(llvm::seq<int64_t>(1, sourceGlobal.getRank()),
                     takesWhole)) {
      slice.getResult().replaceAllUsesWith(moved);
      slice.erase();
      return;
    }
    SmallVector<int64_t> offsets(slice.getOffsets()), steps(slice.getSteps());
    offsets.front() = 0;
    steps.front() = 1;
    slice.getSourceMutable().assign(moved);
    slice.setOffsets(offsets);
    slice.setSteps(steps);
    slice.setSizes(withBlockRows(slice, moved, slice.getSizes(),
                                 slice.getDynamicSizesMutable()));
    localize(slice.getResult());
    return;
  }
  auto flip = cast<FlipOp>(op);
  int64_t rank = sourceGlobal.getRank();
  SmallVector<int64_t> otherAxes;
  for (int64_t axis : flip.getAxes())
    if (!isTeamSplitAxis(axis, rank))
      otherAxes.push_back(axis);
  finishOnMovedRows(flip, moved, otherAxes.empty(),
                    [&] { flip.setAxes(otherAxes); });
}

/// A roll of the first dim by r (its shift mod the rows n) is two slices
/// of the rows, [n - r, n) then [0, n - r); the other rolled dims are
/// rolled on the moved block.
void TeamPartitioner::partitionRoll(RollOp roll) {
  OpBuilder b(roll);
  Location loc = roll.getLoc();
  Value source = roll.getSource();
  PTensorType global = globalOf(source);
  // Each dim's shift (repeated axes added up, numpy's way).
  ::ptensor::semantics::Result<std::vector<int64_t>> shifts =
      ::ptensor::semantics::rollShifts(
          global.getRank(),
          std::vector<int64_t>(roll.getShifts().begin(),
                               roll.getShifts().end()),
          std::vector<int64_t>(roll.getAxes().begin(), roll.getAxes().end()));
  assert(shifts && "roll is verified");
  int64_t rowShift = (*shifts)[kTeamSplitDim];
  SmallVector<int64_t> otherShifts, otherAxes;
  for (int64_t d = 1; d < global.getRank(); ++d)
    if ((*shifts)[d] != 0) {
      otherShifts.push_back((*shifts)[d]);
      otherAxes.push_back(d);
    }
  IndexMath m(b, loc);
  Value rows = globalRows(b, loc, source);
  OpFoldResult shift = m.wrap(rowShift, rows);
  Value back = m.value(m.sub(rows, shift));
  Value zero = m.value(m.index(0));
  Value one = m.value(m.index(1));
  Value shiftRows = m.value(shift);
  Value moved = moveRows(b, loc,
                         {{source, rows, back, shiftRows, one},
                          {source, rows, zero, back, one}},
                         global, rows);
  finishOnMovedRows(roll, moved, otherAxes.empty(), [&] {
    roll.setShifts(otherShifts);
    roll.setAxes(otherAxes);
  });
}

bool TeamPartitioner::concatsRows(CombineOp combine) const {
  auto global = cast<PTensorType>(combine.getType());
  if (combine.getKind() != CombineKind::concat || global.getRank() == 0 ||
      !isTeamSplitAxis(combine.getAxis(), global.getRank()))
    return false;
  return llvm::all_of(combine.getInputs(), [&](Value input) {
    return isSplit(input) && globalOf(input).getShape().drop_front() ==
                                 global.getShape().drop_front();
  });
}

void TeamPartitioner::partitionConcat(CombineOp concat) {
  OpBuilder b(concat);
  Location loc = concat.getLoc();
  auto global = cast<PTensorType>(concat.getType());
  IndexMath m(b, loc);
  Value zero = m.value(m.index(0));
  Value one = m.value(m.index(1));
  SmallVector<RowSlice> slices;
  OpFoldResult total = m.index(0);
  for (Value input : concat.getInputs()) {
    Value rows = globalRows(b, loc, input);
    total = m.add(total, rows);
    PTensorType inputGlobal = globalOf(input);
    Value block = input;
    if (inputGlobal.getElementType() != global.getElementType()) {
      // The concat's promotion, on the block: the same elementwise cast.
      PTensorType castGlobal = inputGlobal.cloneWithShapeAndType(
          inputGlobal.getShape(), global.getElementType());
      block = CastOp::create(b, loc, blockType(castGlobal), input);
      markSplit(block, castGlobal);
    }
    slices.push_back({block, rows, zero, rows, one});
  }
  Value totalRows = m.value(total);
  Value moved = moveRows(b, loc, slices, global, totalRows);
  concat.getResult().replaceAllUsesWith(moved);
  concat.erase();
}

bool TeamPartitioner::movesSplitDim(Operation *op) const {
  return isa<PermuteDimsOp>(op) && isSplit(op->getOperand(0)) &&
         !keepsRows(op);
}

Value TeamPartitioner::partitionPermute(PermuteDimsOp permute) {
  Value source = permute.getSource();
  auto global = cast<PTensorType>(permute.getType());
  int64_t rank = global.getRank();
  auto lands = llvm::find_if(permute.getAxes(), [&](int64_t axis) {
    return isTeamSplitAxis(axis, rank);
  });
  auto axis = static_cast<int64_t>(lands - permute.getAxes().begin());
  OpBuilder b(permute);
  Location loc = permute.getLoc();
  Value splitSize = globalRows(b, loc, source);
  // The permute stays, of the block: every row of the result's first dim,
  // this process's share of the split dim at `axis`.
  SmallVector<int64_t> partShape(global.getShape());
  partShape[axis] = ShapedType::kDynamic;
  permute.getResult().setType(PTensorType::get(
      global.getContext(), partShape, global.getElementType(),
      global.getDevice(), nullptr));
  b.setInsertionPointAfter(permute);
  auto resplit = TeamResplitOp::create(b, loc, blockType(global),
                                       permute.getResult(), splitSize,
                                       b.getI64IntegerAttr(axis), grid);
  permute.getResult().replaceAllUsesExcept(resplit.getResult(), resplit);
  markSplit(resplit.getResult(), global);
  if (global.isDynamicDim(kTeamSplitDim)) {
    // The result's rows are a dim that every process has whole.
    Value rows = DimOp::create(b, loc, permute.getResult(), kTeamSplitDim);
    globalSizes[{resplit.getResult(), b.getInsertionBlock()}] = rows;
  }
  return resplit.getResult();
}

bool TeamPartitioner::reblocksRows(Operation *op) const {
  auto reshape = dyn_cast<ReshapeOp>(op);
  return reshape && isSplit(reshape.getSource()) && !keepsRows(op) &&
         reshape.getType().getRank() >= 1;
}

/// The sizes of dims 1 on of `v` (a block or part: they are the same on
/// every process), static where its type is.
static SmallVector<OpFoldResult> rowSizes(OpBuilder &b, Location loc,
                                          Value v) {
  auto type = cast<PTensorType>(v.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 1; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    Value size = DimOp::create(b, loc, v, d);
    sizes.push_back(size);
  }
  return sizes;
}

Value TeamPartitioner::partitionReshape(ReshapeOp reshape) {
  OpBuilder b(reshape);
  Location loc = reshape.getLoc();
  Value source = reshape.getSource();
  auto global = cast<PTensorType>(reshape.getType());
  IndexMath m(b, loc);
  Value sourceRows = globalRows(b, loc, source);
  // The element count: the global rows by the other dims (the block's, the
  // same on every process).
  OpFoldResult sourceRowElements = m.product(rowSizes(b, loc, source));
  OpFoldResult total = m.mul(sourceRows, sourceRowElements);
  // The requested sizes, a -1 inferred from the global count (a count it
  // does not divide is the runtime's error), static where the result's
  // type knows them.
  SmallVector<OpFoldResult> sizes;
  std::optional<size_t> inferred;
  auto dynamicSizes = reshape.getSizes().begin();
  for (int64_t size : reshape.getStaticSizes()) {
    if (ShapedType::isDynamic(size))
      sizes.push_back(*dynamicSizes++);
    else if (size == -1)
      inferred = sizes.size(), sizes.push_back(m.index(1));
    else
      sizes.push_back(m.index(size));
  }
  if (inferred) {
    Value known = m.value(m.product(sizes));
    Value one = m.value(m.index(1));
    Value divisor = arith::MaxSIOp::create(b, loc, known, one);
    Value totalValue = m.value(total);
    sizes[*inferred] = arith::DivSIOp::create(b, loc, totalValue, divisor)
                           .getResult();
  }
  for (int64_t d = 0; d < global.getRank(); ++d)
    if (!global.isDynamicDim(d))
      sizes[d] = m.index(global.getDimSize(d));
  Value rows = m.value(sizes.front());
  Value rowElements = m.value(m.product(ArrayRef(sizes).drop_front()));
  Value flat = TeamReblockOp::create(b, loc, flatBlockType(global), source,
                                     sourceRows, rows, rowElements,
                                     /*uneven=*/UnitAttr(), grid);
  Value block = unflattenBlock(b, loc, flat, global, rows,
                               ArrayRef(sizes).drop_front());
  reshape.getResult().replaceAllUsesWith(block);
  reshape.erase();
  markSplit(block, global);
  if (global.isDynamicDim(kTeamSplitDim) && !isPendingRowsQuery(rows))
    globalSizes[{block, b.getInsertionBlock()}] = rows;
  return block;
}

Value TeamPartitioner::unflattenBlock(OpBuilder &b, Location loc, Value flat,
                                      PTensorType global, Value rows,
                                      ArrayRef<OpFoldResult> otherSizes) {
  if (global.getRank() == 1)
    return flat;
  IndexMath m(b, loc);
  Value myRows =
      TeamBlockRowsOp::create(b, loc, b.getIndexType(), rows, grid);
  // Static where the result's type is (a reshape's inferred type must be
  // the block's).
  SmallVector<int64_t> staticSizes{ShapedType::kDynamic};
  SmallVector<Value> dynamic{myRows};
  for (int64_t d = 1; d < global.getRank(); ++d) {
    staticSizes.push_back(global.getDimSize(d));
    if (global.isDynamicDim(d))
      dynamic.push_back(m.value(otherSizes[d - 1]));
  }
  return ReshapeOp::create(b, loc, blockType(global), flat, dynamic,
                           b.getDenseI64ArrayAttr(staticSizes),
                           /*copy=*/nullptr);
}

Value TeamPartitioner::rebalance(OpBuilder &b, Location loc, Value part,
                                 PTensorType global, Value rows) {
  IndexMath m(b, loc);
  if (!rows)
    rows = partRows(b, loc, part);
  SmallVector<OpFoldResult> otherSizes = rowSizes(b, loc, part);
  Value rowElements = m.value(m.product(otherSizes));
  Value flat = TeamReblockOp::create(b, loc, flatBlockType(global), part,
                                     rows, rows, rowElements,
                                     /*uneven=*/b.getUnitAttr(), grid);
  Value block = unflattenBlock(b, loc, flat, global, rows, otherSizes);
  markSplit(block, global);
  globalSizes[{block, b.getInsertionBlock()}] = rows;
  return block;
}

void TeamPartitioner::partitionNonzero(NonzeroOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value input = op.getInput();
  Value start = blockStart(b, loc, input);
  auto local = NonzeroOp::create(b, loc, input);
  SmallVector<Value> parts(local.getResults());
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), start);
  parts.front() = binary(b, loc, BinaryOpKind::add, parts.front(), offset);
  Value rows = partRows(b, loc, parts.front());
  for (auto [result, part] : llvm::zip_equal(op.getResults(), parts)) {
    auto global = cast<PTensorType>(result.getType());
    result.replaceAllUsesWith(rebalance(b, loc, part, global, rows));
  }
  op.erase();
}

void TeamPartitioner::partitionExtractMask(ExtractMaskOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value source = op.getSource(), mask = op.getMask();
  // Blocks of equal global rows line up.
  checkSameGlobalRows(
      b, loc, source, mask,
      "ptensor.extract_mask: the first dims of a team tensor and its mask "
      "differ (their sizes summed over the team); they must be equal");
  Value part = ExtractMaskOp::create(b, loc, source, mask);
  op.getResult().replaceAllUsesWith(
      rebalance(b, loc, part, op.getType()));
  op.erase();
}

ReshapeOp TeamPartitioner::reshapeToOneRow(OpBuilder &b, Location loc,
                                           Value source, PTensorType global) {
  PTensorType sourceGlobal = globalOf(source);
  SmallVector<int64_t> staticSizes{1};
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < sourceGlobal.getRank(); ++d) {
    staticSizes.push_back(sourceGlobal.getDimSize(d));
    if (!sourceGlobal.isDynamicDim(d))
      continue;
    // The global rows; another dim is the block's, whole on every process.
    Value size = d == kTeamSplitDim ? globalRows(b, loc, source)
                                    : DimOp::create(b, loc, source, d);
    dynamicSizes.push_back(size);
  }
  DenseI64ArrayAttr sizes = b.getDenseI64ArrayAttr(staticSizes);
  return ReshapeOp::create(b, loc, global, source, dynamicSizes, sizes,
                           /*copy=*/nullptr);
}

bool TeamPartitioner::addsRowsDim(Operation *op) const {
  if (isa<ExpandDimsOp>(op))
    return isSplit(op->getOperand(0)) && !keepsRows(op);
  auto stack = dyn_cast<CombineOp>(op);
  if (!stack || stack.getKind() != CombineKind::stack)
    return false;
  auto global = cast<PTensorType>(stack.getType());
  if (!isTeamSplitAxis(stack.getAxis(), global.getRank()))
    return false;
  return llvm::all_of(stack.getInputs(), [&](Value input) {
    return isSplit(input) &&
           globalOf(input).getShape() == global.getShape().drop_front();
  });
}

void TeamPartitioner::partitionNewRowsDim(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    ReshapeOp reshape =
        reshapeToOneRow(b, loc, expand.getSource(), expand.getType());
    expand.getResult().replaceAllUsesWith(reshape.getResult());
    expand.erase();
    partitionReshape(reshape);
    return;
  }
  auto stack = cast<CombineOp>(op);
  SmallVector<Value> rows;
  for (Value input : stack.getInputs()) {
    PTensorType inputGlobal = globalOf(input);
    SmallVector<int64_t> shape{1};
    llvm::append_range(shape, inputGlobal.getShape());
    PTensorType oneRow = inputGlobal.cloneWithShapeAndType(
        shape, inputGlobal.getElementType());
    ReshapeOp reshape = reshapeToOneRow(b, loc, input, oneRow);
    rows.push_back(partitionReshape(reshape));
  }
  auto concat = CombineOp::create(b, loc, stack.getType(), CombineKind::concat,
                                  rows, /*axis=*/0);
  stack.getResult().replaceAllUsesWith(concat.getResult());
  stack.erase();
  partitionConcat(concat);
}

/// Ops on operands of the result's shape (after ptensor-broadcast): the
/// blocks line up, nothing moves.
LogicalResult TeamPartitioner::partitionElementwise(Operation *op) {
  auto result = cast<PTensorType>(op->getResult(0).getType());
  for (Value operand : op->getOperands())
    if (isSplit(operand) && globalOf(operand).getRank() != result.getRank())
      return op->emitOpError("on a team: expected operands of the result's "
                             "rank (run ptensor-broadcast first), but got ")
             << globalOf(operand);
  for (Value r : op->getResults())
    localize(r);
  return success();
}

/// An aligned broadcast keeps the source's rows; a dynamic source first dim
/// that is 1 at run time where the result has more rows would need the row
/// on every process. That is checked (with global sizes: every process
/// fails alike) unless the requested size is the source's own.
void TeamPartitioner::checkNotStretched(OpBuilder &b, Location loc,
                                        Value source, PTensorType global,
                                        ArrayRef<Value> sizes) {
  if (!globalOf(source).isDynamicDim(kTeamSplitDim))
    return; // a static size is 1 (not aligned) or the result's
  Value requested;
  if (global.isDynamicDim(kTeamSplitDim)) {
    requested = sizes.front();
    if (auto sum = requested.getDefiningOp<TeamSumOp>())
      if (auto dim = sum.getValue().getDefiningOp<DimOp>();
          dim && dim.getSource() == source)
        return; // the source's own rows
  } else {
    requested = arith::ConstantIndexOp::create(b, loc, global.getDimSize(kTeamSplitDim));
  }
  Value rows = globalRows(b, loc, source);
  Value ok =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rows, requested);
  cf::AssertOp::create(
      b, loc, ok,
      "ptensor: a team tensor's first dim is 1 at run time where the result "
      "has more rows; across processes only a static 1 is broadcast "
      "(docs/Teams.md)");
}

void TeamPartitioner::partitionBroadcast(BroadcastOp op) {
  PTensorType global = op.getType();
  if (global.getRank() == 0) {
    localize(op.getResult());
    return;
  }
  Value source = op.getSource();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> sizes(op.getDynamicSizes());
  PTensorType sourceGlobal = globalOf(source);
  // The source's rows are the result's rows unless it is 0-d, of lower
  // rank, or a single row (static 1) stretched over the result's.
  bool aligned = isSplit(source) &&
                 sourceGlobal.getRank() == global.getRank() &&
                 !(sourceGlobal.getDimSize(kTeamSplitDim) == 1 && global.getDimSize(kTeamSplitDim) != 1);
  Value input = source, rows;
  if (aligned) {
    rows = DimOp::create(b, loc, source, kTeamSplitDim);
    checkNotStretched(b, loc, source, global, sizes);
  } else {
    if (isSplit(source))
      input = gather(b, loc, source);
    rows = localRows(b, loc, global, sizes);
  }
  // The global rows, when dynamic, are the size asked for (before the
  // block's replaced it): later ops reuse it (globalRows). Not a query the
  // pass has yet to replace (a block listed before the one that dominates
  // it), which would be erased or redirected under the record.
  Value requestedRows =
      global.isDynamicDim(kTeamSplitDim) ? sizes.front() : Value();
  if (requestedRows && isPendingRowsQuery(requestedRows))
    requestedRows = {};
  setSplitDimSize(global, sizes, rows);
  auto local = BroadcastOp::create(b, loc, blockType(global), input, sizes);
  markSplit(local, global);
  if (requestedRows)
    globalSizes[{local, b.getInsertionBlock()}] = requestedRows;
  op.getResult().replaceAllUsesWith(local.getResult());
  op.erase();
}

void TeamPartitioner::partitionCopy(CopyOp op) {
  Value source = op.getSource();
  PTensorType to = op.getType();
  bool fromTeam = globalOf(source) != nullptr;
  if (fromTeam == static_cast<bool>(to.getTeam()) || to.getRank() == 0) {
    localize(op.getResult()); // within the team, or a replicated 0-d
    return;
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (fromTeam) { // out of the team: every process gets the whole tensor
    // A tensor of its own: the copy may be written (ptensor.write), and
    // must not be the gather other ops read.
    Value whole = gather(b, loc, source, /*shared=*/false);
    if (whole.getType() != to)
      whole = CopyOp::create(b, loc, to, whole);
    op.getResult().replaceAllUsesWith(whole);
  } else { // into the team: each process copies its rows
    Value rows = block(b, loc, source, to);
    auto copy = CopyOp::create(b, loc, blockType(to), rows);
    markSplit(copy, to);
    op.getResult().replaceAllUsesWith(copy.getResult());
  }
  op.erase();
}

/// `create` makes only the block; `arange` and `linspace` make the whole
/// tensor and keep their block, so that every element is the one-process
/// value bit for bit (docs/Teams.md "Left").
void TeamPartitioner::partitionCreation(Operation *op) {
  Value result = op->getResult(0);
  auto global = cast<PTensorType>(result.getType());
  if (global.getRank() == 0) {
    localize(result);
    return;
  }
  if (auto create = dyn_cast<CreateOp>(op)) {
    OpBuilder b(op);
    SmallVector<Value> sizes(create.getDynamicSizes());
    Value rows = localRows(b, op->getLoc(), global, sizes);
    setSplitDimSize(global, sizes, rows);
    auto local = CreateOp::create(b, op->getLoc(), blockType(global), sizes,
                                  create.getFill());
    markSplit(local, global);
    result.replaceAllUsesWith(local.getResult());
    op->erase();
    return;
  }
  result.setType(wholeType(global));
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Value local = block(b, op->getLoc(), result, global);
  result.replaceAllUsesExcept(local, local.getDefiningOp());
}

bool TeamPartitioner::isPendingRowsQuery(Value v) const {
  Operation *def = v.getDefiningOp();
  if (!isa_and_present<DimOp, SizeOp, ShapeOp>(def))
    return false;
  Value source = def->getOperand(0);
  if (!isSplit(source) && !hasTeam(source.getType()))
    return false;
  if (auto dim = dyn_cast<DimOp>(def))
    return dim.getDim() == kTeamSplitDim;
  if (auto shape = dyn_cast<ShapeOp>(def))
    return v == shape.getSizes().front();
  return true; // a size: the element count
}

LogicalResult TeamPartitioner::partitionOp(Operation *op) {
  bool onTeam = llvm::any_of(op->getOperands(), [&](Value v) {
    return globalTypes.contains(v);
  }) || llvm::any_of(op->getResultTypes(), hasTeam);
  if (!onTeam)
    return success();
  if (isAligned(op))
    return partitionElementwise(op);
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return partitionBroadcast(broadcast), success();
  if (auto dim = dyn_cast<DimOp>(op)) {
    if (isSplit(dim.getSource()) && dim.getDim() == kTeamSplitDim) {
      OpBuilder b(op);
      dim.getResult().replaceAllUsesWith(
          globalRows(b, op->getLoc(), dim.getSource()));
      dim.erase();
    }
    return success();
  }
  if (isa<ReduceOp, TestOp, FindIndexOp>(op))
    return partitionReduction(op);
  if (isa<ShapeOp, SizeOp, RankOp>(op) && isSplit(op->getOperand(0)))
    return partitionShapeQuery(op), success();
  if (isa<ExtractSliceOp, ReshapeOp>(op) && keepsRows(op))
    return partitionRowsView(op), success();
  if (auto roll = dyn_cast<RollOp>(op); roll && movesRows(op))
    return partitionRoll(roll), success();
  if (movesRows(op))
    return partitionRowsMove(op), success();
  if (movesSplitDim(op)) {
    partitionPermute(cast<PermuteDimsOp>(op));
    return success();
  }
  if (sortsAlongRows(op)) {
    partitionSortAlongRows(op);
    return success();
  }
  if (sortsSplitLine(op))
    return partitionSampleSort(op), success();
  if (reblocksRows(op)) {
    auto reshape = cast<ReshapeOp>(op);
    if (reshape.getCopy() == false)
      return reshape.emitOpError(
          "with copy = false changes the rows of a team tensor: its elements "
          "move between processes, which is a copy (copy = false never "
          "copies; keep the rows, or allow the copy)");
    partitionReshape(reshape);
    return success();
  }
  if (auto combine = dyn_cast<CombineOp>(op);
      combine && combinesBesideRows(combine)) { // block beside block
    localize(combine.getResult());
    return success();
  }
  if (auto combine = dyn_cast<CombineOp>(op); combine && concatsRows(combine))
    return partitionConcat(combine), success();
  if (addsRowsDim(op))
    return partitionNewRowsDim(op), success();
  if (auto triangle = dyn_cast<ExtractTriangleOp>(op);
      triangle && isSplit(triangle.getSource()))
    return partitionTriangle(triangle), success();
  if (keepsRows(op)) { // the op on the block alone
    localize(op->getResult(0));
    return success();
  }
  if (isa<MatmulOp, VecdotOp, TensordotOp>(op))
    return partitionContraction(op), success();
  if (auto search = dyn_cast<SearchsortedOp>(op)) {
    // The values' rows are the result's: the sorted tensor and the sorter
    // are gathered (each process searches the whole of them).
    OpBuilder b(op);
    unsigned values = search.getValuesMutable().getOperandNumber();
    for (OpOperand &operand : op->getOpOperands())
      if (operand.getOperandNumber() != values && isSplit(operand.get()))
        operand.set(gather(b, op->getLoc(), operand.get()));
    localize(search.getResult());
    return success();
  }
  if (auto take = dyn_cast<TakeOp>(op))
    return partitionTake(take), success();
  if (auto grid = dyn_cast<MeshgridOp>(op);
      grid && isSplit(grid.getInputs()[meshgridRowsInput(grid)]))
    return partitionMeshgrid(grid), success();
  if (auto nonzero = dyn_cast<NonzeroOp>(op); nonzero && isSplit(nonzero.getInput()))
    return partitionNonzero(nonzero), success();
  if (auto unique = dyn_cast<UniqueOp>(op);
      unique && unique.getKind() == UniqueKind::values &&
      isSplit(unique.getInput()))
    return partitionUniqueValues(unique), success();
  if (auto unique = dyn_cast<UniqueOp>(op);
      unique && unique.getKind() == UniqueKind::counts &&
      isSplit(unique.getInput()))
    return partitionUniqueCounts(unique), success();
  if (auto masked = dyn_cast<ExtractMaskOp>(op);
      masked && isSplit(masked.getSource()) && isSplit(masked.getMask()))
    return partitionExtractMask(masked), success();
  if (auto copy = dyn_cast<CopyOp>(op))
    return partitionCopy(copy), success();
  if (isa<CreateOp, ArangeOp, LinspaceOp>(op))
    return partitionCreation(op), success();
  if (auto del = dyn_cast<DeleteOp>(op))
    return partitionDelete(del), success();
  if (isa<func::ReturnOp>(op))
    return success();
  if (auto call = dyn_cast<func::CallOp>(op)) // the callee is partitioned alike
    return partitionCall(call);
  if (auto write = dyn_cast<WriteOp>(op))
    return partitionWrite(write);
  if (isa<StridedWriteOp>(op) || op->getNumRegions() != 0)
    return op->emitOpError("on team tensors is not supported yet (docs/Teams.md "
                           "lists the ops that are)");
  return partitionWhole(op);
}

void TeamPartitioner::partitionUniqueValues(UniqueOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto local = UniqueOp::create(b, loc, op.getKindAttr(), op.getInput());
  Value part = local.getResults().front();
  Value rows = partRows(b, loc, part);
  Value parts = TeamGatherOp::create(b, loc, part.getType(), part, rows, grid);
  auto whole = UniqueOp::create(b, loc, op.getKindAttr(), parts);
  replaceByWhole(op, whole.getResults().front());
}

void TeamPartitioner::partitionTriangle(ExtractTriangleOp op) {
  Value source = op.getSource();
  if (globalOf(source).getRank() == 2) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value start = blockStart(b, loc, source);
    if (Value given = op.getFirstRow())
      start = arith::AddIOp::create(b, loc, given, start);
    op.getFirstRowMutable().assign(start);
  }
  localize(op.getResult());
}

void TeamPartitioner::partitionTake(TakeOp op) {
  OpBuilder b(op);
  bool alongRows = op.getTakenAxis() == kTeamSplitDim;
  OpOperand &whole = alongRows ? op.getSourceMutable() : op.getIndicesMutable();
  if (isSplit(whole.get()))
    whole.set(gather(b, op.getLoc(), whole.get()));
  localize(op.getResult());
}

void TeamPartitioner::partitionMeshgrid(MeshgridOp op) {
  OpBuilder b(op);
  unsigned rowsInput = meshgridRowsInput(op);
  for (OpOperand &operand : op->getOpOperands())
    if (operand.getOperandNumber() != rowsInput && isSplit(operand.get()))
      operand.set(gather(b, op.getLoc(), operand.get()));
  for (Value result : op.getResults())
    localize(result);
}

/// Whether `op` is a communication step that copies rows for this process
/// (its result does not alias what it read).
static bool isTeamCopy(Operation *op) {
  return isa<TeamGatherOp, TeamSliceRowsOp, TeamResplitOp, TeamReblockOp,
             TeamExchangeOp>(op);
}

/// The communication step whose result `v` is, or a view of (a copy made
/// for this process, which a write would not carry back), or null.
static Operation *copiedByTeamStep(Value v) {
  Operation *def = getStorageRoot(v).getDefiningOp();
  return def && isTeamCopy(def) ? def : nullptr;
}

/// Whether `v` or a view of it is used after `write` (in its block, or in
/// another block).
static bool usedAfter(Value v, Operation *write) {
  SmallVector<Value> views{v};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (user == write)
        continue;
      if (user->getBlock() != write->getBlock() ||
          write->isBeforeInBlock(user))
        return true;
      if (mayShareOperandStorage(user) && !isa<MeshgridOp>(user))
        llvm::append_range(views, user->getResults());
    }
  }
  return false;
}

/// A communication step before `write` that copied `root` or a view of it
/// and whose copy, or a view of that, is used after the write: the copy
/// stands for a view, which must see the write. Null if none.
static Operation *staleCopyAfter(Value root, Operation *write) {
  SmallVector<Value> views{root};
  while (!views.empty()) {
    Value v = views.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() == write->getBlock() &&
          !user->isBeforeInBlock(write))
        continue;
      if (isTeamCopy(user) && usedAfter(user->getResult(0), write))
        return user;
      if (mayShareOperandStorage(user) && !isa<MeshgridOp>(user) &&
          user->getOperand(0) == v)
        llvm::append_range(views, user->getResults());
    }
  }
  return nullptr;
}

LogicalResult TeamPartitioner::partitionWrite(WriteOp op) {
  Value dest = op.getDest();
  if (Operation *step = copiedByTeamStep(dest))
    return op.emitOpError("into a team tensor that this process holds as a "
                          "copy (made by ")
           << step->getName()
           << ": a view that moves or gathers rows, such as a slice of "
              "the split dim or a flip of it); write into the tensor itself "
              "or into a view that keeps each process's rows";
  if (Operation *step = staleCopyAfter(getStorageRoot(dest), op))
    return op.emitOpError("into a team tensor whose rows were copied "
                          "between processes before the write (by ")
           << step->getName()
           << ") for a view used after it, which would not see the write: "
              "write before taking that view, or into a new tensor";
  // The value and the destination have one team type: blocks of the same
  // rows, written in place (the global rows compared when dynamic).
  if (isSplit(dest)) {
    OpBuilder b(op);
    checkSameGlobalRows(b, op.getLoc(), op.getValue(), dest,
                        "ptensor.write: the value's rows differ from the "
                        "team tensor written into");
  }
  // Whole tensors gathered before the write are stale after it.
  gathered.clear();
  return success();
}

LogicalResult TeamPartitioner::partitionCall(func::CallOp call) {
  // A callee that writes a team argument: the caller's copies and
  // gathers of it are not seen by the write (partitionWrite's checks run
  // in the callee only).
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (callee && !callee.isExternal()) {
    WalkResult walk = callee.walk([&](WriteOp write) {
      BlockArgument arg = getWrittenArgument(write, callee);
      if (arg && isSplit(call.getOperand(arg.getArgNumber())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return call.emitOpError("passes a team tensor to a function that "
                              "writes it (out=); on a team, write in the "
                              "function that holds the tensor, or return "
                              "the new value");
  }
  for (Value r : call.getResults())
    localize(r);
  return success();
}

/// A process deletes its block and the gathered copy of it that this block
/// shares (later ops cannot use it: the delete's verifier saw to that).
void TeamPartitioner::partitionDelete(DeleteOp op) {
  Value source = op.getSource();
  Value whole = gathered.lookup({source, op->getBlock()});
  if (!whole)
    return;
  gathered.erase({source, op->getBlock()});
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  DeleteOp::create(b, op.getLoc(), whole);
}

/// shape, size and rank of a split tensor are its global ones: the block's,
/// with the first dim's size summed over the team (or static).
void TeamPartitioner::partitionShapeQuery(Operation *op) {
  Value source = op->getOperand(0);
  OpBuilder b(op);
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  if (auto shape = dyn_cast<ShapeOp>(op)) {
    Value rows = globalRows(b, loc, source);
    shape.getSizes().front().replaceAllUsesExcept(rows, rows.getDefiningOp());
    return;
  }
  if (auto size = dyn_cast<SizeOp>(op)) {
    auto rank = cast<PTensorType>(source.getType()).getRank();
    SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    Value count = globalCountIndex(b, loc, source, dims);
    size.getResult().replaceAllUsesWith(count);
    size.erase();
  }
  // rank: the block's is the tensor's.
}

/// Every other op (unique all and inverse, a
/// contraction without an operand split like its result): the split
/// operands are gathered, every process computes the whole result and
/// keeps its block. Correct for any
/// op, at the price of moving whole tensors (docs/Teams.md says which ops
/// have a partitioned form instead).
LogicalResult TeamPartitioner::partitionWhole(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  for (OpOperand &operand : op->getOpOperands())
    if (isSplit(operand.get()))
      operand.set(gather(b, loc, operand.get()));
  b.setInsertionPointAfter(op);
  for (Value result : op->getResults()) {
    auto global = dyn_cast<PTensorType>(result.getType());
    if (!global || !global.getTeam())
      continue;
    result.setType(wholeType(global));
    if (global.getRank() == 0) {
      globalTypes[result] = global;
      continue;
    }
    Value local = block(b, loc, result, global);
    result.replaceAllUsesExcept(local, local.getDefiningOp());
  }
  return success();
}

namespace {

struct PartitionTeamsPass
    : public mlir::ptensor::impl::PTensorPartitionTeamsBase<PartitionTeamsPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Rewrites the body of `f` op by op.
LogicalResult partitionFunction(TeamPartitioner &partitioner, func::FuncOp f) {
  for (BlockArgument arg : f.getArguments())
    partitioner.localize(arg);
  SmallVector<Operation *> ops;
  f.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    ops.push_back(op);
    // Bodies of pointwise ops compute scalars.
    return isa<PointwiseOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  for (Operation *op : ops)
    if (failed(partitioner.partitionOp(op)))
      return failure();
  return success();
}

/// With one process a team tensor is the whole tensor.
void dropTeams(func::FuncOp f) {
  auto drop = [](Value v) {
    if (hasTeam(v.getType()))
      v.setType(wholeType(cast<PTensorType>(v.getType())));
  };
  f.walk([&](Block *block) { llvm::for_each(block->getArguments(), drop); });
  f.walk([&](Operation *op) { llvm::for_each(op->getResults(), drop); });
}

} // namespace

void PartitionTeamsPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Which teams the module uses.
  std::set<int64_t> teams;
  module.walk([&](Operation *op) {
    auto note = [&](Type t) {
      if (auto pt = dyn_cast<PTensorType>(t); pt && pt.getTeam())
        teams.insert(pt.getTeam().getInt());
    };
    llvm::for_each(op->getResultTypes(), note);
    if (auto f = dyn_cast<func::FuncOp>(op))
      llvm::for_each(f.getArgumentTypes(), note);
  });
  if (teams.empty())
    return;
  if (teams != std::set<int64_t>{1}) {
    module.emitError() << "team " << *llvm::find_if(teams, [](int64_t t) {
      return t != 1;
    }) << ": only team 1 (all processes of the MPI job) is supported yet";
    return signalPassFailure();
  }
  if (teamSize < 1) {
    module.emitError() << "team-size must be at least 1, got " << teamSize;
    return signalPassFailure();
  }
  auto functions = llvm::to_vector(module.getOps<func::FuncOp>());
  FlatSymbolRefAttr grid;
  if (teamSize > 1) {
    OpBuilder b(module.getBodyRegion());
    auto gridOp = shard::GridOp::create(b, module.getLoc(), kTeamGrid,
                                        ArrayRef<int64_t>{teamSize});
    gridOp.setPrivate();
    grid = FlatSymbolRefAttr::get(gridOp.getSymNameAttr());
  }
  TeamPartitioner partitioner(grid, teamSize);
  for (func::FuncOp f : functions) {
    if (teamSize == 1)
      dropTeams(f);
    else if (failed(partitionFunction(partitioner, f)))
      return signalPassFailure();
    SmallVector<Type> args, results;
    if (f.isExternal()) {
      auto convert = [&](Type t) -> Type {
        if (!hasTeam(t))
          return t;
        auto pt = cast<PTensorType>(t);
        return teamSize == 1 ? wholeType(pt) : blockType(pt);
      };
      args = llvm::map_to_vector(f.getArgumentTypes(), convert);
      results = llvm::map_to_vector(f.getResultTypes(), convert);
    } else {
      args = llvm::to_vector(f.getBody().getArgumentTypes());
      results = llvm::to_vector(
          f.getBody().back().getTerminator()->getOperandTypes());
    }
    f.setType(FunctionType::get(&getContext(), args, results));
  }
}
