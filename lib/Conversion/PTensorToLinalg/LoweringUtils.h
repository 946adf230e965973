//===- LoweringUtils.h - shared pieces of the ptensor lowering ---*- C++ -*-===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_LOWERINGUTILS_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_LOWERINGUTILS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ptensor {

/// The indexing map reading a tensor of shape `src` inside a loop nest over
/// shape `dst` (right-aligned NumPy broadcasting): `d_i` where the sizes
/// are known equal, `0` where `src` has a static 1. Fails where a dynamic
/// size could be 1 or not (needs a run-time decision: ptensor-broadcast).
FailureOr<AffineMap> getBroadcastMap(ArrayRef<int64_t> src,
                                     ArrayRef<int64_t> dst, MLIRContext *ctx);

/// One input of an elementwise generic: a tensor read through an indexing
/// map, or a scalar used directly in the body. `dtype` is the semantic
/// dtype (unsigned kept) of the elements.
struct ElementwiseInput {
  Value value;
  Type dtype;
  AffineMap map; ///< null for scalars
};

/// Builds the body of an elementwise generic: receives the converted
/// inputs (tensor elements and scalars in input order) and returns the
/// values to store, one per result.
using ElementwiseBodyBuilder =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// Creates `linalg.generic` computing `resultTypes` (all of `shape`) from
/// `inputs`. The sizes of dynamic result dims come from `dynamicSizes`.
SmallVector<Value> buildElementwiseGeneric(OpBuilder &b, Location loc,
                                           ArrayRef<ElementwiseInput> inputs,
                                           TypeRange resultTypes,
                                           ValueRange dynamicSizes,
                                           ElementwiseBodyBuilder body);

/// Collects the inputs of an elementwise op: each converted operand with
/// its broadcast map to `resultShape` (scalars have none). Operands that
/// are results of `ptensor.broadcast` to the result shape, or the only
/// ptensor operand, are trusted to have exactly the result sizes. Also
/// returns the sizes of the dynamic result dims. Fails (with a reason on
/// `op`) when a run-time broadcast decision is needed.
LogicalResult collectElementwiseInputs(ConversionPatternRewriter &rewriter,
                                       Operation *op, ValueRange converted,
                                       ArrayRef<int64_t> resultShape,
                                       SmallVectorImpl<ElementwiseInput> &inputs,
                                       SmallVectorImpl<Value> &dynamicSizes);

/// The run-time sizes (tensor.dim) of every dim of the ranked tensor `v`.
SmallVector<Value> sizesOf(OpBuilder &b, Location loc, Value v);

/// The semantic dtype of a ptensor or builtin scalar type.
Type getDType(Type type);

/// The strided memref type with fully dynamic offset and strides that views
/// of a tensor of `shape` and storage `elementType` use.
MemRefType getDynamicStridedMemRefType(ArrayRef<int64_t> shape,
                                       Type elementType);

/// Offset, sizes and strides (in elements) of a strided view.
struct StridedView {
  OpFoldResult offset;
  SmallVector<OpFoldResult> sizes;
  SmallVector<OpFoldResult> strides;
};

/// Reads the strided metadata of a converted tensor (any layout).
StridedView getStridedView(OpBuilder &b, Location loc, Value tensor);

/// Row-major strides of `sizes` (the last dim's 1).
SmallVector<OpFoldResult> rowMajorStrides(IndexMath &m,
                                          ArrayRef<OpFoldResult> sizes);

/// Materializes `view` of the converted tensor `source` as a tensor of
/// `type` (a ptensor.strided_view: no copy).
Value buildView(IndexMath &m, Value source, const StridedView &view,
                RankedTensorType type);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_LOWERINGUTILS_H
