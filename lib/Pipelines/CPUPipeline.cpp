//===- CPUPipeline.cpp - ptensor-to-cpu-pipeline --------------------------===//

#include "ptensor/Pipelines/Pipelines.h"

#include "ptensor/Conversion/Passes.h"
#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
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
                                                      unsigned maxRecompute) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createPTensorPromoteTypes());
  pm.addPass(createPTensorLayout());
  pm.addPass(createPTensorBroadcast());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertPTensorToLinalg());
  pm.addPass(createPTensorFuseElementwise(
      PTensorFuseElementwiseOptions{maxRecompute}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// One-shot bufferization with fully dynamic strided layouts at function
/// boundaries (any strides, 0 and negative included), then deallocation of
/// temporaries.
static void addBufferization(OpPassManager &pm) {
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
}

void mlir::ptensor::buildPTensorToCPUPipeline(
    OpPassManager &pm, const PTensorToCPUPipelineOptions &options) {
  buildPTensorToFusedLinalgPipeline(pm, options.maxRecomputeOps);
  addBufferization(pm);
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::ptensor::registerPTensorPipelines() {
  PassPipelineRegistration<PTensorToCPUPipelineOptions>(
      "ptensor-to-cpu-pipeline",
      "Lowers ptensor ops on host data to the LLVM dialect (fused loops)",
      buildPTensorToCPUPipeline);
}
