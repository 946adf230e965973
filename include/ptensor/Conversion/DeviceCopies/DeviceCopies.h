//===- DeviceCopies.h - host<->device copies as gpu.memcpy -------*- C++ -*-===//
//
// A `ptensor.copy` between the host and a GPU is lowered in two steps:
// convert-ptensor-to-linalg{device-copies=true} turns it into a fresh
// destination buffer and a `gpu.memcpy` marked with kDeviceCopyAttrName
// (its source may still be any strided view); after the GPU conversion
// (destination allocations of device functions are `gpu.alloc` by then),
// ptensor-lower-device-copies puts the destination on its side, stages
// non-contiguous sources in a contiguous buffer and makes the copy async.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_DEVICECOPIES_DEVICECOPIES_H
#define PTENSOR_CONVERSION_DEVICECOPIES_DEVICECOPIES_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_PTENSORLOWERDEVICECOPIES
#include "ptensor/Conversion/Passes.h.inc"

/// The attribute on a `gpu.memcpy` that stands for a not yet lowered
/// `ptensor.copy`: a string, one of the kDeviceCopy* directions.
inline constexpr llvm::StringLiteral kDeviceCopyAttrName = "ptensor.device_copy";
/// Directions of a marked copy.
inline constexpr llvm::StringLiteral kDeviceCopyToDevice = "host_to_device";
inline constexpr llvm::StringLiteral kDeviceCopyToHost = "device_to_host";
inline constexpr llvm::StringLiteral kDeviceCopyDeviceToDevice =
    "device_to_device";

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_DEVICECOPIES_DEVICECOPIES_H
