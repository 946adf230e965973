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

/// The f32 value whose rounded bits `low` (truncF32ToBF16's arith.trunci)
/// holds: the operand of the NaN test choosing them; null if the form is
/// not the one truncF32ToBF16 builds.
Value roundedInput(arith::TruncIOp low) {
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
    SmallVector<arith::TruncIOp> bits;
    getOperation().walk([&](Operation *op) {
      if (!op->hasAttr(ptensor::kBF16RoundingAttrName))
        return;
      if (auto rounding = dyn_cast<arith::BitcastOp>(op))
        roundings.push_back(rounding);
      else if (auto low = dyn_cast<arith::TruncIOp>(op))
        bits.push_back(low);
    });
    // The whole rounding, to bf16.
    for (arith::BitcastOp rounding : roundings) {
      auto low = rounding.getIn().getDefiningOp<arith::TruncIOp>();
      Value input = roundedInput(low);
      if (!input)
        continue;
      OpBuilder b(rounding);
      Value native = arith::TruncFOp::create(b, rounding.getLoc(),
                                             b.getBF16Type(), input);
      rounding.replaceAllUsesWith(native);
      rounding.erase();
    }
    // Rounded bits used as bits: a bf16 intermediate of a fused body,
    // widened again on the bits (the bitcasts to bf16 and back folded).
    for (arith::TruncIOp low : bits) {
      Value input = roundedInput(low);
      if (!input || low->use_empty())
        continue;
      OpBuilder b(low);
      Value native =
          arith::TruncFOp::create(b, low.getLoc(), b.getBF16Type(), input);
      Value nativeBits =
          arith::BitcastOp::create(b, low.getLoc(), low.getType(), native);
      low.replaceAllUsesWith(nativeBits);
      low.erase();
    }
  }
};

} // namespace
