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
#include "ptensor/Semantics/Teams.h"

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <vector>

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

/// Whether every process is `ok` (a 4-byte all-reduce, counted as a
/// collective): a step that one process could not take (an allocation,
/// an MPI type) then fails on every process, and none is left waiting in a
/// collective the others skip. A process that was not ok has its own error recorded already; the
/// others record `others` with `status`.
bool everyProcessOk(bool ok, ptensor_rt_status status, const char *others);

/// Every process's `localBytes` in rank order (an MPI_Allgather), into
/// `sizes`: the block sizes of a gather.
bool blockSizes(int64_t localBytes, std::vector<int64_t> &sizes);

/// MPI_Allgatherv of byte blocks of any size per process, in rank order.
bool gather(const void *local, int64_t localBytes, void *full);

/// The per-process counts and byte offsets of an all-to-all.
struct Exchange {
  std::vector<int> sendCounts, sendOffsets, receiveCounts, receiveOffsets;
  /// The rows received from each process (an exchange of runs' plan).
  std::vector<int64_t> receiveRows;
  /// Sizes all counts and offsets for `processes` (may throw
  /// std::bad_alloc).
  void resize(int processes) {
    for (std::vector<int> *v :
         {&sendCounts, &sendOffsets, &receiveCounts, &receiveOffsets})
      v->assign(processes, 0);
  }
  /// The bytes this plan sends from process `rank` to the others (what a
  /// mover counts as traffic; its own range is a local copy).
  int64_t bytesToOthers(int rank) const {
    int64_t bytes = 0;
    for (size_t p = 0; p < sendCounts.size(); ++p)
      if (static_cast<int>(p) != rank)
        bytes += sendCounts[p];
    return bytes;
  }
};

/// Moves the byte ranges of `plan` from `local` to `result` (every process
/// calls it with its plan): moveBytes for host memory, TeamDevice.cpp's
/// NCCL mover for device memory.
using MoveBytes = bool (*)(const Exchange &plan, const char *local,
                           char *result);

/// The MPI_Alltoallv of `plan`'s byte ranges of host memory, counted with
/// the bytes this process sends to the others.
bool moveBytes(const Exchange &plan, const char *local, char *result);

/// How a resplit (ptensor_rt_team_resplit) moves bytes, alike for host and
/// device memory: plan.send* are the rows of each process's block (one
/// range of the local part each); from process p this one receives `runs`
/// runs of columns[p].rows * innerBytes bytes, which belong at column
/// columns[p].start of each of its runs of runPitch bytes (the movers fill
/// plan.receive*: MPI places the columns with a vector type, the device
/// with a strided copy).
struct ResplitPlan {
  Exchange plan;
  std::vector<ptensor::semantics::TeamBlock> columns;
  int64_t runs = 0;
  int64_t innerBytes = 0;
  int64_t runPitch = 0;
  bool empty = false; ///< nothing to move (every process alike)
};

/// Checks a resplit's sizes and plans it into `out`. False when the sizes
/// are refused (every process alike, error recorded); `ready` false when
/// this process could not allocate the plan (error recorded: the caller
/// agrees with the others before moving).
bool planResplit(int64_t rows, int64_t mid, int64_t splitSize,
                 int64_t innerBytes, ResplitPlan &out, bool &ready);

/// The checks, plan and move of ptensor_rt_team_slice_rows,
/// ptensor_rt_team_reblock and ptensor_rt_team_exchange (Team.h says what
/// they move), with `move` moving the bytes. sliceRows sends from `held`,
/// this process's rows of the slice (`heldBytes` bytes); exchange reads
/// `ends` and writes `runEnds` on the host.
bool sliceRows(const char *held, int64_t heldBytes, char *result,
               int64_t rowBytes, int64_t sourceRows, int64_t offset,
               int64_t step, int64_t rows, int64_t resultRows, int64_t at,
               MoveBytes move);
bool reblock(const char *local, char *result, int64_t sourceRows,
             int64_t sourceRowElements, int64_t rows, int64_t rowElements,
             int64_t elementBytes, int64_t localRows, MoveBytes move);
bool exchange(const char *local, char *result, const int64_t *ends,
              int64_t count, int64_t localRows, int64_t rowBytes,
              int64_t expectedRows, int64_t *runEnds, int64_t runEndCount,
              MoveBytes move);

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
