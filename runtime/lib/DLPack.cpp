//===- DLPack.cpp - Strided descriptors <-> DLPack tensors ----------------===//
///
/// \file
/// Conversions between ptensor_rt_strided_desc and DLPack's DLTensor /
/// DLManagedTensor, with validation that names what was wrong and what was
/// expected. Pure host code: no driver needed.
///
//===----------------------------------------------------------------------===//

#include "Errors.h"

#include <cinttypes>
#include <cstddef>
#include <cstring>
#include <new>

using namespace ptensor::rt;

static_assert(sizeof(ptensor_rt_strided_desc) == 168, "descriptor ABI");
static_assert(offsetof(ptensor_rt_strided_desc, sizes) == 24, "descriptor ABI");
static_assert(offsetof(ptensor_rt_strided_desc, strides) == 88,
              "descriptor ABI");
static_assert(offsetof(ptensor_rt_strided_desc, dtype_code) == 152,
              "descriptor ABI");
static_assert(offsetof(ptensor_rt_strided_desc, device_type) == 156,
              "descriptor ABI");

namespace {

/// kDLBool in DLPack >= 0.8; the installed header may predate it.
constexpr uint8_t kDLBoolCode = 6;

const char *dtypeCodeName(uint8_t code) {
  switch (code) {
  case kDLInt:
    return "int";
  case kDLUInt:
    return "uint";
  case kDLFloat:
    return "float";
  case kDLOpaqueHandle:
    return "opaque handle";
  case kDLBfloat:
    return "bfloat";
  case kDLComplex:
    return "complex";
  case kDLBoolCode:
    return "bool";
  default:
    return "unknown";
  }
}

/// Element size in bytes of a supported dtype.
bool elementSize(const char *who, uint8_t code, uint8_t bits, uint16_t lanes,
                 int64_t *size) {
  if (lanes != 1)
    return setErrorf(ErrorKind::Unsupported,
                     "%s: vector dtype with %u lanes is not supported "
                     "(expected lanes = 1)",
                     who, unsigned(lanes));
  bool ok = false;
  switch (code) {
  case kDLInt:
  case kDLUInt:
    ok = bits == 8 || bits == 16 || bits == 32 || bits == 64;
    break;
  case kDLFloat:
    ok = bits == 16 || bits == 32 || bits == 64;
    break;
  case kDLBfloat:
    ok = bits == 16;
    break;
  case kDLBoolCode:
    ok = bits == 8;
    break;
  default:
    break;
  }
  if (!ok)
    return setErrorf(ErrorKind::Unsupported,
                     "%s: unsupported dtype (code %u = %s, %u bits); expected "
                     "int/uint of 8, 16, 32 or 64 bits, float of 16, 32 or 64 "
                     "bits, bfloat of 16 bits, or bool of 8 bits",
                     who, unsigned(code), dtypeCodeName(code), unsigned(bits));
  *size = bits / 8;
  return true;
}

bool checkDevice(const char *who, int32_t type) {
  if (type == kDLCPU || type == kDLCUDA || type == kDLCUDAHost ||
      type == kDLCUDAManaged)
    return true;
  return setErrorf(ErrorKind::Unsupported,
                   "%s: unsupported device type %d; expected kDLCPU (1), "
                   "kDLCUDA (2), kDLCUDAHost (3) or kDLCUDAManaged (13)",
                   who, int(type));
}

bool checkRank(const char *who, int64_t rank) {
  if (rank >= 0 && rank <= PTENSOR_RT_MAX_RANK)
    return true;
  return setErrorf(ErrorKind::InvalidArgument,
                   "%s: rank %lld is out of range (expected 0 to %d)", who,
                   static_cast<long long>(rank), PTENSOR_RT_MAX_RANK);
}

bool checkSizes(const char *who, const int64_t *sizes, int64_t rank) {
  for (int64_t i = 0; i < rank; ++i)
    if (sizes[i] < 0)
      return setErrorf(ErrorKind::InvalidArgument,
                       "%s: size of dimension %lld is %lld (expected >= 0)",
                       who, static_cast<long long>(i),
                       static_cast<long long>(sizes[i]));
  return true;
}

/// Validates `desc` for export; returns its element size and byte offset.
bool validateDesc(const char *who, const ptensor_rt_strided_desc *desc,
                  int64_t *elemSize, uint64_t *byteOffset) {
  if (!desc)
    return setErrorf(ErrorKind::InvalidArgument, "%s: desc is NULL", who);
  if (!checkRank(who, desc->rank) || !checkSizes(who, desc->sizes, desc->rank) ||
      !elementSize(who, desc->dtype_code, desc->dtype_bits, desc->dtype_lanes,
                   elemSize) ||
      !checkDevice(who, desc->device_type))
    return false;
  if (desc->offset_elems < 0 ||
      __builtin_mul_overflow(uint64_t(desc->offset_elems), uint64_t(*elemSize),
                             byteOffset))
    return setErrorf(ErrorKind::InvalidArgument,
                     "%s: offset_elems %lld cannot be expressed as a DLPack "
                     "byte_offset (expected a non-negative offset)",
                     who, static_cast<long long>(desc->offset_elems));
  return true;
}

void fillDLTensor(const ptensor_rt_strided_desc &desc, uint64_t byteOffset,
                  int64_t *shape, int64_t *strides, DLTensor *out) {
  out->data = desc.data;
  out->device.device_type = static_cast<DLDeviceType>(desc.device_type);
  out->device.device_id = desc.device_id;
  out->ndim = desc.rank;
  out->dtype.code = desc.dtype_code;
  out->dtype.bits = desc.dtype_bits;
  out->dtype.lanes = desc.dtype_lanes;
  out->shape = shape;
  out->strides = strides;
  out->byte_offset = byteOffset;
}

/// Owns an exported DLManagedTensor and copies of its shape and strides.
struct ExportHolder {
  DLManagedTensor managed;
  int64_t shape[PTENSOR_RT_MAX_RANK];
  int64_t strides[PTENSOR_RT_MAX_RANK];
  void (*release)(void *);
  void *releaseContext;
};

void deleteExport(DLManagedTensor *self) {
  if (!self)
    return;
  auto *holder = static_cast<ExportHolder *>(self->manager_ctx);
  void (*release)(void *) = holder->release;
  void *context = holder->releaseContext;
  delete holder;
  if (release)
    release(context);
}

} // namespace

