//===- SetsToLinalg.cpp - unique_* ----------------------------------------===//
//
// ptensor.unique on host tensors: the input is flattened (a view when its
// layout allows, a copy made by bufferization otherwise) and sorted
// ascending by `ptensor.sort_along` (stable, with the permutation, when
// indices or inverse_indices are asked for). A sorted position starts a
// run when it is the first or differs from the one before (`une` for
// floats: each NaN starts its own run, -0.0 continues a run of 0.0). The
// count → compact machinery (CountAndCompact.h) over those flags gives the
// values, the first occurrences (the permutation at a run's start: a
// stable sort keeps the smallest position first) and the run starts, which
// one loop turns into counts. inverse_indices is one scatter loop: the run
// number of each sorted position, stored at its input position. GPU
// tensors are refused before the conversion (checkHostOnlyOps).
//
//===----------------------------------------------------------------------===//

#include "CountAndCompact.h"
#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Semantics/Sets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// `input` as a 1-D tensor in row-major order.
static Value flatten(OpBuilder &b, Location loc, Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getRank() == 1)
    return input;
  if (type.getRank() == 0) {
    auto flatType = RankedTensorType::get({1}, type.getElementType());
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1)};
    return tensor::ExpandShapeOp::create(b, loc, flatType, input,
                                         ArrayRef<ReassociationIndices>{},
                                         sizes);
  }
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(b, loc, input,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The 1-D row-major `flat` in the shape `sizes` (a view, no copy; the
/// rank of `like`).
static Value unflatten(OpBuilder &b, Location loc, Value flat,
                       RankedTensorType like, ArrayRef<OpFoldResult> sizes) {
  auto flatType = cast<RankedTensorType>(flat.getType());
  auto type = RankedTensorType::get(like.getShape(), flatType.getElementType());
  if (type.getRank() == 1)
    return type == flatType ? flat
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
    if (inputType.isOnGPU())
      return rewriter.notifyMatchFailure(op, "unique runs on the host");
    std::optional<sem::UniqueKind> kind =
        sem::uniqueKindFromName(stringifyUniqueKind(op.getKind()).str());
    if (!kind)
      return rewriter.notifyMatchFailure(op, "unknown kind of unique");
    std::vector<sem::UniqueResult> wanted = sem::uniqueResults(*kind);
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
        rewriter.getI64IntegerAttr(0), TypeAttr::get(inputType.getElementType()),
        ascending, stable);
    Value sorted = sort.getResult(0);
    Value permutation = wantPermutation ? sort.getResult(1) : Value();

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // Sorted position `ivs[0]` starts a run of equal values.
    auto startsRun = [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
      Value i = ivs[0];
      Value isFirst =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, i, zero);
      Value atLeastOne = arith::MaxUIOp::create(b, l, i, one);
      Value before = arith::SubIOp::create(b, l, atLeastOne, one);
      Value current = tensor::ExtractOp::create(b, l, sorted, ValueRange{i});
      Value previous =
          tensor::ExtractOp::create(b, l, sorted, ValueRange{before});
      Value differs;
      if (isa<FloatType>(element))
        differs = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE,
                                        current, previous);
      else
        differs = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne,
                                        current, previous);
      return arith::OrIOp::create(b, l, isFirst, differs);
    };

    // Compacted results: values, then indices and run starts as wanted.
    auto allocate = [&](Value count) {
      SmallVector<Value> results;
      results.push_back(tensor::EmptyOp::create(rewriter, loc, dynamic,
                                                element, ValueRange{count}));
      if (wantIndices)
        results.push_back(tensor::EmptyOp::create(rewriter, loc, dynamic, i64,
                                                  ValueRange{count}));
      if (wantCounts)
        results.push_back(tensor::EmptyOp::create(rewriter, loc, dynamic, i64,
                                                  ValueRange{count}));
      return results;
    };
    auto store = [&](OpBuilder &b, Location l, ValueRange results,
                     ValueRange ivs, Value row) {
      Value i = ivs[0];
      SmallVector<Value> updated;
      Value value = tensor::ExtractOp::create(b, l, sorted, ValueRange{i});
      updated.push_back(
          tensor::InsertOp::create(b, l, value, results[0], ValueRange{row}));
      unsigned next = 1;
      if (wantIndices) {
        Value first =
            tensor::ExtractOp::create(b, l, permutation, ValueRange{i});
        updated.push_back(tensor::InsertOp::create(b, l, first,
                                                   results[next++],
                                                   ValueRange{row}));
      }
      if (wantCounts) {
        Value start = arith::IndexCastOp::create(b, l, i64, i);
        updated.push_back(tensor::InsertOp::create(b, l, start,
                                                   results[next++],
                                                   ValueRange{row}));
      }
      return updated;
    };
    SmallVector<Value> compacted =
        countAndCompact(rewriter, loc, {n}, startsRun, allocate, store);
    Value values = compacted[0];
    Value indices = wantIndices ? compacted[1] : Value();
    Value counts;
    if (wantCounts)
      counts = countsFromStarts(rewriter, loc, compacted.back(), n);
    Value inverse;
    if (wantInverse) {
      Value flatInverse =
          inverseIndices(rewriter, loc, permutation, n, startsRun);
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

  /// The run lengths from the run starts `starts` (i64, ascending) in a
  /// sorted line of `n` elements: start[j + 1] - start[j], and n - start
  /// for the last run; computed in place, front to back.
  static Value countsFromStarts(OpBuilder &b, Location loc, Value starts,
                                Value n) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value runs = tensor::DimOp::create(b, loc, starts, 0);
    Value total = arith::IndexCastOp::create(b, loc, b.getI64Type(), n);
    auto loop = scf::ForOp::create(
        b, loc, zero, runs, one, ValueRange{starts},
        [&](OpBuilder &lb, Location l, Value j, ValueRange carried) {
          Value counts = carried[0];
          Value next = arith::AddIOp::create(lb, l, j, one);
          Value isLast = arith::CmpIOp::create(
              lb, l, arith::CmpIPredicate::eq, next, runs);
          Value nextOrLast = arith::SelectOp::create(lb, l, isLast, j, next);
          Value nextStart =
              tensor::ExtractOp::create(lb, l, counts, ValueRange{nextOrLast});
          Value end = arith::SelectOp::create(lb, l, isLast, total, nextStart);
          Value start = tensor::ExtractOp::create(lb, l, counts, ValueRange{j});
          Value count = arith::SubIOp::create(lb, l, end, start);
          Value updated =
              tensor::InsertOp::create(lb, l, count, counts, ValueRange{j});
          scf::YieldOp::create(lb, l, updated);
        });
    return loop.getResult(0);
  }

  /// inverse_indices of the flattened input (i64, `n` elements): the run
  /// number of sorted position i (the runs started up to i, less one),
  /// stored at the input position permutation[i].
  static Value inverseIndices(OpBuilder &b, Location loc, Value permutation,
                              Value n, FlagFn startsRun) {
    Type i64 = b.getI64Type();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value none = arith::ConstantIntOp::create(b, loc, i64, -1);
    SmallVector<int64_t> dynamic = {ShapedType::kDynamic};
    Value init = tensor::EmptyOp::create(b, loc, dynamic, i64, ValueRange{n});
    auto loop = scf::ForOp::create(
        b, loc, zero, n, one, ValueRange{init, none},
        [&](OpBuilder &lb, Location l, Value i, ValueRange carried) {
          Value starts = startsRun(lb, l, ValueRange{i});
          Value step = arith::ExtUIOp::create(lb, l, i64, starts);
          Value run = arith::AddIOp::create(lb, l, carried[1], step);
          Value position =
              tensor::ExtractOp::create(lb, l, permutation, ValueRange{i});
          Value target =
              arith::IndexCastOp::create(lb, l, lb.getIndexType(), position);
          Value updated = tensor::InsertOp::create(lb, l, run, carried[0],
                                                   ValueRange{target});
          scf::YieldOp::create(lb, l, ValueRange{updated, run});
        });
    return loop.getResult(0);
  }
};

} // namespace

void mlir::ptensor::populateSetsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<UniquePattern>(converter, patterns.getContext());
}
