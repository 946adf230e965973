//===- Error.h - results and errors of the semantic rules ------*- C++ -*-===//
//
// A rule either gives a value or an Error: a category (which the C API and
// Python map to their error codes and exception classes) and the message,
// the same text whether the mistake was made in an .mlir file or in Python.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_ERROR_H
#define PTENSOR_SEMANTICS_ERROR_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace ptensor::semantics {

/// What kind of rule was broken. The values are part of the C API
/// (`PtensorSemanticsErrorKind`) and map to Python's exception classes.
enum class ErrorKind {
  DType = 1,     ///< an operand dtype the op rejects, dtypes that don't promote
  Broadcast = 2, ///< shapes that do not broadcast
  Device = 3,    ///< operands on different devices or teams
  Value = 4,     ///< any other invalid argument (unknown names, bad options)
  Overlap = 5,   ///< a written operand that overlaps itself or another
};

/// A broken rule and its message.
struct Error {
  ErrorKind kind;
  std::string message;
};

/// A value of type T or an Error.
template <typename T> class Result {
public:
  Result(T value) : value(std::move(value)) {}
  Result(Error error) : error(std::move(error)) {}

  /// True when this holds a value.
  explicit operator bool() const { return value.has_value(); }
  const T &operator*() const {
    assert(value && "Result holds an error");
    return *value;
  }
  const T *operator->() const { return &**this; }
  /// The error; only valid when this holds no value.
  const Error &getError() const {
    assert(error && "Result holds a value");
    return *error;
  }

private:
  std::optional<T> value;
  std::optional<Error> error;
};

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_ERROR_H
