//===- TeamContractions.cpp - matmul, vecdot, tensordot on a team ---------===//
//
// A contraction of split operands (docs/Teams.md), from the loops its
// operands' dims line up with (ptensor::semantics::Contraction):
//   - the first dims of both contracted together (vecdot of two split
//     vectors, x @ A of a split vector and matrix, tensordot over dim 0):
//     each process contracts its blocks, and the partial products are
//     summed over the team (one all-reduce of the result's size; floats in
//     f64, rounded once; f16/bf16 blocks contracted in f32, their
//     one-process accumulator; integers in their dtype, wrapping alike);
//   - an operand whose first dim is the result's (loop 0, not a single row
//     stretched over more) keeps its block, and so does the result; the
//     other operand is gathered unless it has the result's rows too (a
//     shared batch dim);
//   - else every split operand is gathered (partitionWhole).
//
//===----------------------------------------------------------------------===//

#include "PartitionTeams.h"

#include "ptensor/Dialect/PTensor/IR/Contractions.h"
#include "ptensor/Semantics/Teams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

bool TeamPartitioner::hasContractionRows(Operation *op, unsigned operand,
                                         PTensorType result) const {
  Value v = op->getOperand(operand);
  if (!isSplit(v) || result.getRank() == 0)
    return false;
  std::optional<sem::Contraction> c = getContraction(op);
  if (!c)
    return false;
  const std::vector<int64_t> &loops = operand == 0 ? c->lhsLoops : c->rhsLoops;
  PTensorType global = globalOf(v);
  bool stretched = global.getDimSize(sem::kTeamSplitDim) == 1 &&
                   result.getDimSize(sem::kTeamSplitDim) != 1;
  return loops[sem::kTeamSplitDim] == sem::kTeamSplitDim && !stretched;
}

Value TeamPartitioner::contractionRowsOperand(Operation *op,
                                              PTensorType result) const {
  for (unsigned operand : {0u, 1u})
    if (hasContractionRows(op, operand, result))
      return op->getOperand(operand);
  return {};
}

/// `v` (a block) with element type `element`: a cast, or `v` itself.
static Value castTo(OpBuilder &b, Location loc, Value v, Type element) {
  auto type = cast<PTensorType>(v.getType());
  if (type.getElementType() == element)
    return v;
  auto target = type.cloneWithShapeAndType(type.getShape(), element);
  return CastOp::create(b, loc, target, v);
}

/// Whether contraction `op` contracts the first dims of its operands with
/// each other.
static bool contractsFirstDims(Operation *op) {
  std::optional<sem::Contraction> c = getContraction(op);
  return c && llvm::is_contained(c->contracted,
                                 std::pair<int64_t, int64_t>{
                                     sem::kTeamSplitDim, sem::kTeamSplitDim});
}

void TeamPartitioner::partitionContraction(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto global = cast<PTensorType>(op->getResult(0).getType());
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (!isSplit(lhs) || !isSplit(rhs) || !contractsFirstDims(op)) {
    if (!contractionRowsOperand(op, global)) {
      (void)partitionWhole(op); // no operand has the result's rows
      return;
    }
    for (unsigned i : {0u, 1u})
      if (isSplit(op->getOperand(i)) && !hasContractionRows(op, i, global))
        op->setOperand(i, gather(b, loc, op->getOperand(i)));
    localize(op->getResult(0));
    return;
  }
  // Blocks of equal global rows line up.
  std::string message =
      ("ptensor." + getContractionName(op) +
       ": the contracted first dims of two team tensors differ (their "
       "sizes summed over the team); they must be equal")
          .str();
  checkSameGlobalRows(b, loc, lhs, rhs, message);
  Type dtype = global.getElementType();
  bool isFloat = isa<FloatType>(dtype);
  Type accumulator = dtype;
  if (isFloat && dtype.getIntOrFloatBitWidth() < 32)
    accumulator = b.getF32Type();
  Value lhsBlock = castTo(b, loc, lhs, accumulator);
  Value rhsBlock = castTo(b, loc, rhs, accumulator);
  Operation *partial = b.clone(*op);
  partial->setOperands({lhsBlock, rhsBlock});
  PTensorType whole = wholeType(global);
  partial->getResult(0).setType(
      whole.cloneWithShapeAndType(whole.getShape(), accumulator));
  Value sum = partial->getResult(0);
  if (isFloat)
    sum = castTo(b, loc, sum, b.getF64Type());
  Value total = TeamAllReduceOp::create(
      b, loc, sum.getType(), sum,
      TeamReduceKindAttr::get(b.getContext(), TeamReduceKind::sum), grid);
  replaceByWhole(op, castTo(b, loc, total, dtype));
}
