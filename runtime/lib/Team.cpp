//===- Team.cpp - MPI collectives for compiled team code -----------------===//
//
// Each entry point is one collective on MPI_COMM_WORLD with
// MPI_ERRORS_RETURN, besides the small agreements and size exchanges that
// let every process fail alike before it (an exchange of runs: its run
// sizes, then the move): a failed call records MPI's message and leaves
// compiled code through the caller's trap (ptensor_rt_check_failed), or
// returns a status to hosts.
//
//===----------------------------------------------------------------------===//

#include "BoundedText.h"
#include "TeamInternal.h"

#include "ptensor/Runtime/Team.h"
#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/Teams.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>
#include <vector>

/// The helpers that TeamDevice.cpp shares (TeamInternal.h) and the rest of
/// this file's: hidden in the library (-fvisibility=hidden).
namespace ptensor::teamrt {

/// The calling thread's last error of this library (libptensor_runtime's
/// error state is private to it; compiled code hands this text to
/// ptensor_rt_check_failed, hosts read ptensor_rt_team_last_error()).
thread_local ptensor::rt::BoundedText lastError{0, {}};
thread_local ptensor_rt_status lastStatus = PTENSOR_RT_SUCCESS;

/// Records the printf-style message as the last error; returns false.
__attribute__((format(printf, 2, 3))) bool
setErrorf(ptensor_rt_status status, const char *format, ...) {
  lastError.assign("ptensor team: ");
  va_list args;
  va_start(args, format);
  lastError.appendf(format, args);
  va_end(args);
  lastStatus = status;
  return false;
}

/// Refuses a collective that MPI's int counts and displacements cannot
/// express: records the printf-style description of what was to move and
/// why it cannot; returns false.
__attribute__((format(printf, 1, 2))) bool
refuseIntCounts(const char *format, ...) {
  char what[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(what, sizeof(what), format, args);
  va_end(args);
  return setErrorf(PTENSOR_RT_ERROR_UNSUPPORTED,
                   "%s: more than %d bytes is not supported (MPI counts and "
                   "displacements are int)",
                   what, INT32_MAX);
}

ptensor_rt_status statusFrom(bool ok) {
  return ok ? PTENSOR_RT_SUCCESS : lastStatus;
}

/// The counters of compiled code's collectives (one thread calls them:
/// MPI_THREAD_FUNNELED).
ptensor_rt_team_counters counters;

/// Records MPI's text for `code` as the last error, naming `what`.
bool mpiFailed(int code, const char *what) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    std::snprintf(text, sizeof(text), "error code %d", code);
  return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED, "%s failed: %s", what, text);
}

/// Initializes MPI once (thread level: funneled, compiled code calls from
/// the thread that called the entry point) and makes world errors return.
bool ensureInitialized() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED,
                                 &provided);
        rc != MPI_SUCCESS)
      return mpiFailed(rc, "MPI_Init_thread");
    std::atexit([] {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized)
        MPI_Finalize();
    });
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return true;
}

/// Leaves compiled code with the recorded error.
[[noreturn]] void leave() { ptensor_rt_check_failed(lastError.text); }

MPI_Datatype mpiType(int64_t type) {
  switch (type) {
  case PTENSOR_RT_TEAM_I8:
    return MPI_INT8_T;
  case PTENSOR_RT_TEAM_I16:
    return MPI_INT16_T;
  case PTENSOR_RT_TEAM_I32:
    return MPI_INT32_T;
  case PTENSOR_RT_TEAM_I64:
    return MPI_INT64_T;
  case PTENSOR_RT_TEAM_U8:
    return MPI_UINT8_T;
  case PTENSOR_RT_TEAM_U16:
    return MPI_UINT16_T;
  case PTENSOR_RT_TEAM_U32:
    return MPI_UINT32_T;
  case PTENSOR_RT_TEAM_U64:
    return MPI_UINT64_T;
  case PTENSOR_RT_TEAM_F32:
    return MPI_FLOAT;
  case PTENSOR_RT_TEAM_F64:
    return MPI_DOUBLE;
  default:
    return MPI_DATATYPE_NULL;
  }
}

MPI_Op mpiOp(int64_t op) {
  switch (op) {
  case PTENSOR_RT_TEAM_SUM:
    return MPI_SUM;
  case PTENSOR_RT_TEAM_PROD:
    return MPI_PROD;
  case PTENSOR_RT_TEAM_MAX:
    return MPI_MAX;
  case PTENSOR_RT_TEAM_MIN:
    return MPI_MIN;
  default:
    return MPI_OP_NULL;
  }
}

