//===- Errors.h - Per-thread last error and fatal reporting ----*- C++ -*-===//
///
/// \file
/// Internal helpers never abort on their own: they record an error on the
/// calling thread (setError) and return false. The ptensor_rt_* API turns
/// that into a status code; the mgpu* wrappers, which have no error path,
/// call dieWithLastError().
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_ERRORS_H
#define PTENSOR_RUNTIME_LIB_ERRORS_H

#include "ptensor/Runtime/PTensorRuntime.h"

#include <string>

namespace ptensor::rt {

/// Category of the last error; maps 1:1 onto ptensor_rt_status.
enum class ErrorKind {
  None = PTENSOR_RT_SUCCESS,
  InvalidArgument = PTENSOR_RT_ERROR_INVALID_ARGUMENT,
  NoDriver = PTENSOR_RT_ERROR_NO_DRIVER,
  OutOfMemory = PTENSOR_RT_ERROR_OUT_OF_MEMORY,
  Cuda = PTENSOR_RT_ERROR_CUDA,
  Unsupported = PTENSOR_RT_ERROR_UNSUPPORTED,
  Broadcast = PTENSOR_RT_ERROR_BROADCAST,
  CheckFailed = PTENSOR_RT_ERROR_CHECK_FAILED,
};

/// The prefix of every message.
inline constexpr const char *kMessagePrefix = "ptensor runtime: ";

/// Records `message` (prefixed with kMessagePrefix) as the calling thread's
/// last error. Always returns false so callers can `return setError(...)`.
bool setError(ErrorKind kind, const std::string &message);

/// printf-style variant of setError.
bool setErrorf(ErrorKind kind, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Appends `text` to the calling thread's last error message.
void appendToError(const std::string &text);

ErrorKind lastErrorKind();
const char *lastErrorMessage();
void clearError();

/// Status for the C API: the last error kind, or success if `ok`.
ptensor_rt_status statusFrom(bool ok);

/// Prints the calling thread's last error to stderr and terminates: exit
/// status 1 for a missing driver (an environment problem, no core dump),
/// abort() for everything else.
[[noreturn]] void dieWithLastError();

/// Leaves compiled code through the calling thread's innermost trap
/// (ptensor_rt_call_checked) with the recorded error, or prints it and
/// aborts when there is none. No object with a destructor may be alive in
/// the caller's frame: the jump skips it (RunTimeChecks.cpp).
[[noreturn]] void leaveCompiledCode();

/// Terminates via dieWithLastError if `ok` is false (for mgpu* wrappers).
inline void require(bool ok) {
  if (!ok)
    dieWithLastError();
}

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_ERRORS_H
