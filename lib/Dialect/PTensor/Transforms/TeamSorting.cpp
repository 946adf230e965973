//===- TeamSorting.cpp - sort and argsort of team tensors -----------------===//
//
// Sorts of split tensors (docs/Teams.md):
//   - along the split dim of a tensor of rank >= 2: the split dim is moved
//     last (a resplit: each process gets whole lines), the lines are sorted
//     on the block, and moved back (a resplit again);
//   - of a split 1-D tensor: a sample sort. Each
//     process sorts its block and takes up to P evenly spaced samples of it
//     (P processes); the samples are gathered (at most P * P values), every
//     process sorts them alike and picks the same P - 1 splitters; each
//     cuts its sorted block at the splitters (searchsorted, in ptensor's
//     own order: NaNs, -0.0 and descending as a one-process sort), sends
//     run p to process p (team_exchange), merges the sorted runs it
//     received (the sort's `runs` hint: the host sort merges them instead
//     of sorting) and the parts are rebalanced into blocks. Equal
//     elements all go to one
//     process, runs arrive in rank order and every sort is the op's own,
//     so a stable sort stays stable across the team. argsort sorts
//     the block's positions, carries each element's global position beside
//     it through the exchange, and takes those in the order of the
//     received elements.
//
//===----------------------------------------------------------------------===//

#include "PartitionTeams.h"

#include "ptensor/Semantics/Teams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ptensor;
using ::ptensor::semantics::kTeamSplitDim;

namespace {
/// The order of a sort or argsort.
struct SortOrder {
  bool descending, stable;
};
} // namespace

static SortOrder orderOf(Operation *op) {
  if (auto sort = dyn_cast<SortValuesOp>(op))
    return {sort.getDescending(), sort.getStable()};
  auto argsort = cast<ArgsortOp>(op);
  return {argsort.getDescending(), argsort.getStable()};
}

bool TeamPartitioner::sortsAlongRows(Operation *op) const {
  if (!isa<SortValuesOp, ArgsortOp>(op) || !isSplit(op->getOperand(0)))
    return false;
  int64_t rank = globalOf(op->getOperand(0)).getRank();
  return rank >= 2 && sortAxis(op, rank) == kTeamSplitDim;
}

