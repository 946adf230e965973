//===- Promotion.cpp - type promotion and promotion methods ---------------===//

#include "ptensor/Semantics/Promotion.h"

#include <algorithm>
#include <cctype>
#include <string>

using namespace ptensor;
using namespace ptensor::semantics;

namespace {
constexpr const char *kMethodNames[] = {"DEFAULT", "NO_OPMATH", "INT_TO_FLOAT",
                                        "ALWAYS_BOOL", "BOOL_TO_LONG"};

/// Promotes two strong (tensor) dtypes.
Result<DType> promotePair(DType a, DType b) {
  if (a == b)
    return a;
  DTypeKind ka = dtypeKind(a), kb = dtypeKind(b);
  unsigned wa = dtypeBitWidth(a), wb = dtypeBitWidth(b);
  if (ka == DTypeKind::Float && kb == DTypeKind::Float) {
    // f16 with bf16 has no common 16-bit type.
    if (wa == wb)
      return DType::F32;
    return wa > wb ? a : b;
  }
  if (ka == DTypeKind::Float)
    return a;
  if (kb == DTypeKind::Float)
    return b;
  if (ka == DTypeKind::Bool)
    return b;
  if (kb == DTypeKind::Bool)
    return a;
  if (ka == kb)
    return wa > wb ? a : b;
  // Signed with unsigned: the smallest signed type holding both.
  DType s = ka == DTypeKind::Signed ? a : b;
  DType u = ka == DTypeKind::Signed ? b : a;
  if (dtypeBitWidth(u) == 64)
    return Error{ErrorKind::DType,
                 std::string("cannot promote '") + dtypeName(u) +
                     "' with signed '" + dtypeName(s) +
                     "': no integer type holds both (cast one operand first)"};
  unsigned width = std::max(dtypeBitWidth(s), 2 * dtypeBitWidth(u));
  return *intDType(DTypeKind::Signed, width);
}
} // namespace

const char *semantics::promotionMethodName(PromotionMethod method) {
  return kMethodNames[static_cast<int>(method)];
}

Result<PromotionMethod>
semantics::parsePromotionMethodName(std::string_view name) {
  for (int i = 0; i < 5; ++i)
    if (name == kMethodNames[i])
      return static_cast<PromotionMethod>(i);
  return Error{ErrorKind::Value,
               "unknown promotion method '" + std::string(name) +
                   "', expected DEFAULT, NO_OPMATH, INT_TO_FLOAT, ALWAYS_BOOL "
                   "or BOOL_TO_LONG"};
}

Result<PromotionMethod> semantics::parsePromotionMethod(std::string_view name) {
  std::string upper(name);
  for (char &c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "COMPLEX_TO_FLOAT")
    return PromotionMethod::DEFAULT;
  return parsePromotionMethodName(upper);
}

Result<DType>
semantics::promoteDTypes(const std::vector<PromotionOperand> &operands) {
  // With a float tensor among the operands the result is that float type,
  // whatever the integers are: promote the floats alone, so that e.g.
  // (f16, ui64, i8) gives f16 in any order instead of failing on ui64 + i8.
  bool hasFloat = std::any_of(operands.begin(), operands.end(),
                              [](const PromotionOperand &op) {
                                return !op.isWeak && isFloatDType(op.dtype);
                              });
  std::optional<DType> strong;
  std::optional<DTypeKind> weakKind;
  for (const PromotionOperand &op : operands) {
    if (op.isWeak) {
      DTypeKind k = dtypeKind(op.dtype);
      if (k == DTypeKind::Unsigned)
        k = DTypeKind::Signed;
      weakKind = weakKind ? std::max(*weakKind, k) : k;
      continue;
    }
    if (hasFloat && !isFloatDType(op.dtype))
      continue;
    if (!strong) {
      strong = op.dtype;
      continue;
    }
    Result<DType> p = promotePair(*strong, op.dtype);
    if (!p)
      return p;
    strong = *p;
  }
  if (!strong)
    return Error{ErrorKind::DType, "expected at least one ptensor operand, "
                                   "but all operands are builtin scalars"};
  if (!weakKind)
    return *strong;
  DTypeKind k = dtypeKind(*strong);
  // A weak scalar matters only when its category is stronger.
  if (*weakKind == DTypeKind::Float && k != DTypeKind::Float)
    return DType::F32;
  if (*weakKind == DTypeKind::Signed && k == DTypeKind::Bool)
    return DType::I64;
  return *strong;
}

DType semantics::applyPromotionMethod(PromotionMethod method, DType common) {
  switch (method) {
  case PromotionMethod::DEFAULT:
  case PromotionMethod::NO_OPMATH:
    return common;
  case PromotionMethod::INT_TO_FLOAT:
    return isFloatDType(common) ? common : DType::F32;
  case PromotionMethod::ALWAYS_BOOL:
    return DType::Bool;
  case PromotionMethod::BOOL_TO_LONG:
    return common == DType::Bool ? DType::I64 : common;
  }
  return common;
}

DType semantics::computeDType(DType dtype) {
  if (dtype == DType::F16 || dtype == DType::BF16)
    return DType::F32;
  return dtype;
}

bool semantics::canCastToOut(DType from, DType to) {
  auto rank = [](DType d) {
    switch (dtypeKind(d)) {
    case DTypeKind::Bool:
      return 0;
    case DTypeKind::Signed:
    case DTypeKind::Unsigned:
      return 1;
    case DTypeKind::Float:
      return 2;
    }
    return 0;
  };
  return rank(to) >= rank(from);
}
