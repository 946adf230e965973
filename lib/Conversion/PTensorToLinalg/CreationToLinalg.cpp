//===- CreationToLinalg.cpp - creation and movement ops -------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"
#include "ScalarOps.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// A tensor of `type` with `dynamicSizes`, every element `fill` (of
/// semantic dtype `fillType`) converted to `dtype`.
static Value buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange dynamicSizes, Value fill, Type fillType,
                         Type dtype) {
  Value value = convertScalar(b, loc, fill, fillType, dtype);
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicSizes);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

struct CreatePattern : public OpConversionPattern<CreateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CreateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    buildSizesCheck(rewriter, op.getLoc(), sem::SizedOp::Create,
                    type.getShape(), adaptor.getDynamicSizes(),
                    getElementBytes(type.getElementType()));
    rewriter.replaceOp(op, buildFilled(rewriter, op.getLoc(), type,
                                       adaptor.getDynamicSizes(),
                                       adaptor.getFill(), op.getFill().getType(),
                                       op.getType().getElementType()));
    return success();
  }
};

struct CreateLikePattern : public OpConversionPattern<CreateLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CreateLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, adaptor.getSource(), d));
    rewriter.replaceOp(op, buildFilled(rewriter, loc, type, dynamicSizes,
                                       adaptor.getFill(), op.getFill().getType(),
                                       op.getType().getElementType()));
    return success();
  }
};

/// eye: 1 where column - row == offset, else 0.
struct EyePattern : public OpConversionPattern<EyeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EyeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t offset = op.getOffset();
    Type dtype = op.getType().getElementType();
    buildSizesCheck(rewriter, op.getLoc(), sem::SizedOp::Eye, type.getShape(),
                    adaptor.getDynamicSizes(),
                    getElementBytes(type.getElementType()));
    SmallVector<Value> results = buildElementwiseGeneric(
        rewriter, op.getLoc(), {}, type, adaptor.getDynamicSizes(),
        [&](OpBuilder &b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, 0);
          Value j = linalg::IndexOp::create(b, l, 1);
          Value diff = arith::SubIOp::create(b, l, j, i);
          Value k = arith::ConstantIndexOp::create(b, l, offset);
          Value on = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                           diff, k);
          return SmallVector<Value>{
              convertScalar(b, l, on, b.getI1Type(), dtype)};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The length of a 1-D creation: the static size of the result type (checked
/// against `computed` at run time) or `computed`.
static Value resolveLength(OpBuilder &b, Location loc, PTensorType type,
                           Value computed, StringRef opName) {
  if (type.isDynamicDim(0))
    return computed;
  Value expected = arith::ConstantIndexOp::create(b, loc, type.getDimSize(0));
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, computed,
                                   expected);
  cf::AssertOp::create(b, loc, ok,
                       ("ptensor: " + opName +
                        " gives a different number of elements than the "
                        "static result size " +
                        std::to_string(type.getDimSize(0)))
                           .str());
  return expected;
}

/// Fills a 1-D tensor of `type` with `valueAt(i)` converted from `valueType`.
static Value build1D(OpBuilder &b, Location loc, RankedTensorType tensorType,
                     PTensorType type, Value length, Type valueType,
                     function_ref<Value(OpBuilder &, Location, Value)> valueAt) {
  SmallVector<Value> dynamic;
  if (type.isDynamicDim(0))
    dynamic.push_back(length);
  return buildElementwiseGeneric(
      b, loc, {}, tensorType, dynamic,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        Value i = linalg::IndexOp::create(nb, nloc, 0);
        Value v = valueAt(nb, nloc, i);
        return SmallVector<Value>{
            convertScalar(nb, nloc, v, valueType, type.getElementType())};
      })[0];
}

/// ceil((stop - start) / step) for unsigned scalars (a positive `step`),
/// 0 when `stop <= start`: the signed formula would read values with the
/// top bit set as negative.
static Value getUnsignedArangeLength(OpBuilder &b, Location loc, Value start,
                                     Value stop, Value step) {
  Value diff = arith::SubIOp::create(b, loc, stop, start);
  Value n = arith::CeilDivUIOp::create(b, loc, diff, step);
  Value empty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, stop, start);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(n.getType()));
  return arith::SelectOp::create(b, loc, empty, zero, n);
}

struct ArangePattern : public OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type t = op.getStart().getType();
    Value start = castToStorage(rewriter, loc, adaptor.getStart()),
          stop = castToStorage(rewriter, loc, adaptor.getStop()),
          step = castToStorage(rewriter, loc, adaptor.getStep());
    // n = max(ceil((stop - start) / step), 0)
    Value n;
    if (isa<FloatType>(t)) {
      Value q = arith::DivFOp::create(
          rewriter, loc, arith::SubFOp::create(rewriter, loc, stop, start), step);
      Value c = math::CeilOp::create(rewriter, loc, q);
      n = arith::FPToSIOp::create(rewriter, loc, rewriter.getI64Type(), c);
    } else if (t.isUnsignedInteger()) {
      n = getUnsignedArangeLength(rewriter, loc, start, stop, step);
      n = convertScalar(rewriter, loc, n, t, rewriter.getI64Type());
    } else {
      Value diff = arith::SubIOp::create(rewriter, loc, stop, start);
      n = arith::CeilDivSIOp::create(rewriter, loc, diff, step);
      n = convertScalar(rewriter, loc, n, t, rewriter.getI64Type());
    }
    Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
    n = arith::MaxSIOp::create(rewriter, loc, n, zero);
    n = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), n);
    buildSizesCheck(rewriter, loc, sem::SizedOp::Arange,
                    ArrayRef<int64_t>{ShapedType::kDynamic}, ValueRange{n},
                    getElementBytes(op.getType().getElementType()));
    Value length = resolveLength(rewriter, loc, op.getType(), n, "arange");
    auto tensorType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(
        op, build1D(rewriter, loc, tensorType, op.getType(), length, t,
                    [&](OpBuilder &b, Location l, Value i) -> Value {
                      Value fi = convertScalar(b, l, i, b.getIndexType(), t);
                      Value off = isa<FloatType>(t)
                                      ? Value(arith::MulFOp::create(b, l, fi, step))
                                      : Value(arith::MulIOp::create(b, l, fi, step));
                      return isa<FloatType>(t)
                                 ? Value(arith::AddFOp::create(b, l, start, off))
                                 : Value(arith::AddIOp::create(b, l, start, off));
                    }));
    return success();
  }
};

