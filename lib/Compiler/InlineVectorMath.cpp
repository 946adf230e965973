//===- InlineVectorMath.cpp - math functions as inlined vector code -------===//
//
// ptensor's own vector forms of libm functions, for the loop vectorizer to
// call in place of libmvec's variants (HostOptimizer.cpp) and inlined after
// it. A libmvec call costs its loop more than its arithmetic: the vector
// function ABI saves no vector register across a call, so what stays live
// is spilled, and libmvec computes the lanes that hit a special case with
// scalar code (exp: arguments whose results are denormal or near overflow).
// An inlined form computes every lane in the same vector code, with no
// call (exp branches, for a vector with a denormal result, to a block that
// is vector code too).
//
// expf: x = k ln(2) + r with k an integer and |r| <= ln(2)/2 (two fused
// steps, the first exact: ln(2)'s high part has 24 bits and k at most 8),
// exp(r) a polynomial of degree 6, and exp(x) = exp(r) 2^k rounded once: with
// AVX-512's vscalefps, or else as two products by powers of two whose first
// is exact. A vector with a lane whose result is denormal or 0 (x below
// -87.3) branches to a block that makes those lanes' bits with integer
// operations (rounded once): an Intel CPU takes a microcode assist for each
// float operation whose result is denormal. At most
// 0.90 ulp from the exact value (test/Integration/CPU/vector-math-inline.test
// sweeps every float where it is hardest and a stride through the rest;
// 0.90 in a float64 emulation of these steps too); arguments are clamped to
// [-104, 89], past which the value rounds to 0 or overflows to +inf; NaN
// gives NaN (ordered compares keep it out of the clamp).
//
// expm1f: x = k ln(2) + r as for exp, expm1(r) = r + r^2 (exp's polynomial
// less its first two terms), and expm1(x) = 2 (2^(k-1) expm1(r) + 2^(k-1) -
// 1/2), whose last product is exact (2^k would overflow at k = 128; the
// clamp is [-18, 89]); expm1(r) itself where k = 0, so that small and
// denormal arguments stay exact; x's sign (-0). At most 1.58 ulp from the
// exact value (the sweep; near |x| = ln(2)/2, where the sum cancels).
//
// tanhf on 16 AVX-512 lanes: |x| falls in one of 29 intervals, a quarter
// of an octave each from 1/16 on ([0, 5/64) the first, [8, 9.010914) the
// last; the index is |x|'s exponent and top two significand bits), and
// tanh(|x|) = P(|x| - b) there, b the interval's start (so the difference
// is exact and every term has one sign) and P of degree 5, its
// coefficients picked from a table with vpermi2ps (two registers of 16
// per coefficient: no division, no exp, no branch); 1 from 9.010914 on
// (where tanh rounds to it), x's sign. At most 1.10 ulp from the exact
// value (the sweep; scripts/fit-tanh-table.py fits the table and checks
// it). Elsewhere (AVX2): x + x^3 P(x^2) for |x| < atanh(0.5), P of degree
// 4, and 1 - 2 / (exp(2 |x|) + 1) past it with x's sign (exp as above; 1
// where it overflows), at most 1.59 ulp from the exact value (the far form
// near atanh(0.5), where the subtraction cancels a bit).
//
// logf, on 16 AVX-512 lanes only: |x| = 2^e m with m in [3/4, 3/2)
// (vgetexpps and vgetmantps, which take denormals, zeros, infinities and
// NaN as they are, so no lane needs a branch), log(1 + f) = f - f^2/2 +
// f^3 P(f) with f = m - 1 (exact) and P of degree 7, and e ln(2) added in
// two parts, the larger last; NaN below 0. At most 0.92 ulp from the exact
// value (the sweep). On AVX2 the same steps (with the exponent and
// significand taken from the bits) ran slower than libmvec's logf, which
// AVX2 code keeps; so did log2f and log10f in this form on AVX-512
// (libmvec's take fewer operations).
//
//===----------------------------------------------------------------------===//

#include "InlineVectorMath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <limits>

