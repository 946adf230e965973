//===- TanhSums.cpp - 1 +- tanh(u) as 2 / (1 + exp(-+2u)) -----------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORTANHSUMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

/// Replaces `op` by 2 / (1 + exp(scale * u)), scalars or vectors like `u`.
static void replaceBySigmoidForm(PatternRewriter &rewriter, Operation *op,
                                 Value u, double scale) {
  Location loc = op->getLoc();
  Type type = u.getType();
  auto constant = [&](double value) {
    auto attr = cast<FloatAttr>(
        rewriter.getFloatAttr(getElementTypeOrSelf(type), value));
    return createScalarOrSplatConstant(rewriter, loc, type, attr.getValue());
  };
  Value factor = constant(scale);
  Value scaled = arith::MulFOp::create(rewriter, loc, factor, u);
  Value e = math::ExpOp::create(rewriter, loc, scaled);
  Value one = constant(1.0);
  Value denominator = arith::AddFOp::create(rewriter, loc, one, e);
  Value two = constant(2.0);
  // The denominator is at least 1: the chip's approximate division (a
  // reciprocal and a product, within 2 ulp; 0 for an infinite one) loses
  // nothing that matters, where a correctly rounded one takes a dozen
  // instructions.
  auto approximate = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                                   arith::FastMathFlags::afn);
  rewriter.replaceOpWithNewOp<arith::DivFOp>(op, two, denominator, approximate);
}

namespace {
/// `1 + tanh(u)` (either order) -> 2 / (1 + exp(-2u)): the tanh form loses
/// to cancellation where tanh(u) is near -1, the exp form does not; on the
/// GPU it is no dearer than libdevice's tanhf.
struct OnePlusTanh : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [one, other] : {std::pair(op.getLhs(), op.getRhs()),
                              std::pair(op.getRhs(), op.getLhs())}) {
      auto tanh = other.getDefiningOp<math::TanhOp>();
      if (tanh && matchPattern(one, m_OneFloat())) {
        replaceBySigmoidForm(rewriter, op, tanh.getOperand(), -2.0);
        return success();
      }
    }
    return failure();
  }
};

/// `1 - tanh(u)` -> 2 / (1 + exp(2u)) (cancellation where tanh(u) is near 1).
struct OneMinusTanh : OpRewritePattern<arith::SubFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SubFOp op,
                                PatternRewriter &rewriter) const override {
    auto tanh = op.getRhs().getDefiningOp<math::TanhOp>();
    if (!tanh || !matchPattern(op.getLhs(), m_OneFloat()))
      return failure();
    replaceBySigmoidForm(rewriter, op, tanh.getOperand(), 2.0);
    return success();
  }
};

struct TanhSums : mlir::ptensor::impl::PTensorTanhSumsBase<TanhSums> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OnePlusTanh, OneMinusTanh>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
