//===- HostSort.cpp - Highway's VQSort, loaded on first use ---------------===//

#include "HostSort.h"

#include "Errors.h"
#include "SiblingLibrary.h"

#include <mutex>
#include <string>

#include <dlfcn.h>

using namespace ptensor::rt;

namespace {

/// ptensor_rt_vqsort of libptensor_runtime_vqsort.so: sorts `n` keys of
/// `keyBits` bits (16, 32, 64, 128) ascending.
using SortFunction = void (*)(int keyBits, void *keys, size_t n);

SortFunction sortFunction = nullptr;

} // namespace

bool ptensor::rt::loadHostSort() {
  static std::once_flag once;
  static std::string reason;
  std::call_once(once, [] {
    void *handle = openSiblingLibrary("libptensor_runtime_vqsort.so",
                                      "PTENSOR_RUNTIME_VQSORT_LIBRARY", reason);
    if (!handle)
      return;
    sortFunction =
        reinterpret_cast<SortFunction>(dlsym(handle, "ptensor_rt_vqsort"));
    if (!sortFunction)
      reason = "it has no ptensor_rt_vqsort (built from other sources than "
               "this runtime)";
  });
  if (sortFunction)
    return true;
  return setError(ErrorKind::InvalidArgument,
                  "the host sort needs libptensor_runtime_vqsort.so (beside "
                  "libptensor_runtime.so, or PTENSOR_RUNTIME_VQSORT_LIBRARY), "
                  "which did not load: " +
                      reason);
}

void ptensor::rt::sortAscending(uint16_t *keys, size_t n) {
  sortFunction(16, keys, n);
}
void ptensor::rt::sortAscending(uint32_t *keys, size_t n) {
  sortFunction(32, keys, n);
}
void ptensor::rt::sortAscending(uint64_t *keys, size_t n) {
  sortFunction(64, keys, n);
}
void ptensor::rt::sortAscending(Key128 *keys, size_t n) {
  sortFunction(128, keys, n);
}
