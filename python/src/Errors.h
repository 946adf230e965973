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

#include "ptensor/Semantics/Error.h"

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

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_ERRORS_H
