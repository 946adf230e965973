//===- TeamReductions.cpp - reductions over the split dim of a team -------===//
//
// A reduction whose reduced dims include the split first dim reduces each
// process's block and combines the partial results (docs/Teams.md):
//   sum, prod     partials accumulated in f64 for floats (the one-process
//                 accumulator), one all-reduce, one rounding to the result;
//   any, all      one all-reduce (max / min of the bytes);
//   max, min      partials gathered along a new first dim and reduced
//                 again, so NaNs propagate as on one process (MPI's MAX
//                 is not NaN-aware);
//   mean, var,    the global count, f64 sums all-reduced; var/std take a
//   std           second pass over the block against the global mean;
//   argmax,       local extremum and global index gathered, the first
//   argmin        process holding the extremum wins (blocks are in row
//                 order, so first occurrences stay first).
// Empty blocks give the kind's identity (kTeamPartialAttrName); reduced
// dims with no element in all (the global count, the same on every
// process) fail at run time like a one-process reduction.
//
//===----------------------------------------------------------------------===//

#include "PartitionTeams.h"

#include "ptensor/Dialect/PTensor/IR/ReductionKinds.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"
#include "ptensor/Semantics/Teams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

/// `t` with element type `element`.
static PTensorType withElement(PTensorType t, Type element) {
  return PTensorType::get(t.getContext(), t.getShape(), element,
                          t.getDevice(), t.getTeam());
}

/// A copy of reduction `op` before it, on its (local) operand, with result
/// type `type`, marked as a team partial.
static Operation *clonePartial(OpBuilder &b, Operation *op, Type type) {
  Operation *partial = b.clone(*op);
  partial->getResult(0).setType(type);
  partial->setAttr(kTeamPartialAttrName, b.getUnitAttr());
  return partial;
}

/// A reduction of `input` over `axes` (all of them when nullopt).
static Value reduce(OpBuilder &b, Location loc, ReduceKind kind, Value input,
                    std::optional<ArrayRef<int64_t>> axes, bool keepdims,
                    Type dtype = {}) {
  return ReduceOp::create(b, loc, ReduceKindAttr::get(b.getContext(), kind),
                          input,
                          axes ? b.getDenseI64ArrayAttr(*axes)
                               : DenseI64ArrayAttr(),
                          b.getBoolAttr(keepdims),
                          dtype ? TypeAttr::get(dtype) : TypeAttr(),
                          b.getF64FloatAttr(0.0));
}

/// `v` (index) as an f64 or i64 scalar.
static Value indexTo(OpBuilder &b, Location loc, Value v, Type type) {
  Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  if (type.isInteger(64))
    return i64;
  return arith::SIToFPOp::create(b, loc, type, i64);
}

/// `v` with a new size-1 first dim.
static Value expandFront(OpBuilder &b, Location loc, Value v) {
  return ExpandDimsOp::create(b, loc, v, b.getI64IntegerAttr(0));
}

Value TeamPartitioner::gatherAlongNewDim(OpBuilder &b, Location loc,
                                         Value v) {
  Value row = expandFront(b, loc, v);
  auto rowType = cast<PTensorType>(row.getType());
  SmallVector<int64_t> shape(rowType.getShape());
  shape.front() = teamSize;
  auto gatheredType =
      rowType.cloneWithShapeAndType(shape, rowType.getElementType());
  Value processes = arith::ConstantIndexOp::create(b, loc, teamSize);
  return TeamGatherOp::create(b, loc, gatheredType, row, processes, grid);
}

Value TeamPartitioner::gatherReduce(OpBuilder &b, Location loc, Value partial,
                                    ReduceKind kind) {
  Value gathered = gatherAlongNewDim(b, loc, partial);
  return reduce(b, loc, kind, gathered, ArrayRef<int64_t>{0},
                /*keepdims=*/false);
}

