//===- InvariantDivision.cpp - divisions by a loop-invariant divisor ------===//
//
// Integer division by a divisor that is the same for every iteration of a
// loop (a scalar operand) becomes a multiplication by a magic number that
// is computed once before the loop: Granlund and Montgomery, "Division by
// invariant integers using multiplication" (PLDI 1994), the round-up method
// of their figure 4.1, whose magic number fits in N bits for every N-bit
// divisor (no branch on the divisor, so one loop body vectorizes for all).
// Signed divisions divide the magnitudes (|INT_MIN| is an N-bit unsigned
// number) and apply the signs after; numpy does the same with libdivide.
// A loop with floor divisions is versioned on its divisors' signs: where
// they are positive (Python's `x // 7`) the dividend's one's complement
// (below 2^(N-1), so a smaller magic number suffices) is divided by one
// product's high half and a shift, and the quotient complemented back;
// where they are negative (not INT_MIN) the same division of n - 1 by |d|,
// complemented.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/HostLoops/HostLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORINVARIANTDIVISION
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {

/// A magic multiplier m < 2^N as the loop's high product takes it. N <= 32:
/// m as an N-bit value, zero-extended in the loop beside the dividend, so
/// that LLVM sees a product of two N-bit numbers and takes its high half
/// with vpmulhuw for N = 16 (an m computed in the 2N-bit type gave a full
/// 32-bit vpmulld: x // 7 of 10^7 int16, one thread, x86-64-v4 code 1.35 ->
/// 0.98 ms). N = 64: m's 32-bit halves (i64 values
/// below 2^32), computed apart, and the high product from four 32 x 32-bit
/// products: vector code (vpmuludq), where an i128 product is widened by
/// the loop vectorizer and then scalarized lane by lane (2.2x slower in
/// cache). Halves of one i64 would not do: LLVM's AggressiveInstCombine
/// folds the four products of `x & 0xffffffff`, `x >> 32` back into the
/// i128 multiply.
struct Multiplier {
  Value narrow;    ///< N <= 32: m (N bits), widened where it is used
  Value low, high; ///< N = 64: m mod 2^32 and m >> 32 (i64)
};

/// What the loop needs of one divisor `d` (N-bit): its magnitude (1 in
/// place of 0), the magic multiplier and the two shifts.
struct Magic {
  Value magnitude; ///< |d| as an unsigned N-bit number, 1 where d is 0
  Multiplier multiplier;
  Value shift1, shift2; ///< min(l, 1), max(l - 1, 0) (N bits)
};

/// The kinds of division this pass rewrites.
enum class Kind { DivU, RemU, DivS, RemS, FloorDivS };

std::optional<Kind> kindOf(Operation *op) {
  if (isa<arith::DivUIOp>(op))
    return Kind::DivU;
  if (isa<arith::RemUIOp>(op))
    return Kind::RemU;
  if (isa<arith::DivSIOp>(op))
    return Kind::DivS;
  if (isa<arith::RemSIOp>(op))
    return Kind::RemS;
  if (isa<arith::FloorDivSIOp>(op))
    return Kind::FloorDivS;
  return std::nullopt;
}

bool isSigned(Kind kind) {
  return kind == Kind::DivS || kind == Kind::RemS || kind == Kind::FloorDivS;
}

/// A loop around a division: a serial scf.for or an OpenMP worksharing
/// loop's omp.loop_nest (a 1-D nest on threads has no serial loop inside).
bool isLoop(Operation *op) { return isa<scf::ForOp, omp::LoopNestOp>(op); }

/// The innermost loop around `op`, or null.
Operation *enclosingLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isLoop(p))
      return p;
  return nullptr;
}

/// The op before which code runs once per execution of `loop`: the loop,
/// or the outermost wrapper (omp.wsloop) around an omp.loop_nest.
Operation *hoistPoint(Operation *loop) {
  Operation *point = loop;
  while (isa_and_nonnull<omp::LoopWrapperInterface>(point->getParentOp()))
    point = point->getParentOp();
  return point;
}

