//===- DType.cpp - Element types of ptensor host arrays -------------------===//

#include "ptensor/Support/DType.h"

#include "llvm/Support/ErrorHandling.h"

using namespace ptensor;

namespace {
/// Static description of one dtype.
struct DTypeInfo {
  DType dtype;
  size_t size;
  const char *name;
  const char *descr;
};

const DTypeInfo kInfos[] = {
    {DType::Bool, 1, "i1", "|b1"},   {DType::I8, 1, "i8", "|i1"},
    {DType::I16, 2, "i16", "<i2"},   {DType::I32, 4, "i32", "<i4"},
    {DType::I64, 8, "i64", "<i8"},   {DType::U8, 1, "ui8", "|u1"},
    {DType::U16, 2, "ui16", "<u2"},  {DType::U32, 4, "ui32", "<u4"},
    {DType::U64, 8, "ui64", "<u8"},  {DType::F16, 2, "f16", "<f2"},
    {DType::BF16, 2, "bf16", "<V2"}, {DType::F32, 4, "f32", "<f4"},
    {DType::F64, 8, "f64", "<f8"},
};

const DType kAll[] = {DType::Bool, DType::I8,  DType::I16,  DType::I32,
                      DType::I64,  DType::U8,  DType::U16,  DType::U32,
                      DType::U64,  DType::F16, DType::BF16, DType::F32,
                      DType::F64};

const DTypeInfo &info(DType dtype) {
  unsigned idx = static_cast<unsigned>(dtype);
  if (idx >= std::size(kInfos))
    llvm::report_fatal_error("ptensor: invalid DType value");
  return kInfos[idx];
}
} // namespace

llvm::ArrayRef<DType> ptensor::allDTypes() { return kAll; }

size_t ptensor::dtypeByteSize(DType dtype) { return info(dtype).size; }

llvm::StringRef ptensor::dtypeName(DType dtype) { return info(dtype).name; }

std::optional<DType> ptensor::parseDTypeName(llvm::StringRef name) {
  for (const DTypeInfo &i : kInfos)
    if (name == i.name)
      return i.dtype;
  return std::nullopt;
}

bool ptensor::isFloatDType(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

bool ptensor::isSignedIntDType(DType dtype) {
  return dtype == DType::I8 || dtype == DType::I16 || dtype == DType::I32 ||
         dtype == DType::I64;
}

bool ptensor::isUnsignedIntDType(DType dtype) {
  return dtype == DType::U8 || dtype == DType::U16 || dtype == DType::U32 ||
         dtype == DType::U64;
}

llvm::StringRef ptensor::dtypeToNpyDescr(DType dtype) {
  return info(dtype).descr;
}

std::optional<DType> ptensor::npyDescrToDType(llvm::StringRef descr) {
  if (descr == "bfloat16" || descr == "|V2")
    return DType::BF16;
  if (descr.size() < 2)
    return std::nullopt;
  char order = descr.front();
  if (order != '<' && order != '|' && order != '=')
    return std::nullopt;
  llvm::StringRef body = descr.drop_front();
  for (const DTypeInfo &i : kInfos) {
    if (body != llvm::StringRef(i.descr).drop_front())
      continue;
    // '|' (not applicable) is only meaningful for single-byte types; numpy
    // never writes it for wider ones. '<' and '=' are fine for every size
    // (this code only runs on little-endian hosts, see Npy.cpp).
    if (order == '|' && i.size != 1)
      return std::nullopt;
    return i.dtype;
  }
  return std::nullopt;
}

std::string ptensor::supportedNpyDescrList() {
  std::string out;
  for (const DTypeInfo &i : kInfos) {
    if (!out.empty())
      out += ", ";
    out += i.descr;
    out += " (";
    out += i.name;
    out += ")";
  }
  return out;
}
