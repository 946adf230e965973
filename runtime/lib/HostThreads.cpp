//===- HostThreads.cpp - threads of compiled parallel loop nests ----------===//
//
// Compiled host code asks here how many threads a parallel loop nest runs
// on (ptensor-parallel-threshold emits the call), so that the count follows
// the machine and PTENSOR_NUM_THREADS where the code runs, not where it
// was compiled. The rule is the semantics library's.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/PTensorRuntime.h"
#include "ptensor/Semantics/Threads.h"

extern "C" PTENSOR_RT_EXPORT int32_t
ptensor_rt_host_threads(int64_t processes) {
  return static_cast<int32_t>(ptensor::semantics::hostThreadCount(
      processes > 0 ? static_cast<unsigned>(processes) : 1u));
}
