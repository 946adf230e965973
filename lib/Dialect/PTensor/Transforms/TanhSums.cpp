//===- TanhSums.cpp - 1 +- tanh(u) as 2 / (1 + exp(-+2u)) -----------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORTANHSUMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

/// Whether `v` is the constant `expected` (a scalar or a splat).
static bool isConstant(Value v, double expected) {
  FloatAttr scalar;
  if (matchPattern(v, m_Constant(&scalar)))
    return scalar.getValueAsDouble() == expected;
  SplatElementsAttr splat;
  if (!matchPattern(v, m_Constant(&splat)))
    return false;
  auto element = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>());
  return element && element.getValueAsDouble() == expected;
}

/// A constant `value` of the (scalar or vector) float type `type`.
static Value floatConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  FloatAttr scalar = b.getFloatAttr(getElementTypeOrSelf(type), value);
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(
        b, loc, type, SplatElementsAttr::get(shaped, Attribute(scalar)));
  return arith::ConstantOp::create(b, loc, type, scalar);
}

/// `1 + tanh(u)` (either order) or `1 - tanh(u)` -> 2 / (1 + exp(-2u)),
/// resp. 2 / (1 + exp(2u)): the tanh form loses to cancellation where
/// tanh(u) is near -1 (resp. 1), the exp form does not; on the GPU it is
/// no dearer than libdevice's tanhf.
struct OnePlusMinusTanh : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [one, other] : {std::pair(op.getLhs(), op.getRhs()),
                              std::pair(op.getRhs(), op.getLhs())}) {
      auto tanh = other.getDefiningOp<math::TanhOp>();
      if (tanh && isConstant(one, 1.0)) {
        replace(rewriter, op, tanh.getOperand(), -2.0);
        return success();
      }
    }
    return failure();
  }

  /// Replaces `op` by 2 / (1 + exp(scale * u)).
  static void replace(PatternRewriter &rewriter, Operation *op, Value u,
                      double scale) {
    Location loc = op->getLoc();
    Type type = u.getType();
    Value factor = floatConstant(rewriter, loc, type, scale);
    Value scaled = arith::MulFOp::create(rewriter, loc, factor, u);
    Value e = math::ExpOp::create(rewriter, loc, scaled);
    Value one = floatConstant(rewriter, loc, type, 1.0);
    Value denominator = arith::AddFOp::create(rewriter, loc, one, e);
    Value two = floatConstant(rewriter, loc, type, 2.0);
    // The denominator is at least 1: the chip's approximate division (a
    // reciprocal and a product, within 2 ulp; 0 for an infinite one) loses
    // nothing that matters, where a correctly rounded one takes a dozen
    // instructions.
    auto approximate = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                                     arith::FastMathFlags::afn);
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, two, denominator,
                                               approximate);
  }
};

struct OneMinusTanh : OpRewritePattern<arith::SubFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SubFOp op,
                                PatternRewriter &rewriter) const override {
    auto tanh = op.getRhs().getDefiningOp<math::TanhOp>();
    if (!tanh || !isConstant(op.getLhs(), 1.0))
      return failure();
    OnePlusMinusTanh::replace(rewriter, op, tanh.getOperand(), 2.0);
    return success();
  }
};

namespace {
struct TanhSums : mlir::ptensor::impl::PTensorTanhSumsBase<TanhSums> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OnePlusMinusTanh, OneMinusTanh>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
