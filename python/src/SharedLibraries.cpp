//===- SharedLibraries.cpp - loading libraries, for the Python package ----===//
//
// dlopen with the flags each caller needs, symbol lookup, and the question
// whether a library is mapped already, answered from the loader's list (no
// file-system search, which dlopen's RTLD_NOLOAD makes for a bare soname:
// a quarter of a millisecond of the first call on the build machine).
//
//===----------------------------------------------------------------------===//

#include "SharedLibraries.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <dlfcn.h>
#include <link.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace ptensor::python {

LibraryReference::~LibraryReference() {
  if (handle_)
    dlclose(handle_);
}

void *LibraryReference::symbol(const char *name) const {
  return handle_ ? dlsym(handle_, name) : nullptr;
}

LibraryReference libraryContaining(const void *address) {
  Dl_info info;
  if (!address || !dladdr(address, &info) || !info.dli_fname)
    return LibraryReference(nullptr);
  // By the loaded object's own path: found in the loader's list, no search.
  return LibraryReference(dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD));
}

namespace {

/// The error of a library loaded from `path` that lacks the symbol `name`.
std::string undefinedSymbolMessage(const std::string &path,
                                   const std::string &name) {
  return path + ": undefined symbol " + name +
         " (a library of another version?)";
}

[[noreturn]] void throwOSError(const std::string &message) {
  PyErr_SetString(PyExc_OSError, message.c_str());
  throw nb::python_error();
}

/// dlopen(path) (RTLD_LAZY or RTLD_NOW, RTLD_GLOBAL or RTLD_LOCAL) whose
/// handle has every symbol of `required`; OSError otherwise.
uintptr_t loadSharedLibrary(const std::string &path, bool lazy, bool global,
                            const std::vector<std::string> &required) {
  // ctypes always binds every symbol at load (RTLD_NOW); `lazy` binds the
  // runtime's on first use instead. That saves little (measured on the H100
  // machine: the runtime's dlopen is 0.37-0.51 ms either way, the loader's
  // per-object work beside torch's libraries); the gain of this door is one
  // dlopen with the flags each caller needs.
  void *handle = nullptr;
  std::string error;
  {
    nb::gil_scoped_release release; // a kernel library loads its cubins
    handle = dlopen(path.c_str(), (lazy ? RTLD_LAZY : RTLD_NOW) |
                                      (global ? RTLD_GLOBAL : RTLD_LOCAL));
    if (!handle) {
      const char *message = dlerror();
      error = message ? message : "dlopen failed";
    }
    for (size_t i = 0; handle && i < required.size() && error.empty(); ++i)
      if (!dlsym(handle, required[i].c_str()))
        error = undefinedSymbolMessage(path, required[i]);
  }
  if (!error.empty())
    throwOSError(error);
  return reinterpret_cast<uintptr_t>(handle);
}

/// The address of `name` in the library `handle` loaded from `path`.
uintptr_t librarySymbol(uintptr_t handle, const std::string &path,
                        const std::string &name) {
  void *address = dlsym(reinterpret_cast<void *>(handle), name.c_str());
  if (!address)
    throwOSError(undefinedSymbolMessage(path, name));
  return reinterpret_cast<uintptr_t>(address);
}

/// The NUL-terminated string that the symbol `name` of the library is (a
/// `const char[]`, such as a compiled module's signature), read without
/// ctypes: a process's first ctypes.string_at costs 15-20 µs.
std::string libraryString(uintptr_t handle, const std::string &path,
                          const std::string &name) {
  return reinterpret_cast<const char *>(librarySymbol(handle, path, name));
}

/// The file of the first object this process has loaded whose file name is
/// `fileName` (its last path component), or none.
std::optional<std::string> loadedLibraryPath(const std::string &fileName) {
  struct Search {
    const std::string *fileName;
    std::optional<std::string> path;
  } search{&fileName, std::nullopt};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto *s = static_cast<Search *>(data);
        const char *name = info->dlpi_name;
        if (!name || !*name)
          return 0; // the executable or the vDSO
        const char *slash = std::strrchr(name, '/');
        if (*s->fileName != (slash ? slash + 1 : name))
          return 0;
        s->path = name;
        return 1; // stop
      },
      &search);
  return search.path;
}

/// Calls the C function `int f(void)` at `address` (a library_symbol).
int callIntFunction(uintptr_t address) {
  if (!address)
    throw nb::value_error("call_int_function: the address is null");
  return reinterpret_cast<int (*)()>(address)();
}

} // namespace

void registerSharedLibraries(nb::module_ &m) {
  m.def("load_shared_library", &loadSharedLibrary, nb::arg("path"),
        nb::arg("lazy"), nb::arg("global_"),
        nb::arg("required") = std::vector<std::string>(),
        "dlopen(path) with lazy or immediate binding, into the global or a "
        "local scope; the handle (for library_symbol or ctypes.CDLL(path, "
        "handle=...)), or OSError with the loader's message or the first "
        "`required` symbol it lacks.");
  m.def("library_symbol", &librarySymbol, nb::arg("handle"), nb::arg("path"),
        nb::arg("name"),
        "The address of `name` in the library that load_shared_library "
        "loaded from `path` (its `handle`), or OSError naming both.");
  m.def("library_string", &libraryString, nb::arg("handle"), nb::arg("path"),
        nb::arg("name"),
        "The C string that the symbol `name` of the library is (like "
        "ctypes.string_at(library_symbol(...)), decoded as UTF-8), or "
        "OSError naming both.");
  m.def("call_int_function", &callIntFunction, nb::arg("address"),
        "Calls the C function `int f(void)` at `address` (from "
        "library_symbol) and returns its result: a first call costs less "
        "than through a ctypes function.");
  m.def("loaded_library_path", &loadedLibraryPath, nb::arg("file_name"),
        "The path of the library named `file_name` (e.g. "
        "'libptensor_runtime.so') that this process has loaded, or None: "
        "the loader's list of objects, no file-system search.");
}

} // namespace ptensor::python
