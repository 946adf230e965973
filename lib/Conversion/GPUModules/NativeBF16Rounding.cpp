//===- NativeBF16Rounding.cpp - the chip's f32 -> bf16 rounding in kernels ===//
//
// See Passes.td (ptensor-native-bf16-rounding).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/GPUModules/GPUModules.h"

#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORNATIVEBF16ROUNDING
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {

/// The f32 value a marked rounding (truncF32ToBF16's last op) rounds: the
/// operand of the NaN test choosing its bits; null if the form is not the
/// one truncF32ToBF16 builds.
Value roundedInput(arith::BitcastOp rounding) {
  auto low = rounding.getIn().getDefiningOp<arith::TruncIOp>();
  auto bits = low ? low.getIn().getDefiningOp<arith::SelectOp>() : nullptr;
  auto isNaN =
      bits ? bits.getCondition().getDefiningOp<arith::CmpFOp>() : nullptr;
  if (!isNaN || isNaN.getPredicate() != arith::CmpFPredicate::UNO ||
      isNaN.getLhs() != isNaN.getRhs() || !isNaN.getLhs().getType().isF32())
    return nullptr;
  return isNaN.getLhs();
}

struct PTensorNativeBF16RoundingPass
    : public mlir::ptensor::impl::PTensorNativeBF16RoundingBase<
          PTensorNativeBF16RoundingPass> {
  void runOnOperation() override {
    SmallVector<arith::BitcastOp> roundings;
    getOperation().walk([&](arith::BitcastOp op) {
      if (op->hasAttr(ptensor::kBF16RoundingAttrName))
        roundings.push_back(op);
    });
    for (arith::BitcastOp rounding : roundings) {
      Value input = roundedInput(rounding);
      if (!input)
        continue;
      OpBuilder b(rounding);
      Value native = arith::TruncFOp::create(b, rounding.getLoc(),
                                             b.getBF16Type(), input);
      rounding.replaceAllUsesWith(native);
      rounding.erase();
    }
  }
};

} // namespace
