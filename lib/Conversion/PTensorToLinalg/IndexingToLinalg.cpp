//===- IndexingToLinalg.cpp - take ----------------------------------------===//
//
// ptensor.take becomes one parallel generic over the result whose body
// reads the source by position (tensor.extract at the result's indices,
// the taken axis's through `indices`, negative ones counted from the end).
// The same IR serves the host (a parallel loop nest) and the GPU (one
// thread per element). The indices are checked first, so that nothing is
// read out of bounds: those outside [-size, size) are counted by the
// compaction's count_true (host or GPU) and must be none.
//
//===----------------------------------------------------------------------===//

#include "Compaction.h"
#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"
#include "ptensor/Semantics/Indexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

struct TakePattern : public OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getTakenAxis();
    Value source = adaptor.getSource();
    Value indices = adaptor.getIndices();
    Type indexDType = getDType(op.getIndices().getType());
    Type i64 = rewriter.getI64Type();
    Value size = tensor::DimOp::create(rewriter, loc, source, axis);
    Value count = arith::IndexCastOp::create(rewriter, loc, i64, size);
    checkIndices(rewriter, loc, indices, indexDType, count);

    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = resultType.getRank();
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!resultType.isDynamicDim(d))
        continue;
      Value sizeOfD = d == axis
                          ? tensor::DimOp::create(rewriter, loc, indices, 0)
                          : tensor::DimOp::create(rewriter, loc, source, d);
      dynamicSizes.push_back(sizeOfD);
    }
    AffineMap alongAxis = AffineMap::get(
        rank, 0, rewriter.getAffineDimExpr(axis), getContext());
    ElementwiseInput index{indices, indexDType, alongAxis};
    Value result = buildElementwiseGeneric(
        rewriter, loc, {index}, {resultType}, dynamicSizes,
        [&](OpBuilder &b, Location l, ValueRange elements) {
          Value at = convertScalar(b, l, elements[0], indexDType, i64);
          // Negative indices count from the end (checked: >= -size).
          Value zero = arith::ConstantIntOp::create(b, l, i64, 0);
          Value negative =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, at, zero);
          Value fromEnd = arith::AddIOp::create(b, l, at, count);
          Value wrapped = arith::SelectOp::create(b, l, negative, fromEnd, at);
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d) {
            if (d == axis) {
              Value taken = arith::IndexCastOp::create(
                  b, l, b.getIndexType(), wrapped);
              position.push_back(taken);
              continue;
            }
            Value same = linalg::IndexOp::create(b, l, d);
            position.push_back(same);
          }
          Value element = tensor::ExtractOp::create(b, l, source, position);
          return SmallVector<Value>{element};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Fails when an element of `indices` (1-D, semantic dtype `dtype`) is
  /// outside [-count, count) (`count`: the axis's size, i64).
  static void checkIndices(OpBuilder &b, Location loc, Value indices,
                           Type dtype, Value count) {
    IndexMath m(b, loc);
    Type i64 = b.getI64Type();
    bool isUnsigned = dtype.isUnsignedInteger();
    Value outside = computeFlags(
        b, loc, indices, [&](OpBuilder &nb, Location l, Value element) {
          Value at = convertScalar(nb, l, element, dtype, i64);
          // An unsigned index past 2^63 reads as negative through i64: it
          // is compared unsigned, and has no negative range.
          if (isUnsigned)
            return Value(arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::uge, at, count));
          Value zero = arith::ConstantIntOp::create(nb, l, i64, 0);
          Value lowest = arith::SubIOp::create(nb, l, zero, count);
          Value below = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                              at, lowest);
          Value beyond = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::sge, at, count);
          return Value(arith::OrIOp::create(nb, l, below, beyond));
        });
    Value bad = CountTrueOp::create(b, loc, outside);
    m.check(m.eq(bad, m.index(0)), sem::takeRangeMessage());
  }
};

} // namespace

void mlir::ptensor::populateIndexingToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TakePattern>(converter, patterns.getContext());
}
