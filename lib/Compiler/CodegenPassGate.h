//===- CodegenPassGate.h - codegen passes host code goes without -*- C++
//-*-===//

#ifndef PTENSOR_LIB_COMPILER_CODEGENPASSGATE_H
#define PTENSOR_LIB_COMPILER_CODEGENPASSGATE_H

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace ptensor::compiler {

/// Makes the code generation of `context`'s modules skip LLVM's Loop
/// Strength Reduction (a pass gate on the context alone: other contexts of
/// the process, an embedding compiler's among them, keep it; LLVM's own
/// `-opt-bisect-limit` and `-opt-disable` are still honoured).
///
/// The loop vectorizer interleaves ptensor's reduction loops and unrolls
/// them at run time; LSR then spent half of their codegen on them (a
/// dynamic 3-D sum over one axis: 340 of 720 ms) and made the code no
/// faster: bench/RESULTS.md, "Host code without Loop Strength Reduction".
void skipLoopStrengthReduction(llvm::LLVMContext &context);

} // namespace ptensor::compiler

#endif // PTENSOR_LIB_COMPILER_CODEGENPASSGATE_H
