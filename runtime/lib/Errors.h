//===- Errors.h - Per-thread last error and fatal reporting ----*- C++ -*-===//
///
/// \file
/// Internal helpers never abort on their own: they record an error on the
/// calling thread (setError) and return false. The ptensor_rt_* API turns
/// that into a status code. The mgpu* entry points, which compiled code
/// calls and which have no error result, leave the compiled call instead
/// (failCompiledCall): through the caller's trap (ptensor_rt_call_checked)
/// when there is one, else by terminating the process.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_ERRORS_H
#define PTENSOR_RUNTIME_LIB_ERRORS_H

#include "ptensor/Runtime/PTensorRuntime.h"

#include <string>
#include <type_traits>

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

/// Whether the calling thread runs compiled code under a trap
/// (ptensor_rt_call_checked), so that a failure can leave through it.
bool insideTrap();

/// Fails the mgpu* call that compiled code made, with the calling thread's
/// recorded error: through the innermost trap like leaveCompiledCode (the
/// caller of ptensor_rt_call_checked gets the error's status), or, when the
/// thread has no trap, dieWithLastError() (exit status 1 for a missing
/// driver, abort otherwise). Like leaveCompiledCode it jumps over its
/// callers' frames (RunTimeChecks.cpp), so none of them may hold an object
/// with a non-trivial destructor.
[[noreturn]] void failCompiledCall();

/// failCompiledCall() if `ok` is false. Because it may longjmp, call it only
/// where no object with a non-trivial destructor is alive, in this frame or
/// any frame up to compiled code: no ScopedContext, lock or std::string,
/// including temporaries of the same full-expression (so
/// `require(checkCuda(r, "x" + s))` is wrong). The mgpu* entry points are
/// thin wrappers that call an internal function holding such objects and
/// require its result once it has returned.
inline void require(bool ok) {
  if (!ok)
    failCompiledCall();
}

/// The wrapper of an mgpu* entry point that returns a value: calls
/// `body(args..., &result)`, an internal function that records an error and
/// returns false on failure, and returns `result`, or fails the compiled
/// call (require). Only trivially destructible values live in its frame.
template <typename Result, typename... Params, typename... Args>
Result resultOrFail(bool (*body)(Params...), Args... args) {
  static_assert(std::is_trivially_destructible_v<Result> &&
                    (std::is_trivially_destructible_v<Args> && ...),
                "require may jump over this frame");
  Result result{};
  require(body(args..., &result));
  return result;
}

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_ERRORS_H
