//===- ReshapeToMemRef.cpp - reshape as a view, or a copy and a view ------===//
//
// A reshape reads the source's elements in row-major order. When the
// source's strides allow it (the dims that merge into one result dim are
// contiguous among themselves; the runtime's ptensor_rt_reshape_strides
// decides from the run-time metadata and gives the strides) the result is
// a view of the source buffer: `ptensor.strided_view`, no copy. Otherwise the source
// is first copied into a new row-major buffer (memref.copy, which
// ptensor-copies-to-linalg makes a copy generic that the GPU lowering tiles
// like any transposing copy) and the view is taken of that.
// The choice is made at run time (`scf.if` on the strides), unless `copy`
// fixes it: `copy = true` always copies, `copy = false` never does and
// fails a run-time check when it would have to.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ptensor;

/// The runtime function that computes a reshape's view strides.
static constexpr llvm::StringLiteral kReshapeStrides =
    "ptensor_rt_reshape_strides";

/// The private declaration of ptensor_rt_reshape_strides (four
/// memref<?xi64>: source sizes and strides, target sizes, target strides
/// written; returns whether a view is possible), declared once per module.
static func::FuncOp getReshapeStridesFunction(OpBuilder &b, Operation *from) {
  auto array = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  return getOrDeclareRuntimeFunction(b, from->getParentOfType<ModuleOp>(),
                                     kReshapeStrides,
                                     {array, array, array, array},
                                     {b.getI1Type()});
}

/// Asks the runtime whether `view` can be read as `sizes` without a copy;
/// returns that (i1) and the view's strides (valid when it is true).
static std::pair<Value, SmallVector<OpFoldResult>>
buildViewStrides(IndexMath &m, const StridedView &view,
                 ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> sourceSizeValues = m.values(view.sizes);
  SmallVector<Value> sourceStrideValues = m.values(view.strides);
  SmallVector<Value> targetSizeValues = m.values(sizes);
  Value sourceSizes = buildIndexArray(m.b, m.loc, sourceSizeValues);
  Value sourceStrides = buildIndexArray(m.b, m.loc, sourceStrideValues);
  Value targetSizes = buildIndexArray(m.b, m.loc, targetSizeValues);
  // The target strides: written by the runtime (the sizes as placeholders).
  Value targetStrides = buildIndexArray(m.b, m.loc, targetSizeValues);
  func::FuncOp callee = getReshapeStridesFunction(
      m.b, m.b.getInsertionBlock()->getParentOp());
  auto call = func::CallOp::create(
      m.b, m.loc, callee,
      ValueRange{sourceSizes, sourceStrides, targetSizes, targetStrides});
  SmallVector<OpFoldResult> strides;
  for (size_t d = 0; d < sizes.size(); ++d) {
    Value index = m.value(m.index(d));
    Value stride = memref::LoadOp::create(m.b, m.loc, targetStrides, index);
    strides.push_back(OpFoldResult(arith::IndexCastOp::create(
        m.b, m.loc, m.b.getIndexType(), stride)));
  }
  return {call.getResult(0), strides};
}

namespace {

struct ReshapePattern : public OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    IndexMath m(rewriter, loc);
    Value source = adaptor.getSource();
    StridedView view = getStridedView(rewriter, loc, source);
    SmallVector<OpFoldResult> sizes = targetSizes(m, op, adaptor, view.sizes);

