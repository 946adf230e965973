//===- IndexMath.cpp - index arithmetic that folds what is static ---------===//

#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::ptensor;

Value IndexMath::value(OpFoldResult v) {
  std::optional<int64_t> c = getConstantIntValue(v);
  if (!c)
    return cast<Value>(v);
  Value &cached = constants[*c];
  if (!cached)
    cached = arith::ConstantIndexOp::create(b, loc, *c);
  return cached;
}

SmallVector<Value> IndexMath::values(ArrayRef<OpFoldResult> vs) {
  SmallVector<Value> result;
  for (OpFoldResult v : vs)
    result.push_back(value(v));
  return result;
}

Value IndexMath::boolean(bool v) {
  Value &cached = booleans[v];
  if (!cached)
    cached = arith::ConstantIntOp::create(b, loc, v, 1);
  return cached;
}

/// `OpTy` of x and y as Values.
template <typename OpTy>
static OpFoldResult create(IndexMath &m, OpFoldResult x, OpFoldResult y) {
  Value vx = m.value(x);
  Value vy = m.value(y);
  return OpTy::create(m.b, m.loc, vx, vy).getResult();
}

OpFoldResult IndexMath::add(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return index(*cx + *cy);
  if (cx == 0 || cy == 0)
    return cx == 0 ? y : x;
  return create<arith::AddIOp>(*this, x, y);
}

OpFoldResult IndexMath::sub(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return index(*cx - *cy);
  if (cy == 0)
    return x;
  return create<arith::SubIOp>(*this, x, y);
}

OpFoldResult IndexMath::wrap(int64_t v, OpFoldResult n) {
  if (std::optional<int64_t> size = getConstantIntValue(n)) {
    if (*size == 0)
      return index(0);
    int64_t rem = v % *size; // in (-size, size): no overflow below
    return index(rem < 0 ? rem + *size : rem);
  }
  Value count = value(n);
  Value one = value(index(1));
  Value safe = arith::MaxSIOp::create(b, loc, count, one);
  Value shift = value(index(v));
  Value rem = arith::RemSIOp::create(b, loc, shift, safe);
  Value wrapped = arith::AddIOp::create(b, loc, rem, safe);
  return OpFoldResult(arith::RemSIOp::create(b, loc, wrapped, safe));
}

OpFoldResult IndexMath::mul(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return index(*cx * *cy);
  if (cx == 0 || cy == 0)
    return index(0);
  if (cx == 1 || cy == 1)
    return cx == 1 ? y : x;
  return create<arith::MulIOp>(*this, x, y);
}

OpFoldResult IndexMath::product(ArrayRef<OpFoldResult> factors) {
  OpFoldResult n = index(1);
  for (OpFoldResult f : factors)
    n = mul(n, f);
  return n;
}

OpFoldResult IndexMath::max(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return index(std::max(*cx, *cy));
  return create<arith::MaxSIOp>(*this, x, y);
}

Value IndexMath::eq(OpFoldResult x, OpFoldResult y) {
  Value vx = value(x);
  Value vy = value(y);
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, vx, vy);
}

Value IndexMath::slt(OpFoldResult x, OpFoldResult y) {
  Value vx = value(x);
  Value vy = value(y);
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, vx, vy);
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
    return value(index(0));
  Value s;
  if (std::optional<int64_t> c = getConstantIntValue(stride)) {
    s = value(index(*c < 0 ? -*c : *c));
  } else {
    Value v = value(stride);
    Value zero = value(index(0));
    Value negative = slt(v, zero);
    Value negated = b.createOrFold<arith::SubIOp>(loc, zero, v);
    s = select(negative, negated, v);
  }
  if (getConstantIntValue(size))
    return s;
  Value isOne = eq(size, index(1));
  Value zero = value(index(0));
  return select(isOne, zero, s);
}

void IndexMath::check(Value ok, const Twine &message) {
  cf::AssertOp::create(b, loc, ok, message.str());
}