/// Every process's block size (an MPI_Allgather of int64): the sizes of a
/// gather, alike on every process.
bool blockSizes(int64_t localBytes, std::vector<int64_t> &sizes) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sizes.assign(size, 0);
  if (int rc = MPI_Allgather(&localBytes, 1, MPI_INT64_T, sizes.data(), 1,
                             MPI_INT64_T, MPI_COMM_WORLD);
      rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allgather of the block sizes");
  return true;
}

/// MPI_Allgatherv of byte blocks of any size per process. The sizes are
/// exchanged first (blockSizes), so that every process sees the same sizes
/// and refuses a gather MPI's int counts cannot express alike (no process
/// is left waiting in the second collective).
bool gather(const void *local, int64_t localBytes, void *full) {
  if (!ensureInitialized())
    return false;
  std::vector<int64_t> sizes;
  if (!blockSizes(localBytes, sizes))
    return false;
  int size = static_cast<int>(sizes.size());
  std::vector<int> counts(size), displacements(size);
  int64_t offset = 0;
  for (int r = 0; r < size; ++r) {
    if (sizes[r] < 0 || sizes[r] > INT32_MAX || offset > INT32_MAX)
      return refuseIntCounts("gathering a block of %lld bytes (process %d) "
                             "with the other processes' blocks",
                             static_cast<long long>(sizes[r]), r);
    counts[r] = static_cast<int>(sizes[r]);
    displacements[r] = static_cast<int>(offset);
    offset += sizes[r];
  }
  int mine = static_cast<int>(localBytes);
  if (int rc = MPI_Allgatherv(local, mine, MPI_BYTE, full, counts.data(),
                              displacements.data(), MPI_BYTE, MPI_COMM_WORLD);
      rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allgatherv");
  return true;
}

/// The MPI_Alltoallv of the byte ranges of `plan`, counted with the bytes
/// this process sends to the others.
bool moveBytes(const Exchange &plan, const char *local, char *result) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc;
  {
    Counted counted(plan.bytesToOthers(rank));
    rc = MPI_Alltoallv(local, plan.sendCounts.data(), plan.sendOffsets.data(),
                       MPI_BYTE, result, plan.receiveCounts.data(),
                       plan.receiveOffsets.data(), MPI_BYTE, MPI_COMM_WORLD);
  }
  if (rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Alltoallv");
  return true;
}

bool everyProcessOk(bool ok, ptensor_rt_status status, const char *others) {
  int mine = ok ? 1 : 0, everyone = 0;
  int rc;
  {
    Counted counted(sizeof(mine));
    rc = MPI_Allreduce(&mine, &everyone, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  }
  if (rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allreduce");
  if (everyone)
    return true;
  return ok ? setErrorf(status, "%s", others) : false;
}

/// The all-to-all of a slice of the split dim (ptensor_rt_team_slice_rows):
/// each process sends each other the rows it holds of that one's block of
/// the result (one range each, semantics::teamSliceRowsSent) and receives
/// each range at its place in its block (the slice's rows are rows
/// [at, at + rows) of a result of resultRows rows). `held` is this
/// process's rows of the slice in slice order (semantics::
/// teamSliceRowsHeld; the compiler packs them with one copy of a strided
/// view), `heldBytes` their size: each range sent is one run of it.
/// Refusals that depend on the global sizes need no word between the
/// processes; whether each could allocate its plan and was given its held
/// rows is agreed on (one small all-reduce) before the exchange, so that
/// one failing process does not leave the others waiting in it.
bool sliceRows(const char *held, int64_t heldBytes, char *result,
               int64_t rowBytes, int64_t sourceRows, int64_t offset,
               int64_t step, int64_t rows, int64_t resultRows, int64_t at,
               MoveBytes move) {
  namespace sem = ptensor::semantics;
  if (step == 0)
    return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "extract_slice of a team tensor: step of dimension 0 "
                     "must be non-zero");
  if (std::optional<std::string> error =
          sem::sliceBoundsError(0, sourceRows, offset, rows, step))
    return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "extract_slice of a team tensor of %lld rows: %s",
                     static_cast<long long>(sourceRows), error->c_str());
  if (at < 0 || at > resultRows || rows > resultRows - at)
    return setErrorf(PTENSOR_RT_ERROR_INVALID_ARGUMENT,
                     "a slice of %lld rows placed at row %lld of a team "
                     "tensor of %lld rows: expected it within the rows",
                     static_cast<long long>(rows), static_cast<long long>(at),
                     static_cast<long long>(resultRows));
  if (!ensureInitialized())
    return false;
  // Every count and offset below is at most resultRows * rowBytes (the
  // held rows are rows of the slice, within the result).
  if (rowBytes < 0 || (rowBytes > 0 && resultRows > INT32_MAX / rowBytes))
    return refuseIntCounts("moving rows into a tensor of %lld rows of %lld "
                           "bytes between processes",
                           static_cast<long long>(resultRows),
                           static_cast<long long>(rowBytes));
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sem::RowRange mine =
      sem::teamSliceRowsHeld(sourceRows, offset, step, rows, rank, size);
  int64_t resultStart = sem::teamBlock(resultRows, rank, size).start;
  bool ready = true;
  if (heldBytes != mine.count() * rowBytes)
    ready = setErrorf(PTENSOR_RT_ERROR_INVALID_ARGUMENT,
                      "a slice's rows held by process %d: %lld bytes given, "
                      "expected %lld (%lld rows of %lld bytes)",
                      rank, static_cast<long long>(heldBytes),
                      static_cast<long long>(mine.count() * rowBytes),
                      static_cast<long long>(mine.count()),
                      static_cast<long long>(rowBytes));
  Exchange plan;
  try {
    plan.resize(size);
  } catch (const std::bad_alloc &) {
    ready = setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "cannot allocate the plan of a slice's exchange");
  }
  if (!everyProcessOk(ready, PTENSOR_RT_ERROR_CHECK_FAILED,
                      "another process of the team could not take part in "
                      "a slice's exchange"))
    return false;
  // The bytes of slice rows `range` in a buffer whose first row is slice
  // row `first`.
  auto bytesOf = [rowBytes](sem::RowRange range, int64_t first, int &count,
                            int &offset) {
    count = static_cast<int>(range.count() * rowBytes);
    offset = range.count() == 0
                 ? 0
                 : static_cast<int>((range.begin - first) * rowBytes);
  };
  for (int p = 0; p < size; ++p) {
    bytesOf(sem::teamSliceRowsSent(sourceRows, offset, step, rows,
                                   resultRows, at, rank, p, size),
            mine.begin, plan.sendCounts[p], plan.sendOffsets[p]);
    // The result's block starts at slice row resultStart - at.
    bytesOf(sem::teamSliceRowsSent(sourceRows, offset, step, rows,
                                   resultRows, at, p, rank, size),
            resultStart - at, plan.receiveCounts[p], plan.receiveOffsets[p]);
  }
  return move(plan, held, result);
}

