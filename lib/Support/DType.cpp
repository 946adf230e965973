//===- DType.cpp - numpy descriptors of ptensor dtypes --------------------===//

#include "ptensor/Support/DType.h"

using namespace ptensor;

namespace {
/// The `.npy` descr of each dtype, indexed by its enum value.
constexpr const char *kDescrs[] = {"|b1", "|i1", "<i2", "<i4", "<i8",
                                   "|u1", "<u2", "<u4", "<u8", "<f2",
                                   "<V2", "<f4", "<f8"};
static_assert(std::size(kDescrs) == kNumDTypes);
} // namespace

llvm::StringRef ptensor::dtypeToNpyDescr(DType dtype) {
  return kDescrs[static_cast<size_t>(dtype)];
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
  for (DType d : allDTypes()) {
    if (body != dtypeToNpyDescr(d).drop_front())
      continue;
    // '|' (not applicable) is only meaningful for single-byte types; numpy
    // never writes it for wider ones. '<' and '=' are fine for every size
    // (this code only runs on little-endian hosts, see Npy.cpp).
    if (order == '|' && dtypeByteSize(d) != 1)
      return std::nullopt;
    return d;
  }
  return std::nullopt;
}

std::string ptensor::supportedNpyDescrList() {
  std::string out;
  for (DType d : allDTypes()) {
    if (!out.empty())
      out += ", ";
    out += dtypeToNpyDescr(d);
    out += " (";
    out += dtypeName(d);
    out += ")";
  }
  return out;
}
