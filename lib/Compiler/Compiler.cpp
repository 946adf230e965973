//===- Compiler.cpp - the one compile driver of ptensor modules -----------===//

#include "ptensor/Compiler/Compiler.h"

#include "ptensor/Compiler/PendingCubins.h"
#include "ptensor/Cache/CPUFeatures.h"

#include "ptensor/InitAll.h"
#include "ptensor/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>
#include <optional>

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

/// Fails when the host code's optimization level is out of range.
static llvm::Error checkOptLevel(const CompileOptions &options) {
  if (options.optLevel > 3)
    return llvm::createStringError(
        "optimization level %u is out of range; expected 0, 1, 2 or 3",
        options.optLevel);
  return llvm::Error::success();
}

/// Fails when the team size in a pipeline's own options (`pipelineTeamSize`,
/// parsed from `pipelineOptions`) is not the compile's: the signature JSON
/// records options.teamSize, and the callers split by it.
static llvm::Error checkTeamSize(const CompileOptions &options,
                                 int64_t pipelineTeamSize,
                                 llvm::StringRef pipeline,
                                 const std::string &pipelineOptions) {
  if (pipelineTeamSize == options.teamSize)
    return llvm::Error::success();
  return llvm::createStringError(
      "team-size=%lld in the %s options '%s': the team size is the "
      "compile's own option (--team-size, CompileOptions::teamSize), which "
      "is %lld",
      static_cast<long long>(pipelineTeamSize), pipeline.str().c_str(),
      pipelineOptions.c_str(), static_cast<long long>(options.teamSize));
}

/// Sets `gpu` from `options`, or fails naming the option that is wrong.
static llvm::Error
parseGPUOptions(const CompileOptions &options,
                mlir::ptensor::PTensorToNVVMPipelineOptions &gpu) {
  // Every GPU compile parses its options here (the whole pipeline, or the
  // kernels with ptxas beside).
  gpu.maxRecomputeOps = options.maxRecomputeOps;
  gpu.chip = options.chip;
  gpu.features = options.features;
  gpu.setKernelConfig(options.kernels);
  gpu.teamSize = options.teamSize;
  if (failed(gpu.parseFromString(options.gpuPipelineOptions)))
    return llvm::createStringError("invalid ptensor-to-nvvm-pipeline options "
                                   "'" +
                                   options.gpuPipelineOptions + "'");
  return checkTeamSize(options, gpu.teamSize, "ptensor-to-nvvm-pipeline",
                       options.gpuPipelineOptions);
}

/// Adds `build`'s part of ptensor-to-nvvm-pipeline to `pm`, or fails with
/// the messages of the options it refused.
static llvm::Error buildGPUPipeline(
    OpPassManager &pm, const mlir::ptensor::PTensorToNVVMPipelineOptions &gpu,
    function_ref<LogicalResult(
        OpPassManager &, const mlir::ptensor::PTensorToNVVMPipelineOptions &,
        function_ref<LogicalResult(const Twine &)>)>
        build) {
  std::string problems;
  if (failed(build(pm, gpu, [&](const llvm::Twine &message) {
        problems += (problems.empty() ? "" : "\n") + message.str();
        return failure();
      })))
    return llvm::createStringError(problems);
  return llvm::Error::success();
}

/// Adds the pipeline of `target` with `options` to `pm`, or fails naming
/// the options that are wrong.
static llvm::Error buildPipeline(OpPassManager &pm, Target target,
                                 const CompileOptions &options) {
  if (llvm::Error e = checkOptLevel(options))
    return e;
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
    if (llvm::Error e = checkTeamSize(options, cpu.teamSize,
                                      "ptensor-to-cpu-pipeline",
                                      options.cpuPipelineOptions))
      return e;
    mlir::ptensor::buildPTensorToCPUPipeline(pm, cpu);
    return llvm::Error::success();
  }
  mlir::ptensor::PTensorToNVVMPipelineOptions gpu;
  if (llvm::Error e = parseGPUOptions(options, gpu))
    return e;
  return buildGPUPipeline(pm, gpu, mlir::ptensor::buildPTensorToNVVMPipeline);
}

/// Runs `pm` (the pipeline of `target`) on `module`.
static llvm::Error runPipeline(PassManager &pm, ModuleOp module,
                               Target target) {
  if (failed(pm.run(module)))
    return llvm::createStringError(
        llvm::Twine(target == Target::CUDA ? "ptensor-to-nvvm-pipeline"
                                           : "ptensor-to-cpu-pipeline") +
        " failed");
  return llvm::Error::success();
}

llvm::Error lowerToLLVMDialect(ModuleOp module, Target target,
                               const CompileOptions &options) {
  assert(target != Target::Auto && "resolve the target first");
  PassManager pm(module.getContext());
  if (llvm::Error e = buildPipeline(pm, target, options))
    return e;
  return runPipeline(pm, module, target);
}

