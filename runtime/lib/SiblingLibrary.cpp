//===- SiblingLibrary.cpp - libraries loaded beside libptensor_runtime ----===//

#include "SiblingLibrary.h"

#include <cstdlib>

#include <dlfcn.h>

namespace {
/// A symbol of this library, to find its file.
void runtimeAnchor() {}
} // namespace

void *ptensor::rt::openSiblingLibrary(const char *fileName,
                                      const char *pathVariable,
                                      std::string &error) {
  std::string path;
  if (const char *env = std::getenv(pathVariable)) {
    path = env;
  } else {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&runtimeAnchor), &info) &&
        info.dli_fname) {
      path = info.dli_fname;
      size_t slash = path.rfind('/');
      path = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    }
    path += fileName;
  }
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *text = dlerror();
    error = text ? text : path;
  }
  return handle;
}
