//===- FaultInjection.h - failures on request, for tests ---------*- C++ -*-===//
///
/// \file
/// PTENSOR_RT_FAULT makes chosen runtime operations fail once, so that tests
/// can show every failure path of compiled code reported as an error value
/// and the next call working: a comma-separated list of SITE:N, where the
/// N-th event at SITE in the process (counting from 1) fails with an
/// "injected fault" error of the kind the real failure has.
///
///   host-alloc    ptensor_rt_host_alloc (buffers of compiled host code):
///                 OUT_OF_MEMORY
///   device-alloc  mgpuMemAlloc (device and host-shared buffers):
///                 OUT_OF_MEMORY
///   module-load   mgpuModuleLoad / mgpuModuleLoadJIT: CUDA
///   launch        mgpuLaunchKernel: CUDA
///
/// e.g. PTENSOR_RT_FAULT=host-alloc:3,launch:1. The variable is read once,
/// at the first event; an entry that does not parse is reported on stderr
/// and ignored.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_FAULTINJECTION_H
#define PTENSOR_RUNTIME_LIB_FAULTINJECTION_H

namespace ptensor::rt {

enum class FaultSite { HostAlloc, DeviceAlloc, ModuleLoad, Launch };

/// Counts an event at `site`. When PTENSOR_RT_FAULT asks for this one to
/// fail, records the injected error (setError, with `what` describing the
/// event) and returns true: the caller then fails as it would for real.
bool injectFault(FaultSite site, const char *what);

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_FAULTINJECTION_H