llvm::Expected<std::unique_ptr<PendingCubins>>
lowerToLLVMDialectAssemblingKernels(ModuleOp module,
                                    const CompileOptions &options) {
  mlir::ptensor::PTensorToNVVMPipelineOptions gpu;
  if (llvm::Error e = checkOptLevel(options))
    return std::move(e);
  if (llvm::Error e = parseGPUOptions(options, gpu))
    return std::move(e);
  if (gpu.format != "bin" && gpu.format != "binary") {
    // The kernels stay in that format: the whole pipeline, as it is.
    PassManager pm(module.getContext());
    if (llvm::Error e = buildGPUPipeline(
            pm, gpu, mlir::ptensor::buildPTensorToNVVMPipeline))
      return std::move(e);
    if (llvm::Error e = runPipeline(pm, module, Target::CUDA))
      return std::move(e);
    return nullptr;
  }
  // No ptxas: fail before the kernels' half of the pipeline runs.
  std::string cudaPath = mlir::ptensor::resolveCudaPath(gpu.cudaPath);
  if (llvm::Expected<std::string> ptxas = PendingCubins::findPtxas(cudaPath);
      !ptxas)
    return ptxas.takeError();
  gpu.format = "isa";
  PassManager kernels(module.getContext());
  // The kernels' PTX in parts, on the context's threads: ptxas takes the
  // parts together.
  auto kernelsInParts =
      [](OpPassManager &pm,
         const mlir::ptensor::PTensorToNVVMPipelineOptions &options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        return mlir::ptensor::buildPTensorToNVVMKernelsPipeline(
            pm, options, errorHandler, /*ptxInParts=*/true);
      };
  if (llvm::Error e = buildGPUPipeline(kernels, gpu, kernelsInParts))
    return std::move(e);
  if (llvm::Error e = runPipeline(kernels, module, Target::CUDA))
    return std::move(e);
  auto pending = PendingCubins::start(module, cudaPath);
  if (!pending)
    return pending.takeError();
  PassManager host(module.getContext());
  mlir::ptensor::buildPTensorToNVVMHostPipeline(host);
  if (llvm::Error e = runPipeline(host, module, Target::CUDA))
    return std::move(e);
  return pending;
}

const char *getOpenMPRuntimeLibrary() { return PTENSOR_OPENMP_LIBRARY; }

void initializeHostTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// This process's LLVM target, after checking that it knows CPU `hostCPU`:
/// an error naming the CPU when it does not (checked first: LLVM warns on
/// stderr and ignores an unknown name).
static llvm::Expected<const llvm::Target *>
lookupTargetOfCPU(const llvm::Triple &triple, llvm::StringRef hostCPU) {
  initializeHostTarget();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(hostCPU))
    return llvm::createStringError(
        "unknown host CPU '" + hostCPU.str() +
        "' (PTENSOR_HOST_CPU or --cpu): expected an LLVM CPU name of " +
        triple.str() +
        " such as x86-64-v2, x86-64-v3, skylake-avx512 or znver4 "
        "(`llc -mcpu=help` lists them), or none for this machine's CPU");
  return target;
}

/// The subtarget of CPU `hostCPU` (its own features, not this machine's).
static llvm::Expected<std::unique_ptr<llvm::MCSubtargetInfo>>
createNamedCPUSubtarget(llvm::StringRef hostCPU) {
  llvm::Triple triple(llvm::sys::getProcessTriple());
  llvm::Expected<const llvm::Target *> target =
      lookupTargetOfCPU(triple, hostCPU);
  if (!target)
    return target.takeError();
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      (*target)->createMCSubtargetInfo(triple, hostCPU, ""));
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(unsigned optLevel, llvm::StringRef hostCPU) {
  initializeHostTarget();
  std::optional<llvm::orc::JITTargetMachineBuilder> builder;
  if (hostCPU.empty()) {
    llvm::Expected<llvm::orc::JITTargetMachineBuilder> detected =
        llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!detected)
      return detected.takeError();
    builder = std::move(*detected);
  } else {
    // The named CPU's own features only, not this machine's.
    llvm::Triple triple(llvm::sys::getProcessTriple());
    if (auto target = lookupTargetOfCPU(triple, hostCPU); !target)
      return target.takeError();
    builder.emplace(triple);
    builder->setCPU(hostCPU.str());
  }
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u)));
  return builder->createTargetMachine();
}

llvm::Expected<std::vector<std::string>>
getHostCodeCPUFeatures(llvm::StringRef hostCPU) {
  if (hostCPU.empty())
    return cache::hostCPUFeatures();
  auto subtarget = createNamedCPUSubtarget(hostCPU);
  if (!subtarget)
    return subtarget.takeError();
  const llvm::FeatureBitset &bits = (*subtarget)->getFeatureBits();
  std::vector<std::string> features;
  for (const std::string &name : cache::knownCPUFeatures())
    for (const llvm::SubtargetFeatureKV &kv :
         (*subtarget)->getAllProcessorFeatures())
      if (name == kv.Key && bits.test(kv.Value))
        features.push_back(name);
  return features;
}

} // namespace ptensor::compiler
