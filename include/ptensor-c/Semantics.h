/*===- ptensor-c/Semantics.h - the semantic rules, for C callers -*- C -*-===*\
|*                                                                            *|
|* The meta step of docs/Semantics.md without compiling anything: dtype       *|
|* names, type promotion, the elementwise op kinds' result dtypes and NumPy   *|
|* broadcasting. The same code as the dialect's type inference answers, with  *|
|* the same messages. Needs no MLIR include path.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_C_SEMANTICS_H
#define PTENSOR_C_SEMANTICS_H

#include "ptensor-c/Support.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The dtypes of ptensor (values fixed; equal to ptensor::DType).
typedef enum PTensorDType {
  PTENSOR_DTYPE_BOOL = 0,
  PTENSOR_DTYPE_I8 = 1,
  PTENSOR_DTYPE_I16 = 2,
  PTENSOR_DTYPE_I32 = 3,
  PTENSOR_DTYPE_I64 = 4,
  PTENSOR_DTYPE_UI8 = 5,
  PTENSOR_DTYPE_UI16 = 6,
  PTENSOR_DTYPE_UI32 = 7,
  PTENSOR_DTYPE_UI64 = 8,
  PTENSOR_DTYPE_F16 = 9,
  PTENSOR_DTYPE_BF16 = 10,
  PTENSOR_DTYPE_F32 = 11,
  PTENSOR_DTYPE_F64 = 12,
} PTensorDType;

/// A size unknown until run time in a shape (MLIR's `?`): INT64_MIN.
#define PTENSOR_DYNAMIC_SIZE INT64_MIN

/// One operand of type promotion: builtin scalars are weak.
typedef struct PTensorPromotionOperand {
  PTensorDType dtype;
  bool isWeak;
} PTensorPromotionOperand;

/// The MLIR spelling of `dtype` ("i1", "ui8", "bf16", ...), a static string,
/// or NULL for a value outside the enum.
PTENSOR_CAPI_EXPORTED const char *ptensorDTypeGetName(PTensorDType dtype);

/// Parses an MLIR dtype spelling; INVALID_ARGUMENT for anything else.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorDTypeFromName(const char *name,
                                                         PTensorDType *dtype);

/// The common dtype of `numOperands` operands. DTYPE_ERROR with a message
/// (free with ptensorFreeString) when they do not promote.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorPromoteDTypes(
    const PTensorPromotionOperand *operands, size_t numOperands,
    PTensorDType *result, char **errorMessage);

/// The result dtype of the elementwise op `opName` ("elementwise_unary",
/// "elementwise_unary_test", "elementwise_binary" or
/// "elementwise_binary_test") of kind `kind` ("exp", "add", ...) on the
/// given operands: the kind's operand rule, promotion and its promotion
/// method. INVALID_ARGUMENT for an unknown op or kind, DTYPE_ERROR when the
/// kind rejects the dtypes.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorElementwiseResultDType(
    const char *opName, const char *kind,
    const PTensorPromotionOperand *operands, size_t numOperands,
    PTensorDType *result, char **errorMessage);

/// Broadcasts `numShapes` shapes (shape i has ranks[i] sizes at shapes[i];
/// PTENSOR_DYNAMIC_SIZE for `?`). Writes the result's rank to *resultRank
/// and, when it is at most `resultCapacity`, its sizes to `result`
/// (INVALID_ARGUMENT when the capacity is too small). BROADCAST_ERROR with a
/// message naming every shape when they do not broadcast.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorBroadcastShapes(
    const int64_t *const *shapes, const size_t *ranks, size_t numShapes,
    int64_t *result, size_t resultCapacity, size_t *resultRank,
    char **errorMessage);

#ifdef __cplusplus
}
#endif

#endif /* PTENSOR_C_SEMANTICS_H */
