//===- RunTimeLayout.cpp - run-time strides of memref operands ------------===//

#include "RunTimeLayout.h"

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

Value IndexMath::value(OpFoldResult v) {
  std::optional<int64_t> c = getConstantIntValue(v);
  if (!c)
    return cast<Value>(v);
  Value &cached = constants[*c];
  if (!cached)
    cached = arith::ConstantIndexOp::create(b, loc, *c);
  return cached;
}

Value IndexMath::boolean(bool v) {
  Value &cached = booleans[v];
  if (!cached)
    cached = arith::ConstantIntOp::create(b, loc, v, 1);
  return cached;
}

OpFoldResult IndexMath::mul(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx * *cy);
  if (cx == 1)
    return y;
  if (cy == 1)
    return x;
  return arith::MulIOp::create(b, loc, value(x), value(y)).getResult();
}

Value IndexMath::eq(OpFoldResult x, OpFoldResult y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, value(x),
                                       value(y));
}

Value IndexMath::ult(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, x, y);
}

Value IndexMath::orI(Value x, Value y) {
  return b.createOrFold<arith::OrIOp>(loc, x, y);
}

Value IndexMath::andI(Value x, Value y) {
  if (!x || !y)
    return x ? x : y;
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}

Value IndexMath::notI(Value x) {
  return b.createOrFold<arith::XOrIOp>(loc, x, boolean(true));
}

Value IndexMath::select(Value cond, Value x, Value y) {
  return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
}

Value IndexMath::effectiveStride(OpFoldResult size, OpFoldResult stride) {
  if (getConstantIntValue(size) == 1)
    return value(b.getIndexAttr(0));
  Value s;
  if (std::optional<int64_t> c = getConstantIntValue(stride)) {
    s = value(b.getIndexAttr(*c < 0 ? -*c : *c));
  } else {
    Value v = value(stride);
    Value zero = value(b.getIndexAttr(0));
    Value negative = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, v, zero);
    s = select(negative, b.createOrFold<arith::SubIOp>(loc, zero, v), v);
  }
  if (getConstantIntValue(size))
    return s;
  return select(eq(size, b.getIndexAttr(1)), value(b.getIndexAttr(0)), s);
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
