//===- Compiler.cpp - the one compile driver of ptensor modules -----------===//

#include "ptensor/Compiler/Compiler.h"

#include "ptensor/InitAll.h"
#include "ptensor/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"

#include <mutex>

using namespace mlir;

namespace ptensor::compiler {

void registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  mlir::ptensor::registerAllPTensorDialects(registry);
  registerAllToLLVMIRTranslations(registry);
}

const char *getTargetName(Target target) {
  switch (target) {
  case Target::Auto: return "auto";
  case Target::CPU: return "cpu";
  case Target::CUDA: return "cuda";
  }
  llvm_unreachable("unknown target");
}

Target resolveTarget(const CompileOptions &options,
                                        bool usesGPU) {
  if (options.target != Target::Auto)
    return options.target;
  return usesGPU ? Target::CUDA : Target::CPU;
}

bool compilesParallel(const CompileOptions &options) {
  return options.parallel && *getOpenMPRuntimeLibrary() &&
         llvm::sys::fs::exists(getOpenMPRuntimeLibrary());
}

/// Adds the pipeline of `target` with `options` to `pm`, or fails naming
/// the options that are wrong.
static llvm::Error buildPipeline(OpPassManager &pm, Target target,
                                 const CompileOptions &options) {
  if (options.optLevel > 3)
    return llvm::createStringError(
        "optimization level %u is out of range; expected 0, 1, 2 or 3",
        options.optLevel);
  if (target == Target::CPU) {
    mlir::ptensor::PTensorToCPUPipelineOptions cpu;
    cpu.maxRecomputeOps = options.maxRecomputeOps;
    cpu.parallel = compilesParallel(options);
    cpu.numThreads = options.numThreads;
    cpu.teamSize = options.teamSize;
    if (failed(cpu.parseFromString(options.cpuPipelineOptions)))
      return llvm::createStringError("invalid ptensor-to-cpu-pipeline "
                                     "options '" +
                                     options.cpuPipelineOptions + "'");
    mlir::ptensor::buildPTensorToCPUPipeline(pm, cpu);
    return llvm::Error::success();
  }
  mlir::ptensor::PTensorToNVVMPipelineOptions gpu;
  gpu.maxRecomputeOps = options.maxRecomputeOps;
  gpu.chip = options.chip;
  gpu.features = options.features;
  gpu.setKernelConfig(options.kernels);
  if (failed(gpu.parseFromString(options.gpuPipelineOptions)))
    return llvm::createStringError("invalid ptensor-to-nvvm-pipeline options "
                                   "'" +
                                   options.gpuPipelineOptions + "'");
  std::string problems;
  if (failed(mlir::ptensor::buildPTensorToNVVMPipeline(
          pm, gpu, [&](const llvm::Twine &message) {
            problems += (problems.empty() ? "" : "\n") + message.str();
            return failure();
          })))
    return llvm::createStringError(problems);
  return llvm::Error::success();
}

llvm::Error lowerToLLVMDialect(ModuleOp module,
                                                  Target target,
                                                  const CompileOptions &options) {
  assert(target != Target::Auto && "resolve the target first");
  PassManager pm(module.getContext());
  if (llvm::Error e = buildPipeline(pm, target, options))
    return e;
  if (failed(pm.run(module)))
    return llvm::createStringError(
        llvm::Twine(target == Target::CUDA ? "ptensor-to-nvvm-pipeline"
                                           : "ptensor-to-cpu-pipeline") +
        " failed");
  return llvm::Error::success();
}

const char *getOpenMPRuntimeLibrary() { return PTENSOR_OPENMP_LIBRARY; }

void initializeHostTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(unsigned optLevel) {
  initializeHostTarget();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u)));
  return builder->createTargetMachine();
}

} // namespace ptensor::compiler
