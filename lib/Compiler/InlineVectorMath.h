//===- InlineVectorMath.h - math functions as inlined vector code -*- C++ -*-//

#ifndef PTENSOR_LIB_COMPILER_INLINEVECTORMATH_H
#define PTENSOR_LIB_COMPILER_INLINEVECTORMATH_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class MCSubtargetInfo;
class Module;
class Type;
} // namespace llvm

namespace ptensor::compiler {

/// Defines (once per module) ptensor's own vector form of the libm function
/// `scalar` for vectors of `vectorType`, where it has one for that type and
/// `subtarget`'s CPU (InlineVectorMath.cpp: expf, expm1f and tanhf on a
/// CPU with FMA, logf with AVX-512 too); null elsewhere. The function has
/// the vector function ABI's signature, so the loop vectorizer calls it in
/// place of libmvec's variant;
/// `inlineVectorMath` puts its body in place of those calls afterwards.
llvm::Function *defineInlineVectorMath(llvm::Module &module,
                                       llvm::StringRef scalar,
                                       llvm::Type *vectorType,
                                       const llvm::MCSubtargetInfo &subtarget);

/// Whether `fn` is one of the functions `defineInlineVectorMath` defines.
bool isInlineVectorMath(const llvm::Function &fn);

/// Inlines every call of the functions `defineInlineVectorMath` defined in
/// `module` and removes them. Runs after LLVM's optimization pipeline, whose
/// loop vectorizer made the calls: the loops then hold plain vector
/// arithmetic, with no call across which a vector would be spilled.
void inlineVectorMath(llvm::Module &module);

} // namespace ptensor::compiler

#endif // PTENSOR_LIB_COMPILER_INLINEVECTORMATH_H
