//===- MgpuStream.cpp - mgpu* streams and events --------------------------===//
///
/// \file
/// Stream and event entry points of MLIR 22's GPU-to-LLVM host lowering.
/// They abort on error. Synchronization failures usually report a fault of
/// an earlier asynchronous kernel, so their messages name the last kernel
/// launched from the calling thread.
///
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <string>

#include "DeviceAllocator.h"
#include "DeviceContext.h"
#include "Errors.h"
#include "ModuleCache.h"

using namespace ptensor::rt;

namespace {
/// Checks a synchronizing call, adding the last-launch hint on failure.
void requireSync(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS) {
    checkCuda(result, call);
    appendToError(lastLaunchHint());
    dieWithLastError();
  }
}
/// The stream compiled code runs on in this thread (see
/// ptensor_rt_set_stream); NULL is CUDA's legacy default stream, which
/// orders with PyTorch's and CuPy's default streams.
thread_local void *computeStream = nullptr;

} // namespace

bool ptensor::rt::syncLaunches() {
  static const bool sync = [] {
    const char *v = std::getenv("PTENSOR_SYNC_LAUNCHES");
    return v && std::string(v) == "1";
  }();
  return sync;
}

extern "C" {

PTENSOR_RT_EXPORT void ptensor_rt_set_stream(void *stream) {
  computeStream = stream;
}

PTENSOR_RT_EXPORT void *ptensor_rt_get_stream(void) { return computeStream; }

PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_synchronize(void) {
  ScopedContext scope(defaultDevice());
  if (!scope.ok())
    return PTENSOR_RT_ERROR_CUDA;
  if (!checkCuda(scope.api().StreamSynchronize(
                     static_cast<CUstream>(computeStream)),
                 "cuStreamSynchronize"))
    return PTENSOR_RT_ERROR_CUDA;
  return PTENSOR_RT_SUCCESS;
}

// MLIR's host code brackets every launch and allocation with
// mgpuStreamCreate / mgpuStreamSynchronize / mgpuStreamDestroy. Unless
// PTENSOR_SYNC_LAUNCHES=1, these map to the thread's compute stream without
// blocking: all work is stream-ordered there (as in PyTorch), and the host
// sees results after a blocking copy or ptensor_rt_synchronize().
PTENSOR_RT_EXPORT void *mgpuStreamCreate(void) {
  if (!syncLaunches())
    return computeStream;
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  CUstream stream = nullptr;
  require(checkCuda(scope.api().StreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                    "cuStreamCreate"));
  return stream;
}

PTENSOR_RT_EXPORT void mgpuStreamDestroy(void *stream) {
  if (!stream || stream == computeStream)
    return; // Not ours to destroy (the default or the compute stream).
  ScopedContext scope(defaultDevice());
  if (!scope.ok() && scope.result() == CUDA_ERROR_DEINITIALIZED)
    return;
  require(scope.ok());
  auto s = static_cast<CUstream>(stream);
  // Synchronize first so blocks freed on this stream are idle and can be
  // handed to other streams once the handle (which may be recycled) is gone.
  CUresult result = scope.api().StreamSynchronize(s);
  if (result != CUDA_ERROR_DEINITIALIZED)
    requireSync(result, "cuStreamSynchronize (in mgpuStreamDestroy)");
  deviceStreamDestroyed(stream);
  require(checkCudaRelease(scope.api().StreamDestroy(s), "cuStreamDestroy_v2"));
}

PTENSOR_RT_EXPORT void mgpuStreamSynchronize(void *stream) {
  if (stream == computeStream && !syncLaunches())
    return; // stream-ordered: see mgpuStreamCreate
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  requireSync(scope.api().StreamSynchronize(static_cast<CUstream>(stream)),
              "cuStreamSynchronize");
}

PTENSOR_RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  require(checkCuda(scope.api().StreamWaitEvent(static_cast<CUstream>(stream),
                                                static_cast<CUevent>(event),
                                                /*flags=*/0),
                    "cuStreamWaitEvent"));
}

PTENSOR_RT_EXPORT void *mgpuEventCreate(void) {
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  CUevent event = nullptr;
  require(checkCuda(scope.api().EventCreate(&event, CU_EVENT_DISABLE_TIMING),
                    "cuEventCreate"));
  return event;
}

PTENSOR_RT_EXPORT void mgpuEventDestroy(void *event) {
  if (!event)
    return;
  ScopedContext scope(defaultDevice());
  if (!scope.ok() && scope.result() == CUDA_ERROR_DEINITIALIZED)
    return;
  require(scope.ok());
  require(checkCudaRelease(
      scope.api().EventDestroy(static_cast<CUevent>(event)),
      "cuEventDestroy_v2"));
}

PTENSOR_RT_EXPORT void mgpuEventSynchronize(void *event) {
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  requireSync(scope.api().EventSynchronize(static_cast<CUevent>(event)),
              "cuEventSynchronize");
}

PTENSOR_RT_EXPORT void mgpuEventRecord(void *event, void *stream) {
  ScopedContext scope(defaultDevice());
  require(scope.ok());
  require(checkCuda(scope.api().EventRecord(static_cast<CUevent>(event),
                                            static_cast<CUstream>(stream)),
                    "cuEventRecord"));
}

} // extern "C"