bool planResplit(int64_t rows, int64_t mid, int64_t splitSize,
                 int64_t innerBytes, ResplitPlan &out, bool &ready) {
  namespace sem = ptensor::semantics;
  ready = true;
  if (!ensureInitialized())
    return false;
  int64_t wholeBytes = 0;
  if (rows < 0 || mid < 0 || splitSize < 0 || innerBytes < 0 ||
      __builtin_mul_overflow(rows, mid, &wholeBytes) ||
      __builtin_mul_overflow(wholeBytes, splitSize, &wholeBytes) ||
      __builtin_mul_overflow(wholeBytes, innerBytes, &wholeBytes) ||
      wholeBytes > INT32_MAX)
    return refuseIntCounts("moving the split dim of a tensor of %lld x %lld "
                           "x %lld x %lld bytes between processes",
                           static_cast<long long>(rows),
                           static_cast<long long>(mid),
                           static_cast<long long>(splitSize),
                           static_cast<long long>(innerBytes));
  out.empty = wholeBytes == 0;
  if (out.empty)
    return true; // nothing to move (every process sees the same sizes)
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Every count and offset below is at most wholeBytes: they fit an int.
  int64_t localRowBytes =
      mid * sem::teamBlock(splitSize, rank, size).rows * innerBytes;
  out.runs = sem::teamBlock(rows, rank, size).rows * mid;
  out.innerBytes = innerBytes;
  out.runPitch = splitSize * innerBytes;
  try {
    out.plan.resize(size);
    out.columns.resize(size);
  } catch (const std::bad_alloc &) {
    ready = setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "cannot allocate the counts of a resplit");
    return true;
  }
  for (int p = 0; p < size; ++p) {
    sem::TeamBlock theirRows = sem::teamBlock(rows, p, size);
    out.plan.sendCounts[p] = static_cast<int>(theirRows.rows * localRowBytes);
    out.plan.sendOffsets[p] =
        static_cast<int>(theirRows.start * localRowBytes);
    out.columns[p] = sem::teamBlock(splitSize, p, size);
  }
  return true;
}