    std::optional<bool> copy = op.getCopy();
    Value viewable;
    SmallVector<OpFoldResult> viewStrides;
    if (!copy || !*copy) {
      std::tie(viewable, viewStrides) = buildViewStrides(m, view, sizes);
      if (copy)
        m.check(viewable,
                "ptensor: reshape with copy=False of a tensor whose strides "
                "do not allow a view in the new shape (a copy is needed)");
    }
    auto viewOf = [&](OpBuilder &b, Location l, Value tensor,
                      OpFoldResult offset, ArrayRef<OpFoldResult> strides) {
      IndexMath mb(b, l);
      StridedView result{offset, sizes, SmallVector<OpFoldResult>(strides)};
      return buildView(mb, tensor, result, type);
    };
    auto copyThenView = [&](OpBuilder &b, Location l) {
      Value copied = copyRowMajor(b, l, source);
      IndexMath mb(b, l);
      return viewOf(b, l, copied, b.getIndexAttr(0),
                    rowMajorStrides(mb, sizes));
    };
    Value result;
    if (copy && !*copy) {
      result = viewOf(rewriter, loc, source, view.offset, viewStrides);
    } else if (copy && *copy) {
      result = copyThenView(rewriter, loc);
    } else {
      auto choice = scf::IfOp::create(
          rewriter, loc, viewable,
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(
                b, l, viewOf(b, l, source, view.offset, viewStrides));
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, copyThenView(b, l));
          });
      result = choice.getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The result sizes (the -1 inferred from the element count), with a
  /// run-time check that the element counts agree when the types leave it
  /// open.
  static SmallVector<OpFoldResult>
  targetSizes(IndexMath &m, ReshapeOp op, OpAdaptor adaptor,
              ArrayRef<OpFoldResult> sourceSizes) {
    PTensorType resultType = op.getType();
    ArrayRef<int64_t> requested = op.getStaticSizes();
    auto dynamic = adaptor.getSizes().begin();
    SmallVector<OpFoldResult> sizes, asRequested;
    int64_t inferred = -1;
    OpFoldResult known = m.index(1);
    for (auto [d, s] : llvm::enumerate(requested)) {
      if (s == -1) {
        inferred = d;
        sizes.push_back(m.index(0)); // set below
        asRequested.push_back(m.index(-1));
        continue;
      }
      OpFoldResult size = ShapedType::isDynamic(s) ? OpFoldResult(*dynamic++)
                                                   : OpFoldResult(m.index(s));
      sizes.push_back(size);
      asRequested.push_back(size);
      known = m.mul(known, size);
    }
    buildSizesCheck(m.b, m.loc, ::ptensor::semantics::SizedOp::Reshape,
                    asRequested, getElementBytes(resultType.getElementType()),
                    inferred);
    OpFoldResult count = m.product(sourceSizes);
    if (inferred >= 0) {
      int64_t size = resultType.getDimSize(inferred);
      if (!ShapedType::isDynamic(size)) {
        sizes[inferred] = m.index(size);
      } else {
        // count / max(known, 1); the check below catches a remainder.
        Value knownValue = m.value(known);
        Value one = m.value(m.index(1));
        Value divisor = arith::MaxSIOp::create(m.b, m.loc, knownValue, one);
        Value total = m.value(count);
        sizes[inferred] =
            OpFoldResult(arith::DivSIOp::create(m.b, m.loc, total, divisor));
      }
    }
    if (!resultType.hasStaticShape() ||
        !op.getSource().getType().hasStaticShape()) {
      Value ok = m.eq(m.product(sizes), count);
      if (!matchPattern(ok, m_One())) {
        SmallVector<Value> from = m.values(sourceSizes);
        SmallVector<Value> to = m.values(asRequested);
        buildShapesCheck(m.b, m.loc, ok, ShapeCheckKind::Reshape, from, to);
      }
    }
    return sizes;
  }

  /// A row-major copy of the converted `source` (the source's shape): a
  /// new allocation (`bufferization.alloc_tensor` with `copy`, which no
  /// tensor canonicalization replaces by its source, unlike a copy
  /// generic), so the view's row-major strides describe its buffer.
  static Value copyRowMajor(OpBuilder &b, Location loc, Value source) {
    auto type = cast<RankedTensorType>(source.getType());
    return bufferization::AllocTensorOp::create(b, loc, type, ValueRange{},
                                                source);
  }
};

} // namespace

void mlir::ptensor::populateReshapeToMemRefPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReshapePattern>(converter, patterns.getContext());
}
