/*===- ptensor-c/Support.h - status codes and strings of the C API -*- C -*-===*\
|*                                                                            *|
|* Shared by every header of the ptensor C API: the export macro, the status  *|
|* enum every fallible function returns, and the function that frees the      *|
|* error messages it hands out.                                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_C_SUPPORT_H
#define PTENSOR_C_SUPPORT_H

/// Marks a symbol exported from libPTensorCAPI.
#if defined(_WIN32)
#define PTENSOR_CAPI_EXPORTED __declspec(dllexport)
#else
#define PTENSOR_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every fallible ptensor C API function. Functions that fail also
/// hand out a message (see the `errorMessage` parameters) that names what was
/// wrong and what was expected.
typedef enum PTensorStatus {
  /// Success; output parameters are set.
  PTENSOR_STATUS_OK = 0,
  /// An argument is invalid: a null handle or pointer, a malformed DLTensor,
  /// or call arguments that do not match the function's signature (count,
  /// dtype, rank, static size, a written argument that overlaps another).
  PTENSOR_STATUS_INVALID_ARGUMENT = 1,
  /// A named entity does not exist (a function of a JIT module).
  PTENSOR_STATUS_NOT_FOUND = 2,
  /// Valid but not supported (a DLPack dtype or device ptensor cannot use).
  PTENSOR_STATUS_UNSUPPORTED = 3,
  /// The IR text does not parse.
  PTENSOR_STATUS_PARSE_ERROR = 4,
  /// The IR parses but does not verify.
  PTENSOR_STATUS_VERIFY_ERROR = 5,
  /// A pass pipeline ran and failed.
  PTENSOR_STATUS_PASS_FAILURE = 6,
  /// JIT compilation failed (parsing, verification, lowering or code
  /// generation; the message names the stage).
  PTENSOR_STATUS_COMPILE_ERROR = 7,
  /// Memory for a result could not be allocated.
  PTENSOR_STATUS_RESOURCE_EXHAUSTED = 8,
  /// A semantic rule rejected operand dtypes (an op kind's operand rule, or
  /// dtypes that do not promote, e.g. ui64 with a signed dtype).
  PTENSOR_STATUS_DTYPE_ERROR = 9,
  /// Shapes that do not broadcast (when compiling, or sizes known only at
  /// run time when calling compiled code).
  PTENSOR_STATUS_BROADCAST_ERROR = 10,
  /// Operands on different devices or teams.
  PTENSOR_STATUS_DEVICE_ERROR = 11,
  /// A run-time check of compiled code failed (other than a broadcast, which
  /// is PTENSOR_STATUS_BROADCAST_ERROR); the message says which.
  PTENSOR_STATUS_CHECK_FAILED = 12,
} PTensorStatus;

/// The name of `status` ("OK", "INVALID_ARGUMENT", ...), a static string.
/// Thread-safe.
PTENSOR_CAPI_EXPORTED const char *ptensorStatusGetString(PTensorStatus status);

/// Frees a message returned through an `errorMessage` parameter (or any other
/// string this API documents as malloc'd). NULL is a no-op. Thread-safe.
PTENSOR_CAPI_EXPORTED void ptensorFreeString(char *string);

#ifdef __cplusplus
}
#endif

#endif /* PTENSOR_C_SUPPORT_H */