/// The MPI_Alltoallw of ptensor_rt_team_resplit: each process sends each
/// other the rows of that one's block (one contiguous range of `local`)
/// and receives from each the columns of the split axis that one held,
/// placed by a vector type at their place in every row of `result`.
bool resplit(const char *local, char *result, int64_t rows, int64_t mid,
             int64_t splitSize, int64_t innerBytes) {
  ResplitPlan r;
  bool ready = true;
  if (!planResplit(rows, mid, splitSize, innerBytes, r, ready))
    return false;
  if (r.empty)
    return true;
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<MPI_Datatype> sendTypes, receiveTypes;
  try {
    sendTypes.assign(size, MPI_BYTE);
    receiveTypes.assign(size, MPI_BYTE);
  } catch (const std::bad_alloc &) {
    ready = setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "cannot allocate the types of a resplit");
  }
  for (int p = 0; ready && p < size; ++p) {
    // From p: its columns of the axis in each of this process's rows.
    int64_t runBytes = r.columns[p].rows * r.innerBytes;
    r.plan.receiveOffsets[p] =
        static_cast<int>(r.columns[p].start * r.innerBytes);
    if (r.runs == 0 || runBytes == 0)
      continue; // nothing from p (count 0)
    MPI_Datatype columns;
    int rc = MPI_Type_vector(static_cast<int>(r.runs),
                             static_cast<int>(runBytes),
                             static_cast<int>(r.runPitch), MPI_BYTE,
                             &columns);
    if (rc == MPI_SUCCESS && (rc = MPI_Type_commit(&columns)) != MPI_SUCCESS)
      MPI_Type_free(&columns);
    if (rc != MPI_SUCCESS) {
      ready = mpiFailed(rc, "MPI_Type_vector");
      break;
    }
    receiveTypes[p] = columns;
    r.plan.receiveCounts[p] = 1;
  }
  bool ok = everyProcessOk(ready, PTENSOR_RT_ERROR_CHECK_FAILED,
                           "another process of the team could not prepare "
                           "its part of a resplit");
  if (ok) {
    int rc;
    {
      Counted counted(r.plan.bytesToOthers(rank));
      rc = MPI_Alltoallw(local, r.plan.sendCounts.data(),
                         r.plan.sendOffsets.data(), sendTypes.data(), result,
                         r.plan.receiveCounts.data(),
                         r.plan.receiveOffsets.data(), receiveTypes.data(),
                         MPI_COMM_WORLD);
    }
    if (rc != MPI_SUCCESS)
      ok = mpiFailed(rc, "MPI_Alltoallw");
  }
  for (MPI_Datatype &type : receiveTypes)
    if (type != MPI_BYTE)
      MPI_Type_free(&type);
  return ok;
}

/// The first row of each process's part of a tensor of `totalRows` rows
/// whose parts have any sizes (this process's: `localRows`), and the end
/// (totalRows), in `starts`: the counts allgathered, then summed in rank
/// order. Parts that do not add up to `totalRows` fail on every process
/// alike (all see the same counts).
bool partStartsOf(int64_t localRows, int64_t totalRows,
                  std::vector<int64_t> &starts) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool ready = true;
  try {
    starts.assign(static_cast<size_t>(size) + 1, 0);
  } catch (const std::bad_alloc &) {
    ready = setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "cannot allocate the part sizes of a rebalance");
  }
  if (!everyProcessOk(ready, PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "another process of the team could not allocate the "
                      "part sizes of a rebalance"))
    return false;
  int rc;
  {
    Counted counted(static_cast<int64_t>(sizeof(localRows)) * (size - 1));
    rc = MPI_Allgather(&localRows, 1, MPI_INT64_T, starts.data() + 1, 1,
                       MPI_INT64_T, MPI_COMM_WORLD);
  }
  if (rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allgather of the part sizes");
  for (int p = 0; p < size; ++p) // counts to starts, in place
    starts[p + 1] += starts[p];
  if (starts[size] != totalRows)
    return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "parts of %lld rows in all rebalanced as %lld rows",
                     static_cast<long long>(starts[size]),
                     static_cast<long long>(totalRows));
  return true;
}

