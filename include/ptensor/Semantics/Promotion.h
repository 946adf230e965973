//===- Promotion.h - type promotion and promotion methods ------*- C++ -*-===//
//
// docs/Semantics.md "Type promotion": the common dtype of an op's operands
// (PyTorch's rules, weak builtin scalars) and FlagGems' per-output promotion
// methods. The one implementation: the dialect's type inference, the C API
// and the Python binding call it.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_PROMOTION_H
#define PTENSOR_SEMANTICS_PROMOTION_H

#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ptensor::semantics {

/// The result dtype rule of an output (FlagGems' pointwise_dynamic). The
/// values equal the dialect's `PromotionMethod` enum attribute.
enum class PromotionMethod {
  DEFAULT = 0,      ///< the common dtype
  NO_OPMATH = 1,    ///< the common dtype, computed in it (no f32 opmath)
  INT_TO_FLOAT = 2, ///< integers and bool give f32
  ALWAYS_BOOL = 3,  ///< i1
  BOOL_TO_LONG = 4, ///< bool gives i64
};

/// The name of a method ("DEFAULT", ...).
const char *promotionMethodName(PromotionMethod method);

/// Parses a method name as frontends take it: case-insensitive, and
/// FlagGems' COMPLEX_TO_FLOAT is DEFAULT (ptensor has no complex dtypes).
Result<PromotionMethod> parsePromotionMethod(std::string_view name);

/// Parses a method name as the IR spells it: one of the five names,
/// case-sensitive.
Result<PromotionMethod> parsePromotionMethodName(std::string_view name);

/// One operand of type promotion. Builtin scalars are *weak*: they only
/// change the result when their category is stronger than the tensors'. A
/// weak operand's dtype only contributes its kind (an `index` scalar is I64).
struct PromotionOperand {
  DType dtype;
  bool isWeak;
};

/// Returns the common dtype of `operands`, or a DType error (e.g. ui64 with a
/// signed type, or no tensor operand at all). The result does not depend on
/// the order: with a float tensor among the operands only the float dtypes
/// are promoted.
Result<DType> promoteDTypes(const std::vector<PromotionOperand> &operands);

/// Applies a promotion method to a common dtype.
DType applyPromotionMethod(PromotionMethod method, DType common);

/// The dtype arithmetic is done in: F32 for F16/BF16 (PyTorch's opmath), the
/// dtype itself otherwise.
DType computeDType(DType dtype);

/// torch's rule for writing a result into an out= operand of another dtype:
/// the destination's kind (bool < integer < float) is not weaker.
bool canCastToOut(DType from, DType to);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_PROMOTION_H
