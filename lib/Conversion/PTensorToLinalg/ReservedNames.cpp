//===- ReservedNames.cpp - symbol names compiled code reserves ------------===//

#include "ReservedNames.h"

#include "ptensor/Compiler/Signature.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

/// math.h's functions of double; each also has its float (`f`) form.
static constexpr const char *kMathFunctions[] = {
    "acos",  "acosh",     "asin",  "asinh", "atan",      "atan2",
    "atanh", "cbrt",      "ceil",  "copysign", "cos",    "cosh",
    "erf",   "erfc",      "exp",   "exp10", "exp2",      "expm1",
    "fabs",  "fdim",      "floor", "fma",   "fmax",      "fmin",
    "fmod",  "frexp",     "hypot", "ldexp", "lgamma",    "log",
    "log10", "log1p",     "log2",  "logb",  "modf",      "nearbyint",
    "nextafter", "pow",   "remainder", "rint", "round",  "roundeven",
    "sin",   "sincos",    "sinh",  "sqrt",  "tan",       "tanh",
    "tgamma", "trunc"};

/// The C library's functions that lowered code (or LLVM's code generation
/// for it) calls.
static constexpr const char *kCFunctions[] = {
    "malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign",
    "memcpy", "memmove", "memset", "abort", "exit"};

/// Prefixes of the libraries compiled code calls, and of the entry points
/// the compile driver adds (docs/ABI.md).
static constexpr std::pair<const char *, const char *> kPrefixes[] = {
    {"ptensor_rt_", "libptensor_runtime's functions"},
    {"mgpu", "the GPU runtime functions of libptensor_runtime"},
    {"_mlir_", "the C-interface entry points the compiler adds"},
    {"_ptensor_", "the packed entry points the compiler adds"},
    {"ptensor.vector_math.", "the host math functions the compiler adds"},
    {"__kmpc_", "the OpenMP runtime's functions"},
    {"omp_", "the OpenMP runtime's functions"},
    {"__nv_", "libdevice's functions"},
    {"__", "names the C implementation reserves"}};

std::optional<std::string> mlir::ptensor::whyNameIsReserved(llvm::StringRef name) {
  static const llvm::StringSet<> math = [] {
    llvm::StringSet<> names;
    for (const char *f : kMathFunctions) {
      names.insert(f);
      names.insert(std::string(f) + "f");
    }
    return names;
  }();
  if (math.contains(name))
    return "the C math library's " + name.str();
  for (const char *f : kCFunctions)
    if (name == f)
      return "the C library's " + name.str();
  if (name == ::ptensor::jit::kSignatureSymbol)
    return "the module's signature that the compiler adds";
  for (auto [prefix, owner] : kPrefixes)
    if (name.starts_with(prefix))
      return std::string(owner) + " (prefix " + prefix + ")";
  return std::nullopt;
}
