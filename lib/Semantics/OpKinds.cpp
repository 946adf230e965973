//===- OpKinds.cpp - elementwise op kinds and their operand rules ---------===//

#include "ptensor/Semantics/OpKinds.h"

#include <string>

using namespace ptensor;
using namespace ptensor::semantics;

const char *semantics::opClassName(OpClass opClass) {
  switch (opClass) {
  case OpClass::Unary:
    return "elementwise_unary";
  case OpClass::UnaryTest:
    return "elementwise_unary_test";
  case OpClass::Binary:
    return "elementwise_binary";
  case OpClass::BinaryTest:
    return "elementwise_binary_test";
  }
  return "elementwise";
}

Result<OpClass> semantics::parseOpClass(std::string_view opName) {
  for (OpClass c : {OpClass::Unary, OpClass::UnaryTest, OpClass::Binary,
                    OpClass::BinaryTest})
    if (opName == opClassName(c))
      return c;
  return Error{ErrorKind::Value,
               "unknown elementwise op '" + std::string(opName) +
                   "', expected elementwise_unary, elementwise_unary_test, "
                   "elementwise_binary or elementwise_binary_test"};
}

unsigned semantics::opClassArity(OpClass opClass) {
  return opClass == OpClass::Unary || opClass == OpClass::UnaryTest ? 1 : 2;
}

const std::vector<OpKind> &semantics::allOpKinds() {
  static const std::vector<OpKind> kinds = {
#define PTENSOR_OP_KIND(CLASS, NAME, METHOD, OPERANDS)                         \
  {OpClass::CLASS, #NAME, PromotionMethod::METHOD, OperandRule::OPERANDS},
#include "ptensor/Semantics/OpKinds.def"
  };
  return kinds;
}

Result<OpKind> semantics::lookupOpKind(OpClass opClass, std::string_view name) {
  for (const OpKind &k : allOpKinds())
    if (k.opClass == opClass && name == k.name)
      return k;
  return Error{ErrorKind::Value, "unknown kind '" + std::string(name) +
                                     "' of ptensor." + opClassName(opClass)};
}

std::optional<Error>
semantics::checkOperandDTypes(const OpKind &kind,
                              const std::vector<DType> &dtypes) {
  auto error = [](std::string message) {
    return Error{ErrorKind::DType, std::move(message)};
  };
  std::string name = kind.name;
  switch (kind.operands) {
  case OperandRule::Any:
    return std::nullopt;
  case OperandRule::Bitwise:
  case OperandRule::Shift:
    for (DType d : dtypes) {
      if (isFloatDType(d))
        return error("bitwise op '" + name +
                     "' requires integer or bool operands, but got " +
                     dtypeName(d));
      if (kind.operands == OperandRule::Shift && d == DType::Bool)
        return error("shift op '" + name +
                     "' requires integer operands, but got i1 (bool)");
    }
    return std::nullopt;
  case OperandRule::Arithmetic: {
    bool allBool = !dtypes.empty();
    for (DType d : dtypes)
      allBool &= d == DType::Bool;
    if (!allBool)
      return std::nullopt;
    if (dtypes.size() == 1)
      return error("arithmetic op '" + name +
                   "' requires an integer or float operand, but got i1 "
                   "(bool); cast to an integer or float dtype first");
    return error("arithmetic op '" + name +
                 "' requires an integer or float operand, but both operands "
                 "are i1 (bool); cast one to an integer or float dtype first");
  }
  }
  return std::nullopt;
}

Result<DType>
semantics::inferElementwiseDType(const OpKind &kind,
                                 const std::vector<PromotionOperand> &operands) {
  if (operands.size() != opClassArity(kind.opClass))
    return Error{ErrorKind::Value,
                 std::string("ptensor.") + opClassName(kind.opClass) +
                     " takes " + std::to_string(opClassArity(kind.opClass)) +
                     " operands, got " + std::to_string(operands.size())};
  std::vector<DType> dtypes;
  for (const PromotionOperand &op : operands)
    dtypes.push_back(op.dtype);
  if (std::optional<Error> e = checkOperandDTypes(kind, dtypes))
    return *e;
  Result<DType> common = promoteDTypes(operands);
  if (!common)
    return common;
  return applyPromotionMethod(kind.method, *common);
}

std::optional<Error>
semantics::checkWhereCondition(const PromotionOperand &condition) {
  if (condition.isWeak)
    return Error{ErrorKind::DType, "where condition must be a ptensor"};
  if (condition.dtype != DType::Bool)
    return Error{ErrorKind::DType,
                 std::string("where condition must have dtype i1, but got ") +
                     dtypeName(condition.dtype)};
  return std::nullopt;
}

Result<DType>
semantics::inferWhereDType(const std::vector<PromotionOperand> &conditionXY) {
  if (conditionXY.size() != 3)
    return Error{ErrorKind::Value, "where takes a condition and two values"};
  if (std::optional<Error> e = checkWhereCondition(conditionXY.front()))
    return *e;
  // The i1 condition is the weakest strong dtype, so it leaves the promotion
  // of `x` and `y` unchanged; when both are scalars it gives PyTorch's
  // defaults (bool, i64 or f32) instead of a builtin scalar type.
  return promoteDTypes(conditionXY);
}
