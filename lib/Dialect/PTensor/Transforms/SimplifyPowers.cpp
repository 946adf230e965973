//===- SimplifyPowers.cpp - x ** 2 as x * x ---------------------------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORSIMPLIFYPOWERS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {
/// math.powf(x, 2.0) -> x * x and math.powf(x, 1.0) -> x: the same value
/// for every x (the product is rounded once, like a correctly rounded pow;
/// NaN, infinities and -0.0 included). Other exponents keep pow: x * x * x
/// rounds twice, and sqrt differs from pow(x, 0.5) at -0.0 and -inf.
struct SquareOrIdentity : OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    APFloat exponent(0.0);
    if (!matchPattern(op.getRhs(), m_ConstantFloat(&exponent)))
      return failure(); // neither a scalar nor a splat constant
    double value = FloatAttr::getValueAsDouble(exponent);
    if (value == 1.0) {
      rewriter.replaceOp(op, op.getLhs());
      return success();
    }
    if (value != 2.0)
      return failure();
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, op.getLhs(), op.getLhs(),
                                               op.getFastmathAttr());
    return success();
  }
};

struct SimplifyPowers
    : mlir::ptensor::impl::PTensorSimplifyPowersBase<SimplifyPowers> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SquareOrIdentity>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