/// Whether `v` can be computed before `loop`: defined outside it, or by a
/// few pure ops of such values inside it (convert-scf-to-openmp leaves a
/// body's invariant code inside the omp.loop_nest, where
/// loop-invariant-code-motion does not look).
bool isInvariant(Value v, Operation *loop, int depth = 0) {
  Operation *def = v.getDefiningOp();
  Operation *owner = def ? def : v.getParentBlock()->getParentOp();
  if (owner != loop && !loop->isProperAncestor(owner))
    return true;
  if (!def || depth > 8 || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isInvariant(operand, loop, depth + 1);
  });
}

/// `v` (invariant in `loop`) at `b`'s insertion point before the loop: the
/// value, or clones of the pure ops that compute it inside the loop.
Value materialize(OpBuilder &b, Value v, Operation *loop, IRMapping &map) {
  if (Value known = map.lookupOrNull(v))
    return known;
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return v;
  for (Value operand : def->getOperands())
    map.map(operand, materialize(b, operand, loop, map));
  Operation *copy = b.clone(*def, map);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

/// Whether divisions of `type` are rewritten: 8 to 32 bits (the magic
/// number computed in i64) and 64 (by a long division); no odd widths.
bool hasMagicForm(IntegerType type) {
  unsigned width = type.getWidth();
  return width == 8 || width == 16 || width == 32 || width == 64;
}

/// The outermost loop around `op` that `divisor` is invariant in (null
/// when the innermost one is not).
Operation *outermostInvariantLoop(Operation *op, Value divisor) {
  Operation *found = nullptr;
  for (Operation *loop = enclosingLoop(op); loop;
       loop = enclosingLoop(hoistPoint(loop))) {
    if (!isInvariant(divisor, loop))
      break;
    found = loop;
  }
  return found;
}

/// The signed minimum (`max` false) or maximum of `type`, a constant.
Value signedExtreme(ImplicitLocOpBuilder &b, IntegerType type, bool max) {
  unsigned width = type.getWidth();
  APInt value = max ? APInt::getSignedMaxValue(width)
                    : APInt::getSignedMinValue(width);
  return arith::ConstantIntOp::create(b, type, value.getSExtValue());
}

/// `v < 0` (signed).
Value isNegative(ImplicitLocOpBuilder &b, Value v) {
  Value zero = arith::ConstantIntOp::create(b, v.getType(), 0);
  return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, v, zero);
}

/// `condition ? 0 - v : otherwise` (two's complement; `otherwise` is `v`
/// unless given).
Value negateWhere(ImplicitLocOpBuilder &b, Value condition, Value v,
                  Value otherwise = Value()) {
  Value zero = arith::ConstantIntOp::create(b, v.getType(), 0);
  Value negated = arith::SubIOp::create(b, zero, v);
  return arith::SelectOp::create(b, condition, negated,
                                 otherwise ? otherwise : v);
}

/// `v`'s magnitude as an unsigned number of its width (signed) or `v`.
Value magnitude(ImplicitLocOpBuilder &b, Value v, bool isSigned) {
  if (!isSigned)
    return v;
  return negateWhere(b, isNegative(b, v), v);
}

/// The bit length of `x` (i64, unsigned): the least e with x < 2^e, in
/// [0, 64]. From x's exponent as an f64, which rounding may have raised by
/// one (x near the next power of two), then corrected. (math.ctlz has no
/// host lowering for every width.)
Value bitLength(ImplicitLocOpBuilder &b, Value x) {
  auto i64 = b.getI64Type();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, i64, v);
  };
  Value asDouble = arith::UIToFPOp::create(b, b.getF64Type(), x);
  Value bits = arith::BitcastOp::create(b, i64, asDouble);
  Value biased = arith::ShRUIOp::create(b, bits, cst(52));
  Value estimate = arith::SubIOp::create(b, biased, cst(1022)); // l or l + 1
  Value below = arith::SubIOp::create(b, estimate, cst(1));
  // x >> (estimate - 1) == 0: the estimate was one too high. An estimate
  // of 65 (x rounded up to 2^64) is 64; estimate - 1 is then not shifted by.
  Value shift = arith::MinUIOp::create(b, below, cst(63));
  Value rest = arith::ShRUIOp::create(b, x, shift);
  Value tooHigh = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rest,
                                        cst(0));
  Value ofAll = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, estimate,
                                      cst(64));
  Value fixed = arith::SelectOp::create(b, tooHigh, below, estimate);
  Value length = arith::SelectOp::create(b, ofAll, cst(64), fixed);
  Value isZero =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, cst(0));
  return arith::SelectOp::create(b, isZero, cst(0), length);
}

