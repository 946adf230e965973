//===- RunTimeLayout.cpp - run-time strides of memref operands ------------===//

#include "ptensor/Dialect/PTensor/Utils/RunTimeLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ptensor;

void CreatedOps::eraseDead() {
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  ops.clear();
}

Layout mlir::ptensor::getLayout(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  auto pick = [&](int64_t v, Value dynamic) -> OpFoldResult {
    if (ShapedType::isDynamic(v))
      return dynamic;
    return b.getIndexAttr(v);
  };
  Layout layout;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i) {
    layout.sizes.push_back(pick(type.getDimSize(i), md.getSizes()[i]));
    layout.strides.push_back(pick(strides[i], md.getStrides()[i]));
  }
  layout.offset = pick(offset, md.getOffset());
  return layout;
}
