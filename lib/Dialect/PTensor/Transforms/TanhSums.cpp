//===- TanhSums.cpp - 1 +- tanh(u) as 2 / (1 + exp(-+2u)) -----------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <array>
#include <optional>
#include <utility>

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORTANHSUMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

/// The float constant (scalar or splat) `v` is, if it is one.
static std::optional<APFloat> floatConstant(Value v) {
  APFloat value(0.0);
  if (!matchPattern(v, m_ConstantFloat(&value)))
    return std::nullopt;
  return value;
}

/// The operands of commutative `op` as (lhs, rhs), then (rhs, lhs).
template <typename OpTy>
static std::array<std::pair<Value, Value>, 2> bothOrders(OpTy op) {
  return {std::pair(op.getLhs(), op.getRhs()),
          std::pair(op.getRhs(), op.getLhs())};
}

/// `x` and the constant `c` of `u = x * c` (either order), if `u` is that.
static std::optional<std::pair<Value, APFloat>> constantFactorOf(Value u) {
  auto mul = u.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (auto [x, c] : bothOrders(mul))
    if (std::optional<APFloat> value = floatConstant(c))
      return std::pair(x, *value);
  return std::nullopt;
}

/// Replaces `op` by 2 / (1 + exp(scale * u)), scalars or vectors like `u`.
/// Where `u` is `x * c` with a constant `c` (GELU's sqrt(2/pi) factor) the
/// argument is `x * (scale * c)`: `scale` is +-2, a power of two, so the
/// one product is the two products' value (short of x * c underflowing,
/// where exp gives 1 either way) with one instruction less.
static void replaceBySigmoidForm(PatternRewriter &rewriter, Operation *op,
                                 Value u, double scale) {
  Location loc = op->getLoc();
  Type type = u.getType();
  Type element = getElementTypeOrSelf(type);
  auto valueOf = [&](double value) {
    return cast<FloatAttr>(rewriter.getFloatAttr(element, value)).getValue();
  };
  auto constant = [&](const APFloat &value) {
    return createScalarOrSplatConstant(rewriter, loc, type, value);
  };
  Value x = u;
  APFloat factorValue = valueOf(scale);
  if (std::optional<std::pair<Value, APFloat>> product = constantFactorOf(u)) {
    // opOK: the product is exact (not an overflow or an underflow).
    APFloat folded = product->second;
    if (folded.multiply(factorValue, APFloat::rmNearestTiesToEven) ==
        APFloat::opOK) {
      x = product->first;
      factorValue = folded;
    }
  }
  Value factor = constant(factorValue);
  Value scaled = arith::MulFOp::create(rewriter, loc, x, factor);
  Value e = math::ExpOp::create(rewriter, loc, scaled);
  Value one = constant(valueOf(1.0));
  Value denominator = arith::AddFOp::create(rewriter, loc, one, e);
  Value two = constant(valueOf(2.0));
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
    for (auto [one, other] : bothOrders(op)) {
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

/// `(x * c) * (k / d)` (either order, the division approximate as the
/// sigmoid form makes it) -> `x / d`, approximate too, where c * k is
/// exactly 1: GELU's `0.5 * x * (2 / (1 + exp(-2u)))` as
/// `x / (1 + exp(-2u))`, two products less. c and k are then powers of
/// two: the value is the same within the approximate division's error
/// (bit for bit where it is x times the chip's reciprocal of d, as on the
/// GPU for f32; one rounding fewer where the division is exact).
struct ScaledSigmoidForm : OpRewritePattern<arith::MulFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::MulFOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [scaled, quotient] : bothOrders(op)) {
      auto div = quotient.getDefiningOp<arith::DivFOp>();
      if (!div || !div->hasOneUse() ||
          !bitEnumContainsAll(div.getFastmath(), arith::FastMathFlags::afn))
        continue;
      std::optional<APFloat> k = floatConstant(div.getLhs());
      std::optional<std::pair<Value, APFloat>> product =
          constantFactorOf(scaled);
      if (!k || !product)
        continue;
      APFloat one = product->second;
      if (one.multiply(*k, APFloat::rmNearestTiesToEven) != APFloat::opOK ||
          !one.isExactlyValue(1.0))
        continue;
      rewriter.replaceOpWithNewOp<arith::DivFOp>(
          op, product->first, div.getRhs(), div.getFastmathAttr());
      return success();
    }
    return failure();
  }
};

struct TanhSums : mlir::ptensor::impl::PTensorTanhSumsBase<TanhSums> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OnePlusTanh, OneMinusTanh, ScaledSigmoidForm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