/// A 64-bit number as two i64 values below 2^32.
struct Halves {
  Value low, high;
};

/// `steps` steps of a restoring long division of the remainder `r` (< d)
/// by d (i64, unsigned), one quotient bit each: the remainder after them
/// and their bits (results 0 and 1).
scf::ForOp longDivisionSteps(ImplicitLocOpBuilder &b, Value r, Value d,
                             int64_t steps) {
  auto i64 = b.getI64Type();
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value count = arith::ConstantIndexOp::create(b, steps);
  Value step = arith::ConstantIndexOp::create(b, 1);
  Value noBits = arith::ConstantIntOp::create(b, i64, 0);
  return scf::ForOp::create(
      b, zero, count, step, ValueRange{r, noBits},
      [&](OpBuilder &nested, Location loc, Value, ValueRange acc) {
        ImplicitLocOpBuilder lb(loc, nested);
        auto lcst = [&](int64_t v) -> Value {
          return arith::ConstantIntOp::create(lb, i64, v);
        };
        Value r = acc[0], q = acc[1];
        Value top = arith::ShRUIOp::create(lb, r, lcst(63));
        Value carry =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::ne, top, lcst(0));
        Value twice = arith::ShLIOp::create(lb, r, lcst(1));
        Value fits =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::uge, twice, d);
        Value take = arith::OrIOp::create(lb, carry, fits);
        Value reduced = arith::SubIOp::create(lb, twice, d);
        Value nextR = arith::SelectOp::create(lb, take, reduced, twice);
        Value shifted = arith::ShLIOp::create(lb, q, lcst(1));
        Value bit = arith::ExtUIOp::create(lb, i64, take);
        Value nextQ = arith::OrIOp::create(lb, shifted, bit);
        scf::YieldOp::create(lb, ValueRange{nextR, nextQ});
      });
}

/// floor(excess * 2^64 / d) for excess < d (i64, unsigned) as its halves:
/// a restoring long division, 32 steps for each half (once per loop; a
/// 128-bit division would call a runtime routine the host code does not
/// link). The halves come from loops of their own, so nothing later sees
/// them as the halves of one value (Multiplier).
Halves divideShifted64(ImplicitLocOpBuilder &b, Value excess, Value d) {
  scf::ForOp high = longDivisionSteps(b, excess, d, 32);
  scf::ForOp low = longDivisionSteps(b, high.getResult(0), d, 32);
  return {low.getResult(1), high.getResult(1)};
}

/// `q + 1` of a 64-bit q given as halves, as the 64-bit multiplier.
Multiplier incrementedMultiplier(ImplicitLocOpBuilder &b, Halves q) {
  auto i64 = b.getI64Type();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, i64, v);
  };
  Value lowPlus = arith::AddIOp::create(b, q.low, cst(1));
  Value carry = arith::ShRUIOp::create(b, lowPlus, cst(32));
  Multiplier m;
  m.low = arith::AndIOp::create(b, lowPlus, cst(0xffffffff));
  Value highPlus = arith::AddIOp::create(b, q.high, carry);
  // Below 2^32 already (m < 2^64); the mask tells LLVM so (32-bit products).
  m.high = arith::AndIOp::create(b, highPlus, cst(0xffffffff));
  return m;
}