namespace ptensor::compiler {

namespace {
/// The prefix of the functions defined here (removed once inlined).
constexpr llvm::StringLiteral kPrefix = "ptensor.vector_math.inline.";

/// exp(r) = 1 + r (1 + r (c2 + r (c3 + r (c4 + r (c5 + r c6))))) for
/// |r| <= ln(2)/2, c6 first: a minimax fit of the relative error (Remez,
/// in float64), 4.3e-9 at most (0.07 of a float's ulp at 1).
constexpr float kExpCoefficients[] = {0x1.6c350cp-10f, 0x1.1246dap-7f,
                                      0x1.555638p-5f, 0x1.55547ep-3f,
                                      0x1.fffffep-2f};
constexpr float kLog2E = 0x1.715476p+0f;
/// ln(2) as a float and the float nearest to the rest.
constexpr float kLn2High = 0x1.62e430p-1f;
constexpr float kLn2Low = -0x1.05c610p-29f;
/// ln(2) rounded down to a float and the float nearest to the (positive)
/// rest: for e = -inf (log(0)) both of e ln(2)'s terms are -inf.
constexpr float kLn2Below = 0x1.62e42ep-1f;
constexpr float kLn2Rest = 0x1.efa39ep-25f;
/// 1.5 * 2^23: a float near it has an ulp of 1, so adding it rounds to an
/// integer, which its low bits hold (two's complement around its own bits).
constexpr float kRoundingShift = 0x1.8p23f;
constexpr uint32_t kRoundingShiftBits = 0x4b400000;
/// tanh(x) = x + x^3 P(x^2) for |x| < kTanhNear (atanh(0.5), so that
/// 1 - 2 / (exp(2 |x|) + 1) past it cancels no more than one bit), P's
/// coefficients the highest power's first: a minimax fit of the relative
/// error (Remez, in float64), 1.0e-9 at most.
constexpr float kTanhCoefficients[] = {-0x1.9b880cp-8f, 0x1.594b98p-6f,
                                       -0x1.b92a20p-5f, 0x1.110d30p-3f,
                                       -0x1.55554ap-2f};
constexpr float kTanhNear = 0x1.193ea8p-1f;
/// The AVX-512 tanhf's intervals (see the file comment; made by
/// scripts/fit-tanh-table.py): where each starts, and its polynomial's
/// coefficients, c0 (the constant term) first. The last three entries of
/// each are never read.
constexpr float kTanhStarts[32] = {
    0x0p+0f,   0x1.4p-4f, 0x1.8p-4f, 0x1.cp-4f, 0x1p-3f,   0x1.4p-3f,
    0x1.8p-3f, 0x1.cp-3f, 0x1p-2f,   0x1.4p-2f, 0x1.8p-2f, 0x1.cp-2f,
    0x1p-1f,   0x1.4p-1f, 0x1.8p-1f, 0x1.cp-1f, 0x1p+0f,   0x1.4p+0f,
    0x1.8p+0f, 0x1.cp+0f, 0x1p+1f,   0x1.4p+1f, 0x1.8p+1f, 0x1.cp+1f,
    0x1p+2f,   0x1.4p+2f, 0x1.8p+2f, 0x1.cp+2f, 0x1p+3f};
constexpr float kTanhTable[6][32] = {
    {0x0p+0f,        0x1.3f59bep-4f, 0x1.7ee102p-4f, 0x1.be38d8p-4f,
     0x1.fd5992p-4f, 0x1.3d6bc8p-3f, 0x1.7b8ffap-3f, 0x1.b8fd04p-3f,
     0x1.f597eap-3f, 0x1.35f98ap-2f, 0x1.6ef53ep-2f, 0x1.a5729ep-2f,
     0x1.d9353ep-2f, 0x1.1bf47ep-1f, 0x1.45323ep-1f, 0x1.68665p-1f,
     0x1.85efacp-1f, 0x1.b2523cp-1f, 0x1.cf6f98p-1f, 0x1.e1fbfap-1f,
     0x1.ed9506p-1f, 0x1.f92582p-1f, 0x1.fd77d2p-1f, 0x1.ff112cp-1f,
     0x1.ffa818p-1f, 0x1.fff41ap-1f, 0x1.fffe64p-1f, 0x1.ffffc8p-1f,
     0x1.fffff8p-1f},
    {0x1p+0f,         0x1.fce33ep-1f, 0x1.fb86b8p-1f,  0x1.f9ec6cp-1f,
     0x1.f81526p-1f,  0x1.f3b36p-1f,  0x1.ee69e4p-1f,  0x1.e842cap-1f,
     0x1.e149ap-1f,   0x1.d11574p-1f, 0x1.be3fbap-1f,  0x1.a945bap-1f,
     0x1.92a946p-1f,  0x1.6284c2p-1f, 0x1.3173b2p-1f,  0x1.02500ap-1f,
     0x1.ae0deap-2f,  0x1.1f252cp-2f, 0x1.721666p-3f,  0x1.d22ca8p-4f,
     0x1.2161f4p-4f,  0x1.b3ad56p-6f, 0x1.434806p-7f,  0x1.dd3436p-9f,
     0x1.5f4d92p-10f, 0x1.7c918p-13f, 0x1.9c1114p-16f, 0x1.be245cp-19f,
     0x1.e3044ep-22f},
    {0x1.6f7a18p-25f,  -0x1.3d68c6p-4f,  -0x1.7b888ep-4f,  -0x1.b8ed1ep-4f,
     -0x1.f57932p-4f,  -0x1.35cbbcp-3f,  -0x1.6e8666p-3f,  -0x1.a48aacp-3f,
     -0x1.d7812p-3f,   -0x1.199202p-2f,  -0x1.3fd534p-2f,  -0x1.5e0ef2p-2f,
     -0x1.742648p-2f,  -0x1.893b06p-2f,  -0x1.8403fep-2f,  -0x1.6ba83ap-2f,
     -0x1.478e64p-2f,  -0x1.e73284p-3f,  -0x1.4eff8p-3f,   -0x1.b6d9ap-4f,
     -0x1.16e76p-4f,   -0x1.ad9e66p-6f,  -0x1.417a42p-7f,  -0x1.dc02c8p-9f,
     -0x1.5c96e4p-10f, -0x1.79d3d4p-13f, -0x1.9920c8p-16f, -0x1.baf6f2p-19f,
     -0x1.df75aap-22f},
    {-0x1.555664p-2f, -0x1.4d1264p-2f, -0x1.497b52p-2f, -0x1.45461ep-2f,
     -0x1.4077b8p-2f, -0x1.352106p-2f, -0x1.27a5d4p-2f, -0x1.183be8p-2f,
     -0x1.0725fep-2f, -0x1.c1b464p-3f, -0x1.6dd39ep-3f, -0x1.16ee82p-3f,
     -0x1.82632ap-4f, -0x1.24e5e4p-6f, 0x1.56aa64p-5f,  0x1.4f4f6ap-4f,
     0x1.aa6dd4p-4f,  0x1.bcef6p-4f,   0x1.683418p-4f,  0x1.01d1fep-4f,
     0x1.57c348p-5f,  0x1.14cf9ep-6f,  0x1.a4e944p-8f,  0x1.396e7ep-9f,
     0x1.bb1b6ap-11f, 0x1.e0ab86p-14f, 0x1.04463ap-16f, 0x1.19cdeap-19f,
     0x1.30ae7ap-22f},
    {0x1.091c1ap-13f,  0x1.a38e66p-5f,   0x1.f3a664p-5f,   0x1.20dab4p-4f,
     0x1.472ee2p-4f,   0x1.8ee8eep-4f,   0x1.d0583ap-4f,   0x1.054f3p-3f,
     0x1.1ff062p-3f,   0x1.45bde4p-3f,   0x1.5a16f8p-3f,   0x1.5db294p-3f,
     0x1.5597fp-3f,    0x1.1bfca8p-3f,   0x1.977936p-4f,   0x1.eb19a6p-5f,
     0x1.85711ap-6f,   -0x1.ef90bcp-7f,  -0x1.a9b3fep-6f,  -0x1.84a694p-6f,
     -0x1.1c6f38p-6f,  -0x1.ee9a96p-8f,  -0x1.81dc6cp-9f,  -0x1.21fcp-10f,
     -0x1.690926p-12f, -0x1.880a18p-15f, -0x1.a89f88p-18f, -0x1.cbc1b8p-21f,
     -0x1.ef94bp-24f},
    {0x1.0e4114p-3f,  0x1.003dfep-3f,  0x1.f374f4p-4f,  0x1.e47a4ap-4f,
     0x1.cab612p-4f,  0x1.a286c8p-4f,  0x1.74c978p-4f,  0x1.42acfcp-4f,
     0x1.e4bdcap-5f,  0x1.068f3p-5f,   0x1.897fdcp-8f,  -0x1.18306ep-6f,
     -0x1.630d5ep-5f, -0x1.f7f4cep-5f, -0x1.00ac66p-4f, -0x1.b2c942p-5f,
     -0x1.070c78p-5f, -0x1.3916ccp-7f, 0x1.69637cp-10f, 0x1.2d321cp-8f,
     0x1.0494bep-8f,  0x1.f6765cp-10f, 0x1.947e3ap-11f, 0x1.334ca6p-12f,
     0x1.202a1ep-14f, 0x1.3936bep-17f, 0x1.534a5cp-20f, 0x1.6f5ebap-23f,
     0x1.89d6f2p-26f},
};
/// |x|'s bits shifted right by this give its interval's index plus
/// kTanhFirstInterval (clamped to [0, kTanhIntervals - 1]).
constexpr unsigned kTanhIndexShift = 21;
constexpr uint32_t kTanhFirstInterval = 0x3d800000u >> kTanhIndexShift;
constexpr int kTanhIntervals = 29;
/// From here tanh(x) rounds to 1.
constexpr float kTanhSaturated = 0x1.205968p+3f;
/// log(1 + f) = f - f^2/2 + f^3 P(f) for f in [-1/4, 1/2], P of degree 7,
/// the highest power's coefficient first: a minimax fit of the error
/// relative to log(1 + f) (Lawson's iteration, in float64), 4.9e-9 at most
/// (1.0e-8 with the coefficients rounded to float: 0.17 ulp).
constexpr float kLogCoefficients[] = {
    -0x1.71410ap-5f, 0x1.ac9120p-4f, -0x1.0d8aaep-3f, 0x1.288480p-3f,
    -0x1.54efdap-3f, 0x1.9969b0p-3f, -0x1.000040p-2f, 0x1.5555a4p-2f};
/// Past these exp(x) rounds to 0 or overflows (-103.97 and 88.72), and
/// expm1(x) rounds to -1 (-17.33).
constexpr float kExpLowest = -104, kExpHighest = 89, kExpm1Lowest = -18;
/// p 2^k is normal for k at least this (p at least 1/sqrt(2)).
constexpr int kLowestSafeExponent = -125;

/// Builds float vector arithmetic of one type.
struct VectorBuilder {
  llvm::IRBuilder<> &b;
  llvm::Type *type;
  /// 16 float lanes on a CPU with AVX-512F (vscalefps, vgetexpps, ...).
  bool isAVX512;

