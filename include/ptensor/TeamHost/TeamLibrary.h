//===- TeamLibrary.h - libptensor_team, found and loaded by hosts -*- C++ -*-===//
//
// The one place that finds libptensor_team (MPI, docs/Teams.md) and binds
// the entry points hosts call: the JIT (lib/JIT/Team.cpp) and the Python
// binding (python/src/TeamCall.cpp, Execute.cpp's team_join). Plain C++17 and dlopen, no LLVM, like
// PTensorSemantics and PTensorCache, so that ptensor._core can use it.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_TEAMHOST_TEAMLIBRARY_H
#define PTENSOR_TEAMHOST_TEAMLIBRARY_H

#include "ptensor/Runtime/Team.h"

#include <cstdint>
#include <string>

namespace ptensor::team {

/// The entry points of libptensor_team that hosts call.
struct TeamLibrary {
  decltype(&ptensor_rt_team_init) init = nullptr;
  decltype(&ptensor_rt_team_size) size = nullptr;
  decltype(&ptensor_rt_team_rank) rank = nullptr;
  decltype(&ptensor_rt_team_total) total = nullptr;
  decltype(&ptensor_rt_team_gather) gather = nullptr;
  decltype(&ptensor_rt_team_last_error) lastError = nullptr;
  decltype(&ptensor_rt_team_get_counters) getCounters = nullptr;
  decltype(&ptensor_rt_team_reset_counters) resetCounters = nullptr;
  decltype(&ptensor_rt_team_abort) abort = nullptr;
  decltype(&ptensor_rt_team_gpu_transport) gpuTransport = nullptr;
  std::string error; ///< why it could not be found or loaded; "" if loaded
};

/// The path of libptensor_team: the copy this process has loaded (a
/// library split over processes links it), else $PTENSOR_TEAM_LIBRARY,
/// else the first that exists of: beside the executable or in its ../lib (the tools), beside
/// the libptensor_runtime.so this process has loaded (the JIT embedded in
/// another program, the Python package); "" when there is none (ptensor
/// built without MPI).
std::string findTeamLibrary();

/// libptensor_team, loaded once per process with its symbols global (the
/// compiled code of team modules calls it), or the reason it is not.
const TeamLibrary &teamLibrary();

/// What the processes of the team said of `ok` (allProcessesOk).
enum class Agreement {
  AllOk,
  NotAll,             ///< one process or more said not ok
  CommunicationFailed ///< the collective failed: lib.lastError() says why
};

/// Whether every process of the team says `ok` (a collective: each calls
/// it at the same point), so that an allocation failing on one process
/// becomes an error on all of them instead of a hang in the next
/// collective. `lib` is loaded.
Agreement allProcessesOk(const TeamLibrary &lib, bool ok);

/// A written (out=) team argument after a call: the whole array at
/// `first` (`rank` dims of `sizes` and `strides`, in elements of
/// `itemBytes`) of which this process's call wrote its block of rows
/// (semantics::teamBlock of `process` in a team of `processes`). Every
/// process's array then gets every process's block: the block packed
/// row-major, the blocks gathered in rank order, stored back through the
/// strides. The processes agree first that each could allocate its
/// scratch and that their blocks add up to this array's rows (arrays of
/// other rows on other processes are an error, not an overflow). Returns
/// "" or why it failed (on every process alike). A collective: every
/// process calls it for its written arguments in the same order.
std::string gatherWrittenBlocks(const TeamLibrary &lib, int64_t process,
                                int64_t processes, void *first,
                                size_t itemBytes, const int64_t *sizes,
                                const int64_t *strides, size_t rank);

/// This process's place in the MPI job it runs in.
struct Membership {
  int64_t rank = 0;
  int64_t size = 1;
  std::string error; ///< "" when joined (or one process without MPI)
};

/// Joins the MPI job (initializing MPI through libptensor_team): one
/// process, rank 0, when ptensor was built without MPI.
Membership joinTeam();

/// Joins the MPI job to run code compiled for `teamSize` processes:
/// `error` also says when the job has another number of processes.
Membership joinTeamOfSize(int64_t teamSize);

} // namespace ptensor::team

#endif // PTENSOR_TEAMHOST_TEAMLIBRARY_H
