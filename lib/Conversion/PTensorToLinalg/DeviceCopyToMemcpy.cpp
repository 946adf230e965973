//===- DeviceCopyToMemcpy.cpp - host<->device ptensor.copy ----------------===//
//
// A copy whose source and result live on different devices becomes a fresh
// row-major destination buffer filled by a `gpu.memcpy` marked with its
// direction; the source is read through its own strided view. Which side
// each buffer is allocated on, the staging of non-contiguous sources and the
// stream are decided after the GPU conversion by ptensor-lower-device-copies.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/DeviceCopies/DeviceCopies.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::ptensor;

StringRef mlir::ptensor::getDeviceCopyDirection(CopyOp op) {
  bool fromGPU = op.getSource().getType().isOnGPU();
  bool toGPU = op.getType().isOnGPU();
  if (fromGPU && toGPU)
    return kDeviceCopyDeviceToDevice;
  if (fromGPU)
    return kDeviceCopyToHost;
  if (toGPU)
    return kDeviceCopyToDevice;
  return {};
}

namespace {
struct DeviceCopyPattern : public OpConversionPattern<CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef direction = getDeviceCopyDirection(op);
    if (direction.empty())
      return rewriter.notifyMatchFailure(op, "a copy between host tensors");
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    Location loc = op.getLoc();
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc,
        getDynamicStridedMemRefType(type.getShape(), type.getElementType()),
        adaptor.getSource(), /*read_only=*/true);
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim)
      if (type.isDynamicDim(dim))
        dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, source, dim));
    Value dest = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        dynamicSizes);
    auto memcpy = gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(),
                                        ValueRange(), dest, source);
    memcpy->setAttr(kDeviceCopyAttrName, rewriter.getStringAttr(direction));
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, type, dest,
                               /*restrict=*/rewriter.getUnitAttr(),
                               /*writable=*/rewriter.getUnitAttr()));
    return success();
  }
};
} // namespace

void mlir::ptensor::populateDeviceCopyToMemcpyPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  // Above the host-copy pattern, which refuses device copies.
  patterns.add<DeviceCopyPattern>(converter, patterns.getContext(),
                                  /*benefit=*/2);
}
