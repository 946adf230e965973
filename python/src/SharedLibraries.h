//===- SharedLibraries.h - loading libraries, for Python --------*- C++ -*-===//

#ifndef PTENSOR_PYTHON_SHAREDLIBRARIES_H
#define PTENSOR_PYTHON_SHAREDLIBRARIES_H

#include <nanobind/nanobind.h>

namespace ptensor::python {
namespace nb = nanobind;

/// Registers load_shared_library, library_symbol and loaded_library_path:
/// the doors through which the package loads the runtime and compiled
/// libraries (no ctypes.CDLL on a first call's path).
void registerSharedLibraries(nb::module_ &m);

/// A handle of the loaded library that holds the code at `address` (a
/// compiled function's entry point), or null when none does. dlsym on it
/// searches the library and the libraries it loaded (libptensor_runtime
/// when its code calls the runtime) and nothing else; the caller
/// dlcloses it.
void *libraryContaining(const void *address);

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_SHAREDLIBRARIES_H
