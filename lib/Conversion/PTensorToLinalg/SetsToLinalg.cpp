//===- SetsToLinalg.cpp - unique_* ----------------------------------------===//
//
// ptensor.unique: the input is flattened (a view when its layout allows, a
// copy made by bufferization otherwise) and sorted ascending by
// `ptensor.sort_along` (stable, with the permutation, when indices or
// inverse_indices are asked for). A sorted position starts a run when it
// is the first or differs from the one before (`une` for floats: each NaN
// starts its own run, -0.0 continues a run of 0.0). The count → select
// machinery (Compaction.h) over those flags gives the run starts; one
// parallel generic over the runs gathers the values, the first occurrences
// (the permutation at a run's start: a stable sort keeps the smallest
// position first) and the counts (the next start, or n, less the start).
// inverse_indices is `ptensor.scatter_runs` (each sorted position's run
// number, stored at its input position), viewed in the input's shape. The
// same IR on the host and the GPU.
//
//===----------------------------------------------------------------------===//

#include "Compaction.h"
#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Dialect/PTensor/IR/SetKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// The 1-D row-major `flat` in the shape `sizes` (a view, no copy; the
/// rank of `like`).
static Value unflatten(OpBuilder &b, Location loc, Value flat,
                       RankedTensorType like, ArrayRef<OpFoldResult> sizes) {
  auto flatType = cast<RankedTensorType>(flat.getType());
  auto type = RankedTensorType::get(like.getShape(), flatType.getElementType());
  if (type.getRank() == 1)
    return type == flatType
               ? flat
               : tensor::CastOp::create(b, loc, type, flat).getResult();
  IndexMath m(b, loc);
  StridedView view{b.getIndexAttr(0), SmallVector<OpFoldResult>(sizes),
                   rowMajorStrides(m, sizes)};
  return buildView(m, flat, view, type);
}

