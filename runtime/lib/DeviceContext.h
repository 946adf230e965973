//===- DeviceContext.h - Primary contexts and the default device -*- C++ -*-===//
///
/// \file
/// One primary context per device, retained on first use and never released
/// (the runtime's state lives until process exit). ScopedContext makes a
/// device's primary context current for the duration of an entry point.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_DEVICECONTEXT_H
#define PTENSOR_RUNTIME_LIB_DEVICECONTEXT_H

#include "CudaDriver.h"

namespace ptensor::rt {

/// Largest number of devices the runtime tracks.
inline constexpr int kMaxDevices = 64;

/// The calling thread's default device (mgpuSetDefaultDevice), 0 initially.
int defaultDevice();

/// True when every launch blocks the host (PTENSOR_SYNC_LAUNCHES=1): errors
/// then surface at the launch that caused them, and each launch runs on a
/// stream of its own (MgpuStream.cpp).
bool syncLaunches();
void setDefaultDevice(int device);

/// Stores the number of visible devices; false (error recorded) if the
/// driver is unavailable.
bool deviceCount(int *count);

/// Returns device `device`'s primary context, retaining it on first use.
/// Validates the ordinal. False with an error recorded on failure.
bool primaryContext(int device, CUcontext *context);

/// Makes the primary context of `device` current for the duration of the
/// scope: nothing to do if it already is; on a thread without a current
/// context it is bound for good (cuCtxSetCurrent, like the CUDA runtime's
/// implicit cudaSetDevice), so later calls switch nothing; otherwise (another
/// context current) it is pushed and popped again on destruction. Check ok();
/// on failure the error is recorded and result() holds the CUDA code
/// (CUDA_ERROR_NOT_INITIALIZED when the driver is missing).
class ScopedContext {
public:
  explicit ScopedContext(int device);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  bool ok() const { return ok_; }
  CUresult result() const { return result_; }
  /// The driver table; valid only if ok().
  const DriverApi &api() const { return *api_; }

private:
  const DriverApi *api_ = nullptr;
  bool ok_ = false;
  bool pushed_ = false;
  CUresult result_ = CUDA_ERROR_NOT_INITIALIZED;
};

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_DEVICECONTEXT_H
