//===- TeamInternal.h - what Team.cpp shares with TeamDevice.cpp -*- C++ -*-===//
//
// libptensor_team's own helpers (hidden in the library): its error state,
// MPI's start, the traffic counters and the host collectives that the GPU
// entries (TeamDevice.cpp) fall back to.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_TEAMINTERNAL_H
#define PTENSOR_RUNTIME_TEAMINTERNAL_H

#include "ptensor/Runtime/Team.h"

#include <mpi.h>

#include <chrono>
#include <cstdint>

namespace ptensor::teamrt {

/// Records the printf-style message as the calling thread's last error of
/// this library; returns false.
__attribute__((format(printf, 2, 3))) bool
setErrorf(ptensor_rt_status status, const char *format, ...);

/// Records MPI's text for `code` as the last error, naming `what`; returns
/// false.
bool mpiFailed(int code, const char *what);

/// Initializes MPI once (funneled) and makes world errors return.
bool ensureInitialized();

/// Leaves compiled code with the recorded error.
[[noreturn]] void leave();

/// The MPI type of a PTENSOR_RT_TEAM_* code (MPI_DATATYPE_NULL if none).
MPI_Datatype mpiType(int64_t type);

/// MPI_Allgatherv of byte blocks of any size per process, in rank order.
bool gather(const void *local, int64_t localBytes, void *full);

/// The counters of compiled code's collectives (one thread calls them:
/// MPI_THREAD_FUNNELED).
extern ptensor_rt_team_counters counters;

/// Counts one collective of `bytes` from its construction to its end.
class Counted {
public:
  explicit Counted(int64_t bytes) : start(std::chrono::steady_clock::now()) {
    ++counters.collectives;
    counters.bytes += bytes;
  }
  ~Counted() {
    counters.seconds += std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  }

private:
  std::chrono::steady_clock::time_point start;
};

} // namespace ptensor::teamrt

#endif // PTENSOR_RUNTIME_TEAMINTERNAL_H
