//===- CheckedModuleToBinary.cpp - gpu-module-to-binary that fails on errors ===//
//
// MLIR 22's gpu-module-to-binary reports some problems without failing:
// an unknown format, or a toolkit path without libdevice (the module is
// then serialized with unresolved __nv_* calls, which fail only when the
// driver loads it). This pass runs it and fails if it reported any error.
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace {
struct CheckedGpuModuleToBinary
    : public PassWrapper<CheckedGpuModuleToBinary, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckedGpuModuleToBinary)

  CheckedGpuModuleToBinary() = default;
  CheckedGpuModuleToBinary(const CheckedGpuModuleToBinary &other)
      : PassWrapper(other) {}
  explicit CheckedGpuModuleToBinary(const GpuModuleToBinaryPassOptions &options) {
    toolkitPath = options.toolkitPath;
    compilationTarget = options.compilationTarget;
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
    bool reportedError = false;
    ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        reportedError = true;
      return failure();
    });
    if (failed(runPipeline(serialize, getOperation())) || reportedError)
      signalPassFailure();
  }

  /// The options of gpu-module-to-binary that ptensor sets.
  Option<std::string> toolkitPath{*this, "toolkit",
                                  llvm::cl::desc("CUDA toolkit path")};
  Option<std::string> compilationTarget{
      *this, "format",
      llvm::cl::desc("Kernel format: bin, isa, fatbin (as gpu-module-to-binary)"),
      llvm::cl::init("bin")};
};
} // namespace

std::unique_ptr<Pass> mlir::ptensor::createCheckedGpuModuleToBinaryPass(
    const GpuModuleToBinaryPassOptions &options) {
  return std::make_unique<CheckedGpuModuleToBinary>(options);
}

void mlir::ptensor::registerCheckedGpuModuleToBinaryPass() {
  PassRegistration<CheckedGpuModuleToBinary>();
}
