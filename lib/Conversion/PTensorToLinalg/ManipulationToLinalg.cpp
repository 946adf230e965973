//===- ManipulationToLinalg.cpp - combine, roll, extract_triangle ---------===//
//
// Data movement that needs a copy, as bandwidth-bound generics:
// - combine (concat, stack) and roll copy boxes: each piece of a source
//   (the whole operand, or a slice of it for roll) is copied by one
//   elementwise generic into its box of the result (`tensor.extract_slice`
//   of the result as the generic's init, `tensor.insert_slice` back), which
//   bufferizes to a write into a subview of one result buffer. Elementwise
//   producers fuse into the copy of their operand;
// - extract_triangle is an elementwise generic that selects by the loop
//   indices, fusable with its producers and consumers.
// (extract_mask: CompactionToLinalg.cpp.)
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"
#include "ptensor/Semantics/Manipulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// One piece of a box copy: the box of `source` at `sourceOffsets` with
/// `sizes` goes to `destOffsets` of the result. A `dropDim` >= 0 is a
/// result dim of size 1 the source does not have (stack's new axis).
struct Piece {
  Value source;
  Type sourceDType;
  SmallVector<OpFoldResult> sourceOffsets, destOffsets, sizes;
  int64_t dropDim = -1;
  /// The box is all of `source`: the copy reads it directly, so that an
  /// elementwise producer of it fuses into the copy.
  bool wholeSource = false;
};

} // namespace

/// Copies `piece` into `dest` (a tensor of semantic dtype `destDType`) and
/// returns the updated dest.
static Value copyPiece(OpBuilder &b, Location loc, Value dest, Type destDType,
                       const Piece &piece) {
  auto destType = cast<RankedTensorType>(dest.getType());
  auto sourceType = cast<RankedTensorType>(piece.source.getType());
  int64_t rank = sourceType.getRank();
  IntegerAttr one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> unitStrides(rank, one);
  Value sourceBox = piece.source;
  if (!piece.wholeSource)
    sourceBox = tensor::ExtractSliceOp::create(b, loc, piece.source,
                                               piece.sourceOffsets, piece.sizes,
                                               unitStrides);
  auto boxType = cast<RankedTensorType>(sourceBox.getType());
  // The destination box, rank-reduced where stack adds a dim.
  SmallVector<OpFoldResult> destSizes = piece.sizes;
  if (piece.dropDim >= 0)
    destSizes.insert(destSizes.begin() + piece.dropDim, one);
  SmallVector<OpFoldResult> destStrides(destType.getRank(), one);
  auto sliceType = boxType.clone(destType.getElementType());
  auto destSlice = tensor::ExtractSliceOp::create(
      b, loc, sliceType, dest, piece.destOffsets, destSizes, destStrides);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      b, loc, TypeRange{sliceType}, ValueRange{sourceBox},
      ValueRange{destSlice.getResult()}, ArrayRef<AffineMap>{identity, identity},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = convertScalar(nb, nloc, args[0], piece.sourceDType, destDType);
        linalg::YieldOp::create(nb, nloc, v);
      });
  return tensor::InsertSliceOp::create(b, loc, copy.getResult(0), dest,
                                       piece.destOffsets, destSizes,
                                       destStrides);
}

/// An empty result tensor of `type` with `sizes`.
static Value emptyResult(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<OpFoldResult> sizes) {
  return tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
}

namespace {

struct CombinePattern : public OpConversionPattern<CombineOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CombineOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    IndexMath m(rewriter, loc);
    bool isStack = op.getKind() == CombineKind::stack;
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += resultType.getRank();
    ValueRange inputs = adaptor.getInputs();
    SmallVector<SmallVector<OpFoldResult>> sizes;
    for (Value in : inputs)
      sizes.push_back(tensor::getMixedSizes(rewriter, loc, in));
    checkSizes(m, op, sizes, axis);

    // The result sizes: operand 0's (or the static ones of the type), the
    // axis summed (concat) or the number of operands (stack).
    SmallVector<OpFoldResult> resultSizes;
    for (int64_t d = 0, r = 0; d < resultType.getRank(); ++d) {
      if (isStack && d == axis) {
        resultSizes.push_back(m.index(inputs.size()));
        continue;
      }
      int64_t sourceDim = r++;
      if (!isStack && d == axis) {
        OpFoldResult sum = m.index(0);
        for (auto &s : sizes)
          sum = m.add(sum, s[sourceDim]);
        resultSizes.push_back(sum);
        continue;
      }
      int64_t size = resultType.getDimSize(d);
      resultSizes.push_back(ShapedType::isDynamic(size)
                                ? sizes[0][sourceDim]
                                : OpFoldResult(m.index(size)));
    }
    Value dest = emptyResult(rewriter, loc, resultType, resultSizes);
    Type destDType = op.getType().getElementType();
    OpFoldResult along = m.index(0);
    for (auto [k, in] : llvm::enumerate(inputs)) {
      Piece piece;
      piece.source = in;
      piece.sourceDType = cast<PTensorType>(op.getInputs()[k].getType())
                              .getElementType();
      piece.sizes = sizes[k];
      piece.wholeSource = true;
      piece.sourceOffsets.assign(sizes[k].size(), m.index(0));
      piece.destOffsets.assign(resultType.getRank(), m.index(0));
      if (isStack) {
        piece.destOffsets[axis] = m.index(k);
        piece.dropDim = axis;
      } else {
        piece.destOffsets[axis] = along;
        along = m.add(along, sizes[k][axis]);
      }
      dest = copyPiece(rewriter, loc, dest, destDType, piece);
    }
    rewriter.replaceOp(op, dest);
    return success();
  }

  /// Run-time checks that every operand's sizes equal operand 0's where
  /// they must and the types do not say so.
  static void checkSizes(IndexMath &m, CombineOp op,
                         ArrayRef<SmallVector<OpFoldResult>> sizes,
                         int64_t axis) {
    bool isStack = op.getKind() == CombineKind::stack;
    auto kind = isStack ? ShapeCheckKind::Stack : ShapeCheckKind::Concat;
    for (size_t k = 1; k < sizes.size(); ++k)
      for (size_t d = 0; d < sizes[k].size(); ++d) {
        if (!isStack && static_cast<int64_t>(d) == axis)
          continue;
        Value same = m.eq(sizes[0][d], sizes[k][d]);
        if (matchPattern(same, m_One()))
          continue;
        SmallVector<Value> first = m.values(sizes[0]);
        SmallVector<Value> other = m.values(sizes[k]);
        buildShapesCheck(m.b, m.loc, same, kind, first, other, k, d);
      }
  }
};

