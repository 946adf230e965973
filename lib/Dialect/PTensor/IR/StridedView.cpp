//===- StridedView.cpp - strided_view, strided_write and bufferization ---===//
//
// The view ops lower to `ptensor.strided_view` on builtin tensors. One-shot
// bufferization treats its result as an alias of the source (as it treats
// tensor.extract_slice), so the source's buffer is not reused in place while
// the view is live; bufferized, it is a memref.reinterpret_cast of the
// source's buffer (no copy).
//
// ptensor.write lowers to `ptensor.strided_write`, a subset insertion into
// the destination (all of it, or a strided view) that always bufferizes in
// place: a copy into the destination's buffer, or nothing when empty-tensor
// elimination made the value's producer write there directly.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::bufferization;

/// One size per dimension of `type`: `dynamic` holds the dynamic ones.
static SmallVector<OpFoldResult> getMixedSizesOf(RankedTensorType type,
                                                 ValueRange dynamic) {
  Builder b(type.getContext());
  SmallVector<OpFoldResult> sizes;
  auto next = dynamic.begin();
  for (int64_t size : type.getShape())
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(*next++)
                                                : b.getIndexAttr(size));
  return sizes;
}

/// The view of `buffer`'s base with `type`'s shape and the given offset,
/// sizes and strides (fully dynamic layout).
static Value buildReinterpretCast(RewriterBase &rewriter, Location loc,
                                  Value buffer, RankedTensorType type,
                                  Value offset, ArrayRef<OpFoldResult> sizes,
                                  ValueRange strides) {
  auto bufferType = cast<BaseMemRefType>(buffer.getType());
  auto memrefType = cast<MemRefType>(getMemRefTypeWithFullyDynamicLayout(
      type, bufferType.getMemorySpace()));
  SmallVector<OpFoldResult> mixedStrides(strides.begin(), strides.end());
  return memref::ReinterpretCastOp::create(rewriter, loc, memrefType, buffer,
                                           OpFoldResult(offset), sizes,
                                           mixedStrides);
}

/// Verifies the view operands of a strided view of, or write into, `type`.
static LogicalResult verifyViewOperands(Operation *op, RankedTensorType type,
                                        ValueRange sizes, ValueRange strides) {
  if (static_cast<int64_t>(strides.size()) != type.getRank())
    return op->emitOpError("expected ")
           << type.getRank() << " strides (the view rank), found "
           << strides.size();
  if (sizes.size() != static_cast<size_t>(type.getNumDynamicDims()))
    return op->emitOpError("expected ")
           << type.getNumDynamicDims()
           << " sizes (the dynamic view dimensions), found " << sizes.size();
  return success();
}

LogicalResult StridedViewOp::verify() {
  RankedTensorType source = getSource().getType(), result = getType();
  if (source.getElementType() != result.getElementType())
    return emitOpError("expected the source element type ")
           << source.getElementType() << ", found " << result.getElementType();
  return verifyViewOperands(*this, result, getSizes(), getStrides());
}

SmallVector<OpFoldResult> StridedViewOp::getMixedSizes() {
  return getMixedSizesOf(getType(), getSizes());
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
  Value view = buildReinterpretCast(rewriter, getLoc(), *source, getType(),
                                    getOffset(), getMixedSizes(), getStrides());
  replaceOpWithBufferizedValues(rewriter, *this, view);
  return success();
}

//===----------------------------------------------------------------------===//
// StridedWriteOp
//===----------------------------------------------------------------------===//

LogicalResult StridedWriteOp::verify() {
  RankedTensorType value = getValue().getType(), dest = getDest().getType();
  if (value.getElementType() != dest.getElementType())
    return emitOpError("expected the destination element type ")
           << dest.getElementType() << ", found " << value.getElementType();
  if (hasView())
    return verifyViewOperands(*this, value, getSizes(), getStrides());
  if (!getSizes().empty() || !getStrides().empty())
    return emitOpError("expected sizes and strides only with an offset");
  if (failed(verifyCompatibleShape(value, dest)))
    return emitOpError("expected a value of the destination's shape ")
           << dest << ", found " << value;
  return success();
}

SmallVector<OpFoldResult> StridedWriteOp::getMixedSizes() {
  return getMixedSizesOf(getValue().getType(), getSizes());
}

OpOperand &StridedWriteOp::getSourceOperand() { return getValueMutable(); }