/// The all-to-all of ptensor_rt_team_reblock (`move`): byte ranges of the
/// global row-major order, this process's source rows' against each
/// other's new rows' (and the other way round for what it receives). The
/// source rows are the block rule's, or with `localRows` >= 0 each
/// process's own count (allgathered: parts in rank order).
bool reblock(const char *local, char *result, int64_t sourceRows,
             int64_t sourceRowElements, int64_t rows, int64_t rowElements,
             int64_t elementBytes, int64_t localRows, MoveBytes move) {
  namespace sem = ptensor::semantics;
  int64_t total = 0, wanted = 0, totalBytes = 0;
  if (sourceRows < 0 || sourceRowElements < 0 || rows < 0 ||
      rowElements < 0 ||
      __builtin_mul_overflow(sourceRows, sourceRowElements, &total) ||
      __builtin_mul_overflow(rows, rowElements, &wanted) || wanted != total)
    return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "reshape of a team tensor of %lld rows of %lld elements "
                     "into %lld rows of %lld elements: the element counts "
                     "differ",
                     static_cast<long long>(sourceRows),
                     static_cast<long long>(sourceRowElements),
                     static_cast<long long>(rows),
                     static_cast<long long>(rowElements));
  if (elementBytes <= 0 ||
      __builtin_mul_overflow(total, elementBytes, &totalBytes) ||
      totalBytes > INT32_MAX)
    return refuseIntCounts("reshaping a team tensor of %lld elements of "
                           "%lld bytes across processes",
                           static_cast<long long>(total),
                           static_cast<long long>(elementBytes));
  if (totalBytes == 0)
    return true; // nothing to move (every process sees the same sizes)
  if (!ensureInitialized())
    return false;
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Every byte offset below is at most totalBytes: they fit an int.
  int64_t sourceRowBytes = sourceRowElements * elementBytes;
  int64_t rowBytes = rowElements * elementBytes;
  // Uneven parts: the first source row of each process, and the end.
  std::vector<int64_t> partStarts;
  if (localRows >= 0 && !partStartsOf(localRows, sourceRows, partStarts))
    return false;
  auto sourceRange = [&](int p) {
    if (!partStarts.empty())
      return sem::RowRange{partStarts[p] * sourceRowBytes,
                           partStarts[p + 1] * sourceRowBytes};
    sem::TeamBlock block = sem::teamBlock(sourceRows, p, size);
    return sem::RowRange{block.start * sourceRowBytes,
                         (block.start + block.rows) * sourceRowBytes};
  };
  auto targetRange = [&](int p) {
    sem::TeamBlock block = sem::teamBlock(rows, p, size);
    return sem::RowRange{block.start * rowBytes,
                         (block.start + block.rows) * rowBytes};
  };
  sem::RowRange mineOut = sourceRange(rank), mineIn = targetRange(rank);
  Exchange plan;
  bool ready = true;
  try {
    plan.resize(size);
  } catch (const std::bad_alloc &) {
    ready = setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "cannot allocate the counts of a reshape");
  }
  for (int p = 0; ready && p < size; ++p) {
    sem::RowRange out = targetRange(p), in = sourceRange(p);
    int64_t outBegin = std::max(mineOut.begin, out.begin);
    int64_t outEnd = std::min(mineOut.end, out.end);
    int64_t inBegin = std::max(mineIn.begin, in.begin);
    int64_t inEnd = std::min(mineIn.end, in.end);
    if (outEnd > outBegin) {
      plan.sendCounts[p] = static_cast<int>(outEnd - outBegin);
      plan.sendOffsets[p] = static_cast<int>(outBegin - mineOut.begin);
    }
    if (inEnd > inBegin) {
      plan.receiveCounts[p] = static_cast<int>(inEnd - inBegin);
      plan.receiveOffsets[p] = static_cast<int>(inBegin - mineIn.begin);
    }
  }
  if (!everyProcessOk(ready, PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                      "another process of the team could not allocate the "
                      "counts of a reshape"))
    return false;
  return move(plan, local, result);
}