  llvm::Constant *constant(float v) const {
    return llvm::ConstantFP::get(type, v);
  }
  /// The integer vector type of `type`'s shape, and a constant of it.
  llvm::Type *intType() const {
    return llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(type));
  }
  llvm::Constant *integer(uint32_t v) const {
    return llvm::ConstantInt::get(intType(), v);
  }
  llvm::Value *fma(llvm::Value *a, llvm::Value *m, llvm::Value *c) const {
    return b.CreateIntrinsic(llvm::Intrinsic::fma, {type}, {a, m, c});
  }
  /// The AVX-512 masked intrinsic `id` (vscalefps, vgetexpps, ...) of
  /// `operands` on every lane, in the current rounding mode: its
  /// pass-through, mask and rounding operands follow `operands`.
  llvm::Value *avx512(llvm::Intrinsic::ID id,
                      llvm::ArrayRef<llvm::Value *> operands) const {
    constexpr int kCurrentRounding = 4;
    llvm::SmallVector<llvm::Value *, 5> args(operands);
    args.push_back(llvm::PoisonValue::get(type));
    args.push_back(b.getInt16(0xffff));
    args.push_back(b.getInt32(kCurrentRounding));
    return b.CreateIntrinsic(id, {}, args);
  }
  /// c[0] x^(n-1) + ... + c[n-1] by Horner's rule.
  llvm::Value *polynomial(llvm::ArrayRef<float> c, llvm::Value *x) const {
    llvm::Value *p = constant(c.front());
    for (float next : c.drop_front())
      p = fma(p, x, constant(next));
    return p;
  }
};

/// `p` * 2^k, rounded once, for a float vector `p` and k (at most 129 in
/// magnitude) given as a float vector `k` and an integer vector `kInt`.
llvm::Value *scaleByPowerOfTwo(const VectorBuilder &v, llvm::Value *p,
                               llvm::Value *k, llvm::Value *kInt) {
  llvm::IRBuilder<> &b = v.b;
  // vscalefps: p * 2^floor(k), NaN, infinities and denormals as IEEE.
  if (v.isAVX512)
    return v.avx512(llvm::Intrinsic::x86_avx512_mask_scalef_ps_512, {p, k});
  // Two factors 2^(k/2) and 2^(k - k/2), both normal: the first product is
  // exact, the second rounds once (a denormal result too).
  llvm::Value *half = b.CreateAShr(kInt, v.integer(1));
  llvm::Value *rest = b.CreateSub(kInt, half);
  auto power = [&](llvm::Value *exponent) {
    llvm::Value *biased = b.CreateAdd(exponent, v.integer(127));
    return b.CreateBitCast(b.CreateShl(biased, v.integer(23)), v.type);
  };
  llvm::Value *first = b.CreateFMul(p, power(half));
  return b.CreateFMul(first, power(rest));
}

/// `x` clamped to [`lowest`, `highest`]; NaN stays (ordered compares).
llvm::Value *clamp(const VectorBuilder &v, llvm::Value *x, float lowest,
                   float highest) {
  llvm::Value *below = v.b.CreateFCmpOLT(x, v.constant(lowest));
  x = v.b.CreateSelect(below, v.constant(lowest), x);
  llvm::Value *above = v.b.CreateFCmpOGT(x, v.constant(highest));
  return v.b.CreateSelect(above, v.constant(highest), x);
}

/// x = k ln(2) + r: k = x / ln(2) rounded to the nearest integer (as a
/// float and as an integer vector), |r| <= ln(2)/2.
struct Reduction {
  llvm::Value *k, *kInt, *r;
};

Reduction reduceByLn2(const VectorBuilder &v, llvm::Value *x) {
  // t = kRoundingShift + k, whose low bits hold k.
  llvm::Value *t = v.fma(x, v.constant(kLog2E), v.constant(kRoundingShift));
  llvm::Value *k = v.b.CreateFSub(t, v.constant(kRoundingShift));
  llvm::Value *kInt = v.b.CreateSub(v.b.CreateBitCast(t, v.intType()),
                                    v.integer(kRoundingShiftBits));
  llvm::Value *r = v.fma(k, v.constant(-kLn2High), x);
  r = v.fma(k, v.constant(-kLn2Low), r);
  return {k, kInt, r};
}

/// The bits of a denormal float: `significand` (a float's 24 bits, the
/// implicit one included) shifted right by `shift` (1 to 31) and rounded
/// to nearest even, in units of the least denormal.
llvm::Value *denormalBits(const VectorBuilder &v, llvm::Value *significand,
                          llvm::Value *shift) {
  llvm::IRBuilder<> &b = v.b;
  llvm::Value *kept = b.CreateLShr(significand, shift);
  llvm::Value *half =
      b.CreateShl(v.integer(1), b.CreateSub(shift, v.integer(1)));
  // Below half rounds down; above up; at half up where the kept part is odd.
  llvm::Value *belowHalf = b.CreateSub(half, v.integer(1));
  llvm::Value *rounding =
      b.CreateAdd(belowHalf, b.CreateAnd(kept, v.integer(1)));
  return b.CreateLShr(b.CreateAdd(significand, rounding), shift);
}

/// `p` 2^k (as scaleByPowerOfTwo) where the result may be denormal. An
/// Intel CPU takes a microcode assist of some hundred cycles for a float
/// operation whose result is denormal or underflows (exp of 10^7 floats in
/// [-200, 200] took 8x as long on a Sapphire Rapids Xeon as on Zen 4), so
/// a vector with such a lane branches to a block that makes those lanes'
/// bits with integer operations and scales the others as usual.
llvm::Value *scaleIntoDenormals(const VectorBuilder &v, llvm::Value *p,
                                const Reduction &reduced) {
  llvm::IRBuilder<> &b = v.b;
  llvm::LLVMContext &context = b.getContext();
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  auto *normal = llvm::BasicBlock::Create(context, "normal", fn);
  auto *denormal = llvm::BasicBlock::Create(context, "denormal", fn);
  auto *scaled = llvm::BasicBlock::Create(context, "scaled", fn);
  // Ordered: NaN is not tiny.
  llvm::Value *tiny =
      b.CreateFCmpOLT(reduced.k, v.constant(kLowestSafeExponent));
  b.CreateCondBr(b.CreateOrReduce(tiny), denormal, normal);

  b.SetInsertPoint(normal);
  llvm::Value *all = scaleByPowerOfTwo(v, p, reduced.k, reduced.kInt);
  b.CreateBr(scaled);

  b.SetInsertPoint(denormal);
  llvm::Value *bits = b.CreateBitCast(p, v.intType());
  llvm::Value *significand =
      b.CreateOr(b.CreateAnd(bits, v.integer(0x7fffff)), v.integer(0x800000));
  // p = significand 2^(exponent - 23): the result is denormal where
  // shift = -126 - exponent - k is at least 1.
  llvm::Value *exponent =
      b.CreateSub(b.CreateLShr(bits, v.integer(23)), v.integer(127));
  llvm::Value *shift =
      b.CreateSub(b.CreateSub(v.integer(-126), exponent), reduced.kInt);
  llvm::Value *isDenormal =
      b.CreateAnd(tiny, b.CreateICmpSGT(shift, v.integer(0)));
  llvm::Value *bounded = b.CreateBinaryIntrinsic(
      llvm::Intrinsic::smin,
      b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, shift, v.integer(1)),
      v.integer(31));
  llvm::Value *small =
      b.CreateBitCast(denormalBits(v, significand, bounded), v.type);
  // The other lanes scaled by 2^k as it is (k = -126 with p >= 1 too), the
  // denormal ones by a safe 2^-125 (a denormal product would assist too).
  llvm::Value *k =
      b.CreateSelect(isDenormal, v.constant(kLowestSafeExponent), reduced.k);
  llvm::Value *kInt =
      b.CreateSelect(isDenormal, v.integer(kLowestSafeExponent), reduced.kInt);
  llvm::Value *normalLanes = scaleByPowerOfTwo(v, p, k, kInt);
  llvm::Value *some = b.CreateSelect(isDenormal, small, normalLanes);
  b.CreateBr(scaled);

