//===- Errors.cpp - Per-thread last error and fatal reporting -------------===//

#include "Errors.h"
#include "BoundedText.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace ptensor::rt {
namespace {
/// The calling thread's last error: its kind and text (BoundedText.h says
/// why the text is a plain array).
struct LastError {
  ErrorKind kind;
  BoundedText message;
};
thread_local LastError lastError{ErrorKind::None, {0, {}}};
} // namespace

bool setError(ErrorKind kind, const std::string &message) {
  lastError.kind = kind;
  lastError.message.assign(kMessagePrefix);
  lastError.message.append(message);
  return false;
}

bool setErrorf(ErrorKind kind, const char *format, ...) {
  lastError.kind = kind;
  lastError.message.assign(kMessagePrefix);
  va_list args;
  va_start(args, format);
  lastError.message.appendf(format, args);
  va_end(args);
  return false;
}

void appendToError(const std::string &text) { lastError.message.append(text); }

ErrorKind lastErrorKind() { return lastError.kind; }

const char *lastErrorMessage() { return lastError.message.text; }

void clearError() {
  lastError.kind = ErrorKind::None;
  lastError.message.assign("");
}

ptensor_rt_status statusFrom(bool ok) {
  if (ok)
    return PTENSOR_RT_SUCCESS;
  if (lastError.kind == ErrorKind::None) // Defensive: never report success.
    return PTENSOR_RT_ERROR_CUDA;
  return static_cast<ptensor_rt_status>(lastError.kind);
}

void dieWithLastError() {
  const char *message = lastError.message.length == 0
                            ? "ptensor runtime: unknown error"
                            : lastError.message.text;
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
