//===- StridedView.cpp - ptensor.strided_view and its bufferization -------===//
//
// The view ops lower to `ptensor.strided_view` on builtin tensors. One-shot
// bufferization treats its result as an alias of the source (as it treats
// tensor.extract_slice), so the source's buffer is not reused in place while
// the view is live; bufferized, it is a memref.reinterpret_cast of the
// source's buffer (no copy).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::bufferization;

LogicalResult StridedViewOp::verify() {
  RankedTensorType source = getSource().getType(), result = getType();
  if (source.getElementType() != result.getElementType())
    return emitOpError("expected the source element type ")
           << source.getElementType() << ", found " << result.getElementType();
  if (static_cast<int64_t>(getStrides().size()) != result.getRank())
    return emitOpError("expected ")
           << result.getRank() << " strides (the result rank), found "
           << getStrides().size();
  if (getSizes().size() != static_cast<size_t>(result.getNumDynamicDims()))
    return emitOpError("expected ")
           << result.getNumDynamicDims()
           << " sizes (the dynamic result dimensions), found "
           << getSizes().size();
  return success();
}

SmallVector<OpFoldResult> StridedViewOp::getMixedSizes() {
  Builder b(getContext());
  SmallVector<OpFoldResult> sizes;
  auto dynamic = getSizes().begin();
  for (int64_t size : getType().getShape())
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(*dynamic++)
                                                : b.getIndexAttr(size));
  return sizes;
}

bool StridedViewOp::bufferizesToMemoryRead(OpOperand &, const AnalysisState &) {
  // Reads happen where the view is used (through the alias).
  return false;
}

bool StridedViewOp::bufferizesToMemoryWrite(OpOperand &,
                                            const AnalysisState &) {
  return false;
}

AliasingValueList StridedViewOp::getAliasingValues(OpOperand &,
                                                   const AnalysisState &) {
  // Same buffer, different elements and layout: neither equivalent nor
  // known to be disjoint.
  return {{getResult(), BufferRelation::Unknown, /*isDefinite=*/true}};
}

FailureOr<BufferLikeType>
StridedViewOp::getBufferType(Value value, const BufferizationOptions &options,
                             const BufferizationState &state,
                             SmallVector<Value> &invocationStack) {
  FailureOr<BufferLikeType> source = bufferization::getBufferType(
      getSource(), options, state, invocationStack);
  if (failed(source))
    return failure();
  auto sourceType = dyn_cast<BaseMemRefType>(*source);
  if (!sourceType)
    return emitOpError("expected the source to bufferize to a memref");
  return cast<BufferLikeType>(getMemRefTypeWithFullyDynamicLayout(
      getType(), sourceType.getMemorySpace()));
}

LogicalResult StridedViewOp::bufferize(RewriterBase &rewriter,
                                       const BufferizationOptions &options,
                                       BufferizationState &state) {
  FailureOr<Value> source = getBuffer(rewriter, getSource(), options, state);
  if (failed(source))
    return failure();
  auto sourceType = cast<BaseMemRefType>(source->getType());
  auto type = cast<MemRefType>(getMemRefTypeWithFullyDynamicLayout(
      getType(), sourceType.getMemorySpace()));
  SmallVector<OpFoldResult> strides(getStrides().begin(), getStrides().end());
  Value view = memref::ReinterpretCastOp::create(
      rewriter, getLoc(), type, *source, OpFoldResult(getOffset()),
      getMixedSizes(), strides);
  replaceOpWithBufferizedValues(rewriter, *this, view);
  return success();
}
