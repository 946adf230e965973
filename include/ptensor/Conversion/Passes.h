//===- Passes.h - ptensor conversion passes ----------------------*- C++ -*-===//

#ifndef PTENSOR_CONVERSION_PASSES_H
#define PTENSOR_CONVERSION_PASSES_H

#include "ptensor/Conversion/ContractionsToLibrary/ContractionsToLibrary.h"
#include "ptensor/Conversion/DeviceCopies/DeviceCopies.h"
#include "ptensor/Conversion/GPUModules/GPUModules.h"
#include "ptensor/Conversion/HostLoops/HostLoops.h"
#include "ptensor/Conversion/HostParallel/HostParallel.h"
#include "ptensor/Conversion/LinalgToGPU/LinalgToGPU.h"
#include "ptensor/Conversion/PTensorToLinalg/PTensorToLinalg.h"
#include "ptensor/Conversion/ReductionsToLoops/ReductionsToLoops.h"
#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Conversion/SortToLibrary/SortToLibrary.h"

namespace mlir::ptensor {

#define GEN_PASS_REGISTRATION
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_PASSES_H