/// The run sizes of ptensor.team_exchange: this process's `localRows` rows
/// cut at `ends` (`count` of them; run p goes to process p) into
/// `plan.sendCounts`/`sendOffsets` in bytes, and what each process sends
/// here into `plan.receiveCounts`/`receiveOffsets` (an MPI_Alltoall of the
/// rows) and `plan.receiveRows`; `receivedRows` their sum. Every process agrees first that every
/// process's ends are valid and its plan allocated, then that what it
/// sends and receives fits MPI's int counts: a refusal is every process's.
bool exchangePlan(const int64_t *ends, int64_t count, int64_t localRows,
                  int64_t rowBytes, Exchange &plan, int64_t &receivedRows) {
  if (!ensureInitialized())
    return false;
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool ok = true;
  if (count < 0 || count >= size || localRows < 0 || rowBytes < 0) {
    ok = setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                   "an exchange of %lld rows cut at %lld ends on %d "
                   "processes: at most %d ends (one fewer than the "
                   "processes) and no negative sizes",
                   static_cast<long long>(localRows),
                   static_cast<long long>(count), size, size - 1);
  }
  for (int64_t p = 0; ok && p < count; ++p) {
    int64_t previous = p == 0 ? 0 : ends[p - 1];
    if (ends[p] < previous || ends[p] > localRows)
      ok = setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "an exchange of %lld rows: run end %lld is %lld, "
                     "expected it in [%lld, %lld] (the ends are "
                     "non-decreasing and within the rows)",
                     static_cast<long long>(localRows),
                     static_cast<long long>(p),
                     static_cast<long long>(ends[p]),
                     static_cast<long long>(previous),
                     static_cast<long long>(localRows));
  }
  std::vector<int64_t> sendRows;
  std::vector<int64_t> &receiveRows = plan.receiveRows;
  try {
    if (ok) {
      sendRows.assign(size, 0);
      receiveRows.assign(size, 0);
      plan.resize(size);
    }
  } catch (const std::bad_alloc &) {
    ok = setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                   "cannot allocate the run sizes of an exchange");
  }
  if (!everyProcessOk(ok, PTENSOR_RT_ERROR_CHECK_FAILED,
                      "another process of the team could not start an "
                      "exchange of runs (its ends were invalid, or it could "
                      "not allocate their sizes)"))
    return false;
  for (int64_t p = 0; p <= count; ++p) {
    int64_t begin = p == 0 ? 0 : ends[p - 1];
    sendRows[p] = (p == count ? localRows : ends[p]) - begin;
  }
  int rc;
  {
    Counted counted(static_cast<int64_t>(sizeof(int64_t)) * (size - 1));
    rc = MPI_Alltoall(sendRows.data(), 1, MPI_INT64_T, receiveRows.data(), 1,
                      MPI_INT64_T, MPI_COMM_WORLD);
  }
  if (rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Alltoall of the run sizes");
  // Byte counts and offsets of both sides: each total must fit an int.
  auto toBytes = [&](const std::vector<int64_t> &rows, std::vector<int> &counts,
                     std::vector<int> &offsets) {
    int64_t offset = 0, bytes = 0;
    for (int p = 0; p < size; ++p) {
      if (__builtin_mul_overflow(rows[p], rowBytes, &bytes) ||
          bytes > INT32_MAX - offset)
        return false;
      counts[p] = static_cast<int>(bytes);
      offsets[p] = static_cast<int>(offset);
      offset += bytes;
    }
    return true;
  };
  bool fits =
      toBytes(sendRows, plan.sendCounts, plan.sendOffsets) &&
      toBytes(receiveRows, plan.receiveCounts, plan.receiveOffsets);
  if (!fits)
    refuseIntCounts("an exchange of runs of %lld-byte rows",
                    static_cast<long long>(rowBytes));
  if (!everyProcessOk(fits, PTENSOR_RT_ERROR_UNSUPPORTED,
                      "another process of the team would send or receive "
                      "more bytes in an exchange of runs than MPI's int "
                      "counts express"))
    return false;
  receivedRows = 0;
  for (int64_t rows : receiveRows)
    receivedRows += rows;
  return true;
}

/// The rows this process receives in an exchange (exchangePlan), or -1.
int64_t exchangedRows(const int64_t *ends, int64_t count, int64_t localRows,
                      int64_t rowBytes) {
  Exchange plan;
  int64_t receivedRows = 0;
  if (!exchangePlan(ends, count, localRows, rowBytes, plan, receivedRows))
    return -1;
  return receivedRows;
}

/// The move of ptensor_rt_team_exchange (`move`), after its plan; where
/// the received runs end goes to `runEnds` (host memory, `runEndCount` of
/// them, one per process).
bool exchange(const char *local, char *result, const int64_t *ends,
              int64_t count, int64_t localRows, int64_t rowBytes,
              int64_t expectedRows, int64_t *runEnds, int64_t runEndCount,
              MoveBytes move) {
  Exchange plan;
  int64_t receivedRows = 0;
  if (!exchangePlan(ends, count, localRows, rowBytes, plan, receivedRows))
    return false;
  // The same arguments as the plan's give the same rows; a buffer of
  // another size fails on every process before anything moves.
  int64_t processes = static_cast<int64_t>(plan.receiveRows.size());
  bool fits = receivedRows == expectedRows ||
              setErrorf(PTENSOR_RT_ERROR_INVALID_ARGUMENT,
                        "an exchange receives %lld rows into a buffer of %lld",
                        static_cast<long long>(receivedRows),
                        static_cast<long long>(expectedRows));
  fits = fits && (runEndCount == processes ||
                  setErrorf(PTENSOR_RT_ERROR_INVALID_ARGUMENT,
                            "an exchange on %lld processes writes %lld run "
                            "ends into a buffer of %lld",
                            static_cast<long long>(processes),
                            static_cast<long long>(processes),
                            static_cast<long long>(runEndCount)));
  if (!everyProcessOk(fits, PTENSOR_RT_ERROR_INVALID_ARGUMENT,
                      "another process of the team received an exchange "
                      "into a buffer of another size"))
    return false;
  int64_t end = 0;
  for (int64_t p = 0; p < processes; ++p)
    runEnds[p] = end += plan.receiveRows[p];
  return move(plan, local, result);
}

} // namespace ptensor::teamrt

