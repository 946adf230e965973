//===- DeviceContext.cpp - Primary contexts and the default device --------===//

#include "DeviceContext.h"

#include "Errors.h"

#include <atomic>
#include <mutex>

namespace ptensor::rt {
namespace {
thread_local int threadDefaultDevice = 0;

/// Retained primary contexts, published once with release ordering so the
/// fast path needs no lock.
std::atomic<CUcontext> contexts[kMaxDevices];
std::mutex contextMutex;
} // namespace

int defaultDevice() { return threadDefaultDevice; }

void setDefaultDevice(int device) { threadDefaultDevice = device; }

bool deviceCount(int *count) {
  const DriverApi *api = driver();
  if (!api)
    return false;
  return checkCuda(api->DeviceGetCount(count), "cuDeviceGetCount");
}

bool primaryContext(int device, CUcontext *context) {
  if (device >= 0 && device < kMaxDevices) {
    *context = contexts[device].load(std::memory_order_acquire);
    if (*context)
      return true;
  }
  const DriverApi *api = driver();
  if (!api)
    return false;
  int count = 0;
  if (!checkCuda(api->DeviceGetCount(&count), "cuDeviceGetCount"))
    return false;
  if (device < 0 || device >= count || device >= kMaxDevices)
    return setErrorf(ErrorKind::InvalidArgument,
                     "invalid device cuda:%d: %d CUDA device(s) visible, "
                     "expected an ordinal in [0, %d) (set with "
                     "mgpuSetDefaultDevice or the device argument)",
                     device, count, count < kMaxDevices ? count : kMaxDevices);

  std::lock_guard<std::mutex> lock(contextMutex);
  *context = contexts[device].load(std::memory_order_acquire);
  if (*context)
    return true;
  CUdevice handle = 0;
  if (!checkCuda(api->DeviceGet(&handle, device),
                 "cuDeviceGet(" + std::to_string(device) + ")"))
    return false;
  CUcontext retained = nullptr;
  if (!checkCuda(api->DevicePrimaryCtxRetain(&retained, handle),
                 "cuDevicePrimaryCtxRetain(cuda:" + std::to_string(device) +
                     ")"))
    return false;
  contexts[device].store(retained, std::memory_order_release);
  *context = retained;
  return true;
}

ScopedContext::ScopedContext(int device) {
  CUcontext target = nullptr;
  if (!primaryContext(device, &target))
    return; // result_ stays CUDA_ERROR_NOT_INITIALIZED.
  api_ = driver();
  CUcontext current = nullptr;
  result_ = api_->CtxGetCurrent(&current);
  if (result_ != CUDA_SUCCESS) {
    checkCuda(result_, "cuCtxGetCurrent");
    return;
  }
  if (!current) {
    // A thread without a current context gets the primary context bound for
    // good, as the CUDA runtime does on a thread's first call: later entry
    // points then find it current and switch nothing (a push and a pop per
    // call otherwise).
    result_ = api_->CtxSetCurrent(target);
    if (!checkCuda(result_, "cuCtxSetCurrent(cuda:" + std::to_string(device) +
                                ")"))
      return;
  } else if (current != target) {
    result_ = api_->CtxPushCurrent(target);
    if (!checkCuda(result_, "cuCtxPushCurrent(cuda:" + std::to_string(device) +
                                ")"))
      return;
    pushed_ = true;
  }
  ok_ = true;
}

ScopedContext::~ScopedContext() {
  if (pushed_) {
    CUcontext popped = nullptr;
    // Nothing useful can be done if popping fails (e.g. the driver shut
    // down at exit); the context stack is per thread and dies with it.
    (void)api_->CtxPopCurrent(&popped);
  }
}

} // namespace ptensor::rt

extern "C" {
PTENSOR_RT_EXPORT int ptensor_rt_cuda_available(void) {
  int count = 0;
  if (!ptensor::rt::deviceCount(&count))
    return 0;
  if (count <= 0) {
    ptensor::rt::setError(ptensor::rt::ErrorKind::NoDriver,
                          "the CUDA driver reports no devices");
    return 0;
  }
  return 1;
}

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_device_count(int *count) {
  using namespace ptensor::rt;
  if (!count)
    return statusFrom(setError(ErrorKind::InvalidArgument,
                               "ptensor_rt_device_count: count is NULL"));
  return statusFrom(deviceCount(count));
}

PTENSOR_RT_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  ptensor::rt::setDefaultDevice(device);
}
} // extern "C"
