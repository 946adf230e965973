//===- JIT.cpp - the JIT through the C API --------------------------------===//
//
// PTensorJITModule wraps a ptensor::jit::JITModule; arguments arrive as
// DLTensors and scalars and results leave as DLManagedTensors.
//
//===----------------------------------------------------------------------===//

#include "CAPIUtils.h"
#include "DLPackConversion.h"

#include "ptensor-c/JIT.h"
#include "ptensor/JIT/JIT.h"
#include "ptensor/Runtime/Status.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace ::ptensor;
using namespace ::ptensor::capi;

static jit::JITModule *unwrap(PTensorJITModule module) {
  return static_cast<jit::JITModule *>(module.ptr);
}

static PTensorStatus compile(llvm::StringRef ir, llvm::StringRef bufferName,
                             const char *cacheDir, PTensorJITModule *out,
                             char **errorMessage) {
  jit::JITOptions options;
  if (cacheDir)
    options.cacheDir = std::string(cacheDir);
  auto module = jit::JITModule::compile(ir, bufferName, options);
  if (!module)
    return fail(PTENSOR_STATUS_COMPILE_ERROR, module.takeError(),
                errorMessage);
  out->ptr = module->release();
  return PTENSOR_STATUS_OK;
}

PTensorStatus ptensorJITCompile(const char *ir, const char *cacheDir,
                                PTensorJITModule *out, char **errorMessage) {
  clearError(errorMessage);
  if (!out)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorJITCompile: null output handle pointer", errorMessage);
  out->ptr = nullptr;
  if (!ir)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorJITCompile: null IR string", errorMessage);
  return compile(ir, "<ptensor-jit>", cacheDir, out, errorMessage);
}

PTensorStatus ptensorJITCompileModule(MlirModule module, const char *cacheDir,
                                      PTensorJITModule *out,
                                      char **errorMessage) {
  clearError(errorMessage);
  if (!out)
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorJITCompileModule: null output handle pointer",
                errorMessage);
  out->ptr = nullptr;
  if (mlirModuleIsNull(module))
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorJITCompileModule: null module", errorMessage);
  std::string text;
  llvm::raw_string_ostream os(text);
  unwrap(module)->print(os);
  return compile(text, "<ptensor-jit-module>", cacheDir, out, errorMessage);
}

void ptensorJITModuleDestroy(PTensorJITModule module) { delete unwrap(module); }

intptr_t ptensorJITModuleGetNumFunctions(PTensorJITModule module) {
  return module.ptr ? static_cast<intptr_t>(unwrap(module)->functions().size())
                    : 0;
}

const char *ptensorJITModuleGetFunctionName(PTensorJITModule module,
                                            intptr_t index) {
  if (!module.ptr || index < 0 ||
      index >= ptensorJITModuleGetNumFunctions(module))
    return nullptr;
  return unwrap(module)->functions()[index].name.c_str();
}

PTensorStatus ptensorJITModuleGetFunctionArity(PTensorJITModule module,
                                               const char *function,
                                               intptr_t *numArgs,
                                               intptr_t *numResults) {
  if (!module.ptr || !function)
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  const jit::FunctionSignature *sig = unwrap(module)->lookup(function);
  if (!sig)
    return PTENSOR_STATUS_NOT_FOUND;
  if (numArgs)
    *numArgs = static_cast<intptr_t>(sig->args.size());
  if (numResults)
    *numResults = static_cast<intptr_t>(sig->results.size());
  return PTENSOR_STATUS_OK;
}

/// "@add (it has @a, @b)" for a function that is not there.
static std::string notFoundMessage(jit::JITModule &module,
                                   llvm::StringRef name) {
  std::string known;
  for (const jit::FunctionSignature &s : module.functions())
    known += (known.empty() ? "@" : ", @") + s.name;
  return "no public function @" + name.str() + " in the module (it has " +
         (known.empty() ? "none" : known) + ")";
}

