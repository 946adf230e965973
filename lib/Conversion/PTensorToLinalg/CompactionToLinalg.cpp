//===- CompactionToLinalg.cpp - ops whose result size is a count ----------===//
//
// extract_mask and nonzero have results whose size is the number of true
// flags, known only at run time. On the host both are the count → compact
// machinery (CountAndCompact.h): one loop nest counts, the results are
// allocated with the count, the second writes the selected elements (or
// rows, or indices) in row-major order. Any layout of
// the operands is read in place. GPU tensors are refused before the
// conversion (PTensorToLinalg.cpp: checkHostOnlyOps).
//
//===----------------------------------------------------------------------===//

#include "CountAndCompact.h"
#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
    if (op.getType().isOnGPU())
      return rewriter.notifyMatchFailure(op, "extract_mask runs on the host");
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

    auto flag = [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
      return tensor::ExtractOp::create(b, l, mask, ivs);
    };
    auto allocate = [&](Value count) {
      SmallVector<OpFoldResult> resultSizes = {OpFoldResult(count)};
      resultSizes.append(sourceSizes.begin() + k, sourceSizes.end());
      return SmallVector<Value>{tensor::EmptyOp::create(rewriter, loc, resultSizes, type.getElementType())};
    };
    auto store = [&](OpBuilder &b, Location l, ValueRange results,
                     ValueRange ivs, Value row) {
      return SmallVector<Value>{
          copyRow(b, l, source, results[0], ivs, row, sourceSizes, k, rank)};
    };
    SmallVector<Value> ubs = m.values(maskSizes);
    rewriter.replaceOp(op,
                       countAndCompact(rewriter, loc, ubs, flag, allocate,
                                       store)[0]);
    return success();
  }

  /// `source[ivs]` (an element, or the sub-tensor of the last dims) stored
  /// as row `row` of `result`.
  static Value copyRow(OpBuilder &b, Location loc, Value source, Value result,
                       ValueRange ivs, Value row,
                       ArrayRef<OpFoldResult> sourceSizes, int64_t k,
                       int64_t rank) {
    if (k == rank) {
      Value element = tensor::ExtractOp::create(b, loc, source, ivs);
      return tensor::InsertOp::create(b, loc, element, result, ValueRange{row});
    }
    IntegerAttr zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
    SmallVector<OpFoldResult> sizes(k, one);
    for (int64_t d = k; d < rank; ++d) {
      offsets.push_back(zero);
      sizes.push_back(sourceSizes[d]);
    }
    SmallVector<OpFoldResult> strides(rank, one);
    auto resultType = cast<RankedTensorType>(result.getType());
    auto rowType = RankedTensorType::get(resultType.getShape().drop_front(),
                                         resultType.getElementType());
    Value sub = tensor::ExtractSliceOp::create(b, loc, rowType, source, offsets,
                                               sizes, strides);
    SmallVector<OpFoldResult> rowOffsets = {OpFoldResult(row)};
    SmallVector<OpFoldResult> rowSizes = {one};
    for (int64_t d = k; d < rank; ++d) {
      rowOffsets.push_back(zero);
      rowSizes.push_back(sourceSizes[d]);
    }
    SmallVector<OpFoldResult> rowStrides(rank - k + 1, one);
    return tensor::InsertSliceOp::create(b, loc, sub, result, rowOffsets,
                                         rowSizes, rowStrides);
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

/// nonzero: the count → compact machinery with a flag per element (its
/// truth value: not zero, NaN included) and one i64 result per dim.
struct NonzeroPattern : public OpConversionPattern<NonzeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonzeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PTensorType inputType = op.getInput().getType();
    if (inputType.isOnGPU())
      return rewriter.notifyMatchFailure(op, "nonzero runs on the host");
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type dtype = inputType.getElementType();
    SmallVector<Value> ubs;
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      ubs.push_back(tensor::DimOp::create(rewriter, loc, input, d));
    auto flag = [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
      Value element = tensor::ExtractOp::create(b, l, input, ivs);
      return convertScalar(b, l, element, dtype, b.getI1Type());
    };
    auto allocate = [&](Value count) {
      SmallVector<Value> results;
      for (Type t : op.getResultTypes()) {
        auto type = cast<RankedTensorType>(getTypeConverter()->convertType(t));
        results.push_back(tensor::EmptyOp::create(
            rewriter, loc, type.getShape(), type.getElementType(),
            ValueRange{count}));
      }
      return results;
    };
    auto store = [&](OpBuilder &b, Location l, ValueRange results,
                     ValueRange ivs, Value row) {
      SmallVector<Value> updated;
      for (auto [result, iv] : llvm::zip(results, ivs)) {
        Value index = arith::IndexCastOp::create(b, l, b.getI64Type(), iv);
        updated.push_back(
            tensor::InsertOp::create(b, l, index, result, ValueRange{row}));
      }
      return updated;
    };
    rewriter.replaceOp(op, countAndCompact(rewriter, loc, ubs, flag, allocate,
                                           store));
    return success();
  }
};

} // namespace

void mlir::ptensor::populateCompactionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExtractMaskPattern, NonzeroPattern>(converter,
                                                   patterns.getContext());
}