/// roll: per rolled dim of size n by r = shift mod n, the source range
/// [0, n - r) goes to [r, n) and [n - r, n) to [0, r); the pieces of
/// several rolled dims are their products.
struct RollPattern : public OpConversionPattern<RollOp> {
  using OpConversionPattern::OpConversionPattern;

  /// One range along a dim: source offset, dest offset, length.
  struct Range {
    OpFoldResult source, dest, length;
  };

  LogicalResult
  matchAndRewrite(RollOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    IndexMath m(rewriter, loc);
    Value source = adaptor.getSource();
    sem::Result<std::vector<int64_t>> shifts = sem::rollShifts(
        type.getRank(),
        std::vector<int64_t>(op.getShifts().begin(), op.getShifts().end()),
        std::vector<int64_t>(op.getAxes().begin(), op.getAxes().end()));
    assert(shifts && "roll is verified");
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, source);
    // The ranges of each dim.
    SmallVector<SmallVector<Range>> ranges;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      OpFoldResult n = sizes[d];
      if ((*shifts)[d] == 0) {
        ranges.push_back({{m.index(0), m.index(0), n}});
        continue;
      }
      OpFoldResult r = m.wrap((*shifts)[d], n);
      OpFoldResult rest = m.sub(n, r);
      SmallVector<Range> dim;
      if (!isConstantIntValue(rest, 0))
        dim.push_back({m.index(0), r, rest});
      if (!isConstantIntValue(r, 0))
        dim.push_back({rest, m.index(0), r});
      if (dim.empty())
        dim.push_back({m.index(0), m.index(0), n});
      ranges.push_back(dim);
    }
    Value dest = emptyResult(rewriter, loc, type, sizes);
    Type dtype = op.getType().getElementType();
    // Every combination of one range per dim.
    SmallVector<size_t> choice(type.getRank(), 0);
    while (true) {
      Piece piece;
      piece.source = source;
      piece.sourceDType = dtype;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        const Range &r = ranges[d][choice[d]];
        piece.sourceOffsets.push_back(r.source);
        piece.destOffsets.push_back(r.dest);
        piece.sizes.push_back(r.length);
      }
      dest = copyPiece(rewriter, loc, dest, dtype, piece);
      int64_t d = type.getRank() - 1;
      while (d >= 0 && ++choice[d] == ranges[d].size())
        choice[d--] = 0;
      if (d < 0)
        break;
    }
    rewriter.replaceOp(op, dest);
    return success();
  }
};

/// tril/triu: keep (..., i, j) where j - i <= offset (lower) or >= offset
/// (upper), zero elsewhere; i counts from first_row when given.
struct ExtractTrianglePattern : public OpConversionPattern<ExtractTriangleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ExtractTriangleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    int64_t rank = type.getRank();
    SmallVector<Value> dynamicSizes =
        tensor::createDynamicDimValues(rewriter, loc, source);
    ElementwiseInput input{source, op.getType().getElementType(),
                           rewriter.getMultiDimIdentityMap(rank)};
    bool lower = op.getKind() == TriangleKind::lower;
    int64_t offset = op.getOffset();
    Type storage = type.getElementType();
    Value firstRow = adaptor.getFirstRow();
    SmallVector<Value> results = buildElementwiseGeneric(
        rewriter, loc, input, type, dynamicSizes,
        [&](OpBuilder &b, Location l, ValueRange v) {
          Value i = linalg::IndexOp::create(b, l, rank - 2);
          if (firstRow)
            i = arith::AddIOp::create(b, l, i, firstRow);
          Value j = linalg::IndexOp::create(b, l, rank - 1);
          Value diff = arith::SubIOp::create(b, l, j, i);
          Value k = arith::ConstantIndexOp::create(b, l, offset);
          Value keep = arith::CmpIOp::create(
              b, l, lower ? arith::CmpIPredicate::sle : arith::CmpIPredicate::sge,
              diff, k);
          Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(storage));
          return SmallVector<Value>{
              arith::SelectOp::create(b, l, keep, v[0], zero)};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// extract_mask on the host: a counting pass over the mask, a result
/// allocated with the count, then a compaction pass that copies each
/// selected element (or sub-tensor, for a mask of lower rank) to the next
/// row of the result. Both passes are loop nests over the mask's dims with
/// the count (and the result) carried, so any layout of either operand is
/// read in place.
} // namespace

void mlir::ptensor::populateManipulationToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CombinePattern, RollPattern, ExtractTrianglePattern>(
      converter, patterns.getContext());
}