/// The C API's status for a failure inside compiled code (the runtime's
/// ptensor_rt_status).
static PTensorStatus statusOfRunTimeFailure(int status) {
  switch (status) {
  case PTENSOR_RT_ERROR_BROADCAST:
    return PTENSOR_STATUS_BROADCAST_ERROR;
  case PTENSOR_RT_ERROR_OUT_OF_MEMORY:
    return PTENSOR_STATUS_RESOURCE_EXHAUSTED;
  case PTENSOR_RT_ERROR_INVALID_ARGUMENT:
    return PTENSOR_STATUS_INVALID_ARGUMENT;
  case PTENSOR_RT_ERROR_NO_DRIVER:
  case PTENSOR_RT_ERROR_CUDA:
    return PTENSOR_STATUS_DEVICE_ERROR;
  case PTENSOR_RT_ERROR_UNSUPPORTED:
    return PTENSOR_STATUS_UNSUPPORTED;
  default:
    return PTENSOR_STATUS_CHECK_FAILED;
  }
}

PTensorStatus ptensorJITInvoke(PTensorJITModule module, const char *function,
                               const PTensorJITArg *args, intptr_t numArgs,
                               DLManagedTensor **results, intptr_t numResults,
                               char **errorMessage) {
  clearError(errorMessage);
  if (results)
    for (intptr_t i = 0; i < numResults; ++i)
      results[i] = nullptr;
  if (!module.ptr || !function || (numArgs > 0 && !args) || numArgs < 0 ||
      numResults < 0 || (numResults > 0 && !results))
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "ptensorJITInvoke: null module, function name, arguments or "
                "results, or a negative count",
                errorMessage);
  jit::JITModule &jitModule = *unwrap(module);
  const jit::FunctionSignature *sig = jitModule.lookup(function);
  if (!sig)
    return fail(PTENSOR_STATUS_NOT_FOUND, notFoundMessage(jitModule, function),
                errorMessage);
  if (static_cast<size_t>(numResults) != sig->results.size())
    return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                "@" + sig->name + " returns " +
                    std::to_string(sig->results.size()) +
                    " results, but room for " + std::to_string(numResults) +
                    " was given",
                errorMessage);

  llvm::SmallVector<jit::Argument, 8> arguments;
  arguments.reserve(numArgs);
  for (intptr_t i = 0; i < numArgs; ++i) {
    const PTensorJITArg &arg = args[i];
    std::string what = "@" + sig->name + ": argument #" + std::to_string(i);
    switch (arg.kind) {
    case PTENSOR_JIT_ARG_TENSOR: {
      if (!arg.value.tensor)
        return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                    what + ": null DLTensor pointer", errorMessage);
      jit::StridedBuffer buffer;
      std::string message;
      PTensorStatus status =
          importDLTensor(*arg.value.tensor, what, buffer, message);
      if (status != PTENSOR_STATUS_OK)
        return fail(status, message, errorMessage);
      arguments.push_back(jit::Argument::tensor(std::move(buffer)));
      break;
    }
    case PTENSOR_JIT_ARG_F64:
      arguments.push_back(jit::Argument::scalar(arg.value.f64));
      break;
    case PTENSOR_JIT_ARG_I64:
      arguments.push_back(jit::Argument::scalar(arg.value.i64));
      break;
    default:
      return fail(PTENSOR_STATUS_INVALID_ARGUMENT,
                  what + ": unknown PTensorJITArgKind " +
                      std::to_string(static_cast<int>(arg.kind)),
                  errorMessage);
    }
  }

  llvm::SmallVector<jit::Result, 4> outputs;
  if (llvm::Error error = jitModule.invoke(function, arguments, outputs)) {
    PTensorStatus status = PTENSOR_STATUS_INVALID_ARGUMENT;
    error = llvm::handleErrors(
        std::move(error), [&](std::unique_ptr<jit::RunTimeCheckError> e) {
          status = statusOfRunTimeFailure(e->getStatus());
          return llvm::Error(std::move(e));
        });
    return fail(status, std::move(error), errorMessage);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    results[i] = exportResult(outputs[i]);
    if (!results[i]) {
      for (size_t j = 0; j < i; ++j) {
        results[j]->deleter(results[j]);
        results[j] = nullptr;
      }
      return fail(PTENSOR_STATUS_RESOURCE_EXHAUSTED,
                  "out of memory while exporting the results", errorMessage);
    }
  }
  return PTENSOR_STATUS_OK;
}
