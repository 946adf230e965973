//===- GPUPipeline.cpp - ptensor-to-nvvm-pipeline -------------------------===//

#include "ptensor/Pipelines/Pipelines.h"
#include "NVPTXTargets.h"
#include "PipelineStages.h"

#include "ptensor/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::ptensor;

std::string mlir::ptensor::resolveCudaPath(llvm::StringRef option) {
  if (!option.empty())
    return option.str();
  if (const char *home = std::getenv("CUDA_HOME"))
    return home;
  return "/usr/local/cuda";
}

LogicalResult mlir::ptensor::buildPTensorToNVVMKernelsPipeline(
    OpPassManager &pm, const PTensorToNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler, bool ptxInParts) {
  if (failed(verifyPTensorToNVVMPipelineOptions(options, errorHandler)))
    return failure();
  buildPTensorToFusedLinalgPipeline(pm, options.maxRecomputeOps,
                                    /*deviceCopies=*/true, /*hostOnly=*/false,
                                    options.teamSize);
  // As on the CPU, out= and in-place writes are computed in the
  // destination's device buffer (no temporary, no copy kernel) unless an
  // input overlaps it differently. Unit dims are not folded here (kernels
  // walk one linear index over all dims, delinearized per element).
  addBufferization(pm);
  // Matrix products through cuBLASLt (and OpenBLAS for host functions);
  // before generalization, which would hide the output's linalg.fill.
  pm.addPass(createConvertPTensorContractionsToLibrary());
  pm.addPass(createConvertPTensorSortToLibrary());
  pm.addPass(createLinalgGeneralizeNamedOpsPass());
  pm.addPass(createConvertPTensorLinalgToGPU(options.getKernelConfig()));
  pm.addPass(createPTensorLowerDeviceCopies());
  // Host functions (and what is left on the host) become loops.
  pm.addPass(createConvertLinalgToLoopsPass());
  // Software integer pow etc. as functions, before outlining copies the
  // ones kernels call into their gpu.module.
  pm.addPass(createConvertMathToFuncs());
  // Kernels see their constants as immediates (not parameters).
  pm.addPass(createPTensorSinkKernelConstants());
  pm.addPass(createGpuKernelOutliningPass());
  // One gpu.module: one backend run and one ptxas process per compile, one
  // module load per run.
  pm.addPass(createPTensorMergeGpuModules());
  // Before scf-to-cf: the markers sit on the kernels' loops.
  pm.nest<gpu::GPUModuleOp>().addPass(createPTensorKernelOccupancy());
  pm.addPass(createLoopInvariantCodeMotionPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  // ptxas assembles the module's kernels on as many threads as the machine
  // has (0): the four kernels of a one-op module took 45-50 ms on one core
  // of the 2-core build machine, 30 ms on two. The cubin's code is the
  // same; the flag travels in the target, so ptensor-compile's ptxas
  // beside the host compile (PendingCubins) passes it too.
  target.cmdOptions = "--split-compile 0";
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createLowerAffinePass());
  // Kernels: math goes to libdevice (__nv_*), index math stays 64-bit at
  // the memref level (loop indices were narrowed where it pays).
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // sm_80 on round f32 to bf16 in one instruction.
  if (getChipCapability(options.chip).value_or(0) >= 80)
    kernels.addPass(createPTensorNativeBF16Rounding());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // Math ops libdevice has no pattern for (trunc, ...) as LLVM intrinsics,
  // before the host's libm conversion could reach into kernels.
  kernels.addPass(createConvertMathToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  // Blocks CSE made identical are merged, as the host half's greedy
  // rewrites did when kernels were serialized after it.
  GreedyRewriteConfig mergeBlocks;
  mergeBlocks.setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Aggressive);
  kernels.addPass(createCanonicalizerPass(mergeBlocks));
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // The host half never looks into kernels: they are serialized here.
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = resolveCudaPath(options.cudaPath);
  binary.compilationTarget = options.format;
  pm.addPass(createCheckedGpuModuleToBinaryPass(binary, ptxInParts));
  return success();
}

void mlir::ptensor::buildPTensorToNVVMHostPipeline(OpPassManager &pm) {
  addHostToLLVM(pm, /*withGPULaunches=*/true);
}

LogicalResult mlir::ptensor::buildPTensorToNVVMPipeline(
    OpPassManager &pm, const PTensorToNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (failed(buildPTensorToNVVMKernelsPipeline(pm, options, errorHandler)))
    return failure();
  buildPTensorToNVVMHostPipeline(pm);
  return success();
}
