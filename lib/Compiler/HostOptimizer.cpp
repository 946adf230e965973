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
// computes the lanes that hit one with scalar code: a log of mostly
// negative numbers is about 10x slower than of positive ones.
// (bench/RESULTS.md: the AVX-512 variants against AVX2's on a Sapphire
// Rapids Xeon and a Zen 4 EPYC.)
//
// LLVM's own LIBMVEC preset knows only sin, cos, exp, log and pow; glibc
// 2.35 has some twenty more, so the table is ptensor's, filtered by what
// the installed library exports (an older glibc simply vectorizes less).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"

#include "LibraryOfSymbol.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Triple.h"

#include <dlfcn.h>
#include <mutex>

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

/// The name of the wrapper of `scalar` (see the file comment).
std::string wrapperName(llvm::StringRef scalar) {
  return ("ptensor.vector_math." + scalar).str();
}

/// Replaces the calls of `variant`'s scalar function in `module` by calls of
/// a wrapper that computes lane 0 of the vector variant (noinline, so that
/// the loop vectorizer sees a call it can widen to the variant itself).
/// Returns false when the module does not call the function.
bool wrapScalarCalls(llvm::Module &module, const VectorVariant &variant) {
  llvm::Function *scalar = module.getFunction(variant.scalar);
  if (!scalar || scalar->use_empty() || scalar->arg_size() != variant.arity)
    return false;
  llvm::Type *element = scalar->getReturnType();
  if (!element->isFloatingPointTy())
    return false;
  if (llvm::Function *existing =
          module.getFunction(wrapperName(variant.scalar))) {
    // Optimized before: the wrapper is there already.
    scalar->replaceUsesWithIf(existing, [&](llvm::Use &use) {
      return use.getUser() != existing;
    });
    return true;
  }
  llvm::LLVMContext &context = module.getContext();
  auto *vectorType = llvm::FixedVectorType::get(element, variant.lanes);
  llvm::SmallVector<llvm::Type *> vectorParams(variant.arity, vectorType);
  llvm::FunctionCallee vectorFn = module.getOrInsertFunction(
      variant.vector,
      llvm::FunctionType::get(vectorType, vectorParams, /*isVarArg=*/false));
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
  return true;
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
  for (llvm::User *user : wrapper->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      widen(call->getFunction());
}

/// Routes `module`'s scalar libm calls through the chosen variants and tells
/// `info` that the wrappers vectorize to them.
void useVectorMath(llvm::Module &module, llvm::TargetLibraryInfoImpl &info,
                   const llvm::TargetMachine &machine) {
  std::vector<llvm::VecDesc> descs;
  static llvm::StringSet<> names; // VecDesc keeps StringRefs
  static std::mutex namesMutex;
  for (const VectorVariant *variant : chooseVariants(machine)) {
    if (!wrapScalarCalls(module, *variant))
      continue;
    if (variant->bits > 256)
      useWideVectors(module, *variant);
    llvm::StringRef wrapper;
    {
      std::lock_guard<std::mutex> lock(namesMutex);
      wrapper = names.insert(wrapperName(variant->scalar)).first->getKey();
    }
    descs.emplace_back(wrapper, variant->vector,
                       llvm::ElementCount::getFixed(variant->lanes),
                       /*Masked=*/false, variant->abi, std::nullopt);
  }
  info.addVectorizableFunctions(descs);
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
  return llvm::Error::success();
}

} // namespace ptensor::compiler
