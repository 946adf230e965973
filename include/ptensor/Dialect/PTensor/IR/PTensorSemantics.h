//===- PTensorSemantics.h - broadcasting and type promotion ------*- C++ -*-===//
//
// The semantic rules of docs/Semantics.md on MLIR types: thin adapters over
// the MLIR-free semantics library (ptensor/Semantics/), which owns the rules
// and their messages for the dialect, the C API and Python alike.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_PTENSORSEMANTICS_H
#define PTENSOR_DIALECT_PTENSOR_IR_PTENSORSEMANTICS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include <string>

namespace mlir::ptensor {

/// One operand of type promotion. Builtin scalars are *weak*: they only
/// change the result when their category is stronger than the tensors'.
struct PromotionOperand {
  Type dtype;
  bool isWeak;
};

/// Returns the common dtype of `operands` (docs/Semantics.md), or failure
/// with a message in `error` (e.g. ui64 with a signed type). The result does
/// not depend on the order: with a float tensor among the operands only the
/// float dtypes are promoted.
FailureOr<Type> promoteDTypes(ArrayRef<PromotionOperand> operands,
                              std::string &error);

/// Applies a pointwise_dynamic promotion method to a common dtype.
Type applyPromotionMethod(PromotionMethod method, Type common);

/// The dtype arithmetic is done in: f32 for f16/bf16 (PyTorch's opmath),
/// the dtype itself otherwise.
Type getComputeType(Type dtype);

/// Broadcasts shapes right-aligned by NumPy's rules. A dynamic dim against N
/// gives N (checked at run time), dynamic against dynamic gives dynamic.
/// Fails when two static sizes differ and neither is 1.
FailureOr<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes, std::string &error);

/// Formats a shape as `[4, ?, 3]` for diagnostics.
std::string formatShape(ArrayRef<int64_t> shape);

/// Checks that an op with mixed static and dynamic `sizes` (upstream's
/// DynamicIndexList: ShapedType::kDynamic where an index operand gives the
/// size) has one operand per dynamic size; `opName` names it in the error.
LogicalResult verifyDynamicSizeCount(std::optional<Location> loc,
                                     StringRef opName, ArrayRef<int64_t> sizes,
                                     size_t numOperands);

/// Returns the common device and team of the ptensor types among `types`
/// (scalars ignored), or failure with a message naming the mismatch.
LogicalResult getCommonPlacement(TypeRange types, StringAttr &device,
                                 IntegerAttr &team, std::string &error);

/// Infers the result type of an elementwise op over `operands` whose result
/// dtype follows `method`. Emits errors at `loc` when given.
FailureOr<PTensorType> inferElementwiseType(MLIRContext *context,
                                            std::optional<Location> loc,
                                            TypeRange operands,
                                            PromotionMethod method);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_PTENSORSEMANTICS_H
