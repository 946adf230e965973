//===- CubSupport.cuh - scratch and CUB calls for the CUDA library -*- CUDA -*-===//
//
// What the entry points of libptensor_runtime_cuda share: the scratch of a
// call (from the runtime's caching allocator, released in stream order on
// every path), CUB's two-step calls, and error messages.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_CUDA_CUBSUPPORT_CUH
#define PTENSOR_RUNTIME_CUDA_CUBSUPPORT_CUH

#include "CudaKernels.h"

#include <cuda_runtime.h>

#include <cstdio>

namespace ptensor::rt::gpu {

/// The scratch of one call, released (in stream order) on every path.
class Scratch {
public:
  explicit Scratch(const CudaKernelsCall &call) : call(call) {}
  ~Scratch() {
    for (int i = 0; i < used; ++i)
      call.release(call.allocatorContext, pointers[i]);
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;

  /// Device memory for `count` elements (at least one); null when out of
  /// memory or out of slots.
  template <typename T> T *get(size_t count) {
    if (used == kSlots)
      return nullptr;
    void *p = call.allocate(call.allocatorContext,
                            (count > 0 ? count : 1) * sizeof(T));
    if (p)
      pointers[used++] = p;
    return static_cast<T *>(p);
  }

private:
  static constexpr int kSlots = 12;
  const CudaKernelsCall &call;
  void *pointers[kSlots] = {};
  int used = 0;
};

/// Formats `what` failing with `status` into `error`; returns 1.
inline int fail(char *error, size_t size, const char *what,
                cudaError_t status) {
  std::snprintf(error, size, "%s failed: %s (%s)", what,
                cudaGetErrorName(status), cudaGetErrorString(status));
  return 1;
}

/// Writes that `what` found no device memory into `error`; returns 1.
inline int outOfMemoryFor(char *error, size_t size, const char *what) {
  std::snprintf(error, size, "out of device memory for %s", what);
  return 1;
}

/// Runs a CUB call `run(temp, bytes)` the CUB way: once for the size of its
/// temporary storage, then with it (from the scratch). `what` names it in
/// messages. With `usedTemp`, the storage (at least `minBytes`) is passed
/// out: free for the caller's next kernels once CUB's have run (stream
/// order). Returns 0, or 1 with a message in `error`.
template <typename Run>
int runCub(Scratch &s, const char *what, Run run, char *error,
           size_t errorSize, void **usedTemp = nullptr, size_t minBytes = 0) {
  size_t tempBytes = 0;
  if (cudaError_t status = run(nullptr, tempBytes)) {
    std::snprintf(error, errorSize, "%s (temporary storage size) failed: %s",
                  what, cudaGetErrorString(status));
    return 1;
  }
  tempBytes = tempBytes < minBytes ? minBytes : tempBytes;
  void *temp = s.get<char>(tempBytes);
  if (usedTemp)
    *usedTemp = temp;
  if (!temp) {
    std::snprintf(error, errorSize, "out of device memory for %s's "
                  "temporary storage (%zu bytes)", what, tempBytes);
    return 1;
  }
  if (cudaError_t status = run(temp, tempBytes))
    return fail(error, errorSize, what, status);
  return 0;
}

} // namespace ptensor::rt::gpu

#endif // PTENSOR_RUNTIME_CUDA_CUBSUPPORT_CUH
