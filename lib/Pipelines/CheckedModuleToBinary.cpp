//===- CheckedModuleToBinary.cpp - module-to-binary failing on errors -----===//
//
// MLIR 22's gpu-module-to-binary reports some problems without failing:
// an unknown format, or a toolkit path without libdevice (the module is
// then serialized with unresolved __nv_* calls, which fail only when the
// driver loads it). This pass runs it and fails if it reported any error.
// With kernels-in-parts, it first serializes each module of several kernels
// in parts on the context's threads (KernelParts.cpp).
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>

using namespace mlir;

namespace {
struct CheckedGpuModuleToBinary
    : public PassWrapper<CheckedGpuModuleToBinary, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckedGpuModuleToBinary)

  CheckedGpuModuleToBinary() = default;
  CheckedGpuModuleToBinary(const CheckedGpuModuleToBinary &other)
      : PassWrapper(other) {}
  CheckedGpuModuleToBinary(const GpuModuleToBinaryPassOptions &options,
                           bool inParts) {
    toolkitPath = options.toolkitPath;
    compilationTarget = options.compilationTarget;
    kernelsInParts = inParts;
  }

  StringRef getArgument() const override {
    return "ptensor-gpu-module-to-binary";
  }
  StringRef getDescription() const override {
    return "gpu-module-to-binary, failing when serialization reports an error";
  }

  void runOnOperation() override {
    GpuModuleToBinaryPassOptions options;
    options.toolkitPath = toolkitPath;
    options.compilationTarget = compilationTarget;
    OpPassManager serialize; // op-agnostic: runs on this pass's op
    serialize.addPass(createGpuModuleToBinaryPass(options));
    // The serializer runs on the whole module, so no other pass emits
    // diagnostics meanwhile; each error is still passed on to be printed.
    // (Parts are serialized on several threads.)
    std::atomic<bool> reportedError = false;
    ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        reportedError = true;
      return failure();
    });
    if (failed(serializeInParts()) ||
        failed(runPipeline(serialize, getOperation())) || reportedError)
      signalPassFailure();
  }

  /// With kernels-in-parts, the modules of several kernels in parts, on as
  /// many threads as the context has; the others are left to
  /// gpu-module-to-binary.
  LogicalResult serializeInParts() {
    if (!kernelsInParts)
      return success();
    if (compilationTarget != "isa" && compilationTarget != "assembly")
      return getOperation()->emitError()
             << "kernels-in-parts needs format=isa, not '"
             << compilationTarget.getValue() << "'";
    MLIRContext &context = getContext();
    unsigned threads = context.isMultithreadingEnabled()
                           ? context.getThreadPool().getMaxConcurrency()
                           : 1;
    gpu::TargetOptions options(toolkitPath, {}, {}, {},
                               gpu::CompilationTarget::Assembly);
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        for (auto module :
             llvm::make_early_inc_range(block.getOps<gpu::GPUModuleOp>()))
          if (failed(
                  ptensor::serializeKernelsInParts(module, options, threads)))
            return failure();
    return success();
  }

  /// The options of gpu-module-to-binary that ptensor sets.
  Option<std::string> toolkitPath{*this, "toolkit",
                                  llvm::cl::desc("CUDA toolkit path")};
  Option<std::string> compilationTarget{
      *this, "format",
      llvm::cl::desc("Kernel format: bin, isa, fatbin (as gpu-module-to-binary)"),
      llvm::cl::init("bin")};
  Option<bool> kernelsInParts{
      *this, "kernels-in-parts",
      llvm::cl::desc("Serialize a module of several kernels to PTX in parts "
                     "on the context's threads, one object per part (for "
                     "ptensor's own ptxas step; format=isa only)"),
      llvm::cl::init(false)};
};
} // namespace

std::unique_ptr<Pass> mlir::ptensor::createCheckedGpuModuleToBinaryPass(
    const GpuModuleToBinaryPassOptions &options, bool kernelsInParts) {
  return std::make_unique<CheckedGpuModuleToBinary>(options, kernelsInParts);
}

void mlir::ptensor::registerCheckedGpuModuleToBinaryPass() {
  PassRegistration<CheckedGpuModuleToBinary>();
}
