//===- DTypeConversion.h - MLIR types <-> semantics dtypes -------*- C++ -*-===//
//
// For the dialect's own implementation files only: it declares the global
// namespace ::ptensor (the semantics library), which would make `ptensor::`
// ambiguous in files that say `using namespace mlir`.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_DTYPECONVERSION_H
#define PTENSOR_DIALECT_PTENSOR_IR_DTYPECONVERSION_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Promotion.h"
#include "ptensor/Semantics/Searching.h"

#include <optional>

namespace mlir::ptensor {

/// The semantics library's dtype of a ptensor element type (i1, iN, uiN,
/// f16, bf16, f32, f64), or nullopt for any other type.
std::optional<::ptensor::DType> toDType(Type type);

/// `type` as the semantics library's operand (nothing only for an element
/// type that is no dtype, which PTensorType::verify rejects).
std::optional<::ptensor::semantics::TypedShape> toTypedShape(PTensorType type);

/// The MLIR element type of a dtype (unsigned dtypes are `uiN`).
Type toMLIRType(MLIRContext *context, ::ptensor::DType dtype);

/// The dtype standing for a builtin scalar operand in promotion, where only
/// its kind matters: i1 is Bool, index and other integers are signed.
::ptensor::DType weakScalarDType(Type scalar);

/// The dialect's promotion method as the semantics library's.
::ptensor::semantics::PromotionMethod toSemantics(PromotionMethod method);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_DTYPECONVERSION_H
