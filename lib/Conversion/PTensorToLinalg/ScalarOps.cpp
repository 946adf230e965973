//===- ScalarOps.cpp - scalar code of the elementwise kinds ---------------===//
//
// Integer division, remainder and shifts follow NumPy: division by zero gives
// 0 instead of trapping, INT_MIN // -1 wraps, shifts by at least the width
// give 0 (or -1 for negative values shifted right). Floats follow IEEE and
// NumPy's definitions (remainder takes the divisor's sign, sign(NaN) is NaN).
//
//===----------------------------------------------------------------------===//

#include "ScalarOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ptensor;
using arith::CmpFPredicate;
using arith::CmpIPredicate;

namespace {
/// Small helpers over an ImplicitLocOpBuilder for one scalar dtype.
struct Emitter {
  ImplicitLocOpBuilder b;
  Type t;       ///< semantic dtype (may be unsigned)
  Type storage; ///< signless storage type

  Emitter(OpBuilder &builder, Location loc, Type t)
      : b(loc, builder), t(t), storage(getStorageType(t)) {}

  bool isFloat() const { return isa<FloatType>(t); }
  bool isUnsigned() const { return t.isUnsignedInteger() || t.isInteger(1); }
  unsigned width() const { return storage.getIntOrFloatBitWidth(); }