/// The high N bits of the 2N-bit product of `x` (N-bit) and `m`.
Value highProduct(ImplicitLocOpBuilder &b, Value x, const Multiplier &m) {
  auto type = cast<IntegerType>(x.getType());
  if (m.narrow) {
    Type wide = IntegerType::get(b.getContext(), 2 * type.getWidth());
    Value xWide = arith::ExtUIOp::create(b, wide, x);
    Value mWide = arith::ExtUIOp::create(b, wide, m.narrow);
    Value product = arith::MulIOp::create(b, xWide, mWide);
    Value width = arith::ConstantIntOp::create(b, wide, type.getWidth());
    Value high = arith::ShRUIOp::create(b, product, width);
    return arith::TruncIOp::create(b, type, high);
  }
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, type, v);
  };
  Value mask = cst(0xffffffff), shift = cst(32);
  Value xLow = arith::AndIOp::create(b, x, mask);
  Value xHigh = arith::ShRUIOp::create(b, x, shift);
  Value lowLow = arith::MulIOp::create(b, xLow, m.low);
  Value lowHigh = arith::MulIOp::create(b, xLow, m.high);
  Value highLow = arith::MulIOp::create(b, xHigh, m.low);
  Value highHigh = arith::MulIOp::create(b, xHigh, m.high);
  // The middle 32 bits' sum (below 3 * 2^32) carries into the high half.
  Value lowLowTop = arith::ShRUIOp::create(b, lowLow, shift);
  Value lowHighBottom = arith::AndIOp::create(b, lowHigh, mask);
  Value highLowBottom = arith::AndIOp::create(b, highLow, mask);
  Value middle = arith::AddIOp::create(b, lowLowTop, lowHighBottom);
  middle = arith::AddIOp::create(b, middle, highLowBottom);
  Value lowHighTop = arith::ShRUIOp::create(b, lowHigh, shift);
  Value highLowTop = arith::ShRUIOp::create(b, highLow, shift);
  Value middleTop = arith::ShRUIOp::create(b, middle, shift);
  Value sum = arith::AddIOp::create(b, highHigh, lowHighTop);
  sum = arith::AddIOp::create(b, sum, highLowTop);
  return arith::AddIOp::create(b, sum, middleTop);
}

/// Magic number `m64` (an i64 below 2^N, N <= 32) as the N-bit multiplier
/// of an N-bit division's product.
Multiplier multiplierOf(ImplicitLocOpBuilder &b, Value m64, unsigned width) {
  auto narrow = IntegerType::get(b.getContext(), width);
  return {arith::TruncIOp::create(b, narrow, m64), {}, {}};
}

/// Computes `d`'s magic numbers at `b`'s insertion point (before the loop).
Magic computeMagic(ImplicitLocOpBuilder &b, Value d, bool isSigned) {
  auto type = cast<IntegerType>(d.getType());
  unsigned width = type.getWidth();
  auto i64 = b.getI64Type();
  auto cst = [&](Type t, int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, t, v);
  };
  Magic magic;
  Value abs = magnitude(b, d, isSigned);
  Value zero = cst(type, 0);
  Value one = cst(type, 1);
  Value isZero = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, abs, zero);
  magic.magnitude = arith::SelectOp::create(b, isZero, one, abs);
  // l = ceil(log2 |d|) = the bit length of |d| - 1, in [0, N].
  Value d64 = magic.magnitude;
  if (width < 64)
    d64 = arith::ExtUIOp::create(b, i64, d64);
  Value belowD = arith::SubIOp::create(b, d64, cst(i64, 1));
  Value l64 = bitLength(b, belowD);
  Value l = width == 64 ? l64 : Value(arith::TruncIOp::create(b, type, l64));
  // m = floor(2^N (2^l - |d|) / |d|) + 1 < 2^N, where 2^l - |d| < |d|;
  // 2^l - |d| wraps to the right N-bit value where l = N = 64.
  Value lIsAll = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, l64,
                                       cst(i64, 64));
  Value lClamped = arith::MinUIOp::create(b, l64, cst(i64, 63));
  Value shifted = arith::ShLIOp::create(b, cst(i64, 1), lClamped);
  Value power = arith::SelectOp::create(b, lIsAll, cst(i64, 0), shifted);
  Value excess = arith::SubIOp::create(b, power, d64);
  if (width == 64) {
    magic.multiplier =
        incrementedMultiplier(b, divideShifted64(b, excess, d64));
  } else {
    Value numerator = arith::ShLIOp::create(b, excess, cst(i64, width));
    Value quotient = arith::DivUIOp::create(b, numerator, d64);
    Value m64 = arith::AddIOp::create(b, quotient, cst(i64, 1));
    magic.multiplier = multiplierOf(b, m64, width);
  }
  magic.shift1 = arith::MinUIOp::create(b, l, one);
  Value lMinusOne = arith::SubIOp::create(b, l, one);
  Value lIsZero = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, l, zero);
  magic.shift2 = arith::SelectOp::create(b, lIsZero, zero, lMinusOne);
  return magic;
}

