/*===- ptensor-c/Dialect.h - ptensor dialect, passes and pipelines -*- C -*-===*\
|*                                                                            *|
|* The ptensor dialect through MLIR's C API conventions: a dialect handle,    *|
|* registration of ptensor's passes and named pipelines, type queries, and    *|
|* parse / verify / run-a-pipeline helpers that return diagnostics as text.   *|
|*                                                                            *|
|* Objects (MlirContext, MlirModule, ...) follow the upstream C API rules:    *|
|* an MlirContext and everything created in it must not be used from two      *|
|* threads at once, unless a function says otherwise.                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_C_DIALECT_H
#define PTENSOR_C_DIALECT_H

#include "ptensor-c/Support.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Dialect registration
//===----------------------------------------------------------------------===//

/// `MlirDialectHandle mlirGetDialectHandle__ptensor__(void)`: the handle of
/// the ptensor dialect, for mlirDialectHandleInsertDialect /
/// mlirDialectHandleRegisterDialect / mlirDialectHandleLoadDialect. It
/// registers the ptensor dialect alone (plus arith and math, which its ops
/// use).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(PTensor, ptensor);

/// Inserts into `registry` the ptensor dialect and everything ptensor's
/// pipelines need in a context: the dialects they produce and the upstream
/// external interface models (bufferization, ...). Today that is every
/// upstream dialect and extension, so this subsumes mlirRegisterAllDialects.
/// Not thread-safe with respect to other uses of `registry`.
PTENSOR_CAPI_EXPORTED void ptensorRegisterAllDialects(MlirDialectRegistry registry);

/// Registers ptensor's passes (ptensor-broadcast, convert-ptensor-to-linalg,
/// ...) and named pipelines (ptensor-to-cpu-pipeline,
/// ptensor-to-nvvm-pipeline) with MLIR's global pass registry, so that
/// textual pipelines can name them. Upstream passes (canonicalize, ...) need
/// mlirRegisterAllPasses() from mlir-c/RegisterEverything.h as well.
/// Idempotent and thread-safe (the registration happens once).
PTENSOR_CAPI_EXPORTED void ptensorRegisterAllPasses(void);

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// True if `type` is a `!ptensor.ptensor<...>`. Its shape and element type
/// are read with the upstream ShapedType functions (mlirShapedTypeGetRank,
/// mlirShapedTypeGetDimSize, mlirShapedTypeGetElementType).
PTENSOR_CAPI_EXPORTED bool ptensorTypeIsAPTensor(MlirType type);

/// `!ptensor.ptensor<shape x elementType>` in host memory (device empty) or on
/// `device` (e.g. "cuda:0"). `shape` holds `rank` sizes, with
/// mlirShapedTypeGetDynamicSize() for `?`. Returns a null type (and emits a
/// diagnostic in `context`) if the element type is not supported.
PTENSOR_CAPI_EXPORTED MlirType ptensorPTensorTypeGet(MlirContext context,
                                                     intptr_t rank,
                                                     const int64_t *shape,
                                                     MlirType elementType,
                                                     MlirStringRef device);

/// The device of a ptensor type; an empty string for host memory. The string
/// is owned by the context.
PTENSOR_CAPI_EXPORTED MlirStringRef ptensorPTensorTypeGetDevice(MlirType type);

//===----------------------------------------------------------------------===//
// Parsing, verification and pipelines with diagnostics as text
//===----------------------------------------------------------------------===//
//
// `errorMessage` parameters: when not NULL, *errorMessage is set to NULL on
// success and to a malloc'd, NUL-terminated message on failure, which the
// caller frees with ptensorFreeString(). Error diagnostics produced by the
// call go into that message instead of the context's diagnostic handlers;
// warnings and remarks still reach the handlers (except while parsing, where
// ptensorModuleParse takes every diagnostic).

/// Parses `source` (named `sourceName` in messages) into a new module of
/// `context`, then verifies it. Returns PTENSOR_STATUS_PARSE_ERROR or
/// PTENSOR_STATUS_VERIFY_ERROR with the located diagnostics (with source
/// lines) on failure, and then leaves *module null. On success the caller
/// owns *module (mlirModuleDestroy). Unlike mlirModuleCreateParse, a failure
/// says why.
PTENSOR_CAPI_EXPORTED PTensorStatus
ptensorModuleParse(MlirContext context, MlirStringRef source,
                   MlirStringRef sourceName, MlirModule *module,
                   char **errorMessage);

/// Verifies `op` and everything nested in it. Returns
/// PTENSOR_STATUS_VERIFY_ERROR with the verifier's messages on failure.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorOperationVerify(MlirOperation op,
                                                           char **errorMessage);

/// Runs the textual pass pipeline `pipeline` on `module`, in place. Accepts
/// the anchored form ("builtin.module(ptensor-to-cpu-pipeline)") and the
/// bare form ("ptensor-to-cpu-pipeline{max-recompute-ops=4},cse"), which runs
/// on the module. The names must be registered (ptensorRegisterAllPasses,
/// mlirRegisterAllPasses). The module is verified before and after.
/// Returns PTENSOR_STATUS_INVALID_ARGUMENT for a null module or a pipeline
/// that does not parse, PTENSOR_STATUS_VERIFY_ERROR if the input does not
/// verify, and PTENSOR_STATUS_PASS_FAILURE if a pass fails (the module is
/// then in an unspecified, possibly invalid state). Must not run
/// concurrently with other uses of the module's context.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorRunPipeline(MlirModule module,
                                                       const char *pipeline,
                                                       char **errorMessage);

#ifdef __cplusplus
}
#endif

#endif /* PTENSOR_C_DIALECT_H */
