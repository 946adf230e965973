//===- ScalarConvert.cpp - scalar dtype conversions -----------------------===//

#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ptensor;

Type mlir::ptensor::getStorageType(Type t) {
  if (auto it = dyn_cast<IntegerType>(t); it && !it.isSignless())
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

/// A zero of the storage type of `t`.
static Value zeroOf(OpBuilder &b, Location loc, Type t) {
  Type s = getStorageType(t);
  return arith::ConstantOp::create(b, loc, s, b.getZeroAttr(s));
}

Value mlir::ptensor::convertScalar(OpBuilder &b, Location loc, Value v,
                                   Type from, Type to) {
  if (from == to)
    return v;
  Type toStorage = getStorageType(to);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  // Index values go through i64 (signed).
  if (isa<IndexType>(from)) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    return convertScalar(b, loc, i64, b.getI64Type(), to);
  }
  if (isa<IndexType>(to)) {
    Value i64 = convertScalar(b, loc, v, from, b.getI64Type());
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
  }
  if (to.isInteger(1)) {
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                   zeroOf(b, loc, from));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                 zeroOf(b, loc, from));
  }
  // Bool is unsigned for conversions (true -> 1).
  bool fromUnsigned = from.isUnsignedInteger() || from.isInteger(1);
  if (fromFloat && toFloat) {
    unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
    // f64 -> bf16 has no runtime routine on every target: go through f32
    // (double rounding, as ml_dtypes and PyTorch's CPU kernels do).
    if (fw == 64 && to.isBF16())
      return arith::TruncFOp::create(
          b, loc, to, arith::TruncFOp::create(b, loc, b.getF32Type(), v));
    if (fw == tw) { // f16 <-> bf16 through f32
      Value f32 = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
      return arith::TruncFOp::create(b, loc, to, f32);
    }
    if (fw < tw)
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  if (!fromFloat && toFloat) {
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, to, v);
    return arith::SIToFPOp::create(b, loc, to, v);
  }
  if (fromFloat && !toFloat) {
    if (to.isUnsignedInteger())
      return arith::FPToUIOp::create(b, loc, toStorage, v);
    return arith::FPToSIOp::create(b, loc, toStorage, v);
  }
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw == tw)
    return v; // i8 <-> ui8 share their bits
  if (fw > tw)
    return arith::TruncIOp::create(b, loc, toStorage, v);
  if (fromUnsigned)
    return arith::ExtUIOp::create(b, loc, toStorage, v);
  return arith::ExtSIOp::create(b, loc, toStorage, v);
}