/// The unsigned quotient of `u` (N-bit) by the magic's divisor.
Value unsignedQuotient(ImplicitLocOpBuilder &b, Value u, const Magic &magic) {
  Value t = highProduct(b, u, magic.multiplier);
  Value rest = arith::SubIOp::create(b, u, t);
  Value half = arith::ShRUIOp::create(b, rest, magic.shift1);
  Value sum = arith::AddIOp::create(b, t, half);
  return arith::ShRUIOp::create(b, sum, magic.shift2);
}

/// What a floor division's loop needs of a divisor known to be > 0 for
/// dividends below 2^(N-1): with l = ceil(log2 d),
/// m = floor(2^(N-1+l) / d) + 1 < 2^N, and m d - 2^(N-1+l) <= d <= 2^l,
/// so floor(a / d) = floor(a m / 2^(N-1+l)) = mulhi(2a, m) >> l.
struct PositiveMagic {
  Multiplier multiplier;
  Value shift; ///< l (N bits)
};

/// Computes a positive `d`'s magic numbers at `b`'s insertion point.
PositiveMagic computePositiveMagic(ImplicitLocOpBuilder &b, Value d) {
  auto type = cast<IntegerType>(d.getType());
  unsigned width = type.getWidth();
  auto i64 = b.getI64Type();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, i64, v);
  };
  Value d64 = width == 64 ? d : Value(arith::ExtUIOp::create(b, i64, d));
  Value belowD = arith::SubIOp::create(b, d64, cst(1));
  Value l64 = bitLength(b, belowD); // < N: d < 2^(N-1)
  PositiveMagic magic;
  if (width == 64) {
    // 2^(63+l) / d = 2^64 2^(l-1) / d with 2^(l-1) < d; d = 1 (l = 0):
    // 2^63, as its long division from an excess of 2^-1 cannot say.
    Value lIsZero =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, l64, cst(0));
    Value lessOne = arith::SubIOp::create(b, l64, cst(1));
    Value halfShift = arith::SelectOp::create(b, lIsZero, cst(0), lessOne);
    Value excess = arith::ShLIOp::create(b, cst(1), halfShift);
    Halves divided = divideShifted64(b, excess, d64);
    Halves quotient;
    quotient.low = arith::SelectOp::create(b, lIsZero, cst(0), divided.low);
    quotient.high = arith::SelectOp::create(b, lIsZero, cst(INT64_C(1) << 31),
                                            divided.high);
    magic.multiplier = incrementedMultiplier(b, quotient);
  } else {
    Value power = arith::AddIOp::create(b, l64, cst(width - 1));
    Value numerator = arith::ShLIOp::create(b, cst(1), power);
    Value quotient = arith::DivUIOp::create(b, numerator, d64);
    Value m64 = arith::AddIOp::create(b, quotient, cst(1));
    magic.multiplier = multiplierOf(b, m64, width);
  }
  magic.shift =
      width == 64 ? l64 : Value(arith::TruncIOp::create(b, type, l64));
  return magic;
}

/// The floor of `n / d` for a divisor > 0: s = n >> (N-1) (all ones where
/// n < 0), a = n ^ s (|n| - 1 there, so a < 2^(N-1)), floor(n / d) =
/// s ^ floor(a / d), one product's high half and a shift.
Value emitPositiveFloorDivision(ImplicitLocOpBuilder &b, Value n,
                                const PositiveMagic &magic) {
  auto type = cast<IntegerType>(n.getType());
  unsigned width = type.getWidth();
  Value signBit = arith::ConstantIntOp::create(b, type, width - 1);
  Value one = arith::ConstantIntOp::create(b, type, 1);
  Value sign = arith::ShRSIOp::create(b, n, signBit);
  Value a = arith::XOrIOp::create(b, n, sign);
  Value twice = arith::ShLIOp::create(b, a, one);
  Value t = highProduct(b, twice, magic.multiplier);
  Value q = arith::ShRUIOp::create(b, t, magic.shift);
  return arith::XOrIOp::create(b, q, sign);
}

/// What a floor division's loop needs of a divisor d in [INT_MIN + 1, -1]:
/// the positive magic of p = -d and floor(INT_MIN / d), the one dividend
/// that n - 1 would wrap for.
struct NegativeMagic {
  PositiveMagic ofMagnitude;
  Value quotientOfMin; ///< floor(2^(N-1) / p), INT_MIN where p = 1 (wraps)
};

