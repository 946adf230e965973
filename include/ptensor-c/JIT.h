/*===- ptensor-c/JIT.h - compile ptensor IR and call it with DLPack -*- C -*-===*\
|*                                                                            *|
|* Compile a module of ptensor functions for the host CPU once, then call     *|
|* its public functions with DLPack tensors and scalars; results come back    *|
|* as DLManagedTensors. A C view of include/ptensor/JIT/JIT.h.                *|
|*                                                                            *|
|* Compiled code is cached in memory (one PTensorJITModule) and on disk, so a *|
|* second process compiling the same IR skips code generation.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_C_JIT_H
#define PTENSOR_C_JIT_H

#include "ptensor-c/Support.h"

#include "mlir-c/IR.h"

#include <dlpack/dlpack.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// DLPack's type code of booleans (kDLBool = 6 in DLPack >= 0.8; older
/// dlpack.h headers lack the enumerator). ptensor's i1 is {6, 8, 1}: one byte
/// per element, 0 or 1.
#define PTENSOR_DLPACK_BOOL_CODE 6

//===----------------------------------------------------------------------===//
// Compiled modules
//===----------------------------------------------------------------------===//

/// A compiled module: an opaque handle, created by ptensorJITCompile /
/// ptensorJITCompileModule and destroyed by ptensorJITModuleDestroy.
///
/// Thread-safety: a module may be invoked from several threads at once (as
/// long as no two concurrent calls write to overlapping memory), and its
/// queries may be called concurrently. Destroying it must not race with any
/// other use of it.
typedef struct PTensorJITModule {
  void *ptr;
} PTensorJITModule;

/// True if `module` is the null handle.
static inline bool ptensorJITModuleIsNull(PTensorJITModule module) {
  return module.ptr == NULL;
}

/// Parses, verifies and compiles `ir` (MLIR text of a module whose public
/// `func.func`s take and return host ptensors and builtin scalars) through
/// ptensor-to-cpu-pipeline to native code.
///
/// `cacheDir` selects the on-disk code cache: NULL uses the default
/// ($PTENSOR_CACHE_DIR, else $XDG_CACHE_HOME/ptensor or ~/.cache/ptensor),
/// "" disables it, anything else is the directory to use.
/// PTENSOR_DISABLE_CACHE=1 in the environment disables it in every case.
///
/// On success stores a new module in *out, which the caller owns. On failure
/// returns PTENSOR_STATUS_INVALID_ARGUMENT (null pointers) or
/// PTENSOR_STATUS_COMPILE_ERROR with the located diagnostics in
/// *errorMessage (when not NULL; free it with ptensorFreeString), and sets
/// *out to the null handle.
///
/// Thread-safe: each compilation uses its own MLIRContext; concurrent
/// compilations of the same IR race benignly on the cache (atomic renames).
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorJITCompile(const char *ir,
                                                      const char *cacheDir,
                                                      PTensorJITModule *out,
                                                      char **errorMessage);

/// ptensorJITCompile on the text of `module` (e.g. one built or transformed
/// through the C API). `module` is only read; it must still hold ptensor-level
/// functions (not already lowered). Same ownership and errors; must not run
/// concurrently with other uses of the module's context.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorJITCompileModule(MlirModule module,
                                                            const char *cacheDir,
                                                            PTensorJITModule *out,
                                                            char **errorMessage);

/// Destroys `module`. Results returned by earlier invocations stay valid (they
/// own their memory). The null handle is a no-op.
PTENSOR_CAPI_EXPORTED void ptensorJITModuleDestroy(PTensorJITModule module);

/// The number of public functions of `module`.
PTENSOR_CAPI_EXPORTED intptr_t
ptensorJITModuleGetNumFunctions(PTensorJITModule module);

/// The name of public function `index` (0 <= index < the number of
/// functions), without '@'. The string is owned by `module`.
PTENSOR_CAPI_EXPORTED const char *
ptensorJITModuleGetFunctionName(PTensorJITModule module, intptr_t index);

/// Stores the number of arguments and results of public function `function`
/// (either pointer may be NULL). Returns PTENSOR_STATUS_NOT_FOUND if there is
/// no such function.
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorJITModuleGetFunctionArity(
    PTensorJITModule module, const char *function, intptr_t *numArgs,
    intptr_t *numResults);

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

/// What a PTensorJITArg holds.
typedef enum PTensorJITArgKind {
  /// A DLTensor in host memory, for a ptensor parameter.
  PTENSOR_JIT_ARG_TENSOR = 0,
  /// A floating-point scalar, converted to the parameter's type.
  PTENSOR_JIT_ARG_F64 = 1,
  /// An integer scalar, converted to the parameter's type (also for `index`
  /// and `i1` parameters).
  PTENSOR_JIT_ARG_I64 = 2,
} PTensorJITArgKind;

/// One argument of ptensorJITInvoke: a tagged union of a DLTensor pointer and
/// a scalar. Build it with ptensorJITArgTensor / ptensorJITArgF64 /
/// ptensorJITArgI64.
///
/// A tensor argument is a view: `data` (+ `byte_offset`, a multiple of the
/// element size), `shape` and `strides` (in elements; 0 and negative strides
/// allowed; NULL means compact row-major). Its device must be host-accessible
/// (kDLCPU, kDLCUDAHost, kDLCUDAManaged or kDLROCMHost), its dtype one of int8..64,
/// uint8..64, float16/32/64, bfloat16 or bool (code
/// PTENSOR_DLPACK_BOOL_CODE, 8 bits), with lanes = 1. The DLTensor and its
/// memory are borrowed for the duration of the call; parameters the function
/// writes (`ptensor.write`) are written in place.
typedef struct PTensorJITArg {
  PTensorJITArgKind kind;
  union {
    const DLTensor *tensor;
    double f64;
    int64_t i64;
  } value;
} PTensorJITArg;

/// A tensor argument viewing `tensor` (borrowed).
static inline PTensorJITArg ptensorJITArgTensor(const DLTensor *tensor) {
  PTensorJITArg arg;
  arg.kind = PTENSOR_JIT_ARG_TENSOR;
  arg.value.tensor = tensor;
  return arg;
}

/// A floating-point scalar argument.
static inline PTensorJITArg ptensorJITArgF64(double value) {
  PTensorJITArg arg;
  arg.kind = PTENSOR_JIT_ARG_F64;
  arg.value.f64 = value;
  return arg;
}

/// An integer scalar argument.
static inline PTensorJITArg ptensorJITArgI64(int64_t value) {
  PTensorJITArg arg;
  arg.kind = PTENSOR_JIT_ARG_I64;
  arg.value.i64 = value;
  return arg;
}

//===----------------------------------------------------------------------===//
// Invocation
//===----------------------------------------------------------------------===//

/// Calls public function `function` of `module` with `numArgs` arguments.
///
/// The arguments are checked against the function's signature first (count,
/// tensor vs. scalar, dtype, rank, static sizes, device, and that a written
/// argument does not partially overlap another one): a mismatch returns
/// PTENSOR_STATUS_INVALID_ARGUMENT (PTENSOR_STATUS_UNSUPPORTED for a dtype or
/// device ptensor has no counterpart for) with a message naming the function,
/// the argument, what was expected and what was found. An unknown function
/// returns PTENSOR_STATUS_NOT_FOUND. Nothing runs in these cases.
///
/// `results` must have room for exactly the function's number of results
/// (`numResults`, see ptensorJITModuleGetFunctionArity; a different count is
/// PTENSOR_STATUS_INVALID_ARGUMENT). On success results[i] is a new
/// DLManagedTensor (device kDLCPU, strides always set, byte_offset a multiple
/// of the element size) that the caller owns and releases by calling its
/// `deleter`. A result that is a view of an argument (e.g. a function that
/// returns its parameter or an in-place output) does not own its memory: it
/// stays valid only while that argument's memory does; otherwise the result
/// owns memory allocated by the compiled code, freed by the last deleter of
/// the results sharing it. On failure every results[i] is set to NULL.
///
/// A run-time check inside the compiled code that fails returns
/// PTENSOR_STATUS_BROADCAST_ERROR (two dynamic sizes that do not broadcast;
/// the message names both shapes with their real sizes),
/// PTENSOR_STATUS_INVALID_ARGUMENT (a negative size, or a shape of more than
/// 2^62 bytes) or PTENSOR_STATUS_CHECK_FAILED; a runtime call of the compiled
/// code that fails returns PTENSOR_STATUS_RESOURCE_EXHAUSTED (out of host or
/// device memory) or PTENSOR_STATUS_DEVICE_ERROR (no CUDA driver, a failed
/// CUDA call); the process goes on. Memory the call had
/// allocated before the failing check is not freed.
///
/// Thread-safe (see PTensorJITModule).
PTENSOR_CAPI_EXPORTED PTensorStatus ptensorJITInvoke(
    PTensorJITModule module, const char *function, const PTensorJITArg *args,
    intptr_t numArgs, DLManagedTensor **results, intptr_t numResults,
    char **errorMessage);

#ifdef __cplusplus
}
#endif

#endif /* PTENSOR_C_JIT_H */
