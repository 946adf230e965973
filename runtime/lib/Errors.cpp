//===- Errors.cpp - Per-thread last error and fatal reporting -------------===//

#include "Errors.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace ptensor::rt {
namespace {
struct LastError {
  ErrorKind kind = ErrorKind::None;
  std::string message;
};
thread_local LastError lastError;
} // namespace

bool setError(ErrorKind kind, const std::string &message) {
  lastError.kind = kind;
  lastError.message = kMessagePrefix;
  lastError.message += message;
  return false;
}

bool setErrorf(ErrorKind kind, const char *format, ...) {
  char buffer[2048];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return setError(kind, buffer);
}

void appendToError(const std::string &text) { lastError.message += text; }

ErrorKind lastErrorKind() { return lastError.kind; }

const char *lastErrorMessage() { return lastError.message.c_str(); }

void clearError() {
  lastError.kind = ErrorKind::None;
  lastError.message.clear();
}

ptensor_rt_status statusFrom(bool ok) {
  if (ok)
    return PTENSOR_RT_SUCCESS;
  if (lastError.kind == ErrorKind::None) // Defensive: never report success.
    return PTENSOR_RT_ERROR_CUDA;
  return static_cast<ptensor_rt_status>(lastError.kind);
}

void dieWithLastError() {
  const char *message = lastError.message.empty()
                            ? "ptensor runtime: unknown error"
                            : lastError.message.c_str();
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message);
  std::fflush(stderr);
  if (lastError.kind == ErrorKind::NoDriver) {
    // _exit: running static destructors or atexit handlers here would
    // re-enter the runtime (e.g. MLIR's module-unload global destructor).
    _exit(1);
  }
  std::fprintf(stderr, "ptensor runtime: aborting (the calling code has no "
                       "error path for GPU runtime failures)\n");
  std::abort();
}

} // namespace ptensor::rt

extern "C" {
PTENSOR_RT_EXPORT const char *ptensor_rt_last_error(void) {
  return ptensor::rt::lastErrorMessage();
}

PTENSOR_RT_EXPORT void ptensor_rt_clear_last_error(void) {
  ptensor::rt::clearError();
}
} // extern "C"
