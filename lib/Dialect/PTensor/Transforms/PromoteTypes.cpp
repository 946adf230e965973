//===- PromoteTypes.cpp - explicit casts to the computation dtype ---------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORPROMOTETYPES
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// The dtype `op` computes in, or null when it needs no promotion.
static Type getComputeDType(Operation *op) {
  auto resultDType = [&]() {
    return cast<PTensorType>(op->getResult(0).getType()).getElementType();
  };
  auto commonDType = [&](ValueRange operands) {
    FailureOr<PTensorType> t = inferElementwiseType(
        op->getContext(), std::nullopt, operands.getTypes(),
        PromotionMethod::DEFAULT);
    return succeeded(t) ? t->getElementType() : Type();
  };
  return llvm::TypeSwitch<Operation *, Type>(op)
      .Case<ElementwiseUnaryOp, ElementwiseBinaryOp>(
          [&](auto) { return getComputeType(resultDType()); })
      // Unary predicates test the value as stored (no opmath).
      .Case<ElementwiseUnaryTestOp>([](auto) { return Type(); })
      .Case<ElementwiseBinaryTestOp>([&](auto) {
        Type common = commonDType(op->getOperands());
        return common ? getComputeType(common) : Type();
      })
      .Case<WhereOp>([&](auto) { return resultDType(); })
      .Default([](Operation *) { return Type(); });
}

/// Rewrites `op` so that its operands (but a `where` condition) have dtype
/// `compute`, re-infers its result and casts the result back if needed.
static void promote(Operation *op, Type compute) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  bool changed = false;
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    bool isCondition = isa<WhereOp>(op) && operand.getOperandNumber() == 0;
    if (auto pt = dyn_cast<PTensorType>(v.getType())) {
      if (!isCondition && pt.getElementType() != compute) {
        v = CastOp::create(b, loc, pt.cloneWithShapeAndType(pt.getShape(), compute),
                           v);
        changed = true;
      }
    } else if (v.getType() != getStorageType(compute)) {
      v = convertScalar(b, loc, v, v.getType(), compute);
      changed = true;
    }
    operands.push_back(v);
  }
  if (!changed)
    return;
  Operation *promoted = b.clone(*op);
  promoted->setOperands(operands);
  SmallVector<Type> types;
  auto iface = cast<InferTypeOpInterface>(promoted);
  if (failed(iface.inferReturnTypes(
          op->getContext(), loc, operands, promoted->getAttrDictionary(),
          promoted->getPropertiesStorage(), promoted->getRegions(), types))) {
    promoted->erase();
    return;
  }
  promoted->getResult(0).setType(types[0]);
  Value result = promoted->getResult(0);
  Type original = op->getResult(0).getType();
  if (result.getType() != original)
    result = CastOp::create(b, loc, original, result);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

namespace {
struct PTensorPromoteTypesPass
    : public ptensor::impl::PTensorPromoteTypesBase<PTensorPromoteTypesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, Type>> work;
    getOperation()->walk([&](Operation *op) {
      if (Type compute = getComputeDType(op))
        work.push_back({op, compute});
    });
    for (auto [op, compute] : work)
      promote(op, compute);
  }
};
} // namespace
