//===- DLPackConversion.cpp - DLPack tensors <-> ptensor JIT buffers ------===//

#include "DLPackConversion.h"

#include "ptensor-c/JIT.h"

#include "llvm/ADT/Twine.h"

#include <memory>
#include <new>

using namespace ::ptensor;
using namespace ::ptensor::capi;

std::optional<DType> ptensor::capi::dtypeFromDLPack(DLDataType dtype) {
  if (dtype.lanes != 1)
    return std::nullopt;
  switch (dtype.code) {
  case kDLInt:
    switch (dtype.bits) {
    case 8: return DType::I8;
    case 16: return DType::I16;
    case 32: return DType::I32;
    case 64: return DType::I64;
    }
    break;
  case kDLUInt:
    switch (dtype.bits) {
    case 8: return DType::U8;
    case 16: return DType::U16;
    case 32: return DType::U32;
    case 64: return DType::U64;
    }
    break;
  case kDLFloat:
    switch (dtype.bits) {
    case 16: return DType::F16;
    case 32: return DType::F32;
    case 64: return DType::F64;
    }
    break;
  case kDLBfloat:
    if (dtype.bits == 16)
      return DType::BF16;
    break;
  case PTENSOR_DLPACK_BOOL_CODE:
    if (dtype.bits == 8)
      return DType::Bool;
    break;
  default:
    break;
  }
  return std::nullopt;
}

DLDataType ptensor::capi::dtypeToDLPack(DType dtype) {
  auto make = [](unsigned code, unsigned bits) {
    DLDataType t;
    t.code = static_cast<uint8_t>(code);
    t.bits = static_cast<uint8_t>(bits);
    t.lanes = 1;
    return t;
  };
  switch (dtype) {
  case DType::Bool: return make(PTENSOR_DLPACK_BOOL_CODE, 8);
  case DType::I8: return make(kDLInt, 8);
  case DType::I16: return make(kDLInt, 16);
  case DType::I32: return make(kDLInt, 32);
  case DType::I64: return make(kDLInt, 64);
  case DType::U8: return make(kDLUInt, 8);
  case DType::U16: return make(kDLUInt, 16);
  case DType::U32: return make(kDLUInt, 32);
  case DType::U64: return make(kDLUInt, 64);
  case DType::F16: return make(kDLFloat, 16);
  case DType::BF16: return make(kDLBfloat, 16);
  case DType::F32: return make(kDLFloat, 32);
  case DType::F64: return make(kDLFloat, 64);
  }
  return make(kDLFloat, 32);
}

std::string ptensor::capi::describeDLPackDType(DLDataType dtype) {
  std::string name;
  switch (dtype.code) {
  case kDLInt: name = "int"; break;
  case kDLUInt: name = "uint"; break;
  case kDLFloat: name = "float"; break;
  case kDLBfloat: name = "bfloat"; break;
  case kDLOpaqueHandle: name = "opaque handle "; break;
  case kDLComplex: name = "complex"; break;
  case PTENSOR_DLPACK_BOOL_CODE: name = "bool"; break;
  default: name = "code " + std::to_string(dtype.code) + " "; break;
  }
  name += std::to_string(dtype.bits);
  if (dtype.lanes != 1)
    name += "x" + std::to_string(dtype.lanes);
  return name;
}

static const char *deviceName(DLDeviceType type) {
  // On the integer: a foreign tensor may carry any value, also none of the
  // enumerators this dlpack.h knows.
  switch (static_cast<int>(type)) {
  case kDLCPU: return "cpu";
  case kDLCUDA: return "cuda";
  case kDLCUDAHost: return "cuda_host";
  case kDLOpenCL: return "opencl";
  case kDLVulkan: return "vulkan";
  case kDLMetal: return "metal";
  case kDLVPI: return "vpi";
  case kDLROCM: return "rocm";
  case kDLROCMHost: return "rocm_host";
  case kDLExtDev: return "ext_dev";
  case kDLCUDAManaged: return "cuda_managed";
  default: return "unknown";
  }
}