  b.SetInsertPoint(scaled);
  llvm::PHINode *result = b.CreatePHI(v.type, 2);
  result->addIncoming(all, normal);
  result->addIncoming(some, denormal);
  return result;
}

/// exp(x) for a float vector `x` (see the file comment), whose result is
/// never denormal where `normalResult`.
llvm::Value *computeExp(const VectorBuilder &v, llvm::Value *x,
                        bool normalResult) {
  Reduction reduced = reduceByLn2(v, clamp(v, x, kExpLowest, kExpHighest));
  llvm::Value *r = reduced.r;
  llvm::Value *q = v.fma(v.polynomial(kExpCoefficients, r), r, v.constant(1));
  llvm::Value *p = v.fma(q, r, v.constant(1));
  if (normalResult)
    return scaleByPowerOfTwo(v, p, reduced.k, reduced.kInt);
  return scaleIntoDenormals(v, p, reduced);
}

llvm::Value *buildExp(const VectorBuilder &v, llvm::Value *x) {
  return computeExp(v, x, /*normalResult=*/false);
}

/// expm1(x) for a float vector `x` (see the file comment).
llvm::Value *buildExpm1(const VectorBuilder &v, llvm::Value *x) {
  llvm::IRBuilder<> &b = v.b;
  Reduction reduced = reduceByLn2(v, clamp(v, x, kExpm1Lowest, kExpHighest));
  llvm::Value *r = reduced.r;
  // expm1(r) = r + r^2 (c2 + c3 r + ...), exp's polynomial less its 1.
  llvm::Value *square = b.CreateFMul(r, r);
  llvm::Value *near = v.fma(square, v.polynomial(kExpCoefficients, r), r);
  // 2^k (1 + expm1(r)) - 1 = 2 (h expm1(r) + h - 1/2) with h = 2^(k-1),
  // normal for every k here (2^k overflows at k = 128).
  llvm::Value *h =
      scaleByPowerOfTwo(v, v.constant(0.5f), reduced.k, reduced.kInt);
  llvm::Value *halfValue = v.fma(h, near, b.CreateFSub(h, v.constant(0.5f)));
  llvm::Value *far = b.CreateFMul(halfValue, v.constant(2));
  // k = 0: expm1(r) itself (a denormal x stays exact).
  llvm::Value *isNear = b.CreateFCmpOEQ(reduced.k, v.constant(0));
  llvm::Value *value = b.CreateSelect(isNear, near, far);
  // x's sign (-0's).
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, value, x);
}

