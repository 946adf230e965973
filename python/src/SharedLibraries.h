//===- SharedLibraries.h - loading libraries, for Python --------*- C++ -*-===//

#ifndef PTENSOR_PYTHON_SHAREDLIBRARIES_H
#define PTENSOR_PYTHON_SHAREDLIBRARIES_H

#include <nanobind/nanobind.h>

namespace ptensor::python {
namespace nb = nanobind;

/// Registers load_shared_library, library_symbol, call_int_function and
/// loaded_library_path:
/// the doors through which the package loads the runtime and compiled
/// libraries (no ctypes.CDLL on a first call's path).
void registerSharedLibraries(nb::module_ &m);

/// A reference to a loaded library, dropped (dlclose) when it goes out of
/// scope; empty when the library was not found.
class LibraryReference {
public:
  explicit LibraryReference(void *handle) : handle_(handle) {}
  LibraryReference(const LibraryReference &) = delete;
  LibraryReference &operator=(const LibraryReference &) = delete;
  ~LibraryReference();

  explicit operator bool() const { return handle_ != nullptr; }
  /// dlsym: the address of `name` in the library or the libraries it
  /// loaded, or null.
  void *symbol(const char *name) const;

private:
  void *handle_;
};

/// The loaded library that holds the code at `address` (a compiled
/// function's entry point); empty when none does. Its `symbol` searches the
/// library and the libraries it loaded (libptensor_runtime when its code
/// calls the runtime) and nothing else.
LibraryReference libraryContaining(const void *address);

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_SHAREDLIBRARIES_H