bool StridedWriteOp::isEquivalentSubset(
    Value candidate, function_ref<bool(Value, Value)> equivalenceFn) {
  if (!hasView())
    return equivalenceFn(candidate, getDest());
  auto view = candidate.getDefiningOp<StridedViewOp>();
  return view && view.getType() == getValue().getType() &&
         view.getOffset() == getOffset() &&
         llvm::equal(view.getSizes(), getSizes()) &&
         llvm::equal(view.getStrides(), getStrides()) &&
         equivalenceFn(view.getSource(), getDest());
}

Value StridedWriteOp::buildSubsetExtraction(OpBuilder &builder, Location loc) {
  if (!hasView())
    return getDest();
  return StridedViewOp::create(builder, loc, getValue().getType(), getDest(),
                               getOffset(), getSizes(), getStrides());
}

SmallVector<Value> StridedWriteOp::getValuesNeededToBuildSubsetExtraction() {
  SmallVector<Value> values{getDest()};
  if (hasView()) {
    values.push_back(getOffset());
    llvm::append_range(values, getSizes());
    llvm::append_range(values, getStrides());
  }
  return values;
}

bool StridedWriteOp::bufferizesToMemoryRead(OpOperand &operand,
                                            const AnalysisState &) {
  // A store into a view keeps the other elements of the destination.
  return &operand == &getValueMutable() || hasView();
}

bool StridedWriteOp::bufferizesToMemoryWrite(OpOperand &operand,
                                             const AnalysisState &) {
  return &operand == &getDestMutable();
}

bool StridedWriteOp::bufferizesToElementwiseAccess(const AnalysisState &,
                                                   ArrayRef<OpOperand *>) {
  // Element i of `value` is stored into element i of `dest`.
  return !hasView();
}

bool StridedWriteOp::mustBufferizeInPlace(OpOperand &operand,
                                          const AnalysisState &) {
  // The caller of a function sees a written argument in its own buffer.
  return &operand == &getDestMutable();
}

AliasingValueList StridedWriteOp::getAliasingValues(OpOperand &operand,
                                                    const AnalysisState &) {
  if (&operand == &getDestMutable())
    return {{getResult(), BufferRelation::Equivalent, /*isDefinite=*/true}};
  return {};
}

/// What a buffer is during bufferization, for comparisons: casts looked
/// through, and the tensor of a `to_buffer` (one per getBuffer call on a
/// value not bufferized yet, such as a function argument).
static Value getUnderlyingBuffer(Value buffer) {
  while (auto cast = buffer.getDefiningOp<memref::CastOp>())
    buffer = cast.getSource();
  if (auto toBuffer = buffer.getDefiningOp<ToBufferOp>())
    return toBuffer.getTensor();
  return buffer;
}

/// Whether the value's producer already wrote into the destination: its
/// buffer is `dest` itself, or (with a view) the same view of `dest`.
static bool isStoredAlready(StridedWriteOp op, Value value, Value dest) {
  value = getUnderlyingBuffer(value);
  dest = getUnderlyingBuffer(dest);
  if (!op.hasView())
    return value == dest;
  auto view = value.getDefiningOp<memref::ReinterpretCastOp>();
  return view && getUnderlyingBuffer(view.getSource()) == dest &&
         llvm::equal(view.getOffsets(), ValueRange{op.getOffset()}) &&
         llvm::equal(view.getSizes(), op.getSizes()) &&
         llvm::equal(view.getStrides(), op.getStrides()) &&
         view.getStaticStrides() ==
             ArrayRef<int64_t>(SmallVector<int64_t>(
                 op.getStrides().size(), ShapedType::kDynamic));
}

LogicalResult StridedWriteOp::bufferize(RewriterBase &rewriter,
                                        const BufferizationOptions &options,
                                        BufferizationState &state) {
  FailureOr<Value> dest = getBuffer(rewriter, getDest(), options, state);
  if (failed(dest))
    return failure();
  FailureOr<Value> value = getBuffer(rewriter, getValue(), options, state);
  if (failed(value))
    return failure();
  if (!isStoredAlready(*this, *value, *dest)) {
    Value target = *dest;
    if (hasView())
      target = buildReinterpretCast(rewriter, getLoc(), *dest,
                                    getValue().getType(), getOffset(),
                                    getMixedSizes(), getStrides());
    if (failed(options.createMemCpy(rewriter, getLoc(), *value, target)))
      return failure();
  }
  replaceOpWithBufferizedValues(rewriter, *this, *dest);
  return success();
}
