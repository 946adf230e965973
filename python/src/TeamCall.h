//===- TeamCall.h - calls of functions split over a team of processes -----===//
//
// A library compiled for a team of P > 1 processes (docs/Teams.md) takes
// each process's block of rows of every team tensor and returns blocks.
// Python passes and gets whole arrays on every process, as the JIT's door
// does (lib/JIT/Team.cpp): each team argument is narrowed to this process's
// rows (a view, no copy), and each team result is gathered from every
// process's block in rank order into a new row-major buffer.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_PYTHON_TEAMCALL_H
#define PTENSOR_PYTHON_TEAMCALL_H

#include "Kernel.h"

#include <string>
#include <vector>

namespace ptensor::python {

/// This process's place in the team a library's code is split over.
class TeamCall {
public:
  /// One process: whole tensors, nothing to do.
  TeamCall() = default;
  /// Joins the MPI job for code compiled for `teamSize` processes (through
  /// libptensor_team); raises RuntimeUnavailableError when it cannot (no
  /// MPI, or a job of another size). `hostAlloc`: the ptensor_rt_host_alloc
  /// of the runtime the library loaded (its results' allocator), or null
  /// (an error: team code links the runtime).
  TeamCall(int64_t teamSize, void *(*hostAlloc)(size_t));

  bool split() const { return size_ > 1; }
  int64_t rank() const { return rank_; }
  int64_t size() const { return size_; }

  /// `whole` (a team tensor of rank >= 1 of `itemBytes`-byte elements)
  /// narrowed to this process's rows; `shape` holds the block's sizes.
  CallOperand block(const CallOperand &whole, size_t itemBytes,
                    std::vector<int64_t> &shape) const;

  /// Replaces each result `r` with `gathered[r]` by the whole tensor, from
  /// every process's block; the blocks it owned are freed once all are
  /// gathered (a later result may view an earlier one's memory). Raises
  /// ExecutionError or OutOfMemoryError on every process alike (they agree
  /// first), having freed every result.
  void gather(std::vector<ResultBuffer> &results,
              const std::vector<bool> &gathered) const;

  /// After a call that wrote this process's block of the written team
  /// argument `whole` (rank >= 1, host memory): every process's array gets
  /// every block (team::gatherWrittenBlocks); raises ExecutionError on
  /// every process alike, having freed every result.
  void gatherWritten(const ArrayView &whole,
                     std::vector<ResultBuffer> &results) const;

  /// Prints `message` (why this process's call failed) and ends every
  /// process of the job (MPI_Abort, exit status 1): the others may wait
  /// for this one in a collective of the compiled code, and must not hang.
  [[noreturn]] void abortJob(const std::string &message) const;

private:
  int64_t rank_ = 0;
  int64_t size_ = 1;
  /// libptensor_runtime's host allocator (the results' owner).
  void *(*hostAlloc_)(size_t) = nullptr;
};

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_TEAMCALL_H
