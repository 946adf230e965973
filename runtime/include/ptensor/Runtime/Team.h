/*===- Team.h - MPI collectives for compiled team code -----------*- C -*-===*\
|*                                                                            *|
|* libptensor_team (built when MPI is found) is what compiled code of a      *|
|* module with team tensors calls for communication (docs/Teams.md): the    *|
|* process's rank and the team's size, an in-place all-reduce and the        *|
|* all-gather of the row blocks of a tensor. Each is one MPI call on         *|
|* MPI_COMM_WORLD (team 1, the only team today). MPI is initialized on the  *|
|* first call (MPI_Init_thread, finalized at exit) unless the host did it.  *|
|* A failed MPI call leaves compiled code through the caller's trap         *|
|* (ptensor_rt_call_checked) with MPI's message.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_RUNTIME_TEAM_H
#define PTENSOR_RUNTIME_TEAM_H

#include "ptensor/Runtime/Status.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of ptensor_rt_team_allreduce (bools are U8 bytes).
typedef enum {
  PTENSOR_RT_TEAM_I8 = 0,
  PTENSOR_RT_TEAM_I16 = 1,
  PTENSOR_RT_TEAM_I32 = 2,
  PTENSOR_RT_TEAM_I64 = 3,
  PTENSOR_RT_TEAM_U8 = 4,
  PTENSOR_RT_TEAM_U16 = 5,
  PTENSOR_RT_TEAM_U32 = 6,
  PTENSOR_RT_TEAM_U64 = 7,
  PTENSOR_RT_TEAM_F32 = 8,
  PTENSOR_RT_TEAM_F64 = 9,
} ptensor_rt_team_type;

/// Reductions of ptensor_rt_team_allreduce.
typedef enum {
  PTENSOR_RT_TEAM_SUM = 0,
  PTENSOR_RT_TEAM_PROD = 1,
  PTENSOR_RT_TEAM_MAX = 2,
  PTENSOR_RT_TEAM_MIN = 3,
} ptensor_rt_team_op;

/// What this process's compiled code communicated since the counters were
/// last reset: the collectives it took part in (all-reduce, all-gather,
/// sum), the bytes it contributed, and the time spent in them.
typedef struct {
  int64_t collectives;
  int64_t bytes;
  double seconds;
} ptensor_rt_team_counters;

/// Reads the counters into `counters`.
PTENSOR_RT_EXPORT void ptensor_rt_team_get_counters(
    ptensor_rt_team_counters *counters);
/// Sets the counters to zero (hosts do before a call they measure).
PTENSOR_RT_EXPORT void ptensor_rt_team_reset_counters(void);

/// Ends every process of the job (MPI_Abort) with exit status `code`: what
/// a host does when one process fails while the others may be waiting for
/// it in a collective. Waits 300 ms first, so that the messages the
/// processes printed reach the launcher before it tears the job down.
PTENSOR_RT_EXPORT void ptensor_rt_team_abort(int64_t code);

/// The calling thread's last error of the team functions that return a
/// status or -1 (what MPI reported).
PTENSOR_RT_EXPORT const char *ptensor_rt_team_last_error(void);

/// Initializes MPI if nobody has; returns PTENSOR_RT_SUCCESS or an error
/// (ptensor_rt_team_last_error says what MPI reported).
PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_team_init(void);

/// The number of processes of the team (MPI_COMM_WORLD's size), or -1
/// when MPI cannot be initialized (ptensor_rt_team_last_error says why).
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_size(void);

/// This process's rank in the team (0 to size - 1).
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_rank(void);

/// Combines the `count` contiguous elements of `type` at `data` of every
/// process with `op`, in place: afterwards every process holds the result.
/// `data` is the compiled code's byte buffer (memref<?xi8>, MLIR's expanded
/// calling convention: allocated and aligned pointers, offset, size,
/// stride); bools are reduced as PTENSOR_RT_TEAM_U8 bytes (max: any,
/// min: all).
PTENSOR_RT_EXPORT void ptensor_rt_team_allreduce(
    int8_t *allocated, int8_t *data, int64_t offset, int64_t size,
    int64_t stride, int64_t count, int64_t type, int64_t op);

/// Concatenates the `localSize` bytes of `local` of every process in rank
/// order into `full` (of the sum of all local sizes) on every process
/// (MPI_Allgatherv). Both are memref<?xi8> like ptensor_rt_team_allreduce's.
PTENSOR_RT_EXPORT void ptensor_rt_team_allgather(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *fullAllocated,
    int8_t *full, int64_t fullOffset, int64_t fullSize, int64_t fullStride);

/// ptensor_rt_team_allreduce and ptensor_rt_team_allgather of device memory
/// (compiled code of a GPU team: its buffers are on this process's GPU,
/// written by kernels queued on the runtime's compute stream, behind which
/// the collective is queued in turn). Through NCCL (libnccl.so.2 or
/// $PTENSOR_NCCL_LIBRARY, loaded at the first call) when every process of
/// the team has a GPU of its own, else through host buffers (copies around
/// the MPI collective). Decided once, alike on every process, at the first
/// call; PTENSOR_TEAM_NCCL=0 never uses NCCL, PTENSOR_TEAM_NCCL=1 requires
/// it (an error naming why it cannot be used). Types NCCL lacks (16-bit
/// integers) go through the host.
PTENSOR_RT_EXPORT void ptensor_rt_team_allreduce_device(
    int8_t *allocated, int8_t *data, int64_t offset, int64_t size,
    int64_t stride, int64_t count, int64_t type, int64_t op);
PTENSOR_RT_EXPORT void ptensor_rt_team_allgather_device(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *fullAllocated,
    int8_t *full, int64_t fullOffset, int64_t fullSize, int64_t fullStride);

/// ptensor_rt_team_slice_rows, ptensor_rt_team_reblock,
/// ptensor_rt_team_exchange_rows and ptensor_rt_team_exchange of device
/// memory (the ends and run ends too), queued like the entries above: the
/// plan is made on the host as theirs is (the same checks and agreements),
/// the rows move with grouped ncclSend/ncclRecv between processes when
/// NCCL moves this team's data, else through host buffers.
PTENSOR_RT_EXPORT void ptensor_rt_team_slice_rows_device(
    int8_t *heldAllocated, int8_t *held, int64_t heldOffset,
    int64_t heldSize, int64_t heldStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int64_t rowBytes, int64_t sourceRows,
    int64_t offset, int64_t step, int64_t rows, int64_t resultRows,
    int64_t at);
PTENSOR_RT_EXPORT void ptensor_rt_team_reblock_device(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int64_t sourceRows, int64_t sourceRowElements,
    int64_t rows, int64_t rowElements, int64_t elementBytes,
    int64_t localRows);
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_exchange_rows_device(
    int8_t *endsAllocated, int8_t *ends, int64_t endsOffset, int64_t endsSize,
    int64_t endsStride, int64_t localRows, int64_t rowBytes);
PTENSOR_RT_EXPORT void ptensor_rt_team_exchange_device(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int8_t *endsAllocated, int8_t *ends,
    int64_t endsOffset, int64_t endsSize, int64_t endsStride,
    int8_t *runEndsAllocated, int8_t *runEnds, int64_t runEndsOffset,
    int64_t runEndsSize, int64_t runEndsStride, int64_t localRows,
    int64_t rowBytes, int64_t receivedRows);

/// How this process's GPU collectives move data: "nccl", "host" (through
/// host buffers), or "" before the first one.
PTENSOR_RT_EXPORT const char *ptensor_rt_team_gpu_transport(void);

/// A slice of the split dim moved between processes (MPI_Alltoallv):
/// row i of the slice (`rows` rows) is row `offset + i * step` of the
/// source (`sourceRows` rows) and goes to row `at + i` of the result
/// (`resultRows` rows; other slices fill its other rows: team_slice_rows
/// of several slices, a roll or a concat along the rows, calls this once
/// per slice); `held` holds the rows of the slice that this process's
/// block of the source has, in slice order (ptensor_rt_team_slice_held_row
/// and _held_rows say which: the compiler packs them with one copy of a
/// strided view, for any step), `result` its block of the result, both
/// row-major rows of `rowBytes` bytes, memref<?xi8> like
/// ptensor_rt_team_allgather's. A slice outside the source, or of step 0,
/// or not within the result's rows, leaves compiled code with the error on
/// every process alike (all see the same global sizes); the processes
/// agree that each was given its held rows and could allocate its plan
/// (one 4-byte all-reduce, counted with the exchange) before they exchange
/// rows.
PTENSOR_RT_EXPORT void ptensor_rt_team_slice_rows(
    int8_t *heldAllocated, int8_t *held, int64_t heldOffset,
    int64_t heldSize, int64_t heldStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int64_t rowBytes, int64_t sourceRows,
    int64_t offset, int64_t step, int64_t rows, int64_t resultRows,
    int64_t at);

/// A tensor split along its dim `axis` (>= 1) resplit along its first dim
/// (MPI_Alltoallw). Seen row-major as [rows][mid][split][inner bytes]
/// (`rows` the first dim, `mid` the elements of the dims between it and
/// the axis, `split` the axis: `splitSize` in all, this process's block of
/// them in `local`), each process receives its block of the rows with
/// every element of the axis: `result` is [its rows][mid][splitSize][inner
/// bytes]. Each process sends each other whole rows of `local` (one
/// range); MPI places them at their columns of the receiver's block (a
/// vector type per sender: no packing, no buffer). A tensor of more than
/// 2147483647 bytes is refused on every process alike (MPI's int counts);
/// the processes agree that each could make its MPI types before the
/// exchange (one 4-byte all-reduce, counted with it). Buffers are
/// memref<?xi8> like ptensor_rt_team_allgather's.
PTENSOR_RT_EXPORT void ptensor_rt_team_resplit(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int64_t rows, int64_t mid, int64_t splitSize,
    int64_t innerBytes);

/// ptensor_rt_team_resplit of device memory, queued like the entries
/// above: with NCCL each process's rows for another are sent as they are,
/// what comes from each process lands packed in `packed` (a device buffer
/// of `result`'s size, compiled code's: the runtime allocates nothing
/// before the exchange) and one strided device copy per sender
/// (cuMemcpy2DAsync) places its columns, as MPI's vector type does on the
/// host; without NCCL through host buffers.
PTENSOR_RT_EXPORT void ptensor_rt_team_resplit_device(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *packedAllocated,
    int8_t *packed, int64_t packedOffset, int64_t packedSize,
    int64_t packedStride, int8_t *resultAllocated, int8_t *result,
    int64_t resultOffset, int64_t resultSize, int64_t resultStride,
    int64_t rows, int64_t mid, int64_t splitSize, int64_t innerBytes);

/// The elements of a team tensor of `sourceRows` rows of
/// `sourceRowElements` elements (of `elementBytes` bytes), in row-major
/// order, reblocked for `rows` rows of `rowElements` elements
/// (MPI_Alltoallv): `local` holds this process's block of the source rows,
/// row-major; `result` receives the elements of its block of the new rows.
/// Each process sends each other the one range of its elements that falls
/// in that one's rows; nothing is packed. Element counts that differ, or a
/// tensor of more than 2147483647 bytes, leave compiled code with the
/// error on every process alike (all see the same global sizes). With
/// `localRows` >= 0, `local` is instead this process's part of any size
/// (`localRows` rows; the parts in rank order are the tensor, their sizes
/// exchanged first with MPI_Allgather): how results of data-dependent size
/// (nonzero, a boolean mask) become blocks; -1 is the block rule. Buffers
/// are memref<?xi8> like ptensor_rt_team_allgather's.
PTENSOR_RT_EXPORT void ptensor_rt_team_reblock(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int64_t sourceRows, int64_t sourceRowElements,
    int64_t rows, int64_t rowElements, int64_t elementBytes,
    int64_t localRows);

/// The rows this process receives in the exchange that
/// ptensor_rt_team_exchange makes with the same arguments (the lowering
/// allocates them first): its `localRows` rows (of `rowBytes` bytes) are
/// cut into runs at the `ends` (memref<?xi8> of int64 values, `endsSize`
/// bytes), run p going to process p. Checks every process's ends (non-
/// decreasing, in [0, localRows], fewer than the processes), failing on
/// every process alike when one's are not (a 4-byte all-reduce); the run
/// sizes cross in an MPI_Alltoall; then every process checks that what it
/// sends and receives fits MPI's int counts (another 4-byte all-reduce).
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_exchange_rows(
    int8_t *endsAllocated, int8_t *ends, int64_t endsOffset, int64_t endsSize,
    int64_t endsStride, int64_t localRows, int64_t rowBytes);

/// The exchange of ptensor.team_exchange: the runs of `local` (row-major,
/// `localRows` rows of `rowBytes` bytes, cut at `ends` as above) sent to
/// their processes (one MPI_Alltoallv after the checks and run sizes of
/// ptensor_rt_team_exchange_rows again); `result` receives the runs sent
/// here in rank order, `receivedRows` rows (that function's answer), and
/// `runEnds` (int64, one per process: `runEndsSize` bytes, checked) where
/// they end in it: run p is rows runEnds[p - 1] to runEnds[p].
/// Buffers are memref<?xi8> like ptensor_rt_team_allgather's.
PTENSOR_RT_EXPORT void ptensor_rt_team_exchange(
    int8_t *localAllocated, int8_t *local, int64_t localOffset,
    int64_t localSize, int64_t localStride, int8_t *resultAllocated,
    int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t resultStride, int8_t *endsAllocated, int8_t *ends,
    int64_t endsOffset, int64_t endsSize, int64_t endsStride,
    int8_t *runEndsAllocated, int8_t *runEnds, int64_t runEndsOffset,
    int64_t runEndsSize, int64_t runEndsStride, int64_t localRows,
    int64_t rowBytes, int64_t receivedRows);

/// This process's block of `rows` rows split over the team
/// (ptensor::semantics::teamBlock): its first row and its number of rows.
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_block_start(int64_t rows);
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_block_rows(int64_t rows);

/// The rows of a slice (row i of its `rows` rows is row `offset + i * step`
/// of a team tensor of `sourceRows` rows) that this process's block holds
/// (ptensor::semantics::teamSliceRowsHeld): they are rows `heldRow + j *
/// step`, j < heldRows, of the block (heldRow is 0 when it holds none).
/// Only rows of the block are counted, whatever the slice's bounds.
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_slice_held_row(int64_t sourceRows,
                                                         int64_t offset,
                                                         int64_t step,
                                                         int64_t rows);
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_slice_held_rows(int64_t sourceRows,
                                                          int64_t offset,
                                                          int64_t step,
                                                          int64_t rows);

/// The sum over the team of each process's `value` (the global size of a
/// split dim), for compiled code.
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_sum(int64_t value);

/// Host helpers (ptensor-runner gathering results): the sum of `value`
/// over the team, or -1; and the all-gather of `localBytes` at `local`
/// into `full`. Errors are returned, not raised in compiled code.
PTENSOR_RT_EXPORT int64_t ptensor_rt_team_total(int64_t value);
PTENSOR_RT_EXPORT ptensor_rt_status ptensor_rt_team_gather(const void *local,
                                                           int64_t localBytes,
                                                           void *full);

#ifdef __cplusplus
}
#endif

#endif /* PTENSOR_RUNTIME_TEAM_H */