/// Computes a negative `d`'s numbers at `b`'s insertion point, with no
/// division: q0 = floor(INT_MAX / p) by the positive form, and 2^(N-1) / p
/// is one more where p divides 2^(N-1) (INT_MAX mod p = p - 1).
NegativeMagic computeNegativeMagic(ImplicitLocOpBuilder &b, Value d) {
  auto type = cast<IntegerType>(d.getType());
  Value zero = arith::ConstantIntOp::create(b, type, 0);
  Value one = arith::ConstantIntOp::create(b, type, 1);
  Value p = arith::SubIOp::create(b, zero, d);
  NegativeMagic magic;
  magic.ofMagnitude = computePositiveMagic(b, p);
  Value max = signedExtreme(b, type, /*max=*/true);
  Value q0 = emitPositiveFloorDivision(b, max, magic.ofMagnitude);
  Value product = arith::MulIOp::create(b, q0, p);
  Value rest = arith::SubIOp::create(b, max, product);
  Value last = arith::SubIOp::create(b, p, one);
  Value divides =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rest, last);
  Value carry = arith::ExtUIOp::create(b, type, divides);
  magic.quotientOfMin = arith::AddIOp::create(b, q0, carry);
  return magic;
}

/// The floor of `n / d` for d in [INT_MIN + 1, -1] (p = -d):
/// floor(n / d) = -ceil(n / p) = ~floor((n - 1) / p), the positive form's
/// division of n - 1; n = INT_MIN (n - 1 wraps) takes the precomputed one.
Value emitNegativeFloorDivision(ImplicitLocOpBuilder &b, Value n,
                                const NegativeMagic &magic) {
  auto type = cast<IntegerType>(n.getType());
  Value one = arith::ConstantIntOp::create(b, type, 1);
  Value allOnes = arith::ConstantIntOp::create(b, type, -1);
  Value min = signedExtreme(b, type, /*max=*/false);
  Value below = arith::SubIOp::create(b, n, one);
  Value q = emitPositiveFloorDivision(b, below, magic.ofMagnitude);
  Value floor = arith::XOrIOp::create(b, q, allOnes);
  Value isMin = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, n, min);
  return arith::SelectOp::create(b, isMin, magic.quotientOfMin, floor);
}

/// The replacement of division `kind` of `n` by `d` (the magic's divisor).
Value emitDivision(ImplicitLocOpBuilder &b, Kind kind, Value n, Value d,
                   const Magic &magic) {
  bool signedKind = isSigned(kind);
  Value u = magnitude(b, n, signedKind);
  Value q = unsignedQuotient(b, u, magic);
  if (kind == Kind::DivU)
    return q;
  Value product = arith::MulIOp::create(b, q, magic.magnitude);
  Value r = arith::SubIOp::create(b, u, product); // |n| mod |d|
  if (kind == Kind::RemU)
    return r;
  if (kind == Kind::RemS) // the dividend's sign
    return negateWhere(b, isNegative(b, n), r);
  Value signs = arith::XOrIOp::create(b, n, d);
  Value differ = isNegative(b, signs);
  if (kind == Kind::DivS) // truncated toward 0
    return negateWhere(b, differ, q);
  // Floor: a negative quotient with a remainder rounds away from 0 (a
  // one's-complement form for either divisor sign, like the positive
  // copy's, measured slower: 64-bit, one thread, 22 against 17 ms for 10^7).
  Value zero = arith::ConstantIntOp::create(b, n.getType(), 0);
  Value inexact = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, r, zero);
  Value carry = arith::ExtUIOp::create(b, n.getType(), inexact);
  Value rounded = arith::AddIOp::create(b, q, carry);
  return negateWhere(b, differ, rounded, /*otherwise=*/q);
}

/// The loop before which the magic numbers of division `op` are computed:
/// the outermost loop around it that its divisor (an 8 to 64-bit integer,
/// not a constant) is invariant in; null where `op` is left as it is.
Operation *rewritableLoop(Operation *op) {
  Value d = op->getOperand(1);
  auto type = dyn_cast<IntegerType>(d.getType());
  if (!type || !hasMagicForm(type) || matchPattern(d, m_Constant()))
    return nullptr;
  return outermostInvariantLoop(op, d);
}

