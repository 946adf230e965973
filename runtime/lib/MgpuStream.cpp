//===- MgpuStream.cpp - mgpu* streams and events --------------------------===//
///
/// \file
/// Stream and event entry points of MLIR 22's GPU-to-LLVM host lowering.
/// Each is a thin wrapper around an internal function that returns false
/// with the error recorded; the wrapper then fails the call
/// (failCompiledCall in Errors.h: through the caller's trap when there is
/// one, else the process exits or aborts). Synchronization failures usually
/// report a fault of an earlier asynchronous kernel, so their messages name
/// the last kernel launched from the calling thread.
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
/// Checks a synchronizing call like checkCuda, adding the last-launch hint
/// to the message on failure.
bool checkSync(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  checkCuda(result, call);
  appendToError(lastLaunchHint());
  return false;
}

/// The stream compiled code runs on in this thread (see
/// ptensor_rt_set_stream); NULL is CUDA's legacy default stream, which
/// orders with PyTorch's and CuPy's default streams.
thread_local void *computeStream = nullptr;

// The work of the entry points below, which may hold RAII objects (see
// require in Errors.h).

bool streamCreate(CUstream *stream) {
  if (!syncLaunches()) {
    *stream = static_cast<CUstream>(computeStream);
    return true;
  }
  ScopedContext scope(defaultDevice());
  return scope.ok() &&
         checkCuda(scope.api().StreamCreate(stream, CU_STREAM_NON_BLOCKING),
                   "cuStreamCreate");
}

bool streamDestroy(void *stream) {
  if (!stream || stream == computeStream)
    return true; // Not ours to destroy (the default or the compute stream).
  ScopedContext scope(defaultDevice());
  if (!scope.ok()) // Process exit: the driver already released everything.
    return scope.result() == CUDA_ERROR_DEINITIALIZED;
  auto s = static_cast<CUstream>(stream);
  // Synchronize first so blocks freed on this stream are idle and can be
  // handed to other streams once the handle (which may be recycled) is gone.
  CUresult result = scope.api().StreamSynchronize(s);
  if (result != CUDA_ERROR_DEINITIALIZED &&
      !checkSync(result, "cuStreamSynchronize (in mgpuStreamDestroy)"))
    return false;
  deviceStreamDestroyed(stream);
  return checkCudaRelease(scope.api().StreamDestroy(s), "cuStreamDestroy_v2");
}

bool streamSynchronize(void *stream) {
  if (stream == computeStream && !syncLaunches())
    return true; // stream-ordered: see mgpuStreamCreate
  ScopedContext scope(defaultDevice());
  return scope.ok() &&
         checkSync(scope.api().StreamSynchronize(static_cast<CUstream>(stream)),
                   "cuStreamSynchronize");
}

bool streamWaitEvent(void *stream, void *event) {
  ScopedContext scope(defaultDevice());
  return scope.ok() &&
         checkCuda(scope.api().StreamWaitEvent(static_cast<CUstream>(stream),
                                               static_cast<CUevent>(event),
                                               /*flags=*/0),
                   "cuStreamWaitEvent");
}

bool eventCreate(CUevent *event) {
  ScopedContext scope(defaultDevice());
  return scope.ok() &&
         checkCuda(scope.api().EventCreate(event, CU_EVENT_DISABLE_TIMING),
                   "cuEventCreate");
}

bool eventDestroy(void *event) {
  if (!event)
    return true;
  ScopedContext scope(defaultDevice());
  if (!scope.ok()) // Process exit: the driver already released everything.
    return scope.result() == CUDA_ERROR_DEINITIALIZED;
  return checkCudaRelease(scope.api().EventDestroy(static_cast<CUevent>(event)),
                          "cuEventDestroy_v2");
}

bool eventSynchronize(void *event) {
  ScopedContext scope(defaultDevice());
  return scope.ok() &&
         checkSync(scope.api().EventSynchronize(static_cast<CUevent>(event)),
                   "cuEventSynchronize");
}

bool eventRecord(void *event, void *stream) {
  ScopedContext scope(defaultDevice());
  return scope.ok() &&
         checkCuda(scope.api().EventRecord(static_cast<CUevent>(event),
                                           static_cast<CUstream>(stream)),
                   "cuEventRecord");
}

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

// The mgpu* entry points hold only trivially destructible objects in their
// frames: require may jump.
//
// MLIR's host code brackets every launch and allocation with
// mgpuStreamCreate / mgpuStreamSynchronize / mgpuStreamDestroy. Unless
// PTENSOR_SYNC_LAUNCHES=1, these map to the thread's compute stream without
// blocking: all work is stream-ordered there (as in PyTorch), and the host
// sees results after a blocking copy or ptensor_rt_synchronize().
PTENSOR_RT_EXPORT void *mgpuStreamCreate(void) {
  return resultOrFail<CUstream>(streamCreate);
}

PTENSOR_RT_EXPORT void mgpuStreamDestroy(void *stream) {
  require(streamDestroy(stream));
}

PTENSOR_RT_EXPORT void mgpuStreamSynchronize(void *stream) {
  require(streamSynchronize(stream));
}

PTENSOR_RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  require(streamWaitEvent(stream, event));
}

PTENSOR_RT_EXPORT void *mgpuEventCreate(void) {
  return resultOrFail<CUevent>(eventCreate);
}

PTENSOR_RT_EXPORT void mgpuEventDestroy(void *event) {
  require(eventDestroy(event));
}

PTENSOR_RT_EXPORT void mgpuEventSynchronize(void *event) {
  require(eventSynchronize(event));
}

PTENSOR_RT_EXPORT void mgpuEventRecord(void *event, void *stream) {
  require(eventRecord(event, stream));
}

} // extern "C"
