//===- SiblingLibrary.h - libraries loaded beside libptensor_runtime ----*- C++ -*-===//
///
/// \file
/// Parts of the runtime that need a large dependency live in libraries of
/// their own, loaded with dlopen on first use from the directory of
/// libptensor_runtime.so (or the file an environment variable names):
/// libptensor_runtime_cuda.so (CUB, CudaKernels.h) and
/// libptensor_runtime_vqsort.so (Highway's sort, HostSort.h). Loading the
/// runtime then costs neither (Highway's library measures its timer in a
/// static constructor: milliseconds at every process start).
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_SIBLINGLIBRARY_H
#define PTENSOR_RUNTIME_LIB_SIBLINGLIBRARY_H

#include <string>

namespace ptensor::rt {

/// dlopen of `fileName` beside libptensor_runtime.so, or of the path in
/// environment variable `pathVariable` when set; null with dlerror's text
/// in `error`. Callers load once (std::call_once) and keep the handle.
void *openSiblingLibrary(const char *fileName, const char *pathVariable,
                         std::string &error);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_SIBLINGLIBRARY_H
