//===- Errors.h - broken rules as Python exceptions -----------------------===//
//
// C++ code of the binding throws RuleError with the semantics library's
// error; one translator (CoreModule.cpp) raises the package's exception of
// its category (DTypeError, BroadcastError, DeviceError, OverlapError from
// ptensor._errors; ValueError otherwise).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_PYTHON_ERRORS_H
#define PTENSOR_PYTHON_ERRORS_H

#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <nanobind/nanobind.h>

#include <optional>
#include <string>

namespace ptensor::python {

/// A broken rule, carried to the exception translator.
struct RuleError {
  semantics::Error error;
};

/// The value of `r`, or throws its error.
template <typename T> T unwrap(const semantics::Result<T> &r) {
  if (!r)
    throw RuleError{r.getError()};
  return *r;
}

[[noreturn]] inline void throwRule(semantics::ErrorKind kind,
                                   std::string message) {
  throw RuleError{{kind, std::move(message)}};
}

/// Raises the package's exception class `cls` (ptensor._errors: e.g.
/// "ExecutionError") with `message`.
[[noreturn]] inline void raisePackageError(const char *cls,
                                           const std::string &message) {
  nanobind::object type =
      nanobind::module_::import_("ptensor._errors").attr(cls);
  PyErr_SetString(type.ptr(), message.c_str());
  throw nanobind::python_error();
}

/// A dtype by name; `index` (a builtin scalar's type) is I64 when allowed.
/// An unknown name is a DType error.
inline DType parseDType(const std::string &name, bool allowIndex = false) {
  if (allowIndex && name == "index")
    return DType::I64;
  if (std::optional<DType> d = parseDTypeName(name))
    return *d;
  throwRule(semantics::ErrorKind::DType, "unknown dtype '" + name + "'");
}

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_ERRORS_H
