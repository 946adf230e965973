//===- Errors.cpp - Per-thread last error and fatal reporting -------------===//

#include "Errors.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <unistd.h>

namespace ptensor::rt {
namespace {
/// The calling thread's last error. Trivially destructible on purpose: the
/// runtime is still called after the thread's thread_local destructors have
/// run (at process exit, MLIR's module-unload global destructor reports a
/// deinitialized driver through setError), and a std::string here was
/// written after being freed (heap corruption at exit after any failed call
/// with a long message).
struct LastError {
  /// Longer messages are cut, ending in kCutMarker.
  static constexpr size_t kCapacity = 4096;
  static constexpr const char *kCutMarker = " [...]";
  ErrorKind kind;
  size_t length;
  char text[kCapacity];

  void assign(std::string_view message) {
    length = 0;
    append(message);
  }
  void append(std::string_view more) {
    size_t room = kCapacity - 1 - length;
    if (more.size() > room) {
      size_t marker = std::strlen(kCutMarker);
      size_t keep = room > marker ? room - marker : 0;
      std::memcpy(text + length, more.data(), keep);
      std::memcpy(text + length + keep, kCutMarker, room - keep);
      length = kCapacity - 1;
    } else {
      std::memcpy(text + length, more.data(), more.size());
      length += more.size();
    }
    text[length] = '\0';
  }
};
static_assert(std::is_trivially_destructible_v<LastError>,
              "read after the thread's destructors have run");
thread_local LastError lastError{ErrorKind::None, 0, {}};
} // namespace

bool setError(ErrorKind kind, const std::string &message) {
  lastError.kind = kind;
  lastError.assign(kMessagePrefix);
  lastError.append(message);
  return false;
}

bool setErrorf(ErrorKind kind, const char *format, ...) {
  char buffer[LastError::kCapacity];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return setError(kind, buffer);
}

void appendToError(const std::string &text) { lastError.append(text); }

ErrorKind lastErrorKind() { return lastError.kind; }

const char *lastErrorMessage() { return lastError.text; }

void clearError() {
  lastError.kind = ErrorKind::None;
  lastError.assign("");
}

ptensor_rt_status statusFrom(bool ok) {
  if (ok)
    return PTENSOR_RT_SUCCESS;
  if (lastError.kind == ErrorKind::None) // Defensive: never report success.
    return PTENSOR_RT_ERROR_CUDA;
  return static_cast<ptensor_rt_status>(lastError.kind);
}

void dieWithLastError() {
  const char *message =
      lastError.length == 0 ? "ptensor runtime: unknown error" : lastError.text;
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