/// tanh(x) for a vector `x` of 16 floats on a CPU with AVX-512, from the
/// table of intervals (see the file comment).
llvm::Value *buildTanhFromTable(const VectorBuilder &v, llvm::Value *x) {
  llvm::IRBuilder<> &b = v.b;
  llvm::Value *magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value *bits = b.CreateBitCast(magnitude, v.intType());
  llvm::Value *index =
      b.CreateSub(b.CreateLShr(bits, v.integer(kTanhIndexShift)),
                  v.integer(kTanhFirstInterval));
  index = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, index, v.integer(0));
  index = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, index,
                                  v.integer(kTanhIntervals - 1));
  // vpermi2ps: entry index (0 to 31) of the 32 in two registers.
  auto lookup = [&](llvm::ArrayRef<float> entries) {
    llvm::Constant *low =
        llvm::ConstantDataVector::get(b.getContext(), entries.take_front(16));
    llvm::Constant *high =
        llvm::ConstantDataVector::get(b.getContext(), entries.drop_front(16));
    return b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_vpermi2var_ps_512, {},
                             {low, index, high});
  };
  llvm::Value *t = b.CreateFSub(magnitude, lookup(kTanhStarts));
  int degree = std::size(kTanhTable) - 1;
  llvm::Value *p = lookup(kTanhTable[degree]);
  for (int k = degree - 1; k >= 0; --k)
    p = v.fma(p, t, lookup(kTanhTable[k]));
  // Ordered: NaN keeps the polynomial's NaN (t is NaN); +-inf gives +-1.
  llvm::Value *saturated =
      b.CreateFCmpOGE(magnitude, v.constant(kTanhSaturated));
  llvm::Value *value = b.CreateSelect(saturated, v.constant(1), p);
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, value, x);
}

