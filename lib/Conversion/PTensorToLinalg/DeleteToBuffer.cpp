//===- DeleteToBuffer.cpp - ptensor.delete to ptensor.release_buffer -----===//
//
// A deleted tensor's buffer is freed by ptensor-release-deleted, after the
// deallocation pipeline placed its deallocation; until then the delete is a
// `ptensor.release_buffer` of the builtin tensor, which bufferizes to itself
// on the buffer.
//
//===----------------------------------------------------------------------===//

#include "PatternsInternal.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {
struct DeletePattern : public OpConversionPattern<DeleteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DeleteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ReleaseBufferOp>(op, adaptor.getSource());
    return success();
  }
};
} // namespace

void mlir::ptensor::populateDeleteToBufferPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DeletePattern>(converter, patterns.getContext());
}
