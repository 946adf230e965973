//===- LinalgToGPU.h - elementwise loops of device functions to kernels -===//

#ifndef PTENSOR_CONVERSION_LINALGTOGPU_LINALGTOGPU_H
#define PTENSOR_CONVERSION_LINALGTOGPU_LINALGTOGPU_H

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"
#include "ptensor/Dialect/PTensor/Utils/DeviceFunction.h"

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_CONVERTPTENSORLINALGTOGPU
#include "ptensor/Conversion/Passes.h.inc"

/// convert-ptensor-linalg-to-gpu with the kernel options of `config`
/// (checked when the pass runs).
std::unique_ptr<Pass>
createConvertPTensorLinalgToGPU(const KernelConfig &config);

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_LINALGTOGPU_LINALGTOGPU_H
