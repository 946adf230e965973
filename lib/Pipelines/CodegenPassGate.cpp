//===- CodegenPassGate.cpp - codegen passes ptensor's code goes without --===//

#include "ptensor/Pipelines/CodegenPassGate.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"

namespace {
/// Declines Loop Strength Reduction (its legacy pass name: codegen runs the
/// legacy pass manager, whose loop passes ask the context's gate) and asks
/// the process's global gate about every other pass.
class SkipLoopStrengthReduction : public llvm::OptPassGate {
public:
  bool shouldRunPass(llvm::StringRef passName,
                     llvm::StringRef description) const override {
    if (passName == "Loop Strength Reduction")
      return false;
    llvm::OptPassGate &global = llvm::getGlobalPassGate();
    return !global.isEnabled() || global.shouldRunPass(passName, description);
  }
  bool isEnabled() const override { return true; }
};
} // namespace

void mlir::ptensor::skipLoopStrengthReduction(llvm::LLVMContext &context) {
  // Stateless: one gate serves every context and thread.
  static SkipLoopStrengthReduction gate;
  context.setOptPassGate(gate);
}

void mlir::ptensor::skipLoopStrengthReductionInKernels(llvm::Module &kernels) {
  for (const llvm::Function &function : kernels)
    if (function.getName().starts_with("llvm.nvvm.shfl."))
      return;
  skipLoopStrengthReduction(kernels.getContext());
}
