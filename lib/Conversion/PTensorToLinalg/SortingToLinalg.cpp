//===- SortingToLinalg.cpp - sort and argsort ------------------------------===//
//
// sort and argsort become `ptensor.sort_along`, which reads the input in
// any layout and writes a new tensor (destination-passing: tensor.empty):
// the sorted values, or argsort's i64 positions. It becomes a call of the
// runtime's sort after bufferization (convert-ptensor-sort-to-library),
// with the sort's `runs` hint where it has one.
// The input is never written: a sort in place of a copy would be wrong,
// since canonicalization folds an identity copy into its source.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Semantics/Sorting.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

template <typename SortOp>
struct SortPattern : public OpConversionPattern<SortOp> {
  using OpConversionPattern<SortOp>::OpConversionPattern;
  using OpAdaptor = typename SortOp::Adaptor;

  static constexpr sem::SortKind kind = std::is_same_v<SortOp, ArgsortOp>
                                            ? sem::SortKind::Indices
                                            : sem::SortKind::Values;

  LogicalResult
  matchAndRewrite(SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PTensorType inputType = op.getInput().getType();
    Type dtype = inputType.getElementType();
    sem::Result<int64_t> dim =
        sem::sortAxis(kind, static_cast<int64_t>(op.getAxis()), inputType.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, dim.getError().message);
    Value input = adaptor.getInput();
    auto tensorType = cast<RankedTensorType>(input.getType());
    SmallVector<Value> dynamicSizes =
        tensor::createDynamicDimValues(rewriter, loc, input);
    // The outputs: new tensors, only written by the sort.
    Value values, indices;
    if (kind == sem::SortKind::Values)
      values = tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                       tensorType.getElementType(),
                                       dynamicSizes);
    else
      indices = tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                        rewriter.getI64Type(), dynamicSizes);
    Value output = values ? values : indices;
    auto sort = SortAlongOp::create(
        rewriter, loc, TypeRange{output.getType()}, input, values, indices,
        adaptor.getRuns(), rewriter.getI64IntegerAttr(*dim), TypeAttr::get(dtype),
        rewriter.getBoolAttr(op.getDescending()),
        rewriter.getBoolAttr(op.getStable()));
    rewriter.replaceOp(op, sort.getResult(0));
    return success();
  }
};

} // namespace

void mlir::ptensor::populateSortingToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SortPattern<SortValuesOp>, SortPattern<ArgsortOp>>(
      converter, patterns.getContext());
}
