//===- CodegenPassGate.h - codegen passes ptensor's code goes without ----===//

#ifndef PTENSOR_PIPELINES_CODEGENPASSGATE_H
#define PTENSOR_PIPELINES_CODEGENPASSGATE_H

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir::ptensor {

/// Makes the code generation of `context`'s modules skip LLVM's Loop
/// Strength Reduction (a pass gate on the context alone: other contexts of
/// the process, an embedding compiler's among them, keep it; LLVM's own
/// `-opt-bisect-limit` and `-opt-disable` are still honoured). Set on host
/// modules after their optimization (HostOptimizer.cpp): the loop
/// vectorizer interleaves ptensor's reduction loops and unrolls them at run
/// time, and LSR spent half of their code generation on them (a dynamic
/// 3-D sum over one axis: 340 of 720 ms) and made the code no faster.
void skipLoopStrengthReduction(llvm::LLVMContext &context);

/// The same for a module of CUDA kernels (before its NVPTX code
/// generation, CheckedModuleToBinary.cpp), unless it reduces across a
/// warp's threads (calls a `llvm.nvvm.shfl` intrinsic). ptxas reduces the
/// strength of address arithmetic itself: without LSR a one-op add's
/// kernels took 20 ms less to generate and assemble (the cold compile on
/// the H100 machine 124 -> 104-108 ms) and f16_plus_f32 ran 4 % faster,
/// but row reductions (max, argmax, var, matrix-vector) ran 2-4 % slower.
/// bench/RESULTS.md, "Code generation without Loop Strength Reduction".
void skipLoopStrengthReductionInKernels(llvm::Module &kernels);

} // namespace mlir::ptensor

#endif // PTENSOR_PIPELINES_CODEGENPASSGATE_H
