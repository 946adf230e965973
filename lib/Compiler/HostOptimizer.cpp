//===- HostOptimizer.cpp - LLVM optimization of host code -----------------===//
//
// The one LLVM IR optimization of ptensor's host code (JIT and ahead of
// time): LLVM's O-level pipeline with loop and SLP vectorization, told which
// math functions have vector forms in glibc's vector math library
// (libmvec). The elementwise loops call libm's scalar functions (expf,
// tanhf, ...: convert-math-to-libm, marked memory(none)); with the table
// below the loop vectorizer turns them into calls of libmvec's variants.
//
// One variant per function and element type (AVX-512's 16 floats or 8
// doubles, else AVX2's 8 or 4, else SSE4's 4 or 2), and the scalar calls
// that remain (loop remainders, strided loops) go through a wrapper of the
// same variant: every element is computed by the same code whatever the
// loop's split into vector body, remainder and threads, so results do not
// depend on the thread count or on alignment. libmvec keeps libm's special
// cases (NaN, infinities, denormals, huge arguments) at a few ulp, but
// computes the lanes that hit one with scalar code: a log of half negative
// numbers ran 20x slower than of positive ones. Where the values outside a
// domain are fixed (log's -inf at 0 and NaN below, exp's +inf past overflow
// and 0 past underflow, asin's NaN past +-1, ...), the loops call a guarded
// form of the vector function instead (defineGuardedVariant): vectors with
// a lane outside give the call arguments inside and select libm's values;
// exp's arguments near its bounds (results that overflow or are denormal,
// also computed with scalar code) are shifted and the results scaled back.
// (bench/RESULTS.md: the AVX-512 variants against AVX2's on a Sapphire
// Rapids Xeon and a Zen 4 EPYC; the guarded forms against the plain ones.)
// The loops that call these functions are not interleaved, and their
// functions realign the stack, so that no vector is spilled around a call
// needlessly or to a slot across two cache lines (prepareMathCallers).
// Float exp, expm1 and tanh, on a CPU with FMA, are ptensor's own vector
// code instead (InlineVectorMath.cpp): the loop vectorizer calls it as it
// would a libmvec variant, and it is inlined after the pipeline (exp
// 2.6-3x faster than the call, 1.5-2.5x where libmvec's exp took its
// scalar path; expm1 2.2x; tanh 10-20% on Zen 4, and on AVX-512 from a
// table of polynomials 1.6x the division form on a Xeon: bench/RESULTS.md).
//
// Before the pipeline, bool loads and stores become byte accesses
// (BoolBytes.cpp), which the loop vectorizer accepts.
//
// LLVM's own LIBMVEC preset knows only sin, cos, exp, log and pow; glibc
// 2.35 has some twenty more, so the table is ptensor's, filtered by what
// the installed library exports (an older glibc simply vectorizes less).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Pipelines/CodegenPassGate.h"

#include "BoolBytes.h"
#include "InlineVectorMath.h"
#include "LibraryOfSymbol.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cmath>
#include <dlfcn.h>
#include <limits>
#include <mutex>
#include <optional>