void TeamPartitioner::checkNotEmpty(OpBuilder &b, Location loc, Operation *op,
                                    Value input) {
  std::optional<ReductionInfo> info = getReductionInfo(op);
  PTensorType global = globalOf(input);
  if (llvm::none_of(info->dims,
                    [&](int64_t d) { return global.isDynamicDim(d); }))
    return; // a static empty axis is a verifier error
  // The global count is the same on every process: all fail together.
  Value count = globalCountIndex(b, loc, input, info->dims);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value ok =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count, zero);
  cf::AssertOp::create(b, loc, ok, sem::emptyReductionMessage(info->kind));
}

Value TeamPartitioner::globalCount(OpBuilder &b, Location loc, Value input,
                                   ArrayRef<int64_t> dims) {
  return indexTo(b, loc, globalCountIndex(b, loc, input, dims),
                 b.getF64Type());
}

Value TeamPartitioner::globalCountIndex(OpBuilder &b, Location loc,
                                        Value input, ArrayRef<int64_t> dims) {
  auto local = cast<PTensorType>(input.getType());
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d : dims) {
    Value size;
    if (d == 0)
      size = globalRows(b, loc, input);
    else if (local.isDynamicDim(d))
      size = DimOp::create(b, loc, input, d);
    else
      size = arith::ConstantIndexOp::create(b, loc, local.getDimSize(d));
    count = arith::MulIOp::create(b, loc, count, size);
  }
  return count;
}

Value TeamPartitioner::combineSum(OpBuilder &b, Location loc, Operation *op) {
  auto global = cast<PTensorType>(op->getResult(0).getType());
  Type dtype = global.getElementType();
  bool isFloat = isa<FloatType>(dtype);
  PTensorType whole = wholeType(global);
  PTensorType partialType =
      isFloat ? withElement(whole, b.getF64Type()) : whole;
  // A float result is summed in f64 partials: each element is first cast
  // to the result dtype (a requested one may round it), as on one process.
  Value input = op->getOperand(0);
  auto local = cast<PTensorType>(input.getType());
  Value castInput;
  if (isFloat && local.getElementType() != dtype)
    castInput = CastOp::create(b, loc, withElement(local, dtype), input);
  Operation *partial = clonePartial(b, op, partialType);
  if (castInput)
    partial->setOperand(0, castInput);
  if (isFloat)
    partial->setAttr("dtype", TypeAttr::get(b.getF64Type()));
  bool isSum = cast<ReduceOp>(op).getKind() == ReduceKind::sum;
  // A bool sum (dtype = i1) is a logical or, a bool product an and: the
  // max and min of the bytes.
  TeamReduceKind kind = isSum ? TeamReduceKind::sum : TeamReduceKind::prod;
  if (dtype.isInteger(1))
    kind = isSum ? TeamReduceKind::max : TeamReduceKind::min;
  Value total = TeamAllReduceOp::create(
      b, loc, partialType, partial->getResult(0),
      TeamReduceKindAttr::get(b.getContext(), kind), grid);
  if (partialType == whole)
    return total;
  return CastOp::create(b, loc, whole, total);
}

Value TeamPartitioner::combineExtremum(OpBuilder &b, Location loc,
                                       Operation *op, ReduceKind kind) {
  Value input = op->getOperand(0);
  checkNotEmpty(b, loc, op, input);
  auto global = cast<PTensorType>(op->getResult(0).getType());
  Operation *partial = clonePartial(b, op, wholeType(global));
  return gatherReduce(b, loc, partial->getResult(0), kind);
}

Value TeamPartitioner::combineTest(OpBuilder &b, Location loc, TestOp op) {
  auto global = cast<PTensorType>(op.getType());
  Operation *partial = clonePartial(b, op, wholeType(global));
  auto kind = op.getKind() == TestKind::any ? TeamReduceKind::max
                                            : TeamReduceKind::min;
  return TeamAllReduceOp::create(b, loc, wholeType(global),
                                 partial->getResult(0),
                                 TeamReduceKindAttr::get(b.getContext(), kind),
                                 grid);
}