/// tanh(x) for a float vector `x` (see the file comment).
llvm::Value *buildTanh(const VectorBuilder &v, llvm::Value *x) {
  if (v.isAVX512)
    return buildTanhFromTable(v, x);
  llvm::IRBuilder<> &b = v.b;
  llvm::Value *magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  // Near 0: x + x^3 P(x^2).
  llvm::Value *square = b.CreateFMul(x, x);
  llvm::Value *cube = b.CreateFMul(x, square);
  llvm::Value *near = v.fma(cube, v.polynomial(kTanhCoefficients, square), x);
  // Past it: 1 - 2 / (exp(2 |x|) + 1), 1 where exp overflows.
  llvm::Value *e =
      computeExp(v, b.CreateFAdd(magnitude, magnitude), /*normalResult=*/true);
  llvm::Value *twice =
      b.CreateFDiv(v.constant(2), b.CreateFAdd(e, v.constant(1)));
  llvm::Value *far = b.CreateFSub(v.constant(1), twice);
  // Ordered: NaN takes the far form, which gives NaN.
  llvm::Value *isNear = b.CreateFCmpOLT(magnitude, v.constant(kTanhNear));
  llvm::Value *value = b.CreateSelect(isNear, near, far);
  // x's sign (the far form is |tanh x|; the near one loses -0's).
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, value, x);
}

