//===- ViewsToMemRef.cpp - views and broadcasts without copies ------------===//
//
// A view reinterprets the source buffer: the source's strided metadata
// (`bufferization.to_buffer read_only` + `memref.extract_strided_metadata`)
// gives the view's offset, sizes and strides (negative for flips and
// negative steps, zero for broadcast dims), and `ptensor.strided_view` of
// the source tensor applies them. One-shot bufferization knows the view
// aliases its source, so it never writes in place into a buffer a live view
// still reads (e.g. a computed tensor whose tensor.empty CSE shared with
// another result); the view itself bufferizes to a memref.reinterpret_cast,
// without a copy.
//
// A broadcast whose source sizes are all static becomes a generic with a
// broadcasting indexing map instead, which elementwise fusion folds into its
// consumers.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

/// Reads the strided metadata of a converted tensor.
StridedView mlir::ptensor::getStridedView(OpBuilder &b, Location loc,
                                          Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  MemRefType memrefType =
      getDynamicStridedMemRefType(type.getShape(), type.getElementType());
  Value buffer = bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                                   /*read_only=*/true);
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  return StridedView{md.getOffset(), getAsOpFoldResult(md.getSizes()),
                     getAsOpFoldResult(md.getStrides())};
}

/// Materializes `view` of `source` as a tensor of `type`.
Value mlir::ptensor::buildView(IndexMath &m, Value source,
                               const StridedView &view,
                               RankedTensorType type) {
  // Sizes are operands only for the dynamic dims of the result type.
  SmallVector<Value> sizes, strides;
  for (auto [size, value] : llvm::zip(type.getShape(), view.sizes))
    if (ShapedType::isDynamic(size))
      sizes.push_back(m.value(value));
  for (OpFoldResult stride : view.strides)
    strides.push_back(m.value(stride));
  Value offset = m.value(view.offset);
  return StridedViewOp::create(m.b, m.loc, type, source, offset, sizes,
                               strides);
}

namespace {

/// Shared shape of the view patterns: compute the view from the source's
/// metadata with `transform`, then materialize it.
template <typename OpTy>
struct ViewPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;

  virtual LogicalResult transform(OpTy op, IndexMath &m,
                                  StridedView &view) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    Location loc = op.getLoc();
    StridedView view = getStridedView(rewriter, loc, adaptor.getSource());
    IndexMath m(rewriter, loc);
    if (failed(transform(op, m, view)))
      return failure();
    Value result = buildView(m, adaptor.getSource(), view, type);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PermuteDimsPattern : ViewPattern<PermuteDimsOp> {
  using ViewPattern::ViewPattern;
  LogicalResult transform(PermuteDimsOp op, IndexMath &,
                          StridedView &view) const override {
    StridedView src = view;
    int64_t rank = op.getType().getRank();
    for (auto [i, a] : llvm::enumerate(op.getAxes())) {
      int64_t axis = a < 0 ? a + rank : a;
      view.sizes[i] = src.sizes[axis];
      view.strides[i] = src.strides[axis];
    }
    return success();
  }
};

struct FlipPattern : ViewPattern<FlipOp> {
  using ViewPattern::ViewPattern;
  LogicalResult transform(FlipOp op, IndexMath &m,
                          StridedView &view) const override {
    int64_t rank = op.getType().getRank();
    for (int64_t a : op.getAxes()) {
      int64_t d = a < 0 ? a + rank : a;
      // Start at the last element: offset += max(size - 1, 0) * stride.
      OpFoldResult sizeMinusOne = m.add(view.sizes[d], m.index(-1));
      OpFoldResult last = m.max(sizeMinusOne, m.index(0));
      OpFoldResult lastOffset = m.mul(last, view.strides[d]);
      view.offset = m.add(view.offset, lastOffset);
      view.strides[d] = m.mul(view.strides[d], m.index(-1));
    }
    return success();
  }
};

struct ExtractSlicePattern : ViewPattern<ExtractSliceOp> {
  using ViewPattern::ViewPattern;
  LogicalResult transform(ExtractSliceOp op, IndexMath &m,
                          StridedView &view) const override {
    PTensorType src = op.getSource().getType();
    SmallVector<OpFoldResult> sourceSizes = view.sizes;
    auto dynamicSizes = op.getDynamicSizes().begin();
    for (int64_t d = 0; d < src.getRank(); ++d) {
      int64_t offset = op.getOffsets()[d], staticSize = op.getSizes()[d],
              step = op.getSteps()[d];
      bool dynamicSize = ShapedType::isDynamic(staticSize);
      OpFoldResult size =
          dynamicSize ? OpFoldResult(*dynamicSizes++) : m.index(staticSize);
      // Static bounds were verified; the others are checked here.
      if (dynamicSize || (src.isDynamicDim(d) && staticSize > 0))
        checkInBounds(m, sourceSizes, d, offset, size, step);
      OpFoldResult start = m.mul(m.index(offset), view.strides[d]);
      view.offset = m.add(view.offset, start);
      view.strides[d] = m.mul(view.strides[d], m.index(step));
      view.sizes[d] = size;
    }
    return success();
  }