namespace ptensor::compiler {

namespace {
/// A libm function with libmvec variants: its double name and arity (the
/// float one adds "f").
struct VectorMathFunction {
  const char *name;
  unsigned arity;
};

/// glibc's libmvec functions (x86-64, 2.35 and later).
constexpr VectorMathFunction kVectorMathFunctions[] = {
    {"acos", 1},  {"acosh", 1}, {"asin", 1},  {"asinh", 1}, {"atan", 1},
    {"atanh", 1}, {"cbrt", 1},  {"cos", 1},   {"cosh", 1},  {"erf", 1},
    {"erfc", 1},  {"exp", 1},   {"exp10", 1}, {"exp2", 1},  {"expm1", 1},
    {"log", 1},   {"log10", 1}, {"log1p", 1}, {"log2", 1},  {"sin", 1},
    {"sinh", 1},  {"tan", 1},   {"tanh", 1},  {"atan2", 2}, {"hypot", 2},
    {"pow", 2}};

/// An x86 vector ISA of the vector function ABI: its mangling letter, the
/// register width in bits and the target feature it needs; the preferred
/// one first.
struct VectorISA {
  char letter;
  unsigned bits;
  const char *feature;
};

constexpr VectorISA kVectorISAs[] = {{'e', 512, "+avx512f"},
                                     {'d', 256, "+avx2"},
                                     {'b', 128, "+sse4.2"}};

/// libmvec, opened once (nullptr when this system has none).
void *openVectorMathLibrary() {
  static void *handle = dlopen("libmvec.so.1", RTLD_LAZY | RTLD_GLOBAL);
  return handle;
}

/// The vector variant of one scalar function for one ISA.
struct VectorVariant {
  std::string scalar, vector, abi;
  unsigned lanes, arity, bits;
  const char *feature;
};

/// Every (function, float or double, ISA) variant that libmvec exports, the
/// preferred ISA first for each function.
const std::vector<VectorVariant> &getVectorMathTable() {
  static std::vector<VectorVariant> table = [] {
    std::vector<VectorVariant> t;
    void *library = openVectorMathLibrary();
    if (!library)
      return t;
    for (const VectorMathFunction &fn : kVectorMathFunctions) {
      for (bool isFloat : {true, false}) {
        std::string scalar = std::string(fn.name) + (isFloat ? "f" : "");
        for (const VectorISA &isa : kVectorISAs) {
          unsigned lanes = isa.bits / (isFloat ? 32 : 64);
          std::string shape =
              "N" + std::to_string(lanes) + std::string(fn.arity, 'v');
          std::string vector =
              std::string("_ZGV") + isa.letter + shape + "_" + scalar;
          if (dlsym(library, vector.c_str()))
            t.push_back({scalar, vector, "_ZGV_LLVM_" + shape, lanes,
                         fn.arity, isa.bits, isa.feature});
        }
      }
    }
    return t;
  }();
  return table;
}

/// The variant of each scalar function that `machine`'s CPU runs best.
std::vector<const VectorVariant *>
chooseVariants(const llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *subtarget = machine.getMCSubtargetInfo();
  std::vector<const VectorVariant *> chosen;
  llvm::StringSet<> done;
  for (const VectorVariant &v : getVectorMathTable())
    if (subtarget && subtarget->checkFeatures(v.feature) &&
        done.insert(v.scalar).second)
      chosen.push_back(&v);
  return chosen;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Where libmvec leaves vector code inside a domain: arguments past
/// +-`from` are computed from `shift` closer to 0 and scaled back (the
/// guarded form's second call: exp(x) = exp(x -+ shift) * e^+-shift, both
/// steps exact up to the constant's and the product's roundings, so within
/// libmvec's error and one ulp). libmvec computes exp with scalar code past
/// |x| = 87.33 (float) or 708.39 (double): the results that underflow into
/// denormals and the last ones before overflow ran 10-30x slower than the
/// others. `shift` keeps x -+ shift exact: a multiple of x's ulp there.
struct ScaledTail {
  double from, shift;
};

/// Where a function's vector call computes it, and libm's values elsewhere
/// (see defineGuardedVariant): arguments from `lower` to `upper` (`closed`:
/// both included; an infinite upper bound is not checked, +inf goes to the
/// call) are computed; below the lower bound the value is `below`, at it
/// (when open) `atLower`, above the upper bound `above`, at it (when open)
/// `atUpper`; NaN gives itself. `tail` is the part of the domain that the
/// call computes scaled (none where `tail.from` is infinite).
struct MathDomain {
  double lower, upper;
  bool closed;
  double below, atLower, atUpper, above;
  ScaledTail tail = {kInf, 0};
};

/// The domain of `scalar` (libm's name: `log`, `logf`, ...) where its values
/// outside are fixed, none for other functions. The exponentials' bounds
/// are past overflow (the value is +inf) and past the point where the exact
/// value rounds to 0 (or to -1 for expm1), so the selects give the
/// correctly rounded values there.
std::optional<MathDomain> getMathDomain(llvm::StringRef scalar) {
  // (f64 erf ends with "f" too; it has no domain either way.)
  bool isFloat = scalar.ends_with("f");
  llvm::StringRef base = isFloat ? scalar.drop_back() : scalar;
  auto pick = [&](double f32, double f64) { return isFloat ? f32 : f64; };
  double expUpper = pick(89, 710);
  return llvm::StringSwitch<std::optional<MathDomain>>(base)
      .Cases({"log", "log2", "log10"},
             MathDomain{0, kInf, false, kNaN, -kInf, kInf, kInf})
      .Case("log1p", MathDomain{-1, kInf, false, kNaN, -kInf, kInf, kInf})
      .Case("exp", MathDomain{pick(-104, -746), expUpper, true, 0, 0, 0, kInf,
                              ScaledTail{pick(87, 708), pick(32, 64)}})
      .Case("expm1",
            MathDomain{pick(-18, -38), expUpper, true, -1, -1, 0, kInf})
      .Cases({"asin", "acos"}, MathDomain{-1, 1, true, kNaN, 0, 0, kNaN})
      .Case("acosh", MathDomain{1, kInf, false, kNaN, 0, kInf, kInf})
      .Case("atanh", MathDomain{-1, 1, false, kNaN, -kInf, kInf, kNaN})
      .Default(std::nullopt);
}

/// The name of the guarded form of `variant`'s vector function.
std::string guardedName(const VectorVariant &variant) {
  return "ptensor.vector_math.guarded." + variant.vector;
}

/// Defines (once per module) the guarded form of `variant`'s vector
/// function `vectorFn`, for a function with a MathDomain; null for others.
/// A vector whose lanes are all inside the domain goes to `vectorFn` as it
/// is (one or two compares and a branch: nothing is live across the call);
/// one with a lane outside gives `vectorFn` an argument inside in that lane
/// and selects libm's value there. libmvec would compute each lane outside
/// with scalar code: a log of half negative numbers ran 20x slower than of
/// positive ones.
llvm::Function *defineGuardedVariant(llvm::Module &module,
                                     const VectorVariant &variant,
                                     llvm::FunctionCallee vectorFn) {
  std::optional<MathDomain> domain = getMathDomain(variant.scalar);
  if (!domain || variant.arity != 1)
    return nullptr;
  if (llvm::Function *existing = module.getFunction(guardedName(variant)))
    return existing;
  llvm::LLVMContext &context = module.getContext();
  auto *fn = llvm::Function::Create(vectorFn.getFunctionType(),
                                    llvm::GlobalValue::InternalLinkage,
                                    guardedName(variant), module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr(llvm::Attribute::WillReturn);
  // Aligned slots for what the second call keeps (see prepareMathCallers).
  fn->addFnAttr("frame-pointer", "all");
  fn->setDoesNotAccessMemory();
  if (variant.bits > 256) { // its argument in one register (useWideVectors)
    fn->addFnAttr("prefer-vector-width", std::to_string(variant.bits));
    fn->addFnAttr("min-legal-vector-width", std::to_string(variant.bits));
  }
  // Until the loop vectorizer calls it, nothing does.
  llvm::appendToCompilerUsed(module, {fn});

  auto *entry = llvm::BasicBlock::Create(context, "entry", fn);
  auto *fast = llvm::BasicBlock::Create(context, "inside", fn);
  auto *slow = llvm::BasicBlock::Create(context, "outside", fn);
  llvm::IRBuilder<> b(entry);
  llvm::Value *x = fn->getArg(0);
  llvm::Type *type = x->getType();
  auto constant = [&](double v) { return llvm::ConstantFP::get(type, v); };
  llvm::Constant *lower = constant(domain->lower);
  llvm::Constant *upper = constant(domain->upper);
  // The domain's compares, where b is. Ordered: false for NaN, which is
  // outside and gives itself.
  llvm::Value *aboveLower = nullptr, *belowUpper = nullptr, *inside = nullptr;
  auto compareWithDomain = [&] {
    aboveLower =
        domain->closed ? b.CreateFCmpOGE(x, lower) : b.CreateFCmpOGT(x, lower);
    inside = aboveLower;
    if (domain->upper != kInf) { // +inf goes to the call (libm's own value)
      belowUpper = domain->closed ? b.CreateFCmpOLE(x, upper)
                                  : b.CreateFCmpOLT(x, upper);
      inside = b.CreateAnd(aboveLower, belowUpper);
    }
  };
  // The lanes libmvec computes in vector code as they are. With a scaled
  // tail they are inside the domain, whose compares the fast path skips.
  const ScaledTail *tail = domain->tail.from != kInf ? &domain->tail : nullptr;
  llvm::Value *direct;
  if (tail) {
    llvm::Value *magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
    direct = b.CreateFCmpOLE(magnitude, constant(tail->from));
  } else {
    compareWithDomain();
    direct = inside;
  }
  b.CreateCondBr(b.CreateAndReduce(direct), fast, slow);

  b.SetInsertPoint(fast);
  llvm::CallInst *all = b.CreateCall(vectorFn, {x});
  all->setTailCall();
  b.CreateRet(all);

  b.SetInsertPoint(slow);
  if (tail)
    compareWithDomain();
  // The value past one bound: `past`, or `at` where x is on the bound.
  auto beyond = [&](llvm::Constant *bound, double at, double past) {
    llvm::Value *value = constant(past);
    if (!domain->closed && at != past)
      value = b.CreateSelect(b.CreateFCmpOEQ(x, bound), constant(at), value);
    return value;
  };
  llvm::Value *outside;
  if (!belowUpper) {
    // Below or on the lower bound, or NaN (`below` is NaN for these).
    outside = beyond(lower, domain->atLower, domain->below);
  } else {
    // Below the upper bound: below the lower one; above the lower bound:
    // above the upper one; neither: NaN.
    llvm::Value *belowValue = beyond(lower, domain->atLower, domain->below);
    llvm::Value *aboveValue = beyond(upper, domain->atUpper, domain->above);
    llvm::Value *notBelow = b.CreateSelect(aboveLower, aboveValue, x);
    outside = b.CreateSelect(belowUpper, belowValue, notBelow);
  }
  // A vector with no lane inside needs no call.
  auto *partly = llvm::BasicBlock::Create(context, "partly_inside", fn);
  auto *none = llvm::BasicBlock::Create(context, "none_inside", fn);
  b.CreateCondBr(b.CreateOrReduce(inside), partly, none);
  b.SetInsertPoint(none);
  b.CreateRet(outside);

  b.SetInsertPoint(partly);
  double middle = domain->upper == kInf ? domain->lower + 1
                                        : (domain->lower + domain->upper) / 2;
  llvm::Value *safe = b.CreateSelect(inside, x, constant(middle));
  llvm::Value *computed;
  if (!tail) {
    computed = b.CreateCall(vectorFn, {safe});
  } else {
    // The lanes inside past +-from: exp(x -+ shift) * e^+-shift. The
    // product is taken in double: a float result that is a denormal is
    // normal there (no microcode assist), rounded once to the float.
    llvm::Value *scaled = b.CreateAnd(inside, b.CreateNot(direct));
    llvm::Value *negative = b.CreateFCmpOLT(x, constant(0));
    llvm::Value *shift =
        b.CreateSelect(negative, constant(-tail->shift), constant(tail->shift));
    llvm::Value *shifted = b.CreateFSub(x, shift);
    safe = b.CreateSelect(scaled, shifted, safe);
    llvm::Value *result = b.CreateCall(vectorFn, {safe});
    auto *wide = llvm::VectorType::get(b.getDoubleTy(),
                                       llvm::cast<llvm::VectorType>(type));
    llvm::Value *factor = b.CreateSelect(
        negative, llvm::ConstantFP::get(wide, std::exp(-tail->shift)),
        llvm::ConstantFP::get(wide, std::exp(tail->shift)));
    llvm::Value *exact = b.CreateFPCast(result, wide);
    llvm::Value *product =
        b.CreateFPCast(b.CreateFMul(exact, factor), type); // f64: no casts
    computed = b.CreateSelect(scaled, product, result);
  }
  b.CreateRet(b.CreateSelect(inside, computed, outside));
  return fn;
}

/// The name of the wrapper of `scalar` (see the file comment).
std::string wrapperName(llvm::StringRef scalar) {
  return ("ptensor.vector_math." + scalar).str();
}

/// The vector function that the loops call for `variant`'s scalar one:
/// ptensor's own inlined form where it has one (InlineVectorMath.cpp), else
/// the guarded form where the function has a domain, else libmvec's.
llvm::FunctionCallee getVectorFunction(llvm::Module &module,
                                       const VectorVariant &variant,
                                       llvm::Type *element,
                                       const llvm::MCSubtargetInfo &subtarget) {
  auto *vectorType = llvm::FixedVectorType::get(element, variant.lanes);
  if (llvm::Function *own =
          defineInlineVectorMath(module, variant.scalar, vectorType, subtarget))
    return own;
  llvm::SmallVector<llvm::Type *> vectorParams(variant.arity, vectorType);
  llvm::FunctionCallee vectorFn = module.getOrInsertFunction(
      variant.vector,
      llvm::FunctionType::get(vectorType, vectorParams, /*isVarArg=*/false));
  if (llvm::Function *guarded = defineGuardedVariant(module, variant, vectorFn))
    return guarded;
  return vectorFn;
}

/// Replaces the calls of `variant`'s scalar function in `module` by calls of
/// a wrapper that computes lane 0 of the vector function (noinline, so that
/// the loop vectorizer sees a call it can widen to the vector function
/// itself). Returns that vector function, or null when the module does not
/// call the scalar one.
llvm::Function *wrapScalarCalls(llvm::Module &module,
                                const VectorVariant &variant,
                                const llvm::MCSubtargetInfo &subtarget) {
  llvm::Function *scalar = module.getFunction(variant.scalar);
  if (!scalar || scalar->use_empty() || scalar->arg_size() != variant.arity)
    return nullptr;
  llvm::Type *element = scalar->getReturnType();
  if (!element->isFloatingPointTy())
    return nullptr;
  llvm::FunctionCallee vectorFn =
      getVectorFunction(module, variant, element, subtarget);
  auto *vectorFunction = llvm::cast<llvm::Function>(vectorFn.getCallee());
  if (llvm::Function *existing =
          module.getFunction(wrapperName(variant.scalar))) {
    // Optimized before: the wrapper is there already.
    scalar->replaceUsesWithIf(existing, [&](llvm::Use &use) {
      return use.getUser() != existing;
    });
    return vectorFunction;
  }
  llvm::LLVMContext &context = module.getContext();
  auto *wrapper = llvm::Function::Create(
      scalar->getFunctionType(), llvm::GlobalValue::InternalLinkage,
      wrapperName(variant.scalar), module);
  wrapper->addFnAttr(llvm::Attribute::NoInline);
  wrapper->addFnAttr(llvm::Attribute::NoUnwind);
  wrapper->addFnAttr(llvm::Attribute::WillReturn);
  wrapper->setDoesNotAccessMemory();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", wrapper));
  llvm::SmallVector<llvm::Value *> lanes;
  for (llvm::Argument &arg : wrapper->args())
    lanes.push_back(b.CreateVectorSplat(variant.lanes, &arg));
  llvm::Value *result = b.CreateCall(vectorFn, lanes);
  b.CreateRet(b.CreateExtractElement(result, uint64_t(0)));
  scalar->replaceUsesWithIf(wrapper, [&](llvm::Use &use) {
    return use.getUser() != wrapper;
  });
  return vectorFunction;
}

/// Adds the functions that call `callee` to `callers`.
void addCallersOf(llvm::Function *callee,
                  llvm::SmallSetVector<llvm::Function *, 8> &callers) {
  for (llvm::User *user : callee->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      callers.insert(call->getFunction());
}

/// Lets the functions that call `variant`'s wrapper, and the wrapper, use
/// its vector width. LLVM's tuning for some AVX-512 CPUs (Skylake, Ice
/// Lake and Sapphire Rapids servers) prefers 256-bit vectors: a loop would
/// be vectorized to 8 floats, find no 8-lane form of a function whose
/// chosen variant has 16, and call the scalar wrapper per element; and a
/// 512-bit argument would be passed as two 256-bit halves instead of in
/// the one register the vector function ABI gives it (Clang marks such
/// functions the same way).
void useWideVectors(llvm::Module &module, const VectorVariant &variant) {
  llvm::Function *wrapper = module.getFunction(wrapperName(variant.scalar));
  std::string width = std::to_string(variant.bits);
  auto widen = [&](llvm::Function *fn) {
    fn->addFnAttr("prefer-vector-width", width);
    fn->addFnAttr("min-legal-vector-width", width);
  };
  widen(wrapper);
  llvm::SmallSetVector<llvm::Function *, 8> callers;
  addCallersOf(wrapper, callers);
  for (llvm::Function *caller : callers)
    widen(caller);
}

/// Keeps the vectors of the functions that call one of `wrappers` in
/// registers or in aligned stack slots. The vector function ABI saves no
/// vector register across a call, so a vector live across one is spilled:
///  * the loops that call a wrapper are not interleaved (the vectorizer
///    still picks the width): each copy of an interleaved body but the one
///    in flight was spilled around every call;
///  * the callers keep a frame pointer, so LLVM can realign their stack for
///    the spill slots of what must stay live (`x * exp(x)`'s x). Without
///    one it leaves 64-byte slots wherever the 16-byte-aligned stack puts
///    them, and a slot across two cache lines made a call several times
///    slower.
/// One Zen 4 thread, 10^6 floats: exp took 0.36 or 0.54 ms depending on the
/// process's stack address, 0.33 now; x * exp(x) 0.34 or 0.60-0.88, 0.37
/// now (bench/RESULTS.md).
void prepareMathCallers(
    llvm::Module &module,
    const llvm::SmallPtrSetImpl<llvm::Function *> &wrappers) {
  llvm::SmallSetVector<llvm::Function *, 8> callers;
  for (llvm::Function *wrapper : wrappers)
    addCallersOf(wrapper, callers);
  for (llvm::Function *caller : callers) {
    caller->addFnAttr("frame-pointer", "all");
    llvm::DominatorTree dominators(*caller);
    llvm::LoopInfo loops(dominators);
    llvm::SmallPtrSet<llvm::Loop *, 8> marked;
    for (llvm::BasicBlock &block : *caller) {
      llvm::Loop *loop = loops.getLoopFor(&block);
      if (!loop || marked.contains(loop) || !loop->getLoopLatch())
        continue;
      bool callsMath = llvm::any_of(block, [&](llvm::Instruction &inst) {
        auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        return call && wrappers.contains(call->getCalledFunction());
      });
      if (callsMath) {
        llvm::addStringMetadataToLoop(loop, "llvm.loop.interleave.count", 1);
        marked.insert(loop);
      }
    }
  }
}

/// Routes `module`'s scalar libm calls through the chosen variants and tells
/// `info` that the wrappers vectorize to them.
void useVectorMath(llvm::Module &module, llvm::TargetLibraryInfoImpl &info,
                   const llvm::TargetMachine &machine) {
  std::vector<llvm::VecDesc> descs;
  // The wrappers whose vector function stays a call.
  llvm::SmallPtrSet<llvm::Function *, 8> callWrappers;
  static llvm::StringSet<> names; // VecDesc keeps StringRefs
  static std::mutex namesMutex;
  auto keep = [](const std::string &name) {
    std::lock_guard<std::mutex> lock(namesMutex);
    return names.insert(name).first->getKey();
  };
  const llvm::MCSubtargetInfo *subtarget = machine.getMCSubtargetInfo();
  for (const VectorVariant *variant : chooseVariants(machine)) {
    llvm::Function *vectorFn = wrapScalarCalls(module, *variant, *subtarget);
    if (!vectorFn)
      continue;
    if (variant->bits > 256)
      useWideVectors(module, *variant);
    llvm::StringRef wrapper = keep(wrapperName(variant->scalar));
    descs.emplace_back(wrapper, keep(vectorFn->getName().str()),
                       llvm::ElementCount::getFixed(variant->lanes),
                       /*Masked=*/false, variant->abi, std::nullopt);
    // The inlined forms leave no call to prepare for.
    if (!isInlineVectorMath(*vectorFn))
      callWrappers.insert(module.getFunction(wrapper));
  }
  info.addVectorizableFunctions(descs);
  prepareMathCallers(module, callWrappers);
}
} // namespace

std::string getVectorMathLibrary() {
  void *library = openVectorMathLibrary();
  if (!library)
    return "";
  return getLibraryOfSymbol(dlsym(library, "_ZGVbN2v_sin"));
}

llvm::Error optimizeHostModule(llvm::Module &module,
                               llvm::TargetMachine &machine,
                               unsigned optLevel) {
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  if (optLevel > 3)
    return llvm::createStringError("opt-level must be 0, 1, 2 or 3, not %u",
                                   optLevel);
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning);

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::TargetLibraryInfoImpl libraryInfo(machine.getTargetTriple());
  useVectorMath(module, libraryInfo, machine);
  widenBoolMemoryAccesses(module);
  functions.registerPass(
      [&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);

  llvm::ModulePassManager passes =
      optLevel == 0
          ? builder.buildO0DefaultPipeline(levels[0])
          : builder.buildPerModuleDefaultPipeline(levels[optLevel]);
  passes.run(module, modules);
  inlineVectorMath(module);
  // After the pipeline: the gate is for the code generator's passes.
  mlir::ptensor::skipLoopStrengthReduction(module.getContext());
  return llvm::Error::success();
}

} // namespace ptensor::compiler