void TeamPartitioner::partitionSortAlongRows(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value input = op->getOperand(0);
  PTensorType global = globalOf(input);
  auto resultGlobal = cast<PTensorType>(op->getResult(0).getType());
  int64_t rank = global.getRank();
  // The split dim moved last (a resplit: each process gets whole columns),
  // sorted there on the block, and moved back (a resplit again).
  SmallVector<int64_t> toLast, back{rank - 1};
  for (int64_t d = 1; d < rank; ++d) {
    toLast.push_back(d);
    back.push_back(d - 1);
  }
  toLast.push_back(0);
  auto permuted = [&](PTensorType t) {
    SmallVector<int64_t> shape;
    for (int64_t d : toLast)
      shape.push_back(t.getDimSize(d));
    return t.cloneWithShapeAndType(shape, t.getElementType());
  };
  auto moveOut = PermuteDimsOp::create(b, loc, permuted(global), input,
                                       b.getDenseI64ArrayAttr(toLast));
  Value columns = partitionPermute(moveOut);
  Type sortedType = permuted(resultGlobal);
  SortOrder order = orderOf(op);
  Value sorted =
      isa<SortValuesOp>(op)
          ? SortValuesOp::create(b, loc, sortedType, columns, rank - 1,
                                 order.descending, order.stable,
                                 /*runs=*/Value())
                .getResult()
          : ArgsortOp::create(b, loc, sortedType, columns, rank - 1,
                              order.descending, order.stable,
                              /*runs=*/Value())
                .getResult();
  localize(sorted); // along a dim every process has whole
  auto moveBack = PermuteDimsOp::create(b, loc, resultGlobal, sorted,
                                        b.getDenseI64ArrayAttr(back));
  Value result = partitionPermute(moveBack);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

bool TeamPartitioner::sortsSplitLine(Operation *op) const {
  if (!isa<SortValuesOp, ArgsortOp>(op) || !isSplit(op->getOperand(0)))
    return false;
  return globalOf(op->getOperand(0)).getRank() == 1;
}

/// The first `count` elements of 1-D `line` (a view).
static Value leading(OpBuilder &b, Location loc, Value line, Value count) {
  return ExtractSliceOp::create(b, loc, line, ValueRange{count},
                                b.getDenseI64ArrayAttr({0}),
                                b.getDenseI64ArrayAttr({ShapedType::kDynamic}),
                                b.getDenseI64ArrayAttr({1}));
}

/// Of 1-D `line` (`size` elements), the last element of each of `parts`
/// equal runs of `size / parts` elements (at least one: every element
/// when there are fewer than `parts`), so min(parts, size) of them: the
/// elements at (i + 1) * step - 1. Views of `line`: its first runs
/// reshaped into rows, flipped, the first column.
static Value evenlySpaced(OpBuilder &b, Location loc, Value line, Value size,
                          int64_t parts) {
  Value partCount = arith::ConstantIndexOp::create(b, loc, parts);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value share = arith::DivSIOp::create(b, loc, size, partCount);
  Value step = arith::MaxSIOp::create(b, loc, share, one);
  Value picks = arith::MinSIOp::create(b, loc, size, partCount);
  Value used = arith::MulIOp::create(b, loc, picks, step);
  int64_t dynamic = ShapedType::kDynamic;
  Value head = leading(b, loc, line, used);
  auto lineType = cast<PTensorType>(line.getType());
  auto runsType = lineType.cloneWithShapeAndType({dynamic, dynamic},
                                                 lineType.getElementType());
  auto runs = ReshapeOp::create(b, loc, runsType, head, ValueRange{picks, step},
                                b.getDenseI64ArrayAttr({dynamic, dynamic}),
                                /*copy=*/nullptr);
  auto lastFirst = FlipOp::create(b, loc, runs, b.getDenseI64ArrayAttr({1}));
  auto column = ExtractSliceOp::create(
      b, loc, lastFirst, ValueRange{picks}, b.getDenseI64ArrayAttr({0, 0}),
      b.getDenseI64ArrayAttr({dynamic, 1}), b.getDenseI64ArrayAttr({1, 1}));
  return SqueezeOp::create(b, loc, column, b.getDenseI64ArrayAttr({1}));
}

/// 1-D `line` sorted in `order` (its type); `runEnds` (or null) is the
/// sort's hint of where sorted runs of it end.
static Value sortLine(OpBuilder &b, Location loc, Value line, SortOrder order,
                      Value runEnds = Value()) {
  return SortValuesOp::create(b, loc, line.getType(), line, 0,
                              order.descending, order.stable, runEnds);
}

/// The positions that sort 1-D `line` in `order` (argsort's, i64), with
/// the hint `runEnds` as sortLine's.
static Value sortingPositions(OpBuilder &b, Location loc, Value line,
                              SortOrder order, Value runEnds = Value()) {
  auto type = cast<PTensorType>(line.getType());
  Type positions =
      type.cloneWithShapeAndType(type.getShape(), b.getI64Type());
  return ArgsortOp::create(b, loc, positions, line, 0, order.descending,
                           order.stable, runEnds);
}

/// The elements of 1-D `line` at `positions` (take).
static Value takeAt(OpBuilder &b, Location loc, Value line, Value positions) {
  return TakeOp::create(b, loc, line, positions, /*axis=*/IntegerAttr());
}

/// Where sorted 1-D `block` (`rows` elements, in the order: `descending`
/// or not) is cut for the processes: end p is the number of its elements
/// that go to processes 0 to p, those not after `splitters[p]` in the
/// order (ties with a splitter go to its process, on every process alike).
static Value runEnds(OpBuilder &b, Location loc, bool descending, Value block,
                     Value rows, Value splitters) {
  if (!descending)
    return SearchsortedOp::create(b, loc, SearchSide::right, block, splitters,
                                  /*sorter=*/Value());
  // Descending: the elements not after a splitter are those not less than
  // it in ascending order, all but the ones the reversed block has before
  // it.
  auto ascending = FlipOp::create(b, loc, block, b.getDenseI64ArrayAttr({0}));
  Value less = SearchsortedOp::create(b, loc, SearchSide::left, ascending,
                                      splitters, /*sorter=*/Value());
  Value total = arith::IndexCastOp::create(b, loc, b.getI64Type(), rows);
  return binary(b, loc, BinaryOpKind::subtract, total, less);
}

TeamPartitioner::SampleRuns
TeamPartitioner::exchangeRuns(OpBuilder &b, Location loc, Value sorted,
                              Value carried, bool descending) {
  SortOrder order{descending, /*stable=*/true};
  Type lineType = sorted.getType();
  Value mine = DimOp::create(b, loc, sorted, kTeamSplitDim);
  Value samples = evenlySpaced(b, loc, sorted, mine, teamSize);
  Value allRows = partRows(b, loc, samples);
  Value all = TeamGatherOp::create(b, loc, lineType, samples, allRows, grid);
  Value allSorted = sortLine(b, loc, all, order);
  // Every process picks the same splitters: the last of each of P runs of
  // the sorted samples but the last run's (the rest of the values).
  Value picks = evenlySpaced(b, loc, allSorted, allRows, teamSize);
  Value pickCount = DimOp::create(b, loc, picks, kTeamSplitDim);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value fewer = arith::SubIOp::create(b, loc, pickCount, one);
  Value splitterCount = arith::MaxSIOp::create(b, loc, fewer, zero);
  Value splitters = leading(b, loc, picks, splitterCount);
  Value ends = runEnds(b, loc, descending, sorted, mine, splitters);
  // Where the received runs end: P of them, whatever was sent.
  auto endsType = cast<PTensorType>(ends.getType());
  Type runEndsType =
      endsType.cloneWithShapeAndType({teamSize}, b.getI64Type());
  SampleRuns runs;
  auto exchange = TeamExchangeOp::create(b, loc, lineType, runEndsType, sorted,
                                         ends, grid);
  runs.received = exchange.getResult();
  runs.runEnds = exchange.getRunEnds();
  if (carried)
    runs.carried = TeamExchangeOp::create(b, loc, carried.getType(),
                                          runEndsType, carried, ends, grid)
                       .getResult();
  return runs;
}

void TeamPartitioner::partitionSampleSort(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value input = op->getOperand(0);
  SortOrder order = orderOf(op);
  bool positions = isa<ArgsortOp>(op);
  Value rows = globalRows(b, loc, input);
  // The block sorted, and for argsort each element's global position
  // (its position in the block plus the block's first row).
  Value sorted, global;
  if (positions) {
    Value local = sortingPositions(b, loc, input, order);
    sorted = takeAt(b, loc, input, local);
    Value start = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                             blockStart(b, loc, input));
    global = binary(b, loc, BinaryOpKind::add, local, start);
  } else {
    sorted = sortLine(b, loc, input, order);
  }
  SampleRuns runs = exchangeRuns(b, loc, sorted, global, order.descending);
  // What arrived, sorted runs in rank order, merged: equal elements keep
  // the runs' order, which is their global order.
  Value part;
  if (positions) {
    Value inOrder =
        sortingPositions(b, loc, runs.received, order, runs.runEnds);
    part = takeAt(b, loc, runs.carried, inOrder);
  } else {
    part = sortLine(b, loc, runs.received, order, runs.runEnds);
  }
  auto resultGlobal = cast<PTensorType>(op->getResult(0).getType());
  op->getResult(0).replaceAllUsesWith(
      rebalance(b, loc, part, resultGlobal, rows));
  op->erase();
}

