//===- CompactionToLinalg.cpp - ops whose result size is a count ----------===//
//
// extract_mask and nonzero have results whose size is the number of true
// flags, known only at run time: both are the count → select machinery
// (Compaction.h) — the flags in a new row-major bool tensor, their count,
// the positions of the true ones — and then one parallel generic over the
// results that unravels each position into indices (nonzero) or gathers
// the source's element or row there (extract_mask). The same IR on the
// host and the GPU; any layout of the operands is read in place.
//
//===----------------------------------------------------------------------===//

#include "Compaction.h"
#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {

struct ExtractMaskPattern : public OpConversionPattern<ExtractMaskOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ExtractMaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    IndexMath m(rewriter, loc);
    Value source = adaptor.getSource(), mask = adaptor.getMask();
    int64_t k = op.getMask().getType().getRank();
    int64_t rank = op.getSource().getType().getRank();
    SmallVector<OpFoldResult> sourceSizes =
        tensor::getMixedSizes(rewriter, loc, source);
    SmallVector<OpFoldResult> maskSizes =
        tensor::getMixedSizes(rewriter, loc, mask);
    checkSizes(m, sourceSizes, maskSizes);

    // The mask is bool (the type inference's rule): its own flags.
    Value flags = mask;
    Value positions = truePositions(rewriter, loc, flatten(rewriter, loc, flags));

    // Row r of the result: the source at the mask position positions[r],
    // all of its last rank - k dims.
    SmallVector<Value> maskDims = m.values(maskSizes);
    SmallVector<Value> dynamicSizes = {
        tensor::DimOp::create(rewriter, loc, positions, 0)};
    for (int64_t d = k; d < rank; ++d)
      if (type.isDynamicDim(d - k + 1))
        dynamicSizes.push_back(m.value(sourceSizes[d]));
    int64_t resultRank = type.getRank();
    AffineMap rowOnly = AffineMap::get(
        resultRank, 0, rewriter.getAffineDimExpr(0), rewriter.getContext());
    ElementwiseInput position{positions, rewriter.getI64Type(), rowOnly};
    Value result = buildElementwiseGeneric(
        rewriter, loc, {position}, {type}, dynamicSizes,
        [&](OpBuilder &b, Location l, ValueRange values) {
          Value linear =
              arith::IndexCastOp::create(b, l, b.getIndexType(), values[0]);
          SmallVector<Value> ids = unravel(b, l, linear, maskDims);
          for (int64_t d = 1; d < resultRank; ++d)
            ids.push_back(linalg::IndexOp::create(b, l, d));
          return SmallVector<Value>{
              tensor::ExtractOp::create(b, l, source, ids)};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Run-time checks that the mask's sizes are the source's first ones.
  static void checkSizes(IndexMath &m, ArrayRef<OpFoldResult> sourceSizes,
                         ArrayRef<OpFoldResult> maskSizes) {
    Value ok;
    for (auto [d, size] : llvm::enumerate(maskSizes))
      ok = m.andI(ok, m.eq(size, sourceSizes[d]));
    if (!ok || matchPattern(ok, m_One()))
      return;
    SmallVector<Value> source = m.values(sourceSizes);
    SmallVector<Value> mask = m.values(maskSizes);
    buildShapesCheck(m.b, m.loc, ok, ShapeCheckKind::ExtractMask, source, mask);
  }
};

/// nonzero: the flags are the elements' truth values (not zero, NaN
/// included); each position is unravelled into one i64 index per dim.
struct NonzeroPattern : public OpConversionPattern<NonzeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonzeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PTensorType inputType = op.getInput().getType();
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type dtype = inputType.getElementType();
    auto truth = [&](OpBuilder &b, Location l, Value element) {
      return convertScalar(b, l, element, dtype, b.getI1Type());
    };
    Value flags = computeFlags(rewriter, loc, input, truth);
    Value positions = truePositions(rewriter, loc, flatten(rewriter, loc, flags));
    if (inputType.getRank() == 1) {
      rewriter.replaceOp(op, positions);
      return success();
    }
    IndexMath m(rewriter, loc);
    SmallVector<Value> sizes =
        m.values(tensor::getMixedSizes(rewriter, loc, input));
    Type i64 = rewriter.getI64Type();
    SmallVector<Type> resultTypes(inputType.getRank(), positions.getType());
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, getContext());
    ElementwiseInput position{positions, i64, identity};
    Value count = tensor::DimOp::create(rewriter, loc, positions, 0);
    SmallVector<Value> indices = buildElementwiseGeneric(
        rewriter, loc, {position}, resultTypes, ValueRange{count},
        [&](OpBuilder &b, Location l, ValueRange values) {
          Value linear =
              arith::IndexCastOp::create(b, l, b.getIndexType(), values[0]);
          SmallVector<Value> ids = unravel(b, l, linear, sizes);
          SmallVector<Value> results;
          for (Value id : ids)
            results.push_back(arith::IndexCastOp::create(b, l, i64, id));
          return results;
        });
    rewriter.replaceOp(op, indices);
    return success();
  }
};

} // namespace

void mlir::ptensor::populateCompactionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExtractMaskPattern, NonzeroPattern>(converter,
                                                   patterns.getContext());
}