/// mean = sum / count; var = sum((x - mean)^2) / max(count - correction, 0)
/// (two passes, like numpy); std = sqrt(var); in f64, rounded once.
Value TeamPartitioner::combineMoments(OpBuilder &b, Location loc, ReduceOp op) {
  Value input = op.getInput();
  std::optional<ReductionInfo> info = getReductionInfo(op);
  Type f64 = b.getF64Type();
  auto teamSum = [&](Value partial) -> Value {
    return TeamAllReduceOp::create(
        b, loc, partial.getType(), partial,
        TeamReduceKindAttr::get(b.getContext(), TeamReduceKind::sum), grid);
  };
  Value x = input;
  auto local = cast<PTensorType>(input.getType());
  if (local.getElementType() != f64)
    x = CastOp::create(b, loc, withElement(local, f64), input);
  SmallVector<int64_t> dims(info->dims);
  Value count = globalCount(b, loc, input, dims);
  Value sum = teamSum(reduce(b, loc, ReduceKind::sum, x, ArrayRef(dims), true));
  Value result = binary(b, loc, BinaryOpKind::divide, sum, count);
  if (op.getKind() != ReduceKind::mean) {
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < local.getRank(); ++d)
      if (local.isDynamicDim(d))
        sizes.push_back(DimOp::create(b, loc, input, d));
    Value mean = BroadcastOp::create(b, loc, x.getType(), result, sizes);
    Value deviation = binary(b, loc, BinaryOpKind::subtract, x, mean);
    Value square = binary(b, loc, BinaryOpKind::multiply, deviation, deviation);
    Value squares =
        teamSum(reduce(b, loc, ReduceKind::sum, square, ArrayRef(dims), true));
    Value divisor = buildVarianceDivisor(
        b, loc, count, op.getCorrection().convertToDouble());
    result = binary(b, loc, BinaryOpKind::divide, squares, divisor);
    if (op.getKind() == ReduceKind::std)
      result = ElementwiseUnaryOp::create(
          b, loc, UnaryOpKindAttr::get(b.getContext(), UnaryOpKind::sqrt),
          result);
  }
  if (!info->keepdims)
    result = SqueezeOp::create(b, loc, result, b.getDenseI64ArrayAttr(dims));
  PTensorType whole = wholeType(op.getType());
  if (whole.getElementType() != f64)
    result = CastOp::create(b, loc, whole, result);
  return result;
}