void TeamPartitioner::partitionUniqueCounts(UniqueOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  // The block's elements in row-major order (a view: the block is
  // contiguous rows of the input's row-major order), sorted and exchanged
  // as a sample sort does: every copy of a value reaches one process.
  auto blockTypeOfInput = cast<PTensorType>(op.getInput().getType());
  auto flatType = blockTypeOfInput.cloneWithShapeAndType(
      {ShapedType::kDynamic}, blockTypeOfInput.getElementType());
  Value flat = ReshapeOp::create(b, loc, flatType, op.getInput(), ValueRange{},
                                 b.getDenseI64ArrayAttr({-1}),
                                 /*copy=*/nullptr);
  SortOrder ascending{/*descending=*/false, /*stable=*/true};
  Value sorted = sortLine(b, loc, flat, ascending);
  SampleRuns runs = exchangeRuns(b, loc, sorted, Value(), false);
  // Each process's values are distinct from every other's and follow them
  // in rank order: the parts of the results, rebalanced into blocks.
  auto local = UniqueOp::create(b, loc, op.getKindAttr(), runs.received);
  Value rows = partRows(b, loc, local.getResults().front());
  for (auto [result, part] : llvm::zip_equal(op.getResults(),
                                             local.getResults())) {
    auto global = cast<PTensorType>(result.getType());
    result.replaceAllUsesWith(rebalance(b, loc, part, global, rows));
  }
  op.erase();
}
