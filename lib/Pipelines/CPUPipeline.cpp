//===- CPUPipeline.cpp - ptensor-to-cpu-pipeline --------------------------===//

#include "ptensor/Pipelines/Pipelines.h"
#include "PipelineStages.h"

#include "ptensor/Conversion/Passes.h"
#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"


using namespace mlir;
using namespace mlir::ptensor;

void mlir::ptensor::buildPTensorToFusedLinalgPipeline(OpPassManager &pm,
                                                      unsigned maxRecompute,
                                                      bool deviceCopies,
                                                      bool hostOnly,
                                                      int64_t teamSize) {
  pm.addPass(createCanonicalizerPass());
  // Broadcast before promotion: the casts promotion inserts then read the
  // (zero-stride) broadcast views and fuse with their consumers.
  pm.addPass(createPTensorLayout());
  pm.addPass(createPTensorBroadcast());
  pm.addPass(createPTensorPromoteTypes());
  pm.addPass(createCanonicalizerPass());
  // After broadcasting: an operand whose rows do not line up with the
  // result's is an explicit ptensor.broadcast, which becomes a gather.
  pm.addPass(createPTensorPartitionTeams(PTensorPartitionTeamsOptions{teamSize}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertPTensorToLinalg(
      ConvertPTensorToLinalgOptions{deviceCopies, hostOnly}));
  pm.addPass(createPTensorFuseElementwise(
      PTensorFuseElementwiseOptions{maxRecompute}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createPTensorSimplifyPowers());
  pm.addPass(createPTensorTanhSums());
  pm.addPass(createCSEPass());
}

void mlir::ptensor::addBufferization(OpPassManager &pm) {
  // Same-shape products and reductions start from fills of their own (CSE
  // merged them): bufferized, each is an allocation, never a copy.
  pm.addPass(createPTensorSeparateInits());
  // A value written into an existing tensor (ptensor.strided_write, a subset
  // insertion) is computed in the destination instead of a tensor.empty:
  // one-shot bufferize then writes in place (a += s: no temporary, no copy)
  // unless an input overlaps the destination in a way that changes results
  // (a = flip(a) + b), where it still allocates one.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::FullyDynamicLayoutMap;
  bufferize.unknownTypeConversion =
      bufferization::LayoutMapOption::FullyDynamicLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // Clones the deallocation pipeline inserted (e.g. for returned arguments).
  pm.addPass(createConvertBufferizationToMemRefPass());
  // A deleted tensor's buffer freed at its ptensor.delete.
  pm.addPass(createPTensorReleaseDeleted());
  pm.addPass(createPTensorCopiesToLinalg());
}

void mlir::ptensor::buildPTensorToCPUPipeline(
    OpPassManager &pm, const PTensorToCPUPipelineOptions &options) {
  buildPTensorToFusedLinalgPipeline(pm, options.maxRecomputeOps,
                                    /*deviceCopies=*/false, /*hostOnly=*/true,
                                    options.teamSize);
  // Static size-1 loop dims dropped on tensors (on memrefs the upstream
  // patterns do nothing); rank-reducing slices instead of reshapes, so that
  // empty-tensor elimination (in addBufferization) still sees the
  // destination and bufferization adds no copies.
  pm.addPass(createPTensorFoldUnitDims());
  pm.addPass(createCanonicalizerPass());
  addBufferization(pm);
  // Matrix products through OpenBLAS (generated loops where it declines).
  pm.addPass(createConvertPTensorContractionsToLibrary(
      ConvertPTensorContractionsToLibraryOptions{/*host=*/true,
                                                 /*device=*/false}));
  // Sorts through the runtime.
  pm.addPass(createConvertPTensorSortToLibrary());
  // Run-time loop order (identity or reversed, by the operands' strides)
  // and contiguous fast path: dims coalesced when the run-time strides
  // allow (CSE merges the checks of a buffer read and written in place).
  pm.addPass(createPTensorCoalesceDims(
      PTensorCoalesceDimsOptions{options.reorderLoops}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Reductions whose innermost loop is reduced: accumulators in registers,
  // interleaved lanes (scf.parallel over their outputs).
  pm.addPass(createConvertPTensorReductionsToLoops());
  if (options.parallel) {
    // Loop nests as omp.parallel + omp.wsloop on `num-threads` threads
    // (0: as many as the machine running the code has), each taken only
    // when it has at least 2 x `min-task-size` iterations (smaller ones stay
    // on the calling thread).
    pm.addPass(createConvertLinalgToParallelLoopsPass());
    // Innermost dims stay serial scf.for loops (vectorized by LLVM): the
    // conversion would collapse them into the worksharing loop.
    pm.addPass(createPTensorSerialInnerLoop(
        PTensorSerialInnerLoopOptions{options.innerBlock}));
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = options.numThreads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
    // The conversion wraps each loop body in a memref.alloca_scope (a
    // stack save/restore per iteration, which keeps LLVM from vectorizing
    // the loop); bodies without allocas lose it again.
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createPTensorParallelThreshold(PTensorParallelThresholdOptions{
        2 * int64_t(options.minTaskSize), options.teamSize}));
  } else {
    pm.addPass(createConvertLinalgToLoopsPass());
  }
  pm.addPass(createLoopInvariantCodeMotionPass());
  // Divisions by a scalar operand: magic numbers computed before the loop
  // (x86 has no vector integer division).
  pm.addNestedPass<func::FuncOp>(createPTensorInvariantDivision());
  addHostToLLVM(pm, /*withGPULaunches=*/false);
}

void mlir::ptensor::addHostToLLVM(OpPassManager &pm, bool withGPULaunches) {
  pm.addPass(createDefineBF16LibcallsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  // libm first: MathToLLVM's log1p/expm1 are log(1+x)/exp(x)-1, which lose
  // the precision those functions exist for.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  // gpu.alloc/launch_func/... need the memref types they were written with.
  if (withGPULaunches)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createPTensorUseHostAllocator());
  ConvertFuncToLLVMPassOptions funcOptions;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  // Failed checks go to the caller's trap, not abort() (RunTimeChecks.h).
  pm.addPass(createPTensorLowerRunTimeChecks());
  // After the checks: its patterns would lower cf.assert to abort().
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::ptensor::registerPTensorPipelines() {
  registerCheckedGpuModuleToBinaryPass();
  registerDefineBF16LibcallsPass();
  PassPipelineRegistration<PTensorToCPUPipelineOptions>(
      "ptensor-to-cpu-pipeline",
      "Lowers ptensor ops on host data to the LLVM dialect (fused loops)",
      buildPTensorToCPUPipeline);
  // Not PassPipelineRegistration: its builder cannot fail, and invalid
  // options must stop ptensor-opt with the message naming them.
  registerPassPipeline(
      "ptensor-to-nvvm-pipeline",
      "Lowers ptensor ops to LLVM host code with embedded CUDA kernels",
      [](OpPassManager &pm, StringRef optionsStr,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        PTensorToNVVMPipelineOptions options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        return buildPTensorToNVVMPipeline(pm, options, errorHandler);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(PTensorToNVVMPipelineOptions());
      });
}