/// A floor division's hoisted divisor `d`, and what the sign tests of a
/// loop copy look at. Where `d` is a select's false operand `y`, as in
/// ScalarOps' safe divisor `select(y == 0 || y == -1, 1, y)`, the copies
/// are entered on y's own sign and `d == y` (`sameAsSelected`): LLVM then
/// folds the loop body's tests of y (the division's `y == 0` and
/// `y == -1` selects, two branches per vector iteration otherwise).
struct Divisor {
  Value value;
  /// The select's false operand, or null where `value` is no select.
  Value selected;
  /// `value == selected`, where `selected` is set.
  Value sameAsSelected;

  Divisor(ImplicitLocOpBuilder &b, Value d) : value(d) {
    if (auto select = d.getDefiningOp<arith::SelectOp>()) {
      selected = select.getFalseValue();
      sameAsSelected =
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, d, selected);
    }
  }

  /// `ofValue` of the divisor, or `ofSelected(y) && d == y` where it selects
  /// y. Each must hold of divisors only of the sign the copy is for.
  template <typename OfValue, typename OfSelected>
  Value test(ImplicitLocOpBuilder &b, OfValue ofValue,
             OfSelected ofSelected) const {
    if (!selected)
      return ofValue(value);
    Value holds = ofSelected(selected);
    return arith::AndIOp::create(b, holds, sameAsSelected);
  }
};

/// The divisor sign a loop copy's floor divisions were made for.
enum class DivisorSign { Positive, Negative };

/// `condition` of every divisor, and-ed (`test(d)` gives one's).
template <typename Test>
Value allDivisors(ImplicitLocOpBuilder &b, ArrayRef<Divisor> divisors,
                  Test test) {
  Value all;
  for (const Divisor &d : divisors) {
    Value holds = test(d);
    all = all ? Value(arith::AndIOp::create(b, all, holds)) : holds;
  }
  return all;
}

/// Puts `point` (a loop's hoist point) into the else region of a new
/// `scf.if condition` at its place, and a copy of it into the then region;
/// the copies of `floors` get `sign` in `signs`.
void versionOn(ImplicitLocOpBuilder &b, Value condition, Operation *point,
               ArrayRef<Operation *> floors, DivisorSign sign,
               llvm::DenseMap<Operation *, DivisorSign> &signs) {
  auto ifOp = scf::IfOp::create(b, point->getResultTypes(), condition,
                                /*withElseRegion=*/true);
  point->replaceAllUsesWith(ifOp.getResults());
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  IRMapping copied;
  Operation *copy = thenBuilder.clone(*point, copied);
  if (ifOp.getNumResults() != 0)
    scf::YieldOp::create(thenBuilder, point->getLoc(), copy->getResults());
  for (Operation *floor : floors)
    signs[copied.lookup(floor)] = sign;
  Block *elseBlock = ifOp.elseBlock();
  if (ifOp.getNumResults() != 0) {
    OpBuilder elseBuilder = OpBuilder::atBlockEnd(elseBlock);
    scf::YieldOp::create(elseBuilder, point->getLoc(), point->getResults());
  }
  point->moveBefore(elseBlock->getTerminator());
}

