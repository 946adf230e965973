//===- DeviceArrays.h - ptensor-runner's host<->GPU transfers ---*- C++ -*-===//

#ifndef PTENSOR_TOOLS_PTENSOR_RUNNER_DEVICEARRAYS_H
#define PTENSOR_TOOLS_PTENSOR_RUNNER_DEVICEARRAYS_H

#include "ptensor/JIT/JIT.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace ptensor::runner {

/// Fails with the runtime's message (e.g. "no CUDA driver found ...")
/// unless a CUDA driver and a device are available.
llvm::Error checkCudaAvailable();

/// Waits until the GPU work queued so far (compiled code is stream-ordered:
/// a call returns before its kernels end) is done.
llvm::Error synchronizeDevice();

/// A copy of a host view in device memory (the span of elements the view
/// reaches, same offset and strides); freed with the object.
class DeviceCopy {
public:
  static llvm::Expected<std::unique_ptr<DeviceCopy>>
  upload(const jit::StridedBuffer &host);
  ~DeviceCopy();
  /// The view on the device.
  const jit::StridedBuffer &view() const { return view_; }

private:
  jit::StridedBuffer view_;
  void *allocation_ = nullptr;
};

/// Copies the elements a device view reaches to the host; `storage` keeps
/// them and the returned view points into it.
llvm::Expected<jit::StridedBuffer> download(const jit::StridedBuffer &device,
                                            std::vector<std::byte> &storage);

} // namespace ptensor::runner

#endif // PTENSOR_TOOLS_PTENSOR_RUNNER_DEVICEARRAYS_H