/// The local extremum and its global index on every process, gathered; the
/// first process holding the extremum gives the index.
Value TeamPartitioner::combineFindIndex(OpBuilder &b, Location loc,
                                        FindIndexOp op) {
  Value input = op.getInput();
  checkNotEmpty(b, loc, op, input);
  auto local = cast<PTensorType>(input.getType());
  bool flattened = !op.getAxis().has_value();
  ReduceKind extremum =
      op.getKind() == FindIndexKind::argmax ? ReduceKind::max : ReduceKind::min;
  // Local extremum and index, without keepdims (restored at the end).
  std::optional<ArrayRef<int64_t>> axes;
  int64_t firstAxis = 0;
  if (!flattened)
    axes = ArrayRef<int64_t>(firstAxis);
  Value value = reduce(b, loc, extremum, input, axes, false);
  value.getDefiningOp()->setAttr(kTeamPartialAttrName, b.getUnitAttr());
  auto index = FindIndexOp::create(
      b, loc, FindIndexKindAttr::get(b.getContext(), op.getKind()), input,
      op.getAxisAttr(), b.getBoolAttr(false));
  index->setAttr(kTeamPartialAttrName, b.getUnitAttr());
  // The global index: the block's first row, times the row's elements when
  // the index is into the flattened tensor.
  Value offset = blockStart(b, loc, input);
  if (flattened)
    for (int64_t d = 1; d < local.getRank(); ++d) {
      Value size = local.isDynamicDim(d)
                       ? DimOp::create(b, loc, input, d).getResult()
                       : arith::ConstantIndexOp::create(b, loc,
                                                        local.getDimSize(d))
                             .getResult();
      offset = arith::MulIOp::create(b, loc, offset, size);
    }
  Value globalIndex = binary(b, loc, BinaryOpKind::add, index,
                             indexTo(b, loc, offset, b.getI64Type()));
  // Gathered along a new first dim (one row per process).
  Value values = gatherAlongNewDim(b, loc, value);
  Value indices = gatherAlongNewDim(b, loc, globalIndex);
  // The winning process of each element, as a one-hot mask over processes.
  Value winner = FindIndexOp::create(
      b, loc, FindIndexKindAttr::get(b.getContext(), op.getKind()), values,
      b.getI64IntegerAttr(0), b.getBoolAttr(false));
  auto indicesType = cast<PTensorType>(indices.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < indicesType.getRank(); ++d)
    if (indicesType.isDynamicDim(d))
      sizes.push_back(DimOp::create(b, loc, indices, d));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value processes = arith::ConstantIndexOp::create(b, loc, teamSize);
  auto rankType = PTensorType::get(b.getContext(), {teamSize},
                                   b.getI64Type(), local.getDevice(), nullptr);
  Value ranks = ArangeOp::create(b, loc, rankType, zero, processes, one);
  for (int64_t d = 1; d < indicesType.getRank(); ++d)
    ranks = ExpandDimsOp::create(b, loc, ranks, b.getI64IntegerAttr(d));
  Value ranksB = BroadcastOp::create(b, loc, indicesType, ranks, sizes);
  Value winnerB =
      BroadcastOp::create(b, loc, indicesType, expandFront(b, loc, winner),
                          sizes);
  Value isWinner = ElementwiseBinaryTestOp::create(
      b, loc, BinaryTestKindAttr::get(b.getContext(), BinaryTestKind::equal),
      ranksB, winnerB);
  Value mask = CastOp::create(b, loc, indicesType, isWinner);
  Value picked = binary(b, loc, BinaryOpKind::multiply, mask, indices);
  Value result =
      reduce(b, loc, ReduceKind::sum, picked, ArrayRef<int64_t>{0}, false);
  if (op.getKeepdims()) {
    int64_t keep = flattened ? local.getRank() : 1;
    for (int64_t d = 0; d < keep; ++d)
      result = expandFront(b, loc, result);
  }
  return result;
}

LogicalResult TeamPartitioner::partitionReduction(Operation *op) {
  Value input = op->getOperand(0);
  Value result = op->getResult(0);
  std::optional<ReductionInfo> info = getReductionInfo(op);
  if (!info)
    return op->emitOpError("on a team: cannot read its reduction kind");
  if (!isSplit(input) || !llvm::is_contained(info->dims, sem::kTeamSplitDim)) {
    localize(result); // the rows stay where they are
    return success();
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value whole;
  if (auto reduceOp = dyn_cast<ReduceOp>(op)) {
    switch (reduceOp.getKind()) {
    case ReduceKind::sum:
    case ReduceKind::prod:
      whole = combineSum(b, loc, op);
      break;
    case ReduceKind::max:
    case ReduceKind::min:
      whole = combineExtremum(b, loc, op, reduceOp.getKind());
      break;
    case ReduceKind::mean:
    case ReduceKind::var:
    case ReduceKind::std:
      whole = combineMoments(b, loc, reduceOp);
      break;
    }
  } else if (auto test = dyn_cast<TestOp>(op)) {
    whole = combineTest(b, loc, test);
  } else {
    whole = combineFindIndex(b, loc, cast<FindIndexOp>(op));
  }
  replaceByWhole(op, whole);
  return success();
}

void TeamPartitioner::replaceByWhole(Operation *op, Value whole) {
  Value result = op->getResult(0);
  auto global = cast<PTensorType>(result.getType());
  Value final = whole;
  if (global.getRank() > 0) {
    OpBuilder b(op);
    final = block(b, op->getLoc(), whole, global);
  } else {
    globalTypes[final] = global;
  }
  result.replaceAllUsesWith(final);
  op->erase();
}