/// Versions each loop with floor divisions by invariant divisors at its
/// hoist point: `scf.if` (every such divisor > 0) runs a copy whose floor
/// divisions take the positive form, else `scf.if` (every divisor < 0 and
/// not INT_MIN) a copy with the negative form, else the loop as it was.
/// Python's `x // k` has a positive k nearly always, and the positive form
/// is a third of the general one's work per element; the negative one
/// adds a subtraction and a select to it.
llvm::DenseMap<Operation *, DivisorSign>
versionOnDivisorSigns(func::FuncOp func) {
  llvm::MapVector<Operation *, SmallVector<Operation *>> floorsByLoop;
  func.walk([&](arith::FloorDivSIOp op) {
    if (Operation *loop = rewritableLoop(op))
      floorsByLoop[loop].push_back(op);
  });
  llvm::DenseMap<Operation *, DivisorSign> signs;
  for (auto &[loop, floors] : floorsByLoop) {
    Operation *point = hoistPoint(loop);
    ImplicitLocOpBuilder b(loop->getLoc(), point);
    IRMapping hoisted;
    llvm::SetVector<Value> hoistedDivisors; // one test per divisor
    for (Operation *floor : floors)
      hoistedDivisors.insert(
          materialize(b, floor->getOperand(1), loop, hoisted));
    SmallVector<Divisor> divisors;
    for (Value d : hoistedDivisors)
      divisors.emplace_back(b, d);
    auto positive = [&](Value d) -> Value {
      Value zero = arith::ConstantIntOp::create(b, d.getType(), 0);
      return arith::CmpIOp::create(b, arith::CmpIPredicate::sgt, d, zero);
    };
    // Below -1 where the test is of a selected value, so that its copy
    // knows y != -1 too.
    auto negative = [&](Value d, int64_t bound) -> Value {
      auto type = cast<IntegerType>(d.getType());
      Value limit = arith::ConstantIntOp::create(b, type, bound);
      Value min = signedExtreme(b, type, /*max=*/false);
      Value below =
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, d, limit);
      Value notMin = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, d, min);
      return arith::AndIOp::create(b, below, notMin);
    };
    Value allPositive = allDivisors(b, divisors, [&](const Divisor &d) {
      return d.test(b, positive, positive);
    });
    Value allNegative = allDivisors(b, divisors, [&](const Divisor &d) {
      return d.test(
          b, [&](Value v) { return negative(v, 0); },
          [&](Value y) { return negative(y, -1); });
    });
    versionOn(b, allPositive, point, floors, DivisorSign::Positive, signs);
    // The general loop is now in the else region; the negative copy goes
    // before it there.
    ImplicitLocOpBuilder inElse(loop->getLoc(), point);
    versionOn(inElse, allNegative, point, floors, DivisorSign::Negative,
              signs);
  }
  return signs;
}

/// `cache[key]`, computed the first time by `compute(builder, divisor)`
/// before `loop` from `d` hoisted there.
template <typename Key, typename Numbers, typename Compute>
const Numbers &computedOnce(llvm::DenseMap<Key, Numbers> &cache,
                            const Key &key, Value d, Operation *loop,
                            Compute compute) {
  auto it = cache.find(key);
  if (it == cache.end()) {
    ImplicitLocOpBuilder before(loop->getLoc(), hoistPoint(loop));
    IRMapping map;
    Value hoisted = materialize(before, d, loop, map);
    it = cache.try_emplace(key, compute(before, hoisted)).first;
  }
  return it->second;
}

struct PTensorInvariantDivisionPass
    : public ptensor::impl::PTensorInvariantDivisionBase<
          PTensorInvariantDivisionPass> {
  void runOnOperation() override {
    llvm::DenseMap<Operation *, DivisorSign> signs =
        versionOnDivisorSigns(getOperation());
    SmallVector<Operation *> divisions;
    getOperation().walk([&](Operation *op) {
      if (kindOf(op) && enclosingLoop(op))
        divisions.push_back(op);
    });
    // Magic numbers per (divisor, signedness, loop) and, for the signed
    // copies' floor divisions, per (divisor, loop), computed once.
    llvm::DenseMap<std::tuple<Value, int, Operation *>, Magic> magics;
    llvm::DenseMap<std::pair<Value, Operation *>, PositiveMagic>
        positiveMagics;
    llvm::DenseMap<std::pair<Value, Operation *>, NegativeMagic>
        negativeMagics;
    for (Operation *op : divisions) {
      Operation *loop = rewritableLoop(op);
      if (!loop)
        continue;
      Value n = op->getOperand(0), d = op->getOperand(1);
      ImplicitLocOpBuilder b(op->getLoc(), op);
      Value result;
      auto sign = signs.find(op);
      if (sign != signs.end() && sign->second == DivisorSign::Positive) {
        const PositiveMagic &magic = computedOnce(
            positiveMagics, std::make_pair(d, loop), d, loop,
            computePositiveMagic);
        result = emitPositiveFloorDivision(b, n, magic);
      } else if (sign != signs.end()) {
        const NegativeMagic &magic = computedOnce(
            negativeMagics, std::make_pair(d, loop), d, loop,
            computeNegativeMagic);
        result = emitNegativeFloorDivision(b, n, magic);
      } else {
        Kind kind = *kindOf(op);
        bool signedKind = isSigned(kind);
        const Magic &magic = computedOnce(
            magics, std::make_tuple(d, int(signedKind), loop), d, loop,
            [&](ImplicitLocOpBuilder &before, Value hoisted) {
              return computeMagic(before, hoisted, signedKind);
            });
        result = emitDivision(b, kind, n, d, magic);
      }
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
