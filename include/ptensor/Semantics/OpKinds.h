//===- OpKinds.h - elementwise op kinds and their operand rules -*- C++ -*-===//
//
// The table of OpKinds.def as data, and the result-dtype rule of an
// elementwise op: operand restrictions of its kind, promotion, then the
// kind's promotion method.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_OPKINDS_H
#define PTENSOR_SEMANTICS_OPKINDS_H

#include "ptensor/Semantics/Promotion.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ptensor::semantics {

/// The op an elementwise kind belongs to.
enum class OpClass { Unary, UnaryTest, Binary, BinaryTest };

/// What an op kind requires of its operand dtypes (OpKinds.def).
enum class OperandRule { Arithmetic, Bitwise, Shift, Any };

/// One row of OpKinds.def.
struct OpKind {
  OpClass opClass;
  const char *name;
  PromotionMethod method;
  OperandRule operands;
};

/// The dialect op of a class: "elementwise_unary", "elementwise_unary_test",
/// "elementwise_binary" or "elementwise_binary_test".
const char *opClassName(OpClass opClass);

/// The class of a dialect op name ("elementwise_unary", ...), or a Value
/// error listing the four.
Result<OpClass> parseOpClass(std::string_view opName);

/// The number of operands of the ops of a class (1 or 2).
unsigned opClassArity(OpClass opClass);

/// Every kind, in OpKinds.def's order.
const std::vector<OpKind> &allOpKinds();

/// The kind `name` of `opClass`, or a Value error naming the op.
Result<OpKind> lookupOpKind(OpClass opClass, std::string_view name);

/// Checks `dtypes` (one per operand, scalars included) against the kind's
/// operand rule; returns the DType error when they break it.
std::optional<Error> checkOperandDTypes(const OpKind &kind,
                                        const std::vector<DType> &dtypes);

/// The result dtype of an op of `kind` on `operands`: their number (a Value
/// error), the operand rule, promotion (which needs a tensor operand) and
/// the kind's method.
Result<DType>
inferElementwiseDType(const OpKind &kind,
                      const std::vector<PromotionOperand> &operands);

/// Checks the condition operand of `where`: a Bool tensor.
std::optional<Error> checkWhereCondition(const PromotionOperand &condition);

/// The result dtype of `where(condition, x, y)`: the condition must be
/// Bool; x and y (and the condition, the weakest strong dtype) promote with
/// NO_OPMATH.
Result<DType>
inferWhereDType(const std::vector<PromotionOperand> &conditionXY);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_OPKINDS_H
