//===- GPUModules.h - one gpu.module per compiled module ---------*- C++ -*-===//
//
// Kernel outlining gives every launch a gpu.module of its own; each one is
// then compiled on its own (an LLVM backend run and a ptxas process) and
// loaded on its own at run time. ptensor-merge-gpu-modules puts the kernels
// of a module that share a target into one gpu.module;
// ptensor-native-bf16-rounding gives kernels the chip's bf16 rounding;
// ptensor-kernel-occupancy gives them the occupancy their grids assume;
// ptensor-sink-kernel-constants lets them see their constants.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_GPUMODULES_GPUMODULES_H
#define PTENSOR_CONVERSION_GPUMODULES_GPUMODULES_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_PTENSORMERGEGPUMODULES
#define GEN_PASS_DECL_PTENSORNATIVEBF16ROUNDING
#define GEN_PASS_DECL_PTENSORKERNELOCCUPANCY
#define GEN_PASS_DECL_PTENSORSINKKERNELCONSTANTS
#include "ptensor/Conversion/Passes.h.inc"

/// The marker of an op in a launch's body: the blocks per SM (an integer
/// attribute) its grid was sized for (see ptensor-kernel-occupancy).
inline constexpr llvm::StringLiteral kMinBlocksPerSMAttr =
    "ptensor.min_blocks_per_sm";

/// The marker of a gpu.launch (a unit attribute) whose constants stay
/// kernel parameters (see ptensor-sink-kernel-constants).
inline constexpr llvm::StringLiteral kKeepKernelParametersAttr =
    "ptensor.keep_kernel_parameters";

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_GPUMODULES_GPUMODULES_H
