//===- CudaDriver.cpp - Lazily loaded CUDA driver API ---------------------===//

#include "CudaDriver.h"

#include "Errors.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace ptensor::rt {
namespace {

/// Outcome of the one-time load: either `api` is set, or `error` says why not.
struct LoadState {
  DriverApi *api = nullptr;
  std::string error;
};

/// Opens the library and resolves every symbol. Never throws or aborts.
LoadState loadAndInit() {
  LoadState state;
  const char *override = std::getenv(kDriverLibraryEnv);
  std::string path = (override && *override) ? override : "libcuda.so.1";

  dlerror(); // Clear any stale error.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    state.error = "no CUDA driver found (dlopen " + path +
                  " failed: " + (reason ? reason : "unknown reason") + ")";
    return state;
  }

  // Leaked on purpose: the table must outlive every static destructor that
  // may still call into the runtime at exit.
  auto *api = new DriverApi();
  api->libraryPath = path;
#define PTENSOR_RT_RESOLVE_REQUIRED(member, symbol, ret, params)               \
  api->member = reinterpret_cast<ret(*) params>(dlsym(handle, symbol));        \
  if (!api->member) {                                                          \
    state.error = "no usable CUDA driver (" + path + " does not export " +   \
                  symbol + "; ptensor needs a CUDA 12 or newer driver)";       \
    delete api;                                                                \
    dlclose(handle);                                                           \
    return state;                                                              \
  }
  PTENSOR_RT_CUDA_REQUIRED_FUNCTIONS(PTENSOR_RT_RESOLVE_REQUIRED)
#undef PTENSOR_RT_RESOLVE_REQUIRED
#define PTENSOR_RT_RESOLVE_OPTIONAL(member, symbol, ret, params)               \
  api->member = reinterpret_cast<ret(*) params>(dlsym(handle, symbol));
  PTENSOR_RT_CUDA_OPTIONAL_FUNCTIONS(PTENSOR_RT_RESOLVE_OPTIONAL)
#undef PTENSOR_RT_RESOLVE_OPTIONAL

  CUresult result = api->Init(0);
  if (result != CUDA_SUCCESS) {
    const char *name = nullptr, *description = nullptr;
    if (api->GetErrorName(result, &name) != CUDA_SUCCESS)
      name = nullptr;
    if (api->GetErrorString(result, &description) != CUDA_SUCCESS)
      description = nullptr;
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer),
                  "no usable CUDA driver (cuInit failed in %s: %s (%d): %s)",
                  path.c_str(), name ? name : "CUDA_ERROR_UNKNOWN_CODE",
                  static_cast<int>(result),
                  description ? description : "no description");
    state.error = buffer;
    delete api;
    return state; // Keep the library loaded; unloading libcuda is unsafe.
  }
  state.api = api;
  return state;
}

const LoadState &loadState() {
  // Leaked for the same reason as the table.
  static const LoadState *state = new LoadState(loadAndInit());
  return *state;
}

} // namespace

const DriverApi *driver() {
  const LoadState &state = loadState();
  if (!state.api)
    setError(ErrorKind::NoDriver, state.error);
  return state.api;
}

std::string cudaErrorText(CUresult result) {
  const char *name = nullptr, *description = nullptr;
  const LoadState &state = loadState();
  if (state.api) {
    if (state.api->GetErrorName(result, &name) != CUDA_SUCCESS)
      name = nullptr;
    if (state.api->GetErrorString(result, &description) != CUDA_SUCCESS)
      description = nullptr;
  }
  std::string text = name ? name : "CUDA_ERROR_UNKNOWN_CODE";
  text += " (" + std::to_string(static_cast<int>(result)) + ")";
  if (description)
    text += std::string(": ") + description;
  return text;
}

bool checkCuda(CUresult result, const std::string &what) {
  if (result == CUDA_SUCCESS)
    return true;
  ErrorKind kind = result == CUDA_ERROR_OUT_OF_MEMORY ? ErrorKind::OutOfMemory
                                                      : ErrorKind::Cuda;
  return setError(kind, what + " failed: " + cudaErrorText(result));
}

bool checkCudaRelease(CUresult result, const std::string &what) {
  if (result == CUDA_ERROR_DEINITIALIZED)
    return true;
  return checkCuda(result, what);
}

} // namespace ptensor::rt