using namespace ptensor::teamrt;

extern "C" {

const char *ptensor_rt_team_last_error(void) { return lastError.text; }

void ptensor_rt_team_abort(int64_t code) {
  std::fflush(stdout);
  std::fflush(stderr);
  // The launcher forwards output through pipes and stops forwarding when
  // the job is torn down: give this process's message (and those of the
  // others, which often fail the same way at the same time) a moment to
  // get out before the abort.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  MPI_Abort(MPI_COMM_WORLD, static_cast<int>(code));
}

void ptensor_rt_team_get_counters(ptensor_rt_team_counters *out) {
  *out = counters;
}

void ptensor_rt_team_reset_counters(void) { counters = {}; }

ptensor_rt_status ptensor_rt_team_init(void) {
  return statusFrom(ensureInitialized());
}

int64_t ptensor_rt_team_size(void) {
  if (!ensureInitialized())
    return -1;
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int64_t ptensor_rt_team_rank(void) {
  if (!ensureInitialized())
    leave();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// This process's block of `rows` (MPI is initialized by then: compiled
/// code asks for blocks of tensors it already has).
static ptensor::semantics::TeamBlock myBlock(int64_t rows) {
  return ptensor::semantics::teamBlock(rows, ptensor_rt_team_rank(),
                                       ptensor_rt_team_size());
}

int64_t ptensor_rt_team_block_start(int64_t rows) {
  return myBlock(rows).start;
}

int64_t ptensor_rt_team_block_rows(int64_t rows) { return myBlock(rows).rows; }

void ptensor_rt_team_allreduce(int8_t *, int8_t *data, int64_t offset,
                               int64_t, int64_t, int64_t count, int64_t type,
                               int64_t op) {
  if (!ensureInitialized())
    leave();
  MPI_Datatype mpiDtype = mpiType(type);
  MPI_Op mpiOperation = mpiOp(op);
  if (mpiDtype == MPI_DATATYPE_NULL || mpiOperation == MPI_OP_NULL ||
      count < 0 || count > INT32_MAX) {
    setErrorf(PTENSOR_RT_ERROR_INVALID_ARGUMENT,
              "all-reduce of %lld elements of type code %lld with op code "
              "%lld is not supported",
              static_cast<long long>(count), static_cast<long long>(type),
              static_cast<long long>(op));
    leave();
  }
  int typeSize = 0;
  MPI_Type_size(mpiDtype, &typeSize);
  int rc;
  {
    Counted counted(count * typeSize);
    rc = MPI_Allreduce(MPI_IN_PLACE, data + offset, static_cast<int>(count),
                       mpiDtype, mpiOperation, MPI_COMM_WORLD);
  }
  if (rc != MPI_SUCCESS) {
    mpiFailed(rc, "MPI_Allreduce");
    leave(); // no object with a destructor is alive here
  }
}

void ptensor_rt_team_allgather(int8_t *, int8_t *local, int64_t localOffset,
                               int64_t localSize, int64_t, int8_t *,
                               int8_t *full, int64_t fullOffset, int64_t,
                               int64_t) {
  bool ok;
  {
    Counted counted(localSize);
    ok = gather(local + localOffset, localSize, full + fullOffset);
  }
  if (!ok)
    leave();
}

int64_t ptensor_rt_team_slice_held_row(int64_t sourceRows, int64_t offset,
                                       int64_t step, int64_t rows) {
  ptensor::semantics::RowRange held = ptensor::semantics::teamSliceRowsHeld(
      sourceRows, offset, step, rows, ptensor_rt_team_rank(),
      ptensor_rt_team_size());
  if (held.count() == 0)
    return 0;
  // offset + begin * step is a row of this block (the held rows are).
  return offset + held.begin * step - myBlock(sourceRows).start;
}

int64_t ptensor_rt_team_slice_held_rows(int64_t sourceRows, int64_t offset,
                                        int64_t step, int64_t rows) {
  return ptensor::semantics::teamSliceRowsHeld(sourceRows, offset, step, rows,
                                               ptensor_rt_team_rank(),
                                               ptensor_rt_team_size())
      .count();
}

void ptensor_rt_team_slice_rows(int8_t *, int8_t *held, int64_t heldOffset,
                                int64_t heldBytes, int64_t, int8_t *,
                                int8_t *result, int64_t resultOffset, int64_t,
                                int64_t, int64_t rowBytes, int64_t sourceRows,
                                int64_t offset, int64_t step, int64_t rows,
                                int64_t resultRows, int64_t at) {
  if (!sliceRows(reinterpret_cast<const char *>(held + heldOffset), heldBytes,
                 reinterpret_cast<char *>(result + resultOffset), rowBytes,
                 sourceRows, offset, step, rows, resultRows, at, moveBytes))
    leave(); // the vectors of sliceRows are gone
}

void ptensor_rt_team_resplit(int8_t *, int8_t *local, int64_t localOffset,
                             int64_t, int64_t, int8_t *, int8_t *result,
                             int64_t resultOffset, int64_t, int64_t,
                             int64_t rows, int64_t mid, int64_t splitSize,
                             int64_t innerBytes) {
  if (!resplit(reinterpret_cast<const char *>(local + localOffset),
               reinterpret_cast<char *>(result + resultOffset), rows, mid,
               splitSize, innerBytes))
    leave(); // the vectors of resplit are gone
}

void ptensor_rt_team_reblock(int8_t *, int8_t *local, int64_t localOffset,
                             int64_t, int64_t, int8_t *, int8_t *result,
                             int64_t resultOffset, int64_t, int64_t,
                             int64_t sourceRows, int64_t sourceRowElements,
                             int64_t rows, int64_t rowElements,
                             int64_t elementBytes, int64_t localRows) {
  if (!reblock(reinterpret_cast<const char *>(local + localOffset),
               reinterpret_cast<char *>(result + resultOffset), sourceRows,
               sourceRowElements, rows, rowElements, elementBytes, localRows,
               moveBytes))
    leave(); // the vectors of reblock are gone
}

int64_t ptensor_rt_team_exchange_rows(int8_t *, int8_t *ends,
                                      int64_t endsOffset, int64_t endsSize,
                                      int64_t, int64_t localRows,
                                      int64_t rowBytes) {
  int64_t rows =
      exchangedRows(reinterpret_cast<const int64_t *>(ends + endsOffset),
                    endsSize / static_cast<int64_t>(sizeof(int64_t)),
                    localRows, rowBytes);
  if (rows < 0)
    leave(); // the plan's vectors are gone
  return rows;
}

void ptensor_rt_team_exchange(int8_t *, int8_t *local, int64_t localOffset,
                              int64_t, int64_t, int8_t *, int8_t *result,
                              int64_t resultOffset, int64_t, int64_t,
                              int8_t *, int8_t *ends, int64_t endsOffset,
                              int64_t endsSize, int64_t, int8_t *,
                              int8_t *runEnds, int64_t runEndsOffset,
                              int64_t runEndsSize, int64_t, int64_t localRows,
                              int64_t rowBytes, int64_t receivedRows) {
  constexpr int64_t kEndBytes = sizeof(int64_t);
  if (!exchange(reinterpret_cast<const char *>(local + localOffset),
                reinterpret_cast<char *>(result + resultOffset),
                reinterpret_cast<const int64_t *>(ends + endsOffset),
                endsSize / kEndBytes, localRows, rowBytes, receivedRows,
                reinterpret_cast<int64_t *>(runEnds + runEndsOffset),
                runEndsSize / kEndBytes, moveBytes))
    leave(); // the vectors of exchange are gone
}

int64_t ptensor_rt_team_sum(int64_t value) {
  int64_t total;
  {
    Counted counted(sizeof(value));
    total = ptensor_rt_team_total(value);
  }
  if (total < 0)
    leave();
  return total;
}

ptensor_rt_status ptensor_rt_team_gather(const void *local, int64_t localBytes,
                                         void *full) {
  return statusFrom(gather(local, localBytes, full));
}

int64_t ptensor_rt_team_total(int64_t value) {
  if (!ensureInitialized())
    return -1;
  if (int rc = MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM,
                             MPI_COMM_WORLD);
      rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allreduce"), -1;
  return value;
}

} // extern "C"