  Value cst(double v) {
    if (isFloat())
      return arith::ConstantOp::create(b, storage, b.getFloatAttr(storage, v));
    return arith::ConstantOp::create(
        b, storage, b.getIntegerAttr(storage, static_cast<int64_t>(v)));
  }
  Value cmpf(CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, p, x, y);
  }
  Value cmpi(CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }
  Value eqi(Value x, double v) { return cmpi(CmpIPredicate::eq, x, cst(v)); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value xori(Value x, Value y) { return arith::XOrIOp::create(b, x, y); }
  /// Whether exactly one of x and y is negative.
  Value signsDiffer(Value x, Value y) {
    Value xNegative = isNegative(x);
    Value yNegative = isNegative(y);
    return xori(xNegative, yNegative);
  }
  Value isNegative(Value x) {
    if (isFloat())
      return cmpf(CmpFPredicate::OLT, x, cst(0));
    if (isUnsigned())
      return arith::ConstantOp::create(b, b.getBoolAttr(false));
    return cmpi(CmpIPredicate::slt, x, cst(0));
  }
  /// The divisor with 0 (and -1 for signed types) replaced by 1, so that
  /// the hardware division never traps; callers patch those results.
  Value safeDivisor(Value y) {
    Value bad = eqi(y, 0);
    if (!isUnsigned())
      bad = ori(bad, eqi(y, -1));
    return select(bad, cst(1), y);
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

/// Unary kinds on floats.
static Value emitFloatUnary(Emitter &e, UnaryOpKind kind, Value x) {
  ImplicitLocOpBuilder &b = e.b;
  switch (kind) {
  case UnaryOpKind::abs: return math::AbsFOp::create(b, x);
  case UnaryOpKind::acos: return math::AcosOp::create(b, x);
  case UnaryOpKind::acosh: return math::AcoshOp::create(b, x);
  case UnaryOpKind::asin: return math::AsinOp::create(b, x);
  case UnaryOpKind::asinh: return math::AsinhOp::create(b, x);
  case UnaryOpKind::atan: return math::AtanOp::create(b, x);
  case UnaryOpKind::atanh: return math::AtanhOp::create(b, x);
  case UnaryOpKind::ceil: return math::CeilOp::create(b, x);
  case UnaryOpKind::cos: return math::CosOp::create(b, x);
  case UnaryOpKind::cosh: return math::CoshOp::create(b, x);
  case UnaryOpKind::erf: return math::ErfOp::create(b, x);
  case UnaryOpKind::exp: return math::ExpOp::create(b, x);
  case UnaryOpKind::expm1: return math::ExpM1Op::create(b, x);
  case UnaryOpKind::floor: return math::FloorOp::create(b, x);
  case UnaryOpKind::log: return math::LogOp::create(b, x);
  case UnaryOpKind::log1p: return math::Log1pOp::create(b, x);
  case UnaryOpKind::log2: return math::Log2Op::create(b, x);
  case UnaryOpKind::log10: return math::Log10Op::create(b, x);
  case UnaryOpKind::negative: return arith::NegFOp::create(b, x);
  case UnaryOpKind::positive: return x;
  case UnaryOpKind::reciprocal: {
    Value one = e.cst(1);
    return arith::DivFOp::create(b, one, x);
  }
  case UnaryOpKind::round: return math::RoundEvenOp::create(b, x);
  case UnaryOpKind::rsqrt: { // libm has no rsqrt
    Value one = e.cst(1);
    Value root = math::SqrtOp::create(b, x);
    return arith::DivFOp::create(b, one, root);
  }
  case UnaryOpKind::sigmoid: {
    Value minusX = arith::NegFOp::create(b, x);
    Value ex = math::ExpOp::create(b, minusX);
    Value one = e.cst(1);
    Value denominator = arith::AddFOp::create(b, one, ex);
    return arith::DivFOp::create(b, one, denominator);
  }
  case UnaryOpKind::sign: {
    // NaN maps to itself, -0.0 to +0.0 (as NumPy and PyTorch).
    Value zero = e.cst(0);
    Value isZero = e.cmpf(CmpFPredicate::OEQ, x, zero);
    Value zeroOrX = e.select(isZero, zero, x);
    Value isNeg = e.cmpf(CmpFPredicate::OLT, x, zero);
    Value minusOne = e.cst(-1);
    Value neg = e.select(isNeg, minusOne, zeroOrX);
    Value isPos = e.cmpf(CmpFPredicate::OGT, x, zero);
    Value one = e.cst(1);
    return e.select(isPos, one, neg);
  }
  case UnaryOpKind::sin: return math::SinOp::create(b, x);
  case UnaryOpKind::sinh: return math::SinhOp::create(b, x);
  case UnaryOpKind::square: return arith::MulFOp::create(b, x, x);
  case UnaryOpKind::sqrt: return math::SqrtOp::create(b, x);
  case UnaryOpKind::tan: return math::TanOp::create(b, x);
  case UnaryOpKind::tanh: return math::TanhOp::create(b, x);
  case UnaryOpKind::trunc: return math::TruncOp::create(b, x);
  case UnaryOpKind::bitwise_invert: break;
  }
  llvm_unreachable("bitwise_invert on a float is rejected by the verifier");
}

/// Unary kinds on integers and bool (transcendental kinds never get here:
/// they compute in f32 for integer inputs).
static Value emitIntegerUnary(Emitter &e, UnaryOpKind kind, Value x) {
  ImplicitLocOpBuilder &b = e.b;
  switch (kind) {
  case UnaryOpKind::abs: { // |INT_MIN| wraps, as in NumPy
    if (e.isUnsigned())
      return x;
    Value negative = e.isNegative(x);
    Value zero = e.cst(0);
    Value minusX = arith::SubIOp::create(b, zero, x);
    return e.select(negative, minusX, x);
  }
  case UnaryOpKind::negative: {
    Value zero = e.cst(0);
    return arith::SubIOp::create(b, zero, x);
  }
  case UnaryOpKind::positive:
  case UnaryOpKind::ceil:
  case UnaryOpKind::floor:
  case UnaryOpKind::round:
  case UnaryOpKind::trunc:
    return x;
  case UnaryOpKind::square: return arith::MulIOp::create(b, x, x);
  case UnaryOpKind::sign: {
    Value zero = e.cst(0);
    Value pos = e.cmpi(e.isUnsigned() ? CmpIPredicate::ugt : CmpIPredicate::sgt,
                       x, zero);
    Value one = e.cst(1);
    Value oneOrZero = e.select(pos, one, zero);
    Value negative = e.isNegative(x);
    Value minusOne = e.cst(-1);
    return e.select(negative, minusOne, oneOrZero);
  }
  case UnaryOpKind::bitwise_invert:
    return e.xori(x, arith::ConstantOp::create(
                         b, e.storage, b.getIntegerAttr(e.storage, -1)));
  default:
    llvm_unreachable("transcendental kinds compute in a float dtype");
  }
}

Value mlir::ptensor::emitUnary(OpBuilder &builder, Location loc,
                               UnaryOpKind kind, Value x, Type t) {
  Emitter e(builder, loc, t);
  return e.isFloat() ? emitFloatUnary(e, kind, x) : emitIntegerUnary(e, kind, x);
}

Value mlir::ptensor::emitUnaryTest(OpBuilder &builder, Location loc,
                                   UnaryTestKind kind, Value x, Type t) {
  Emitter e(builder, loc, t);
  ImplicitLocOpBuilder &b = e.b;
  auto constBool = [&](bool v) -> Value {
    return arith::ConstantOp::create(b, b.getBoolAttr(v));
  };
  switch (kind) {
  // Comparisons rather than math.is* ops: they lower on every target.
  case UnaryTestKind::isfinite:
  case UnaryTestKind::isinf: {
    if (!e.isFloat())
      return constBool(kind == UnaryTestKind::isfinite);
    Value magnitude = math::AbsFOp::create(b, x);
    Value inf = e.cst(INFINITY);
    return e.cmpf(kind == UnaryTestKind::isfinite ? CmpFPredicate::OLT
                                                  : CmpFPredicate::OEQ,
                  magnitude, inf);
  }
  case UnaryTestKind::isnan:
    return e.isFloat() ? e.cmpf(CmpFPredicate::UNO, x, x) : constBool(false);
  case UnaryTestKind::logical_not:
    return e.isFloat() ? e.cmpf(CmpFPredicate::OEQ, x, e.cst(0)) : e.eqi(x, 0);
  case UnaryTestKind::signbit: {
    if (!e.isFloat())
      return e.isNegative(x);
    // The sign bit itself, so that -0.0 and -NaN count as negative.
    Type bits = b.getIntegerType(e.width());
    Value asInt = arith::BitcastOp::create(b, bits, x);
    Value zero = arith::ConstantOp::create(b, bits, b.getIntegerAttr(bits, 0));
    return e.cmpi(CmpIPredicate::slt, asInt, zero);
  }
  }
  llvm_unreachable("unknown unary test kind");
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

/// NumPy's float remainder: fmod with the divisor's sign.
static Value emitFloatRemainder(Emitter &e, Value x, Value y) {
  Value r = arith::RemFOp::create(e.b, x, y);
  Value nonzero = e.cmpf(CmpFPredicate::ONE, r, e.cst(0));
  Value signsDiffer = e.signsDiffer(r, y);
  Value fixed = arith::AddFOp::create(e.b, r, y);
  Value needsFix = e.andi(nonzero, signsDiffer);
  return e.select(needsFix, fixed, r);
}

/// copysign(x, y) by bit operations (no libm or intrinsic needed).
static Value emitCopySign(Emitter &e, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  unsigned w = e.width();
  Type bits = b.getIntegerType(w);
  auto mask = [&](APInt v) -> Value {
    return arith::ConstantOp::create(b, bits, b.getIntegerAttr(bits, v));
  };
  APInt signBit = APInt::getSignMask(w);
  Value xBits = arith::BitcastOp::create(b, bits, x);
  Value magnitudeMask = mask(~signBit);
  Value magnitude = e.andi(xBits, magnitudeMask);
  Value yBits = arith::BitcastOp::create(b, bits, y);
  Value signMask = mask(signBit);
  Value sign = e.andi(yBits, signMask);
  Value result = e.ori(magnitude, sign);
  return arith::BitcastOp::create(b, e.storage, result);
}

/// NumPy's float floor division (npy_divmod): (x - fmod(x, y)) / y,
/// corrected toward -inf and rounded to the nearest integer, so that
/// x // y == floor(x / y) as if computed exactly; x / y when y == 0.
static Value emitFloatFloorDivide(Emitter &e, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  Value mod = arith::RemFOp::create(b, x, y);
  Value exact = arith::SubFOp::create(b, x, mod);
  Value div = arith::DivFOp::create(b, exact, y);
  Value zero = e.cst(0);
  Value one = e.cst(1);
  Value nonzeroMod = e.cmpf(CmpFPredicate::UNE, mod, zero);
  Value signsDiffer = e.signsDiffer(y, mod);
  Value towardMinusInf = e.andi(nonzeroMod, signsDiffer);
  Value divMinusOne = arith::SubFOp::create(b, div, one);
  div = e.select(towardMinusInf, divMinusOne, div);
  Value floorDiv = math::FloorOp::create(b, div);
  Value fraction = arith::SubFOp::create(b, div, floorDiv);
  Value half = e.cst(0.5);
  Value roundUp = e.cmpf(CmpFPredicate::OGT, fraction, half);
  Value floorPlusOne = arith::AddFOp::create(b, floorDiv, one);
  floorDiv = e.select(roundUp, floorPlusOne, floorDiv);
  Value quotient = arith::DivFOp::create(b, x, y);
  Value signedZero = emitCopySign(e, zero, quotient);
  Value nonzeroDiv = e.cmpf(CmpFPredicate::UNE, div, zero);
  Value result = e.select(nonzeroDiv, floorDiv, signedZero);
  Value zeroDivisor = e.cmpf(CmpFPredicate::OEQ, y, zero);
  return e.select(zeroDivisor, quotient, result);
}

/// hypot without overflow: m * sqrt((x/m)^2 + (y/m)^2), m = max(|x|, |y|).
static Value emitHypot(Emitter &e, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  Value ax = math::AbsFOp::create(b, x), ay = math::AbsFOp::create(b, y);
  Value m = arith::MaximumFOp::create(b, ax, ay);
  Value n = arith::MinimumFOp::create(b, ax, ay);
  Value q = arith::DivFOp::create(b, n, m);
  Value one = e.cst(1);
  Value q2 = arith::MulFOp::create(b, q, q);
  Value sum = arith::AddFOp::create(b, one, q2);
  Value root = math::SqrtOp::create(b, sum);
  Value r = arith::MulFOp::create(b, m, root);
  // 0/0 and inf/inf would give NaN: hypot(0,0)=0, hypot(inf,y)=inf.
  // hypot(inf, NaN) is inf (IEEE 754).
  Value zeroValue = e.cst(0);
  Value zero = e.cmpf(CmpFPredicate::OEQ, m, zeroValue);
  Value infValue = e.cst(INFINITY);
  Value xInf = e.cmpf(CmpFPredicate::OEQ, ax, infValue);
  Value yInf = e.cmpf(CmpFPredicate::OEQ, ay, infValue);
  Value inf = e.ori(xInf, yInf);
  Value finite = e.select(zero, zeroValue, r);
  return e.select(inf, infValue, finite);
}

/// logaddexp: max + log1p(exp(-|x - y|)); equal infinities give themselves.
static Value emitLogAddExp(Emitter &e, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  Value m = arith::MaximumFOp::create(b, x, y);
  Value diff = arith::SubFOp::create(b, x, y);
  Value d = math::AbsFOp::create(b, diff);
  Value minusD = arith::NegFOp::create(b, d);
  Value ex = math::ExpOp::create(b, minusD);
  Value logTerm = math::Log1pOp::create(b, ex);
  Value r = arith::AddFOp::create(b, m, logTerm);
  Value same = e.cmpf(CmpFPredicate::OEQ, x, y);
  Value sameValue = arith::AddFOp::create(b, x, e.cst(std::log(2.0)));
  return e.select(same, sameValue, r);
}

static Value emitFloatBinary(Emitter &e, BinaryOpKind kind, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  switch (kind) {
  case BinaryOpKind::add: return arith::AddFOp::create(b, x, y);
  case BinaryOpKind::subtract: return arith::SubFOp::create(b, x, y);
  case BinaryOpKind::multiply: return arith::MulFOp::create(b, x, y);
  case BinaryOpKind::divide: return arith::DivFOp::create(b, x, y);
  case BinaryOpKind::atan2: return math::Atan2Op::create(b, x, y);
  case BinaryOpKind::copysign: return emitCopySign(e, x, y);
  case BinaryOpKind::floor_divide: return emitFloatFloorDivide(e, x, y);
  case BinaryOpKind::hypot: return emitHypot(e, x, y);
  case BinaryOpKind::logaddexp: return emitLogAddExp(e, x, y);
  case BinaryOpKind::maximum: return arith::MaximumFOp::create(b, x, y);
  case BinaryOpKind::minimum: return arith::MinimumFOp::create(b, x, y);
  case BinaryOpKind::pow: return math::PowFOp::create(b, x, y);
  case BinaryOpKind::remainder: return emitFloatRemainder(e, x, y);
  default:
    llvm_unreachable("bitwise kinds on floats are rejected by the verifier");
  }
}

/// Integer floor division and remainder with NumPy's results for a zero
/// divisor (0) and for INT_MIN // -1 (wraps), never trapping.
static Value emitIntegerDivision(Emitter &e, bool remainder, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  Value safe = e.safeDivisor(y);
  Value zero = e.cst(0);
  if (e.isUnsigned()) {
    Value r = remainder ? Value(arith::RemUIOp::create(b, x, safe))
                        : Value(arith::DivUIOp::create(b, x, safe));
    Value zeroDivisor = e.eqi(y, 0);
    return e.select(zeroDivisor, zero, r);
  }
  Value r;
  if (remainder) {
    Value rem = arith::RemSIOp::create(b, x, safe);
    Value nonzero = e.cmpi(CmpIPredicate::ne, rem, zero);
    Value signsDiffer = e.signsDiffer(rem, y);
    Value needsFix = e.andi(nonzero, signsDiffer);
    Value fixed = arith::AddIOp::create(b, rem, y);
    r = e.select(needsFix, fixed, rem);
  } else {
    r = arith::FloorDivSIOp::create(b, x, safe);
  }
  Value byMinusOne = remainder ? zero : Value(arith::SubIOp::create(b, zero, x));
  Value minusOneDivisor = e.eqi(y, -1);
  Value nonzeroResult = e.select(minusOneDivisor, byMinusOne, r);
  Value zeroDivisor = e.eqi(y, 0);
  return e.select(zeroDivisor, zero, nonzeroResult);
}

/// Shifts with NumPy's results for amounts outside [0, width).
static Value emitShift(Emitter &e, bool left, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  Value width = e.cst(e.width());
  Value tooFar = e.cmpi(CmpIPredicate::uge, y, width); // negative too
  Value zero = e.cst(0);
  Value amount = e.select(tooFar, zero, y);
  if (left || e.isUnsigned()) {
    Value shifted = left ? Value(arith::ShLIOp::create(b, x, amount))
                         : Value(arith::ShRUIOp::create(b, x, amount));
    return e.select(tooFar, zero, shifted);
  }
  Value signShift = e.cst(e.width() - 1);
  Value saturated = arith::ShRSIOp::create(b, x, signShift);
  Value shifted = arith::ShRSIOp::create(b, x, amount);
  return e.select(tooFar, saturated, shifted);
}

/// x ** y with an unsigned exponent, modulo 2^width like NumPy. math.ipowi
/// reads its exponent as signed (a set top bit would be a negative power),
/// so it only gets y >> 1, which is never negative:
/// x ** y = (x ** (y >> 1)) ** 2 * (y odd ? x : 1).
static Value emitUnsignedPow(Emitter &e, Value x, Value y) {
  ImplicitLocOpBuilder &b = e.b;
  Value one = e.cst(1);
  Value halfExponent = arith::ShRUIOp::create(b, y, one);
  Value half = math::IPowIOp::create(b, x, halfExponent);
  Value even = arith::MulIOp::create(b, half, half);
  Value lowBit = e.andi(y, one);
  Value zero = e.cst(0);
  Value odd = e.cmpi(CmpIPredicate::ne, lowBit, zero);
  Value timesX = arith::MulIOp::create(b, even, x);
  return e.select(odd, timesX, even);
}

static Value emitIntegerBinary(Emitter &e, BinaryOpKind kind, Value x,
                               Value y) {
  ImplicitLocOpBuilder &b = e.b;
  bool u = e.isUnsigned();
  switch (kind) {
  case BinaryOpKind::add: return arith::AddIOp::create(b, x, y);
  case BinaryOpKind::subtract: return arith::SubIOp::create(b, x, y);
  case BinaryOpKind::multiply: return arith::MulIOp::create(b, x, y);
  case BinaryOpKind::floor_divide: return emitIntegerDivision(e, false, x, y);
  case BinaryOpKind::remainder: return emitIntegerDivision(e, true, x, y);
  case BinaryOpKind::maximum:
    return u ? Value(arith::MaxUIOp::create(b, x, y))
             : Value(arith::MaxSIOp::create(b, x, y));
  case BinaryOpKind::minimum:
    return u ? Value(arith::MinUIOp::create(b, x, y))
             : Value(arith::MinSIOp::create(b, x, y));
  case BinaryOpKind::pow:
    return u ? emitUnsignedPow(e, x, y) : Value(math::IPowIOp::create(b, x, y));
  case BinaryOpKind::bitwise_and: return e.andi(x, y);
  case BinaryOpKind::bitwise_or: return e.ori(x, y);
  case BinaryOpKind::bitwise_xor: return e.xori(x, y);
  case BinaryOpKind::bitwise_left_shift: return emitShift(e, true, x, y);
  case BinaryOpKind::bitwise_right_shift: return emitShift(e, false, x, y);
  default:
    llvm_unreachable("INT_TO_FLOAT kinds compute in a float dtype");
  }
}

Value mlir::ptensor::emitBinary(OpBuilder &builder, Location loc,
                                BinaryOpKind kind, Value x, Value y, Type t) {
  Emitter e(builder, loc, t);
  return e.isFloat() ? emitFloatBinary(e, kind, x, y)
                     : emitIntegerBinary(e, kind, x, y);
}

Value mlir::ptensor::emitBinaryTest(OpBuilder &builder, Location loc,
                                    BinaryTestKind kind, Value x, Value y,
                                    Type t) {
  Emitter e(builder, loc, t);
  bool u = e.isUnsigned();
  auto cmp = [&](CmpFPredicate f, CmpIPredicate s, CmpIPredicate us) {
    if (e.isFloat())
      return e.cmpf(f, x, y);
    return e.cmpi(u ? us : s, x, y);
  };
  auto truth = [&](Value v) {
    return convertScalar(builder, loc, v, t, builder.getI1Type());
  };
  switch (kind) {
  case BinaryTestKind::equal:
    return cmp(CmpFPredicate::OEQ, CmpIPredicate::eq, CmpIPredicate::eq);
  case BinaryTestKind::not_equal:
    return cmp(CmpFPredicate::UNE, CmpIPredicate::ne, CmpIPredicate::ne);
  case BinaryTestKind::greater:
    return cmp(CmpFPredicate::OGT, CmpIPredicate::sgt, CmpIPredicate::ugt);
  case BinaryTestKind::greater_equal:
    return cmp(CmpFPredicate::OGE, CmpIPredicate::sge, CmpIPredicate::uge);
  case BinaryTestKind::less:
    return cmp(CmpFPredicate::OLT, CmpIPredicate::slt, CmpIPredicate::ult);
  case BinaryTestKind::less_equal:
    return cmp(CmpFPredicate::OLE, CmpIPredicate::sle, CmpIPredicate::ule);
  case BinaryTestKind::logical_and: return e.andi(truth(x), truth(y));
  case BinaryTestKind::logical_or: return e.ori(truth(x), truth(y));
  case BinaryTestKind::logical_xor: return e.xori(truth(x), truth(y));
  }
  llvm_unreachable("unknown binary test kind");
}
