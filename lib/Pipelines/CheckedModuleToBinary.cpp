//===- CheckedModuleToBinary.cpp - module-to-binary failing on errors -----===//
//
// MLIR 22's gpu-module-to-binary reports some problems without failing:
// an unknown format, or a toolkit path without libdevice (the module is
// then serialized with unresolved __nv_* calls, which fail only when the
// driver loads it). This pass serializes the modules as it does (its
// transformGpuModulesToBinaries) and fails on an unknown format or when
// serialization reported any error; the kernels' code generation skips
// Loop Strength Reduction (CodegenPassGate.h). With kernels-in-parts, it
// first serializes each module of several kernels in parts on the
// context's threads (KernelParts.cpp).
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "ptensor/Pipelines/CodegenPassGate.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Module.h"
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
    std::optional<gpu::CompilationTarget> format = parseFormat();
    if (!format) {
      getOperation()->emitError()
          << "unknown kernel format '" << compilationTarget.getValue()
          << "': expected bin, isa, fatbin or llvm";
      return signalPassFailure();
    }
    // gpu-module-to-binary's serialization with one callback more: the
    // kernels' code generation skips Loop Strength Reduction (but in
    // modules that reduce across threads).
    std::optional<SymbolTable> parentTable;
    auto symbolTable = [&]() -> SymbolTable * {
      if (!parentTable)
        parentTable.emplace(getOperation());
      return &*parentTable;
    };
    auto beforeCodegen = [](llvm::Module &module) {
      ptensor::skipLoopStrengthReductionInKernels(module);
    };
    gpu::TargetOptions options(toolkitPath, {}, {}, {}, *format, symbolTable,
                               {}, {}, beforeCodegen);
    // The serializer runs on the whole module, so no other pass emits
    // diagnostics meanwhile; each error is still passed on to be printed.
    // (Parts are serialized on several threads.)
    std::atomic<bool> reportedError = false;
    ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        reportedError = true;
      return failure();
    });
    if (failed(serializeInParts(options)) ||
        failed(gpu::transformGpuModulesToBinaries(getOperation(), nullptr,
                                                  options)) ||
        reportedError)
      signalPassFailure();
  }

  /// The `format` option's target (gpu-module-to-binary's spellings).
  std::optional<gpu::CompilationTarget> parseFormat() const {
    return llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(
               compilationTarget)
        .Cases({"offloading", "llvm"}, gpu::CompilationTarget::Offload)
        .Cases({"assembly", "isa"}, gpu::CompilationTarget::Assembly)
        .Cases({"binary", "bin"}, gpu::CompilationTarget::Binary)
        .Cases({"fatbinary", "fatbin"}, gpu::CompilationTarget::Fatbin)
        .Default(std::nullopt);
  }

  /// With kernels-in-parts, the modules of several kernels in parts (with
  /// `options`), on as many threads as the context has; the others are
  /// left to gpu-module-to-binary's serialization.
  LogicalResult serializeInParts(const gpu::TargetOptions &options) {
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
