//===- Compaction.cpp - results whose size is a count of flags ------------===//

#include "Compaction.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

using namespace mlir;
using namespace mlir::ptensor;

Value mlir::ptensor::flatten(OpBuilder &b, Location loc, Value input) {
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

Value mlir::ptensor::computeFlags(OpBuilder &b, Location loc, Value input,
                                  ElementFlagFn flag) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<Value> dynamicSizes =
      tensor::createDynamicDimValues(b, loc, input);
  auto flagsType = RankedTensorType::get(type.getShape(), b.getI1Type());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext());
  ElementwiseInput element{input, type.getElementType(), identity};
  return buildElementwiseGeneric(
      b, loc, {element}, {flagsType}, dynamicSizes,
      [&](OpBuilder &nb, Location nloc, ValueRange values) {
        return SmallVector<Value>{flag(nb, nloc, values[0])};
      })[0];
}

Value mlir::ptensor::truePositions(OpBuilder &b, Location loc, Value flags) {
  Value count = CountTrueOp::create(b, loc, flags);
  SmallVector<int64_t> dynamic = {ShapedType::kDynamic};
  Value empty =
      tensor::EmptyOp::create(b, loc, dynamic, b.getI64Type(), ValueRange{count});
  return SelectTrueOp::create(b, loc, TypeRange{empty.getType()}, flags, empty)
      .getResult(0);
}

SmallVector<Value> mlir::ptensor::unravel(OpBuilder &b, Location loc,
                                          Value position,
                                          ArrayRef<Value> sizes) {
  SmallVector<Value> indices(sizes.size());
  Value rest = position;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (d == 0) {
      indices[d] = rest;
      break;
    }
    indices[d] = arith::RemUIOp::create(b, loc, rest, sizes[d]);
    rest = arith::DivUIOp::create(b, loc, rest, sizes[d]);
  }
  return indices;
}