  /// Checks that `size` (>= 0) elements from `offset` with `step` lie in
  /// dim `d` of a source of `sourceSizes`, without overflow: none, or the
  /// offset in [0, size of d) and size - 1 at most the steps left from it.
  /// The verifier saw to offset >= 0 (a static size > 0 with a dynamic dim,
  /// or a dynamic size), so nothing here overflows at compile time.
  static void checkInBounds(IndexMath &m, ArrayRef<OpFoldResult> sourceSizes,
                            int64_t d, int64_t offset, OpFoldResult size,
                            int64_t step) {
    OpBuilder &b = m.b;
    Location loc = m.loc;
    Value dimSize = m.value(sourceSizes[d]);
    Value count = m.value(size);
    Value offsetValue = m.value(m.index(offset));
    Value stepValue = m.value(m.index(step));
    Value stepsLeft;
    if (step > 0) {
      OpFoldResult lastIndex = m.add(sourceSizes[d], m.index(-1 - offset));
      Value lastIndexValue = m.value(lastIndex);
      stepsLeft = arith::DivSIOp::create(b, loc, lastIndexValue, stepValue);
    } else {
      // -step overflows for the lowest int64, whose one step leaves 0.
      int64_t left =
          step == std::numeric_limits<int64_t>::min() ? 0 : offset / -step;
      stepsLeft = m.value(m.index(left));
    }
    Value countMinusOne = m.value(m.add(size, m.index(-1)));
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                       countMinusOne, stepsLeft);
    Value offsetNegative = m.slt(offsetValue, m.index(0));
    Value offsetNonNegative = m.notI(offsetNegative);
    Value offsetBelowSize = m.slt(offsetValue, dimSize);
    Value offsetInside = m.andI(offsetNonNegative, offsetBelowSize);
    Value reads = m.andI(offsetInside, fits);
    Value empty = m.eq(size, m.index(0));
    Value emptyOrReads = m.orI(empty, reads);
    Value negative = m.slt(size, m.index(0));
    Value nonNegative = m.notI(negative);
    Value ok = m.andI(nonNegative, emptyOrReads);
    SmallVector<Value> sourceShape = m.values(sourceSizes);
    SmallVector<Value> slice = {offsetValue, count, stepValue};
    buildShapesCheck(b, loc, ok, ShapeCheckKind::ExtractSlice, sourceShape,
                     slice, /*operand=*/0, d);
  }
};

struct ExpandDimsPattern : ViewPattern<ExpandDimsOp> {
  using ViewPattern::ViewPattern;
  LogicalResult transform(ExpandDimsOp op, IndexMath &m,
                          StridedView &view) const override {
    int64_t rank = op.getType().getRank();
    auto axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    view.sizes.insert(view.sizes.begin() + axis, m.index(1));
    view.strides.insert(view.strides.begin() + axis, m.index(0));
    return success();
  }
};

struct SqueezePattern : ViewPattern<SqueezeOp> {
  using ViewPattern::ViewPattern;
  LogicalResult transform(SqueezeOp op, IndexMath &,
                          StridedView &view) const override {
    int64_t rank = op.getSource().getType().getRank();
    StridedView src = view;
    view.sizes.clear();
    view.strides.clear();
    for (int64_t d = 0; d < rank; ++d) {
      bool removed = llvm::any_of(op.getAxes(), [&](int64_t a) {
        return (a < 0 ? a + rank : a) == d;
      });
      if (removed)
        continue;
      view.sizes.push_back(src.sizes[d]);
      view.strides.push_back(src.strides[d]);
    }
    return success();
  }
};

