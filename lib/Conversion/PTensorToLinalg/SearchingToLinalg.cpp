//===- SearchingToLinalg.cpp - searchsorted --------------------------------===//
//
// ptensor.searchsorted becomes one parallel generic over the values whose
// body is a binary search of the 1-D sorted tensor (read by position with
// tensor.extract; through the sorter when there is one): an `scf.while`
// narrowing to the insertion point in ceil(log2(size)) branch-free steps. The
// same IR serves the host (a parallel loop nest) and the GPU (one thread
// per value). Both sides are compared in the compute dtype of the op's
// compare dtype (f32 for f16/bf16: exact, and the same order), floats in
// ptensor.sort's order (NaNs last, -0.0 equal to 0.0).
//
// On the host, when the values are many (at least 1/16 of the sorted
// tensor's size, checked at run time), `sorted` is first gathered in the
// sorter's order, and the values search that copy: one load per step
// instead of two dependent ones.
//
// A sorter is checked before the search, so that the search never reads
// outside `sorted`: its size against the sorted tensor's (a run-time check
// when either is dynamic) and its indices against [0, size) (the indices
// out of range are counted by the compaction's count_true, on the host or
// the GPU, and must be none).
//
//===----------------------------------------------------------------------===//

#include "Compaction.h"
#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Dialect/PTensor/IR/Searching.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// `a` before `b` in ptensor.sort's ascending order, for values of the
/// storage type of semantic dtype `dtype`: floats with every NaN after
/// every number, integers by their signedness, bool false before true.
static Value sortsBefore(OpBuilder &b, Location loc, Type dtype, Value a,
                         Value c) {
  if (isa<FloatType>(dtype)) {
    Value less =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a, c);
    Value cIsNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c, c);
    Value aIsNumber =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, a, a);
    Value beforeNaN = arith::AndIOp::create(b, loc, cIsNaN, aIsNumber);
    return arith::OrIOp::create(b, loc, less, beforeNaN);
  }
  bool isSigned = !dtype.isUnsignedInteger() && !dtype.isInteger(1);
  return arith::CmpIOp::create(
      b, loc, isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult,
      a, c);
}

