//===- ScalarConvert.cpp - scalar dtype conversions -----------------------===//

#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ptensor;

Value mlir::ptensor::castToStorage(OpBuilder &b, Location loc, Value v) {
  Type storage = getStorageType(v.getType());
  if (storage == v.getType())
    return v;
  return UnrealizedConversionCastOp::create(b, loc, storage, v).getResult(0);
}

/// A zero of the storage type of `t`.
static Value zeroOf(OpBuilder &b, Location loc, Type t) {
  Type s = getStorageType(t);
  return arith::ConstantOp::create(b, loc, s, b.getZeroAttr(s));
}

/// Some targets' fptrunc to bf16 flushes subnormals; this is exact
/// everywhere.
Value mlir::ptensor::truncF32ToBF16(OpBuilder &b, Location loc, Value v) {
  Type i32 = b.getI32Type(), i16 = b.getI16Type();
  auto c = [&](int64_t x) -> Value {
    return arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(x));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, v);
  Value c16 = c(16);
  Value upper = arith::ShRUIOp::create(b, loc, bits, c16);
  Value c1 = c(1);
  Value lsb = arith::AndIOp::create(b, loc, upper, c1);
  Value c7fff = c(0x7FFF);
  Value bias = arith::AddIOp::create(b, loc, lsb, c7fff);
  Value biased = arith::AddIOp::create(b, loc, bits, bias);
  Value rounded = arith::ShRUIOp::create(b, loc, biased, c16);
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  Value quietBit = c(0x40);
  Value quietNaN = arith::OrIOp::create(b, loc, upper, quietBit);
  Value result = arith::SelectOp::create(b, loc, isNaN, quietNaN, rounded);
  auto low = arith::TruncIOp::create(b, loc, i16, result);
  low->setAttr(kBF16RoundingAttrName, b.getUnitAttr());
  auto bf16 = arith::BitcastOp::create(b, loc, b.getBF16Type(), low);
  bf16->setAttr(kBF16RoundingAttrName, b.getUnitAttr());
  return bf16;
}

/// bf16 -> f32 on the bits (bf16 is the upper half of an f32), exact. Not
/// arith.extf: LLVM folds ceil/floor/round/trunc of an fpext from bf16 into
/// the bf16 intrinsic, which x86 without AVX512-BF16 legalizes with a call
/// to __truncsfbf2, a symbol Debian 12's libgcc does not have.
static Value extBF16ToF32(OpBuilder &b, Location loc, Value v) {
  Type i32 = b.getI32Type();
  Value bits = arith::ExtUIOp::create(
      b, loc, i32, arith::BitcastOp::create(b, loc, b.getI16Type(), v));
  Value shifted = arith::ShLIOp::create(
      b, loc, bits,
      arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(16)));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), shifted);
}

Value mlir::ptensor::convertScalar(OpBuilder &b, Location loc, Value v,
                                   Type from, Type to) {
  v = castToStorage(b, loc, v);
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
    // To bf16 always through f32 (from f64 that rounds twice, as
    // PyTorch's CPU kernels and ml_dtypes do).
    if (to.isBF16()) {
      Value f32 = fw == 32 ? v
                  : fw < 32
                      ? Value(arith::ExtFOp::create(b, loc, b.getF32Type(), v))
                      : Value(arith::TruncFOp::create(b, loc, b.getF32Type(), v));
      return truncF32ToBF16(b, loc, f32);
    }
    if (from.isBF16()) { // through f32 (f16: rounds once, f32 -> f16)
      Value f32 = extBF16ToF32(b, loc, v);
      if (tw == 32)
        return f32;
      return tw > 32 ? Value(arith::ExtFOp::create(b, loc, to, f32))
                     : Value(arith::TruncFOp::create(b, loc, to, f32));
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