struct LinspacePattern : public OpConversionPattern<LinspaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type t = op.getStart().getType();
    Value start = adaptor.getStart(), stop = adaptor.getStop();
    buildSizesCheck(rewriter, loc, sem::SizedOp::Linspace,
                    ArrayRef<int64_t>{ShapedType::kDynamic},
                    ValueRange{adaptor.getNum()},
                    getElementBytes(op.getType().getElementType()));
    Value length =
        resolveLength(rewriter, loc, op.getType(), adaptor.getNum(), "linspace");
    // step = (stop - start) / (endpoint ? num - 1 : num), num - 1 >= 1.
    Value divisor = length;
    if (op.getEndpoint()) {
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      divisor = arith::MaxSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, length, one), one);
    }
    Value span = arith::SubFOp::create(rewriter, loc, stop, start);
    Value steps =
        convertScalar(rewriter, loc, divisor, rewriter.getIndexType(), t);
    Value step = arith::DivFOp::create(rewriter, loc, span, steps);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value lastIndex = arith::SubIOp::create(rewriter, loc, length, one);
    bool endpoint = op.getEndpoint();
    auto tensorType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(
        op, build1D(rewriter, loc, tensorType, op.getType(), length, t,
                    [&](OpBuilder &b, Location l, Value i) -> Value {
                      Value fi = convertScalar(b, l, i, b.getIndexType(), t);
                      Value v = arith::AddFOp::create(
                          b, l, start, arith::MulFOp::create(b, l, fi, step));
                      if (!endpoint)
                        return v;
                      // NumPy makes the last value exactly `stop` (the
                      // only value is `start` when num == 1).
                      Value atLast = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq, i, lastIndex);
                      Value zero = arith::ConstantIndexOp::create(b, l, 0);
                      Value notFirst = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::sgt, i, zero);
                      Value isLast =
                          arith::AndIOp::create(b, l, atLast, notFirst);
                      return arith::SelectOp::create(b, l, isLast, stop, v);
                    }));
    return success();
  }
};

/// Reconciles a builtin tensor with the converted ptensor tensor type:
/// signless/unsigned element bitcast and static/dynamic shape cast.
static Value castTensor(OpBuilder &b, Location loc, Value v,
                        RankedTensorType to) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from.getElementType() != to.getElementType())
    v = tensor::BitcastOp::create(
        b, loc, from.clone(to.getElementType()), v);
  if (cast<RankedTensorType>(v.getType()) != to)
    v = tensor::CastOp::create(b, loc, to, v);
  return v;
}

struct FromRankedPattern : public OpConversionPattern<FromRankedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FromRankedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    if (auto memref = dyn_cast<MemRefType>(source.getType()))
      source = bufferization::ToTensorOp::create(
          rewriter, loc, RankedTensorType::get(memref.getShape(),
                                               memref.getElementType()),
          source, /*restrict=*/rewriter.getUnitAttr());
    rewriter.replaceOp(op, castTensor(rewriter, loc, source, type));
    return success();
  }
};

struct ToRankedPattern : public OpConversionPattern<ToRankedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ToRankedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto target = cast<ShapedType>(op.getType());
    auto asTensor = RankedTensorType::get(target.getShape(),
                                          target.getElementType());
    Value v = castTensor(rewriter, loc, adaptor.getSource(), asTensor);
    if (auto memref = dyn_cast<MemRefType>(target))
      v = bufferization::ToBufferOp::create(rewriter, loc, memref, v);
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// Host-to-host copies are values already; device moves are
/// DeviceCopyToMemcpy's (with the pass option device-copies).
struct CopyPattern : public OpConversionPattern<CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getDeviceCopyDirection(op).empty())
      return rewriter.notifyMatchFailure(
          op, "copies to or from a GPU need the option device-copies");
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

struct DimPattern : public OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::DimOp>(op, adaptor.getSource(),
                                               op.getDim());
    return success();
  }
};

struct ShapePattern : public OpConversionPattern<ShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < op.getSource().getType().getRank(); ++d)
      sizes.push_back(
          tensor::DimOp::create(rewriter, op.getLoc(), adaptor.getSource(), d));
    rewriter.replaceOp(op, sizes);
    return success();
  }
};

struct SizePattern : public OpConversionPattern<SizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value n = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d = 0; d < op.getSource().getType().getRank(); ++d) {
      Value size = tensor::DimOp::create(rewriter, loc, adaptor.getSource(), d);
      n = arith::MulIOp::create(rewriter, loc, n, size);
    }
    rewriter.replaceOp(op, n);
    return success();
  }
};

struct RankPattern : public OpConversionPattern<RankOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        op, op.getSource().getType().getRank());
    return success();
  }
};

} // namespace

void mlir::ptensor::populateCreationToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CreatePattern, CreateLikePattern, EyePattern, ArangePattern,
               LinspacePattern, FromRankedPattern, ToRankedPattern, CopyPattern,
               DimPattern, ShapePattern, SizePattern, RankPattern>(
      converter, patterns.getContext());
}
