//===- DeviceFunction.h - the mark of functions lowered for a GPU ---*- C++ -*-===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_DEVICEFUNCTION_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_DEVICEFUNCTION_H

#include "llvm/ADT/StringRef.h"

namespace mlir::ptensor {

/// The attribute convert-ptensor-to-linalg puts on a function that works on
/// device tensors (its value names the device): the passes after it lower
/// such a function for the GPU (kernels, cuBLASLt, CUB).
inline constexpr llvm::StringLiteral kDeviceAttrName = "ptensor.device";

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_DEVICEFUNCTION_H