/// log(x) for a vector `x` of 16 floats on a CPU with AVX-512 (see the
/// file comment).
llvm::Value *buildLog(const VectorBuilder &v, llvm::Value *x) {
  llvm::IRBuilder<> &b = v.b;
  // |x| = 2^e m with m in [3/4, 3/2): vgetexpps gives floor(log2 |x|)
  // (-inf for 0, +inf for +-inf, NaN for NaN; a denormal's true exponent),
  // vgetmantps the significand in [1, 2) or halved (finite for 0 and the
  // infinities, where e decides the result).
  llvm::Value *exponent =
      v.avx512(llvm::Intrinsic::x86_avx512_mask_getexp_ps_512, {x});
  constexpr int kThreeQuartersToThreeHalves = 3, kMagnitude = 1 << 2;
  llvm::Value *interval = b.getInt32(kThreeQuartersToThreeHalves | kMagnitude);
  llvm::Value *m =
      v.avx512(llvm::Intrinsic::x86_avx512_mask_getmant_ps_512, {x, interval});
  llvm::Value *halved = b.CreateFCmpOLT(m, v.constant(1));
  llvm::Value *nextExponent = b.CreateFAdd(exponent, v.constant(1));
  llvm::Value *e = b.CreateSelect(halved, nextExponent, exponent);
  // log(|x|) = e ln(2) + log(1 + f), f = m - 1 exactly: the small terms
  // first (f^3 P(f) + e ln(2)'s low part - f^2 / 2), then f, then e ln(2)'s
  // high part (its product exact in the FMA). -inf for 0, +inf for inf.
  llvm::Value *f = b.CreateFSub(m, v.constant(1));
  llvm::Value *square = b.CreateFMul(f, f);
  llvm::Value *cube = b.CreateFMul(square, f);
  llvm::Value *p = v.polynomial(kLogCoefficients, f);
  llvm::Value *small = b.CreateFMul(cube, p);
  small = v.fma(e, v.constant(kLn2Rest), small);
  small = v.fma(square, v.constant(-0.5f), small);
  llvm::Value *logOfM = b.CreateFAdd(f, small);
  llvm::Value *logOfMagnitude = v.fma(e, v.constant(kLn2Below), logOfM);
  // NaN below 0 (ordered: -0 is not, and gives -inf).
  llvm::Value *isNegative = b.CreateFCmpOLT(x, v.constant(0));
  float nan = std::numeric_limits<float>::quiet_NaN();
  return b.CreateSelect(isNegative, v.constant(nan), logOfMagnitude);
}
} // namespace

