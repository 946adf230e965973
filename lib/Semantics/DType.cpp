//===- DType.cpp - the closed set of ptensor element types ----------------===//

#include "ptensor/Semantics/DType.h"

#include <cstdlib>

using namespace ptensor;

namespace {
/// Static description of one dtype, indexed by its enum value.
struct DTypeInfo {
  DType dtype;
  DTypeKind kind;
  unsigned bits;
  std::size_t bytes;
  const char *name;
};

constexpr DTypeInfo kInfos[] = {
    {DType::Bool, DTypeKind::Bool, 1, 1, "i1"},
    {DType::I8, DTypeKind::Signed, 8, 1, "i8"},
    {DType::I16, DTypeKind::Signed, 16, 2, "i16"},
    {DType::I32, DTypeKind::Signed, 32, 4, "i32"},
    {DType::I64, DTypeKind::Signed, 64, 8, "i64"},
    {DType::U8, DTypeKind::Unsigned, 8, 1, "ui8"},
    {DType::U16, DTypeKind::Unsigned, 16, 2, "ui16"},
    {DType::U32, DTypeKind::Unsigned, 32, 4, "ui32"},
    {DType::U64, DTypeKind::Unsigned, 64, 8, "ui64"},
    {DType::F16, DTypeKind::Float, 16, 2, "f16"},
    {DType::BF16, DTypeKind::Float, 16, 2, "bf16"},
    {DType::F32, DTypeKind::Float, 32, 4, "f32"},
    {DType::F64, DTypeKind::Float, 64, 8, "f64"},
};
static_assert(std::size(kInfos) == kNumDTypes);

const DTypeInfo &info(DType dtype) {
  auto idx = static_cast<std::size_t>(dtype);
  // An out-of-range value is a programming error of the caller (the C API
  // and the binding validate what they receive).
  if (idx >= kNumDTypes)
    std::abort();
  return kInfos[idx];
}
} // namespace

const std::array<DType, kNumDTypes> &ptensor::allDTypes() {
  static const std::array<DType, kNumDTypes> all = [] {
    std::array<DType, kNumDTypes> a{};
    for (std::size_t i = 0; i < kNumDTypes; ++i)
      a[i] = kInfos[i].dtype;
    return a;
  }();
  return all;
}

std::size_t ptensor::dtypeByteSize(DType dtype) { return info(dtype).bytes; }

unsigned ptensor::dtypeBitWidth(DType dtype) { return info(dtype).bits; }

DTypeKind ptensor::dtypeKind(DType dtype) { return info(dtype).kind; }

const char *ptensor::dtypeName(DType dtype) { return info(dtype).name; }

std::optional<DType> ptensor::parseDTypeName(std::string_view name) {
  for (const DTypeInfo &i : kInfos)
    if (name == i.name)
      return i.dtype;
  return std::nullopt;
}

std::optional<DType> ptensor::intDType(DTypeKind kind, unsigned bits) {
  for (const DTypeInfo &i : kInfos)
    if (i.kind == kind && i.bits == bits &&
        (kind == DTypeKind::Signed || kind == DTypeKind::Unsigned))
      return i.dtype;
  return std::nullopt;
}
