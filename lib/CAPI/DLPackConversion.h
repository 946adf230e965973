//===- DLPackConversion.h - DLPack tensors <-> ptensor JIT buffers -*- C++ -*-===//

#ifndef PTENSOR_LIB_CAPI_DLPACKCONVERSION_H
#define PTENSOR_LIB_CAPI_DLPACKCONVERSION_H

#include "ptensor-c/Support.h"
#include "ptensor/JIT/JIT.h"

#include <dlpack/dlpack.h>

#include <string>

namespace ptensor::capi {

/// The ptensor dtype of a DLPack dtype, or std::nullopt.
std::optional<DType> dtypeFromDLPack(DLDataType dtype);

/// The DLPack dtype of `dtype`.
DLDataType dtypeToDLPack(DType dtype);

/// "float32", "int8", "bool", ... for messages; also for unsupported codes.
std::string describeDLPackDType(DLDataType dtype);

/// Fills `buffer` from `tensor` after validating it (host-accessible device,
/// supported dtype, byte_offset a multiple of the element size, non-negative
/// sizes; NULL strides = row-major). On failure returns the status and sets
/// `message` (which names the argument as `what`).
PTensorStatus importDLTensor(const DLTensor &tensor, llvm::StringRef what,
                             jit::StridedBuffer &buffer, std::string &message);

/// A new DLManagedTensor viewing `result`; its deleter releases the
/// reference `result.owner` held (if any) and frees the tensor itself.
DLManagedTensor *exportResult(const jit::Result &result);

} // namespace ptensor::capi

#endif // PTENSOR_LIB_CAPI_DLPACKCONVERSION_H