llvm::Function *defineInlineVectorMath(llvm::Module &module,
                                       llvm::StringRef scalar,
                                       llvm::Type *vectorType,
                                       const llvm::MCSubtargetInfo &subtarget) {
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(vectorType);
  using Builder = llvm::Value *(*)(const VectorBuilder &, llvm::Value *);
  Builder build = llvm::StringSwitch<Builder>(scalar)
                      .Case("expf", buildExp)
                      .Case("expm1f", buildExpm1)
                      .Case("tanhf", buildTanh)
                      .Case("logf", buildLog)
                      .Default(nullptr);
  // Without FMA the fused steps would be libm calls.
  if (!build || !type || !type->getElementType()->isFloatTy() ||
      !subtarget.checkFeatures("+fma"))
    return nullptr;
  unsigned lanes = type->getNumElements();
  bool isAVX512 = lanes == 16 && subtarget.checkFeatures("+avx512f");
  // log needs vgetexpps and vgetmantps. (On 8 AVX2 lanes the same steps
  // with integer operations in their place ran slower than libmvec's logf:
  // the interleaved loop reloaded the polynomial's constants.)
  if (build == buildLog && !isAVX512)
    return nullptr;
  std::string name = (kPrefix + scalar + ".v" + llvm::Twine(lanes)).str();
  if (llvm::Function *existing = module.getFunction(name))
    return existing;
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(type, {type}, /*isVarArg=*/false),
      llvm::GlobalValue::InternalLinkage, name, module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr(llvm::Attribute::WillReturn);
  fn->setDoesNotAccessMemory();
  // Until the loop vectorizer calls it, nothing does.
  llvm::appendToCompilerUsed(module, {fn});
  llvm::IRBuilder<> b(
      llvm::BasicBlock::Create(module.getContext(), "entry", fn));
  b.CreateRet(build(VectorBuilder{b, type, isAVX512}, fn->getArg(0)));
  return fn;
}

bool isInlineVectorMath(const llvm::Function &fn) {
  return fn.getName().starts_with(kPrefix);
}

void inlineVectorMath(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *> defined;
  for (llvm::Function &fn : module)
    if (isInlineVectorMath(fn))
      defined.push_back(&fn);
  if (defined.empty())
    return;
  llvm::removeFromUsedLists(module, [&](llvm::Constant *c) {
    return llvm::is_contained(defined, c);
  });
  for (llvm::Function *fn : defined) {
    llvm::SmallVector<llvm::CallBase *> calls;
    for (llvm::User *user : fn->users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
        calls.push_back(call);
    for (llvm::CallBase *call : calls) {
      llvm::InlineFunctionInfo info;
      // A body of arithmetic, with no call, alloca or recursion, inlines.
      (void)llvm::InlineFunction(*call, info);
    }
    // The used list's old initializer may still name it.
    fn->removeDeadConstantUsers();
    if (fn->use_empty())
      fn->eraseFromParent();
  }
}

} // namespace ptensor::compiler
