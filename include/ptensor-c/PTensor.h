/*===- ptensor-c/PTensor.h - the ptensor C API -------------------*- C -*-===*\
|*                                                                            *|
|* Umbrella header of the ptensor C API (libPTensorCAPI, CMake target         *|
|* PTensor::CAPI):                                                            *|
|*  - ptensor-c/Support.h  status codes, ptensorFreeString;                   *|
|*  - ptensor-c/Dialect.h  dialect handle, pass/pipeline registration, types, *|
|*                         parse / verify / run a named pipeline;             *|
|*  - ptensor-c/JIT.h      compile for the host and call with DLPack tensors. *|
|*                                                                            *|
|* Conventions (those of MLIR's C API and IREE's runtime API):                *|
|*  - fallible functions return a PTensorStatus; a message, when requested    *|
|*    through a `char **errorMessage` parameter, is malloc'd and freed by the *|
|*    caller with ptensorFreeString();                                        *|
|*  - `...Create`/`...Compile` results are owned by the caller and released   *|
|*    by the matching `...Destroy` (or DLManagedTensor::deleter);             *|
|*  - pointers passed in are borrowed for the duration of the call only;      *|
|*  - MLIR objects (MlirContext and what lives in it) are not thread-safe;    *|
|*    PTensorJITModule is (see ptensor-c/JIT.h).                              *|
|*                                                                            *|
|* The library also exports the upstream MLIR C API it is built with         *|
|* (mlir-c/IR.h, mlir-c/Pass.h, mlir-c/RegisterEverything.h, ...), so a C     *|
|* program links libPTensorCAPI alone.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_C_PTENSOR_H
#define PTENSOR_C_PTENSOR_H

#include "ptensor-c/Dialect.h"
#include "ptensor-c/JIT.h"
#include "ptensor-c/Semantics.h"
#include "ptensor-c/Support.h"

#endif /* PTENSOR_C_PTENSOR_H */