struct UniquePattern : public OpConversionPattern<UniqueOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UniqueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PTensorType inputType = op.getInput().getType();
    std::vector<sem::UniqueResult> wanted =
        sem::uniqueResults(getSemanticUniqueKind(op.getKind()));
    auto wants = [&](sem::UniqueResult result) {
      return llvm::is_contained(wanted, result);
    };
    bool wantIndices = wants(sem::UniqueResult::Indices);
    bool wantInverse = wants(sem::UniqueResult::InverseIndices);
    bool wantCounts = wants(sem::UniqueResult::Counts);
    bool wantPermutation = wantIndices || wantInverse;

    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputTensorType = cast<RankedTensorType>(input.getType());
    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, loc, input);
    Type element = inputTensorType.getElementType();
    Type i64 = rewriter.getI64Type();
    Value flat = flatten(rewriter, loc, input);
    Value n = tensor::DimOp::create(rewriter, loc, flat, 0);

    // The sorted values and, when needed, the permutation that sorts.
    SmallVector<int64_t> dynamic = {ShapedType::kDynamic};
    Value sortedInit =
        tensor::EmptyOp::create(rewriter, loc, dynamic, element, ValueRange{n});
    // An alloc_tensor, not a tensor.empty: CSE would merge two empties of
    // one type (sorted i64 values and the permutation) into one operand,
    // and sort_along writes its two outputs into different buffers.
    Value permutationInit;
    if (wantPermutation)
      permutationInit = bufferization::AllocTensorOp::create(
          rewriter, loc, RankedTensorType::get(dynamic, i64), ValueRange{n});
    SmallVector<Type> sortTypes = {sortedInit.getType()};
    if (wantPermutation)
      sortTypes.push_back(permutationInit.getType());
    BoolAttr ascending = rewriter.getBoolAttr(false);
    BoolAttr stable = rewriter.getBoolAttr(wantPermutation);
    auto sort = SortAlongOp::create(
        rewriter, loc, sortTypes, flat, sortedInit, permutationInit,
        /*runs=*/Value(), rewriter.getI64IntegerAttr(0), TypeAttr::get(inputType.getElementType()),
        ascending, stable);
    Value sorted = sort.getResult(0);
    Value permutation = wantPermutation ? sort.getResult(1) : Value();

    // starts[i]: sorted position i starts a run of equal values.
    Value starts = runStarts(rewriter, loc, sorted);
    Value firsts = truePositions(rewriter, loc, starts);
    Value runs = tensor::DimOp::create(rewriter, loc, firsts, 0);

    // One generic over the runs: values, indices, counts as wanted.
    SmallVector<Type> resultTypes = {RankedTensorType::get(dynamic, element)};
    if (wantIndices)
      resultTypes.push_back(RankedTensorType::get(dynamic, i64));
    if (wantCounts)
      resultTypes.push_back(RankedTensorType::get(dynamic, i64));
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, getContext());
    ElementwiseInput first{firsts, i64, identity};
    SmallVector<Value> perRun = buildElementwiseGeneric(
        rewriter, loc, {first}, resultTypes, ValueRange{runs},
        [&](OpBuilder &b, Location l, ValueRange values) {
          Value start = values[0];
          Value at = arith::IndexCastOp::create(b, l, b.getIndexType(), start);
          SmallVector<Value> results = {
              tensor::ExtractOp::create(b, l, sorted, ValueRange{at})};
          if (wantIndices)
            results.push_back(
                tensor::ExtractOp::create(b, l, permutation, ValueRange{at}));
          if (wantCounts)
            results.push_back(runLength(b, l, firsts, start, runs, n));
          return results;
        });
    Value values = perRun[0];
    Value indices = wantIndices ? perRun[1] : Value();
    Value counts = wantCounts ? perRun.back() : Value();
    Value inverse;
    if (wantInverse) {
      Value init =
          tensor::EmptyOp::create(rewriter, loc, dynamic, i64, ValueRange{n});
      Value flatInverse =
          ScatterRunsOp::create(rewriter, loc, TypeRange{init.getType()},
                                starts, permutation, init)
              .getResult(0);
      inverse = unflatten(rewriter, loc, flatInverse, inputTensorType,
                          inputSizes);
    }

    SmallVector<Value> replacements;
    for (sem::UniqueResult result : wanted) {
      switch (result) {
      case sem::UniqueResult::Values:
        replacements.push_back(values);
        break;
      case sem::UniqueResult::Indices:
        replacements.push_back(indices);
        break;
      case sem::UniqueResult::InverseIndices:
        replacements.push_back(inverse);
        break;
      case sem::UniqueResult::Counts:
        replacements.push_back(counts);
        break;
      }
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

  /// The i1 flags of the 1-D `sorted`: position i is 0 or differs from
  /// position i - 1 (`une` for floats).
  static Value runStarts(OpBuilder &b, Location loc, Value sorted) {
    Type element = cast<RankedTensorType>(sorted.getType()).getElementType();
    return computeFlags(
        b, loc, sorted, [&](OpBuilder &nb, Location l, Value current) {
          Value zero = arith::ConstantIndexOp::create(nb, l, 0);
          Value one = arith::ConstantIndexOp::create(nb, l, 1);
          Value i = linalg::IndexOp::create(nb, l, 0);
          Value isFirst =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i, zero);
          Value atLeastOne = arith::MaxUIOp::create(nb, l, i, one);
          Value before = arith::SubIOp::create(nb, l, atLeastOne, one);
          Value previous =
              tensor::ExtractOp::create(nb, l, sorted, ValueRange{before});
          Value differs;
          if (isa<FloatType>(element))
            differs = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNE,
                                            current, previous);
          else
            differs = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne,
                                            current, previous);
          return Value(arith::OrIOp::create(nb, l, isFirst, differs));
        });
  }

  /// The length (i64) of the run starting at `start` (i64), the j-th of
  /// `runs` whose starts are `firsts`, in a sorted line of `n`: the next
  /// run's start, or n for the last run, less `start`.
  static Value runLength(OpBuilder &b, Location loc, Value firsts, Value start,
                         Value runs, Value n) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value j = linalg::IndexOp::create(b, loc, 0);
    Value next = arith::AddIOp::create(b, loc, j, one);
    Value isLast =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, runs);
    Value nextOrLast = arith::SelectOp::create(b, loc, isLast, j, next);
    Value nextStart =
        tensor::ExtractOp::create(b, loc, firsts, ValueRange{nextOrLast});
    Value total = arith::IndexCastOp::create(b, loc, b.getI64Type(), n);
    Value end = arith::SelectOp::create(b, loc, isLast, total, nextStart);
    return arith::SubIOp::create(b, loc, end, start);
  }
};

} // namespace

void mlir::ptensor::populateSetsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<UniquePattern>(converter, patterns.getContext());
}