extern "C" {

PTENSOR_RT_EXPORT ptensor_rt_status
ptensor_rt_dlpack_describe(ptensor_rt_strided_desc *desc, DLTensor *out) {
  const char *who = "ptensor_rt_dlpack_describe";
  int64_t elemSize = 0;
  uint64_t byteOffset = 0;
  if (!out)
    return statusFrom(
        setErrorf(ErrorKind::InvalidArgument, "%s: out is NULL", who));
  if (!validateDesc(who, desc, &elemSize, &byteOffset))
    return statusFrom(false);
  fillDLTensor(*desc, byteOffset, desc->sizes, desc->strides, out);
  return PTENSOR_RT_SUCCESS;
}

PTENSOR_RT_EXPORT ptensor_rt_status
ptensor_rt_dltensor_import(const DLTensor *tensor, ptensor_rt_strided_desc *out) {
  const char *who = "ptensor_rt_dlpack_import";
  if (!tensor || !out)
    return statusFrom(setErrorf(ErrorKind::InvalidArgument,
                                "%s: %s is NULL", who,
                                tensor ? "out" : "the tensor"));
  int64_t rank = tensor->ndim;
  int64_t elemSize = 0;
  if (!checkRank(who, rank))
    return statusFrom(false);
  if (rank > 0 && !tensor->shape)
    return statusFrom(setErrorf(ErrorKind::InvalidArgument,
                                "%s: shape is NULL for a rank-%lld tensor",
                                who, static_cast<long long>(rank)));
  if (!checkSizes(who, tensor->shape, rank) ||
      !elementSize(who, tensor->dtype.code, tensor->dtype.bits,
                   tensor->dtype.lanes, &elemSize) ||
      !checkDevice(who, tensor->device.device_type))
    return statusFrom(false);
  if (tensor->byte_offset > uint64_t(INT64_MAX))
    return statusFrom(setErrorf(ErrorKind::InvalidArgument,
                                "%s: byte_offset %" PRIu64 " is too large",
                                who, uint64_t(tensor->byte_offset)));
  if (tensor->byte_offset % uint64_t(elemSize) != 0)
    return statusFrom(setErrorf(
        ErrorKind::Unsupported,
        "%s: byte_offset %" PRIu64 " is not a multiple of the element size "
        "(%lld bytes)",
        who, uint64_t(tensor->byte_offset), static_cast<long long>(elemSize)));

  ptensor_rt_strided_desc desc;
  std::memset(&desc, 0, sizeof(desc));
  bool empty = false;
  for (int64_t i = 0; i < rank; ++i)
    empty = empty || tensor->shape[i] == 0;
  if (!empty && !tensor->data)
    return statusFrom(setErrorf(ErrorKind::InvalidArgument,
                                "%s: data is NULL for a non-empty tensor",
                                who));
  desc.data = tensor->data;
  desc.offset_elems = int64_t(tensor->byte_offset / uint64_t(elemSize));
  desc.rank = int32_t(rank);
  int64_t rowMajorStride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    desc.sizes[i] = tensor->shape[i];
    // NULL strides mean compact row-major (DLPack < 1.2 convention).
    desc.strides[i] = tensor->strides ? tensor->strides[i] : rowMajorStride;
    rowMajorStride *= tensor->shape[i] == 0 ? 1 : tensor->shape[i];
  }
  desc.dtype_code = tensor->dtype.code;
  desc.dtype_bits = tensor->dtype.bits;
  desc.dtype_lanes = tensor->dtype.lanes;
  desc.device_type = tensor->device.device_type;
  desc.device_id = tensor->device.device_id;
  *out = desc;
  return PTENSOR_RT_SUCCESS;
}

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_dlpack_import(
    const DLManagedTensor *managed, ptensor_rt_strided_desc *out) {
  if (!managed)
    return statusFrom(setError(ErrorKind::InvalidArgument,
                               "ptensor_rt_dlpack_import: the tensor is NULL"));
  return ptensor_rt_dltensor_import(&managed->dl_tensor, out);
}

PTENSOR_RT_EXPORT DLManagedTensor *
ptensor_rt_dlpack_export(const ptensor_rt_strided_desc *desc,
                         void (*release)(void *release_ctx),
                         void *release_ctx) {
  int64_t elemSize = 0;
  uint64_t byteOffset = 0;
  if (!validateDesc("ptensor_rt_dlpack_export", desc, &elemSize, &byteOffset))
    return nullptr;
  auto *holder = new (std::nothrow) ExportHolder();
  if (!holder) {
    setError(ErrorKind::OutOfMemory,
             "ptensor_rt_dlpack_export: out of host memory");
    return nullptr;
  }
  for (int i = 0; i < desc->rank; ++i) {
    holder->shape[i] = desc->sizes[i];
    holder->strides[i] = desc->strides[i];
  }
  holder->release = release;
  holder->releaseContext = release_ctx;
  fillDLTensor(*desc, byteOffset, holder->shape, holder->strides,
               &holder->managed.dl_tensor);
  holder->managed.manager_ctx = holder;
  holder->managed.deleter = deleteExport;
  return &holder->managed;
}

} // extern "C"
