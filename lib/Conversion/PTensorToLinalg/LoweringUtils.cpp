//===- LoweringUtils.cpp - shared pieces of the ptensor lowering ----------===//

#include "LoweringUtils.h"
#include "ScalarOps.h"

#include "ptensor/Dialect/PTensor/Utils/ShapeDominance.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::ptensor;

FailureOr<AffineMap> mlir::ptensor::getBroadcastMap(ArrayRef<int64_t> src,
                                                    ArrayRef<int64_t> dst,
                                                    MLIRContext *ctx) {
  if (src.size() > dst.size())
    return failure();
  size_t lead = dst.size() - src.size();
  SmallVector<AffineExpr> exprs;
  for (size_t i = 0; i < src.size(); ++i) {
    int64_t s = src[i], d = dst[lead + i];
    if (s == d && !ShapedType::isDynamic(s)) {
      exprs.push_back(getAffineDimExpr(lead + i, ctx));
    } else if (s == 1) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
    } else {
      return failure();
    }
  }
  return AffineMap::get(dst.size(), 0, exprs, ctx);
}

Type mlir::ptensor::getDType(Type type) {
  if (auto pt = dyn_cast<PTensorType>(type))
    return pt.getElementType();
  return type;
}

MemRefType mlir::ptensor::getDynamicStridedMemRefType(ArrayRef<int64_t> shape,
                                                      Type elementType) {
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(elementType.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, elementType, layout);
}

LogicalResult mlir::ptensor::collectElementwiseInputs(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange converted,
    ArrayRef<int64_t> resultShape, SmallVectorImpl<ElementwiseInput> &inputs,
    SmallVectorImpl<Value> &dynamicSizes) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  unsigned numPTensors = llvm::count_if(op->getOperandTypes(), [](Type t) {
    return isa<PTensorType>(t);
  });
  AffineMap identity = AffineMap::getMultiDimIdentityMap(resultShape.size(), ctx);
  // For each dynamic result dim, an operand that has exactly that size.
  SmallVector<Value> sizeSource(resultShape.size());
  SmallVector<Value> checkedOperands;
  for (auto [original, value] : llvm::zip(op->getOperands(), converted)) {
    auto pt = dyn_cast<PTensorType>(original.getType());
    if (!pt) {
      // Scalars enter the generic in their signless storage type.
      inputs.push_back(
          {castToStorage(rewriter, loc, value), original.getType(), AffineMap()});
      continue;
    }
    // Operands of exactly the result shape are read with identity maps;
    // their dynamic sizes are checked against the result's below.
    bool exact = pt.getShape() == resultShape;
    if (exact && !pt.hasStaticShape() && numPTensors > 1)
      checkedOperands.push_back(value);
    AffineMap map = identity;
    if (!exact) {
      FailureOr<AffineMap> m = getBroadcastMap(pt.getShape(), resultShape, ctx);
      if (failed(m))
        return rewriter.notifyMatchFailure(
            op, "operand shape " + std::to_string(pt.getRank()) +
                    "-D needs a run-time broadcast decision; run "
                    "ptensor-broadcast first");
      map = *m;
    }
    inputs.push_back({value, pt.getElementType(), map});
    for (auto [i, size] : llvm::enumerate(resultShape)) {
      if (!ShapedType::isDynamic(size) || sizeSource[i])
        continue;
      // A result dim `d_i` read through the map means equal sizes.
      int64_t lead = resultShape.size() - pt.getRank();
      if (static_cast<int64_t>(i) >= lead &&
          map.getResult(i - lead) == getAffineDimExpr(i, ctx))
        sizeSource[i] = tensor::DimOp::create(rewriter, loc, value, i - lead);
    }
  }
  for (auto [i, size] : llvm::enumerate(resultShape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    if (!sizeSource[i])
      return rewriter.notifyMatchFailure(
          op, "no operand gives the size of dynamic result dimension " +
                  std::to_string(i));
    dynamicSizes.push_back(sizeSource[i]);
    // ptensor-broadcast leaves an operand unwrapped only where its size is
    // the result's; hand-written IR is checked rather than read out of
    // bounds.
    for (Value v : checkedOperands) {
      Value d = tensor::DimOp::create(rewriter, loc, v, i);
      Value same = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                         d, sizeSource[i]);
      cf::AssertOp::create(
          rewriter, loc, same,
          "ptensor: operand sizes of an elementwise op differ at run time "
          "(run ptensor-broadcast before convert-ptensor-to-linalg)");
    }
  }
  return success();
}

SmallVector<Value> mlir::ptensor::buildElementwiseGeneric(
    OpBuilder &b, Location loc, ArrayRef<ElementwiseInput> inputs,
    TypeRange resultTypes, ValueRange dynamicSizes,
    ElementwiseBodyBuilder body) {
  SmallVector<Value> tensors;
  SmallVector<AffineMap> maps;
  for (const ElementwiseInput &in : inputs) {
    if (!in.map)
      continue;
    tensors.push_back(in.value);
    maps.push_back(in.map);
  }
  SmallVector<Value> outs;
  int64_t rank = 0;
  for (Type t : resultTypes) {
    auto tt = cast<RankedTensorType>(t);
    rank = tt.getRank();
    outs.push_back(tensor::EmptyOp::create(b, loc, tt.getShape(),
                                           tt.getElementType(), dynamicSizes));
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, tensors, outs, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // Interleave tensor elements (block args) and scalars in input order.
        SmallVector<Value> values;
        unsigned next = 0;
        for (const ElementwiseInput &in : inputs)
          values.push_back(in.map ? args[next++] : in.value);
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, values));
      });
  return SmallVector<Value>(generic->getResults());
}

SmallVector<OpFoldResult>
mlir::ptensor::rowMajorStrides(IndexMath &m, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(sizes.size());
  OpFoldResult stride = m.index(1);
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride = m.mul(stride, sizes[d]);
  }
  return strides;
}

SmallVector<Value> mlir::ptensor::sizesOf(OpBuilder &b, Location loc, Value v) {
  SmallVector<Value> sizes;
  for (int64_t d = 0, e = cast<RankedTensorType>(v.getType()).getRank(); d < e;
       ++d)
    sizes.push_back(tensor::DimOp::create(b, loc, v, d));
  return sizes;
}