struct SearchsortedPattern : public OpConversionPattern<SearchsortedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SearchsortedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type sortedDType = getDType(op.getSorted().getType());
    Type valuesDType = getDType(op.getValues().getType());
    Type compare = getComputeType(getCompareDType(op));
    bool right = op.getSide() == SearchSide::right;
    Value sorted = adaptor.getSorted();
    Value values = adaptor.getValues();
    Value sorter = adaptor.getSorter();
    Value size = tensor::DimOp::create(rewriter, loc, sorted, 0);
    Type sorterDType = sorter ? getDType(op.getSorter().getType()) : Type();
    if (sorter)
      checkSorter(rewriter, loc, sorter, sorterDType, sorted, size);

    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    // The result has the values' shape.
    SmallVector<Value> dynamicSizes =
        tensor::createDynamicDimValues(rewriter, loc, values);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(
        resultType.getRank(), getContext());
    ElementwiseInput value{values, valuesDType, identity};
    // The search of every value in `line` (in ascending order through
    // `lineSorter`, when not null).
    auto searchAll = [&](OpBuilder &b, Location l, Value line,
                         Value lineSorter) {
      return buildElementwiseGeneric(
          b, l, {value}, {resultType}, dynamicSizes,
          [&](OpBuilder &vb, Location vl, ValueRange elements) {
            Value v = convertScalar(vb, vl, elements[0], valuesDType, compare);
            // The element at sorted position `at`, in the compare dtype.
            auto elementAt = [&](OpBuilder &nb, Location nl, Value at) {
              if (lineSorter)
                at = positionThrough(nb, nl, lineSorter, sorterDType, at);
              Value element =
                  tensor::ExtractOp::create(nb, nl, line, ValueRange{at});
              return convertScalar(nb, nl, element, sortedDType, compare);
            };
            // Left: the first position whose element is not before v;
            // right: the first whose element v is before.
            auto goesRight = [&](OpBuilder &nb, Location nl, Value element) {
              if (!right)
                return sortsBefore(nb, nl, compare, element, v);
              Value after = sortsBefore(nb, nl, compare, v, element);
              Value one = arith::ConstantIntOp::create(nb, nl, 1, 1);
              return Value(arith::XOrIOp::create(nb, nl, after, one));
            };
            Value position = binarySearch(vb, vl, size, elementAt, goesRight);
            return SmallVector<Value>{
                arith::IndexCastOp::create(vb, vl, vb.getI64Type(), position)};
          })[0];
    };
    Value result;
    if (!sorter || cast<PTensorType>(op.getSorted().getType()).isOnGPU()) {
      result = searchAll(rewriter, loc, sorted, sorter);
    } else {
      // On the host, many values search a copy of `sorted` in the sorter's
      // order (one pass that gathers `size` elements), each step then one
      // load instead of two dependent ones; few values search through the
      // sorter.
      Value gather = gathersFirst(rewriter, loc, values, size);
      auto choice = scf::IfOp::create(
          rewriter, loc, gather,
          [&](OpBuilder &b, Location l) {
            Value inOrder = gatherInOrder(b, l, sorted, sorter, sorterDType);
            Value found = searchAll(b, l, inOrder, Value());
            scf::YieldOp::create(b, l, found);
          },
          [&](OpBuilder &b, Location l) {
            Value found = searchAll(b, l, sorted, sorter);
            scf::YieldOp::create(b, l, found);
          });
      result = choice.getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The host gathers `sorted` in the sorter's order before searching when
  /// there are at least size / kGatherRatio values: the gather's `size`
  /// independent loads then cost less than the second, dependent load of
  /// every search step. Measured (bench/RESULTS.md, one thread of this
  /// machine's EPYC): gathering pays from about size/200 values in a line
  /// of 2^20 float32 and from about size/24 in one of 2^16 (in L2); 16 is
  /// on the safe side of both.
  static constexpr int64_t kGatherRatio = 16;

  /// Whether the values (all of `values`' elements) are at least
  /// 1/kGatherRatio of `size`.
  static Value gathersFirst(OpBuilder &b, Location loc, Value values,
                            Value size) {
    IndexMath m(b, loc);
    SmallVector<OpFoldResult> extents = tensor::getMixedSizes(b, loc, values);
    OpFoldResult count = m.product(extents);
    OpFoldResult scaled = m.mul(count, m.index(kGatherRatio));
    return m.notI(m.slt(scaled, size));
  }

  /// The index in `sorted` of sorted position `at`: sorter[at].
  static Value positionThrough(OpBuilder &b, Location loc, Value sorter,
                               Type sorterDType, Value at) {
    Value position = tensor::ExtractOp::create(b, loc, sorter, ValueRange{at});
    return convertScalar(b, loc, position, sorterDType, b.getIndexType());
  }

  /// `sorted` in the sorter's order: sorted[sorter[i]] for each i (a
  /// parallel generic over the sorter, whose indices were checked).
  static Value gatherInOrder(OpBuilder &b, Location loc, Value sorted,
                             Value sorter, Type sorterDType) {
    auto lineType = cast<RankedTensorType>(sorted.getType());
    SmallVector<Value> sizes = tensor::createDynamicDimValues(b, loc, sorted);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, b.getContext());
    ElementwiseInput positions{sorter, sorterDType, identity};
    return buildElementwiseGeneric(
        b, loc, {positions}, {lineType}, sizes,
        [&](OpBuilder &nb, Location nl, ValueRange elements) {
          Value at = convertScalar(nb, nl, elements[0], sorterDType,
                                   nb.getIndexType());
          return SmallVector<Value>{
              tensor::ExtractOp::create(nb, nl, sorted, ValueRange{at})};
        })[0];
  }

  using ElementAtFn = function_ref<Value(OpBuilder &, Location, Value)>;
  using GoesRightFn = function_ref<Value(OpBuilder &, Location, Value)>;

  /// The first position in [0, size) whose element does not go right (the
  /// elements that go right come first), or size. Branch-free, with a trip
  /// count that depends on `size` alone: [base, base + len) holds the
  /// answer's last candidate and halves (base moves past the lower half
  /// when its last element goes right) until one element is left, which is
  /// then compared once. Every value takes the same ceil(log2(size)) steps,
  /// so the loop's exit is predicted and the next value's search starts
  /// while this one's loads are in flight (numpy's branchy search
  /// mispredicts half of its steps).
  static Value binarySearch(OpBuilder &b, Location loc, Value size,
                            ElementAtFn elementAt, GoesRightFn goesRight) {
    Type index = b.getIndexType();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{index, index}, ValueRange{zero, size},
        [&](OpBuilder &nb, Location nl, ValueRange state) {
          Value several = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::ugt, state[1], one);
          scf::ConditionOp::create(nb, nl, several, state);
        },
        [&](OpBuilder &nb, Location nl, ValueRange state) {
          Value base = state[0], len = state[1];
          Value half = arith::ShRUIOp::create(nb, nl, len, one);
          Value middle = arith::AddIOp::create(nb, nl, base, half);
          Value lowerLast = arith::SubIOp::create(nb, nl, middle, one);
          Value right = goesRight(nb, nl, elementAt(nb, nl, lowerLast));
          Value newBase = arith::SelectOp::create(nb, nl, right, middle, base);
          Value newLen = arith::SubIOp::create(nb, nl, len, half);
          scf::YieldOp::create(nb, nl, ValueRange{newBase, newLen});
        });
    Value base = loop.getResult(0);
    // The last candidate: past it when it goes right too (none when empty).
    Value empty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero);
    auto last = scf::IfOp::create(
        b, loc, empty,
        [&](OpBuilder &nb, Location nl) {
          scf::YieldOp::create(nb, nl, zero);
        },
        [&](OpBuilder &nb, Location nl) {
          Value right = goesRight(nb, nl, elementAt(nb, nl, base));
          Value past = arith::AddIOp::create(nb, nl, base, one);
          Value at = arith::SelectOp::create(nb, nl, right, past, base);
          scf::YieldOp::create(nb, nl, at);
        });
    return last.getResult(0);
  }

  /// Run-time checks of `sorter` (1-D, semantic dtype `dtype`) against the
  /// sorted tensor of `size` elements: the same size (when not both
  /// static: the verifier checked those), and every index in [0, size).
  static void checkSorter(OpBuilder &b, Location loc, Value sorter, Type dtype,
                          Value sorted, Value size) {
    IndexMath m(b, loc);
    auto sorterType = cast<RankedTensorType>(sorter.getType());
    auto sortedType = cast<RankedTensorType>(sorted.getType());
    Value sorterSize = tensor::DimOp::create(b, loc, sorter, 0);
    if (sorterType.isDynamicDim(0) || sortedType.isDynamicDim(0)) {
      Value same = m.eq(sorterSize, size);
      buildShapesCheck(b, loc, same, ShapeCheckKind::Searchsorted,
                       ValueRange{size}, ValueRange{sorterSize});
    }
    Type i64 = b.getI64Type();
    Value count = arith::IndexCastOp::create(b, loc, i64, size);
    Value outside = computeFlags(
        b, loc, sorter, [&](OpBuilder &nb, Location l, Value element) {
          // Through i64: an unsigned index past 2^63 reads as negative.
          Value at = convertScalar(nb, l, element, dtype, i64);
          Value zero = arith::ConstantIntOp::create(nb, l, i64, 0);
          Value below =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, at, zero);
          Value beyond =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, at, count);
          return Value(arith::OrIOp::create(nb, l, below, beyond));
        });
    Value bad = CountTrueOp::create(b, loc, outside);
    m.check(m.eq(bad, m.index(0)), sem::searchsortedSorterRangeMessage());
  }
};

} // namespace

void mlir::ptensor::populateSearchingToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SearchsortedPattern>(converter, patterns.getContext());
}