/// Broadcast as a view: zero strides where the source size is 1, with a
/// run-time check that every source size is 1 or the target size.
struct BroadcastViewPattern : ViewPattern<BroadcastOp> {
  using ViewPattern::ViewPattern;
  LogicalResult transform(BroadcastOp op, IndexMath &m,
                          StridedView &view) const override {
    PTensorType src = op.getSource().getType(), dst = op.getType();
    SmallVector<Value> sourceSizes, targetSizes;
    SmallVector<OpFoldResult> target;
    auto dynamic = op.getDynamicSizes().begin();
    for (int64_t size : dst.getShape()) {
      target.push_back(ShapedType::isDynamic(size) ? OpFoldResult(*dynamic++)
                                                   : m.index(size));
      targetSizes.push_back(m.value(target.back()));
    }
    for (OpFoldResult size : view.sizes)
      sourceSizes.push_back(m.value(size));
    buildSizesCheck(m.b, m.loc, sem::SizedOp::BroadcastTo, target,
                    getElementBytes(dst.getElementType()));
    buildBroadcastCheck(m.b, m.loc, sourceSizes, targetSizes);
    int64_t lead = dst.getRank() - src.getRank();
    StridedView result{view.offset, target, {}};
    for (int64_t i = 0; i < dst.getRank(); ++i) {
      if (i < lead) {
        result.strides.push_back(m.index(0));
        continue;
      }
      Value isOne = m.eq(view.sizes[i - lead], m.index(1));
      Value zero = m.value(m.index(0));
      Value stride = m.value(view.strides[i - lead]);
      result.strides.push_back(m.select(isOne, zero, stride));
    }
    view = result;
    return success();
  }
};

/// meshgrid: result k views operand k with its stride along the dim it
/// varies on (k, or 1 - k for the first two with `xy`) and zero strides
/// along the others.
struct MeshgridPattern : public OpConversionPattern<MeshgridOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MeshgridOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath m(rewriter, loc);
    ValueRange inputs = adaptor.getInputs();
    int64_t n = inputs.size();
    bool xy = op.getIndexing() == MeshgridIndexing::xy && n >= 2;
    auto dimOf = [&](int64_t k) { return xy && k < 2 ? 1 - k : k; };
    SmallVector<StridedView> views;
    SmallVector<OpFoldResult> sizes(n);
    for (auto [k, in] : llvm::enumerate(inputs)) {
      views.push_back(getStridedView(rewriter, loc, in));
      sizes[dimOf(k)] = views.back().sizes[0];
    }
    SmallVector<Value> results;
    for (auto [k, in] : llvm::enumerate(inputs)) {
      auto type = cast<RankedTensorType>(
          getTypeConverter()->convertType(op.getResult(k).getType()));
      StridedView view{views[k].offset, sizes,
                       SmallVector<OpFoldResult>(n, m.index(0))};
      view.strides[dimOf(k)] = views[k].strides[0];
      results.push_back(buildView(m, in, view, type));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Broadcast with all source sizes static: a copy-shaped generic that
/// elementwise fusion folds into its consumers.
struct StaticBroadcastPattern : public OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PTensorType src = op.getSource().getType(), dst = op.getType();
    FailureOr<AffineMap> map =
        getBroadcastMap(src.getShape(), dst.getShape(), op.getContext());
    if (!src.hasStaticShape() || failed(map))
      return rewriter.notifyMatchFailure(op, "needs a run-time broadcast");
    Type tensorType = getTypeConverter()->convertType(dst);
    buildSizesCheck(rewriter, op.getLoc(), sem::SizedOp::BroadcastTo,
                    dst.getShape(), op.getDynamicSizes(),
                    getElementBytes(dst.getElementType()));
    ElementwiseInput input{adaptor.getSource(), src.getElementType(), *map};
    SmallVector<Value> results = buildElementwiseGeneric(
        rewriter, op.getLoc(), input, tensorType, op.getDynamicSizes(),
        [](OpBuilder &, Location, ValueRange v) {
          return SmallVector<Value>{v[0]};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::ptensor::populateViewsToMemRefPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PermuteDimsPattern, FlipPattern, ExtractSlicePattern,
               ExpandDimsPattern, SqueezePattern, BroadcastViewPattern,
               MeshgridPattern>(
      converter, patterns.getContext());
  // Preferred over the view when it applies (fusable, no run-time checks).
  patterns.add<StaticBroadcastPattern>(converter, patterns.getContext(),
                                       /*benefit=*/2);
}