PTensorStatus ptensor::capi::importDLTensor(const DLTensor &tensor,
                                            llvm::StringRef what,
                                            jit::StridedBuffer &buffer,
                                            std::string &message) {
  auto fail = [&](PTensorStatus status, const llvm::Twine &text) {
    message = (what + ": " + text).str();
    return status;
  };
  DLDeviceType device = tensor.device.device_type;
  if (device != kDLCPU && device != kDLCUDAHost && device != kDLCUDAManaged &&
      device != kDLROCMHost)
    return fail(PTENSOR_STATUS_UNSUPPORTED,
                llvm::Twine("DLTensor on device ") + deviceName(device) + ":" +
                    llvm::Twine(tensor.device.device_id) +
                    " is not host memory (the JIT runs on the CPU; expected "
                    "kDLCPU, kDLCUDAHost, kDLCUDAManaged or kDLROCMHost)");
  std::optional<DType> dtype = dtypeFromDLPack(tensor.dtype);
  if (!dtype)
    return fail(PTENSOR_STATUS_UNSUPPORTED,
                "DLPack dtype " + describeDLPackDType(tensor.dtype) +
                    " is not supported (expected int8..64, uint8..64, "
                    "float16/32/64, bfloat16 or bool8, with lanes = 1)");
  if (tensor.ndim < 0)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "negative ndim " + llvm::Twine(tensor.ndim));
  if (tensor.ndim > 0 && !tensor.shape)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "DLTensor of ndim " + llvm::Twine(tensor.ndim) +
                    " has a null shape");
  auto elementSize = static_cast<uint64_t>(dtypeByteSize(*dtype));
  if (tensor.byte_offset % elementSize != 0)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "byte_offset " + llvm::Twine(tensor.byte_offset) +
                    " is not a multiple of the element size " +
                    llvm::Twine(elementSize));
  bool empty = false;
  for (int32_t d = 0; d < tensor.ndim; ++d) {
    if (tensor.shape[d] < 0)
      return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                  "negative size " + llvm::Twine(tensor.shape[d]) +
                      " in dimension " + llvm::Twine(d));
    empty |= tensor.shape[d] == 0;
  }
  if (!tensor.data && !empty)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "DLTensor with elements has a null data pointer");

  buffer.data = tensor.data;
  buffer.dtype = *dtype;
  buffer.offset = static_cast<int64_t>(tensor.byte_offset / elementSize);
  buffer.sizes.assign(tensor.shape, tensor.shape + tensor.ndim);
  buffer.strides.resize(tensor.ndim);
  int64_t running = 1;
  for (int32_t d = tensor.ndim - 1; d >= 0; --d) {
    buffer.strides[d] = tensor.strides ? tensor.strides[d] : running;
    running *= tensor.shape[d];
  }
  return PTENSOR_STATUS_OK;
}

namespace {
/// A DLManagedTensor with the storage of its shape/strides and the
/// reference to the memory it views. `managed` is the first member, so the
/// DLManagedTensor pointer is the pointer to this struct.
struct ExportedTensor {
  DLManagedTensor managed;
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<int64_t, 4> strides;
  std::shared_ptr<void> owner;
};
} // namespace

static void deleteExported(DLManagedTensor *self) {
  delete static_cast<ExportedTensor *>(self->manager_ctx);
}

DLManagedTensor *ptensor::capi::exportResult(const jit::Result &result) {
  auto *exported = new (std::nothrow) ExportedTensor();
  if (!exported)
    return nullptr;
  const jit::StridedBuffer &b = result.buffer;
  exported->shape.assign(b.sizes.begin(), b.sizes.end());
  exported->strides.assign(b.strides.begin(), b.strides.end());
  exported->owner = result.owner;
  DLTensor &t = exported->managed.dl_tensor;
  t.data = b.data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = static_cast<int32_t>(b.sizes.size());
  t.dtype = dtypeToDLPack(b.dtype);
  t.shape = exported->shape.data();
  t.strides = exported->strides.data();
  t.byte_offset =
      static_cast<uint64_t>(b.offset) * dtypeByteSize(b.dtype);
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = deleteExported;
  return &exported->managed;
}
