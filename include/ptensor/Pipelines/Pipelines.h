//===- Pipelines.h - named ptensor pass pipelines ----------------*- C++ -*-===//

#ifndef PTENSOR_PIPELINES_PIPELINES_H
#define PTENSOR_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace ptensor {

/// Options of `ptensor-to-cpu-pipeline`.
struct PTensorToCPUPipelineOptions
    : public PassPipelineOptions<PTensorToCPUPipelineOptions> {
  PassOptions::Option<unsigned> maxRecomputeOps{
      *this, "max-recompute-ops",
      llvm::cl::desc("Largest producer body recomputed by fusion for extra "
                     "users (0 fuses single-use producers only)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers for public functions"),
      llvm::cl::init(true)};
};

/// ptensor ops on host data down to the LLVM dialect: promote-types, layout,
/// broadcast, convert-ptensor-to-linalg, fusion, one-shot bufferization with
/// fully dynamic strided layouts at function boundaries, buffer deallocation,
/// loops, and the conversions to LLVM.
void buildPTensorToCPUPipeline(OpPassManager &pm,
                               const PTensorToCPUPipelineOptions &options);

/// The ptensor-level front of every pipeline (up to fused linalg on tensors).
void buildPTensorToFusedLinalgPipeline(OpPassManager &pm,
                                       unsigned maxRecomputeOps);

/// Registers `ptensor-to-cpu-pipeline` (and the GPU pipeline when built).
void registerPTensorPipelines();

} // namespace ptensor
} // namespace mlir

#endif // PTENSOR_PIPELINES_PIPELINES_H
