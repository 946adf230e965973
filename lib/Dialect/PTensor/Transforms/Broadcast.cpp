//===- Broadcast.cpp - explicit broadcasting ------------------------------===//

#include "ptensor/Dialect/PTensor/IR/Contractions.h"
#include "ptensor/Dialect/PTensor/Transforms/Passes.h"
#include "ptensor/Dialect/PTensor/Utils/ShapeDominance.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORBROADCAST
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// True for ops whose ptensor operands are broadcast to the result shape.
static bool isBroadcasting(Operation *op) {
  return isa<ElementwiseBinaryOp, ElementwiseBinaryTestOp, WhereOp,
             PointwiseOp>(op);
}

/// The run-time sizes of the dynamic dims of `shape`, the broadcast of the
/// ptensor operands of `op`: for each such dim, the first operand size that
/// is not 1 (operand sizes there are dynamic or 1).
static SmallVector<Value> computeDynamicSizes(OpBuilder &b, Operation *op,
                                              ArrayRef<int64_t> shape) {
  Location loc = op->getLoc();
  SmallVector<Value> sizes;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    Value acc = one;
    for (Value v : op->getOperands()) {
      auto pt = dyn_cast<PTensorType>(v.getType());
      int64_t lead = shape.size() - (pt ? pt.getRank() : 0);
      if (!pt || static_cast<int64_t>(i) < lead ||
          !pt.isDynamicDim(i - lead))
        continue;
      Value d = DimOp::create(b, loc, v, i - lead);
      Value accIsOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, acc, one);
      acc = arith::SelectOp::create(b, loc, accIsOne, d, acc);
    }
    sizes.push_back(acc);
  }
  return sizes;
}

namespace sem = ::ptensor::semantics;

/// The run-time size of a dim shared by both operands of a contraction:
/// the first of the two sizes that is not 1.
static Value sharedSize(OpBuilder &b, Location loc, Value lhs, int64_t lhsDim,
                        Value rhs, int64_t rhsDim) {
  Value l = DimOp::create(b, loc, lhs, lhsDim);
  Value r = DimOp::create(b, loc, rhs, rhsDim);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lhsIsOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l, one);
  return arith::SelectOp::create(b, loc, lhsIsOne, r, l);
}

/// Broadcasts the batch dims of a contraction's operands (the result dims
/// both index) where a dynamic size could be 1 at run time while the other
/// operand's is not: such an operand becomes a `ptensor.broadcast` to the
/// result's sizes there (its own elsewhere). Static 1s need nothing: the
/// lowering reads them at index 0.
static void broadcastContractionOperands(Operation *op) {
  std::optional<sem::Contraction> c = getContraction(op);
  int64_t resultRank = c->result.size();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto lhsType = cast<PTensorType>(lhs.getType());
  auto rhsType = cast<PTensorType>(rhs.getType());
  // The rhs dim on each result loop.
  DenseMap<int64_t, int64_t> rhsDimOfLoop;
  for (auto [d, loop] : llvm::enumerate(c->rhsLoops))
    if (loop < resultRank)
      rhsDimOfLoop[loop] = d;
  // Shared dims as (lhs dim, rhs dim).
  SmallVector<std::pair<int64_t, int64_t>> shared;
  for (auto [d, loop] : llvm::enumerate(c->lhsLoops))
    if (loop < resultRank && rhsDimOfLoop.count(loop))
      shared.push_back({int64_t(d), rhsDimOfLoop[loop]});
  auto needsBroadcast = [&](PTensorType own, PTensorType other, bool isLhs) {
    return llvm::any_of(shared, [&](std::pair<int64_t, int64_t> dims) {
      auto [ownDim, otherDim] = isLhs ? dims : std::make_pair(dims.second, dims.first);
      return own.isDynamicDim(ownDim) && other.getDimSize(otherDim) != 1;
    });
  };
  bool lhsNeeds = needsBroadcast(lhsType, rhsType, true);
  bool rhsNeeds = needsBroadcast(rhsType, lhsType, false);
  if (!lhsNeeds && !rhsNeeds)
    return;
  OpBuilder b(op);
  Location loc = op->getLoc();
  // The run-time size of each shared dim, computed once for both operands.
  DenseMap<int64_t, Value> sharedSizes;
  auto sizeOf = [&](std::pair<int64_t, int64_t> dims) {
    Value &size = sharedSizes[dims.first];
    if (!size)
      size = sharedSize(b, loc, lhs, dims.first, rhs, dims.second);
    return size;
  };
  auto broadcast = [&](unsigned index, bool isLhs) {
    Value v = op->getOperand(index);
    auto type = cast<PTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      auto it = llvm::find_if(shared, [&](std::pair<int64_t, int64_t> dims) {
        return (isLhs ? dims.first : dims.second) == d;
      });
      if (it != shared.end())
        shape[d] = c->result[(isLhs ? c->lhsLoops : c->rhsLoops)[d]];
      if (!ShapedType::isDynamic(shape[d]))
        continue;
      sizes.push_back(it != shared.end() ? sizeOf(*it)
                                         : Value(DimOp::create(b, loc, v, d)));
    }
    auto target = type.cloneWithShapeAndType(shape, type.getElementType());
    op->setOperand(index, BroadcastOp::create(b, loc, target, v, sizes));
  };
  if (lhsNeeds)
    broadcast(0, true);
  if (rhsNeeds)
    broadcast(1, false);
}

namespace {
struct PTensorBroadcastPass
    : public mlir::ptensor::impl::PTensorBroadcastBase<PTensorBroadcastPass> {
  void runOnOperation() override {
    // Decide on the IR as written (inserted broadcasts would hide which
    // operand already has the result shape), then rewrite.
    SmallVector<std::pair<Operation *, SmallVector<unsigned>>> work;
    SmallVector<Operation *> contractions;
    getOperation()->walk([&](Operation *op) {
      if (isa<MatmulOp, VecdotOp, TensordotOp>(op))
        contractions.push_back(op);
      if (!isBroadcasting(op) || op->getNumResults() == 0)
        return;
      unsigned numPTensors = llvm::count_if(
          op->getOperandTypes(), [](Type t) { return isa<PTensorType>(t); });
      SmallVector<unsigned> toBroadcast;
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<PTensorType>(operand.get().getType()) ||
            operand.get().getDefiningOp<BroadcastOp>() || numPTensors == 1 ||
            hasBroadcastResultShape(op, operand.getOperandNumber()))
          continue;
        toBroadcast.push_back(operand.getOperandNumber());
      }
      if (!toBroadcast.empty())
        work.push_back({op, toBroadcast});
    });
    for (auto &[op, indices] : work) {
      auto result = cast<PTensorType>(op->getResult(0).getType());
      OpBuilder b(op);
      SmallVector<Value> dynamicSizes =
          computeDynamicSizes(b, op, result.getShape());
      for (unsigned i : indices) {
        Value v = op->getOperand(i);
        auto pt = cast<PTensorType>(v.getType());
        auto target = pt.cloneWithShapeAndType(result.getShape(),
                                               pt.getElementType());
        op->setOperand(i, BroadcastOp::create(b, op->getLoc(), target, v,
                                              dynamicSizes));
      }
    }
    for (Operation *op : contractions)
      broadcastContractionOperands(op);
  }
};
} // namespace
