//===- TeamDevice.cpp - collectives of GPU memory -------------------------===//
//
// Compiled code of a GPU team all-reduces, gathers and moves rows of its
// blocks where they are, in device memory (Team.h's *_device entries:
// all-reduce, all-gather, and the all-to-alls of slices, resplits,
// reshapes and exchanges of runs, which Team.cpp plans on the host). NCCL
// moves them when every process of the team has a GPU of its own:
// libnccl.so.2 is loaded at the first call (ptensor needs no NCCL to build
// or to run), and
// its communicator is made from an MPI broadcast of NCCL's id. Otherwise
// (processes sharing a GPU, which NCCL refuses; no NCCL on a process;
// PTENSOR_TEAM_NCCL=0) the data goes through host buffers: a copy to the
// host, Team.cpp's MPI collective, a copy back. The choice is made once, by
// every process alike (a collective), so that no process waits in NCCL
// while another waits in MPI.
//
// Compiled GPU code is stream-ordered (the runtime's compute stream,
// mgpuStreamCreate): NCCL's work is queued on that stream behind the
// kernels that filled the buffer and ahead of those that read the result,
// and the host does not wait for it.
//
//===----------------------------------------------------------------------===//

#include "TeamInternal.h"

#include "ptensor/Runtime/Mgpu.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

using namespace ptensor::teamrt;

namespace {

// NCCL's C ABI (nccl.h, stable across NCCL 2.x): the entry points and
// constants used here, so that ptensor builds without NCCL's headers.
using ncclResult = int;
constexpr ncclResult kNcclSuccess = 0;
struct NcclCommunicator;
using NcclComm = NcclCommunicator *;
struct NcclUniqueId {
  char internal[128];
};
enum NcclType : int {
  kNcclInt8 = 0,
  kNcclUint8 = 1,
  kNcclInt32 = 2,
  kNcclUint32 = 3,
  kNcclInt64 = 4,
  kNcclUint64 = 5,
  kNcclFloat32 = 7,
  kNcclFloat64 = 8
};
enum NcclOp : int { kNcclSum = 0, kNcclProd = 1, kNcclMax = 2, kNcclMin = 3 };

/// The NCCL entry points, bound from the loaded library.
struct Nccl {
  ncclResult (*getUniqueId)(NcclUniqueId *) = nullptr;
  ncclResult (*commInitRank)(NcclComm *, int, NcclUniqueId, int) = nullptr;
  ncclResult (*allReduce)(const void *, void *, size_t, int, int, NcclComm,
                          void *) = nullptr;
  ncclResult (*broadcast)(const void *, void *, size_t, int, int, NcclComm,
                          void *) = nullptr;
  ncclResult (*send)(const void *, size_t, int, int, NcclComm,
                     void *) = nullptr;
  ncclResult (*recv)(void *, size_t, int, int, NcclComm, void *) = nullptr;
  ncclResult (*groupStart)() = nullptr;
  ncclResult (*groupEnd)() = nullptr;
  const char *(*errorString)(ncclResult) = nullptr;
};

enum class Transport { Undecided, Host, Nccl };

Transport transport = Transport::Undecided;
Nccl nccl;
NcclComm communicator = nullptr;

/// Loads NCCL and binds its entry points; on failure writes why into `why`.
bool loadNccl(char *why, size_t whySize) {
  const char *path = std::getenv("PTENSOR_NCCL_LIBRARY");
  if (!path || !*path)
    path = "libnccl.so.2";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::snprintf(why, whySize, "cannot load %s (%s)", path, dlerror());
    return false;
  }
  bool bound = true;
  auto bind = [&](auto &entry, const char *name) {
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(
        dlsym(handle, name));
    if (!entry && bound) {
      std::snprintf(why, whySize, "%s has no %s", path, name);
      bound = false;
    }
  };
  bind(nccl.getUniqueId, "ncclGetUniqueId");
  bind(nccl.commInitRank, "ncclCommInitRank");
  bind(nccl.allReduce, "ncclAllReduce");
  bind(nccl.broadcast, "ncclBroadcast");
  bind(nccl.send, "ncclSend");
  bind(nccl.recv, "ncclRecv");
  bind(nccl.groupStart, "ncclGroupStart");
  bind(nccl.groupEnd, "ncclGroupEnd");
  bind(nccl.errorString, "ncclGetErrorString");
  return bound;
}

/// The PCI bus id of the GPU of the calling thread's current CUDA context
/// (compiled code made it current), from the driver libptensor_runtime
/// loaded; on failure writes why into `why`.
bool currentGpuBusId(char *busId, int busIdSize, char *why, size_t whySize) {
  using CUresult = int;
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto ctxGetDevice = cuda ? reinterpret_cast<CUresult (*)(int *)>(
                                 dlsym(cuda, "cuCtxGetDevice"))
                           : nullptr;
  auto getBusId = cuda ? reinterpret_cast<CUresult (*)(char *, int, int)>(
                             dlsym(cuda, "cuDeviceGetPCIBusId"))
                       : nullptr;
  int device = 0;
  if (!ctxGetDevice || !getBusId || ctxGetDevice(&device) != 0 ||
      getBusId(busId, busIdSize, device) != 0) {
    std::snprintf(why, whySize, "its GPU cannot be identified");
    return false;
  }
  return true;
}

/// What a process says of itself before the team picks its transport.
struct Place {
  int32_t usable = 0; ///< NCCL loaded and the GPU identified
  char busId[32] = {};
  char why[200] = {};
};

/// Makes the NCCL communicator of the team (every process calls it).
bool makeCommunicator(int rank, int size) {
  struct {
    int32_t ok;
    NcclUniqueId id;
  } root{};
  if (rank == 0)
    root.ok = nccl.getUniqueId(&root.id) == kNcclSuccess;
  if (int rc = MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, MPI_COMM_WORLD);
      rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Bcast of NCCL's id");
  if (!root.ok)
    return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "ncclGetUniqueId failed on process 0");
  ncclResult made = nccl.commInitRank(&communicator, size, root.id, rank);
  int mine = made == kNcclSuccess, all = 0;
  if (int rc = MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allreduce of NCCL's start");
  if (!all)
    return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED,
                     "ncclCommInitRank failed on a process of the team%s%s",
                     mine ? "" : ": ",
                     mine ? "" : nccl.errorString(made));
  return true;
}

/// Picks the transport of this process's GPU collectives, alike on every
/// process (a collective, at the first GPU collective).
bool decideTransport() {
  if (transport != Transport::Undecided)
    return true;
  const char *mode = std::getenv("PTENSOR_TEAM_NCCL");
  bool never = mode && std::strcmp(mode, "0") == 0;
  bool required = mode && std::strcmp(mode, "1") == 0;
  Place mine;
  if (never)
    std::snprintf(mine.why, sizeof mine.why, "PTENSOR_TEAM_NCCL=0");
  else
    mine.usable = loadNccl(mine.why, sizeof mine.why) &&
                  currentGpuBusId(mine.busId, sizeof mine.busId, mine.why,
                                  sizeof mine.why);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<Place> all(size);
  if (int rc = MPI_Allgather(&mine, sizeof(Place), MPI_BYTE, all.data(),
                             sizeof(Place), MPI_BYTE, MPI_COMM_WORLD);
      rc != MPI_SUCCESS)
    return mpiFailed(rc, "MPI_Allgather of the processes' GPUs");
  std::string why;
  for (int p = 0; p < size && why.empty(); ++p)
    if (!all[p].usable)
      why = "process " + std::to_string(p) + ": " + all[p].why;
  for (int p = 0; p < size && why.empty(); ++p)
    for (int q = p + 1; q < size && why.empty(); ++q)
      if (std::strncmp(all[p].busId, all[q].busId, sizeof(Place::busId)) == 0)
        why = "processes " + std::to_string(p) + " and " + std::to_string(q) +
              " share the GPU at " + all[p].busId +
              " (NCCL wants a GPU per process: give each its own, e.g. "
              "CUDA_VISIBLE_DEVICES by local rank)";
  if (!why.empty()) {
    if (required && !never)
      return setErrorf(PTENSOR_RT_ERROR_UNSUPPORTED,
                       "PTENSOR_TEAM_NCCL=1, but NCCL cannot move this "
                       "team's GPU data: %s",
                       why.c_str());
    transport = Transport::Host;
    return true;
  }
  if (!makeCommunicator(rank, size))
    return false;
  transport = Transport::Nccl;
  return true;
}

std::optional<int> ncclTypeOf(int64_t type) {
  switch (type) {
  case PTENSOR_RT_TEAM_I8:
    return kNcclInt8;
  case PTENSOR_RT_TEAM_I32:
    return kNcclInt32;
  case PTENSOR_RT_TEAM_I64:
    return kNcclInt64;
  case PTENSOR_RT_TEAM_U8:
    return kNcclUint8;
  case PTENSOR_RT_TEAM_U32:
    return kNcclUint32;
  case PTENSOR_RT_TEAM_U64:
    return kNcclUint64;
  case PTENSOR_RT_TEAM_F32:
    return kNcclFloat32;
  case PTENSOR_RT_TEAM_F64:
    return kNcclFloat64;
  default:
    return std::nullopt; // 16-bit integers: through the host
  }
}

std::optional<int> ncclOpOf(int64_t op) {
  switch (op) {
  case PTENSOR_RT_TEAM_SUM:
    return kNcclSum;
  case PTENSOR_RT_TEAM_PROD:
    return kNcclProd;
  case PTENSOR_RT_TEAM_MAX:
    return kNcclMax;
  case PTENSOR_RT_TEAM_MIN:
    return kNcclMin;
  default:
    return std::nullopt;
  }
}

/// Fails with NCCL's text for `result` of `what` unless it succeeded.
bool ncclOk(ncclResult result, const char *what) {
  if (result == kNcclSuccess)
    return true;
  return setErrorf(PTENSOR_RT_ERROR_CHECK_FAILED, "%s failed: %s", what,
                   nccl.errorString(result));
}

/// Host memory for the staged path, kept for the next call (nothing to
/// free when an error leaves compiled code mid-call); never null when it
/// succeeds, even for no bytes (a process whose block has no rows).
int8_t *hostScratch(size_t bytes) {
  static std::vector<int8_t> scratch;
  if (scratch.size() < bytes || scratch.empty()) {
    try {
      scratch.resize(std::max<size_t>(bytes, 1));
    } catch (const std::bad_alloc &) {
      setErrorf(PTENSOR_RT_ERROR_OUT_OF_MEMORY,
                "cannot allocate %zu bytes of host memory to stage a GPU "
                "collective",
                bytes);
      return nullptr;
    }
  }
  return scratch.data();
}

/// Ends the use of `stream` (mgpuStreamCreate's) as compiled code ends a
/// region of GPU work: nothing on the compute stream; with
/// PTENSOR_SYNC_LAUNCHES=1 (a stream per region) it waits and frees it.
void endStreamRegion(void *stream) {
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

/// Copies `bytes` between the staging host memory (pageable) and the device
/// on compiled code's stream, after the kernels queued there. CUDA returns
/// from a copy to pageable memory when it is done, and from a copy out of
/// it once the host memory was read: the host may use or refill the
/// scratch right after.
void copyStaged(void *dst, void *src, size_t bytes) {
  if (bytes == 0)
    return;
  void *stream = mgpuStreamCreate();
  mgpuMemcpy(dst, src, bytes, stream);
  endStreamRegion(stream);
}

/// The bytes of one element of team type `type` (0 if unknown).
size_t elementBytes(int64_t type) {
  MPI_Datatype mpi = mpiType(type);
  int bytes = 0;
  if (mpi != MPI_DATATYPE_NULL)
    MPI_Type_size(mpi, &bytes);
  return static_cast<size_t>(bytes);
}

/// The MoveBytes of device memory through NCCL: one group of an ncclSend
/// and an ncclRecv per other process with bytes to move, and this
/// process's own range copied on the device, all on compiled code's stream.
bool moveBytesNccl(const Exchange &plan, const char *local, char *result) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ncclResult status = kNcclSuccess;
  {
    Counted counted(plan.bytesToOthers(rank));
    void *stream = mgpuStreamCreate();
    if (int own = plan.sendCounts[rank]; own > 0)
      mgpuMemcpy(result + plan.receiveOffsets[rank],
                 const_cast<char *>(local + plan.sendOffsets[rank]),
                 static_cast<size_t>(own), stream);
    status = nccl.groupStart();
    for (int p = 0; p < size && status == kNcclSuccess; ++p) {
      if (p == rank)
        continue;
      if (plan.sendCounts[p] > 0)
        status = nccl.send(local + plan.sendOffsets[p],
                           static_cast<size_t>(plan.sendCounts[p]),
                           kNcclUint8, p, communicator, stream);
      if (status == kNcclSuccess && plan.receiveCounts[p] > 0)
        status = nccl.recv(result + plan.receiveOffsets[p],
                           static_cast<size_t>(plan.receiveCounts[p]),
                           kNcclUint8, p, communicator, stream);
    }
    ncclResult ended = nccl.groupEnd();
    if (status == kNcclSuccess)
      status = ended;
    endStreamRegion(stream);
  }
  return ncclOk(status, "the NCCL exchange of rows (grouped ncclSend and "
                        "ncclRecv)");
}

/// The resplit of device memory through NCCL: each process's rows for
/// another (one range of `local`) are sent as they are; what comes from
/// each process (its columns of the axis, for every row and mid element of
/// this block) lands packed in `packed`, in rank order, and one strided
/// device copy per sender places its columns in every run of `result`
/// (what MPI's vector type does on the host).
bool resplitNccl(const int8_t *local, int8_t *packed, int8_t *result,
                 int64_t rows, int64_t mid, int64_t splitSize,
                 int64_t innerBytes) {
  ResplitPlan r;
  bool ready = true;
  if (!planResplit(rows, mid, splitSize, innerBytes, r, ready))
    return false;
  if (r.empty)
    return true;
  int size = static_cast<int>(r.columns.size());
  for (int p = 0, at = 0; ready && p < size; ++p) {
    // At most the block's bytes, which fit an int (planResplit).
    int count = static_cast<int>(r.runs * r.columns[p].rows * r.innerBytes);
    r.plan.receiveCounts[p] = count;
    r.plan.receiveOffsets[p] = at;
    at += count;
  }
  if (!everyProcessOk(ready, PTENSOR_RT_ERROR_CHECK_FAILED,
                      "another process of the team could not prepare its "
                      "part of a resplit") ||
      !moveBytesNccl(r.plan, reinterpret_cast<const char *>(local),
                     reinterpret_cast<char *>(packed)))
    return false;
  void *stream = mgpuStreamCreate();
  for (int p = 0; p < size; ++p) {
    auto runBytes = static_cast<size_t>(r.columns[p].rows * r.innerBytes);
    ptensor_rt_gpu_copy_rows(result + r.columns[p].start * r.innerBytes,
                             static_cast<size_t>(r.runPitch),
                             packed + r.plan.receiveOffsets[p], runBytes,
                             runBytes, static_cast<size_t>(r.runs), stream);
  }
  endStreamRegion(stream);
  return true;
}

/// A device buffer of a collective that goes through the host: its bytes,
/// and whether they are copied to the host first (an input).
struct DeviceBuffer {
  int8_t *device;
  int64_t bytes;
  bool input;
};

/// Host copies of `buffers` (at most 4), carved from the scratch in order,
/// the inputs copied from the device; leaves compiled code when the scratch
/// cannot grow.
std::array<int8_t *, 4> stage(std::initializer_list<DeviceBuffer> buffers) {
  size_t total = 0;
  for (const DeviceBuffer &buffer : buffers)
    total += static_cast<size_t>(buffer.bytes);
  int8_t *scratch = hostScratch(total);
  if (!scratch)
    leave();
  std::array<int8_t *, 4> host = {};
  size_t k = 0;
  for (const DeviceBuffer &buffer : buffers) {
    host[k++] = scratch;
    if (buffer.input)
      copyStaged(scratch, buffer.device, static_cast<size_t>(buffer.bytes));
    scratch += buffer.bytes;
  }
  return host;
}

} // namespace

extern "C" {

const char *ptensor_rt_team_gpu_transport(void) {
  switch (transport) {
  case Transport::Nccl:
    return "nccl";
  case Transport::Host:
    return "host";
  default:
    return "";
  }
}

void ptensor_rt_team_allreduce_device(int8_t *, int8_t *data, int64_t offset,
                                      int64_t, int64_t, int64_t count,
                                      int64_t type, int64_t op) {
  if (!ensureInitialized() || !decideTransport())
    leave();
  int8_t *buffer = data + offset;
  std::optional<int> ncclType = ncclTypeOf(type);
  std::optional<int> ncclOp = ncclOpOf(op);
  size_t bytes = elementBytes(type) * static_cast<size_t>(count);
  if (transport == Transport::Nccl && ncclType && ncclOp && count >= 0) {
    ncclResult result;
    {
      Counted counted(static_cast<int64_t>(bytes));
      void *stream = mgpuStreamCreate();
      result = nccl.allReduce(buffer, buffer, static_cast<size_t>(count),
                              *ncclType, *ncclOp, communicator, stream);
      endStreamRegion(stream);
    }
    if (!ncclOk(result, "ncclAllReduce"))
      leave();
    return;
  }
  // Through the host: the host entry checks the type, op and count.
  int8_t *host = stage({{buffer, static_cast<int64_t>(bytes), true}})[0];
  ptensor_rt_team_allreduce(host, host, 0, static_cast<int64_t>(bytes), 1,
                            count, type, op);
  copyStaged(buffer, host, bytes);
}

void ptensor_rt_team_allgather_device(int8_t *, int8_t *local,
                                      int64_t localOffset, int64_t localSize,
                                      int64_t, int8_t *, int8_t *full,
                                      int64_t fullOffset, int64_t fullSize,
                                      int64_t) {
  if (!ensureInitialized() || !decideTransport())
    leave();
  local += localOffset;
  full += fullOffset;
  if (transport == Transport::Nccl) {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int64_t> sizes;
    if (!blockSizes(localSize, sizes))
      leave();
    ncclResult result;
    {
      // NCCL's all-gather wants equal blocks: a broadcast from each
      // process of its block to its place, in one group.
      Counted counted(localSize);
      void *stream = mgpuStreamCreate();
      result = nccl.groupStart();
      int64_t at = 0;
      for (int p = 0; p < size && result == kNcclSuccess; ++p) {
        if (sizes[p] > 0)
          result = nccl.broadcast(p == rank ? local : full + at, full + at,
                                  static_cast<size_t>(sizes[p]), kNcclUint8,
                                  p, communicator, stream);
        at += sizes[p];
      }
      ncclResult ended = nccl.groupEnd();
      if (result == kNcclSuccess)
        result = ended;
      endStreamRegion(stream);
    }
    if (!ncclOk(result, "the NCCL gather (grouped ncclBroadcast)"))
      leave();
    return;
  }
  auto staged = stage({{local, localSize, true}, {full, fullSize, false}});
  int8_t *host = staged[0], *hostFull = staged[1];
  bool gathered;
  {
    Counted counted(localSize);
    gathered = gather(host, localSize, hostFull);
  }
  if (!gathered)
    leave();
  copyStaged(full, hostFull, static_cast<size_t>(fullSize));
}

void ptensor_rt_team_slice_rows_device(
    int8_t *, int8_t *held, int64_t heldOffset, int64_t heldSize, int64_t,
    int8_t *, int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t, int64_t rowBytes, int64_t sourceRows, int64_t offset,
    int64_t step, int64_t rows, int64_t resultRows, int64_t at) {
  if (!ensureInitialized() || !decideTransport())
    leave();
  held += heldOffset;
  result += resultOffset;
  if (transport == Transport::Nccl) {
    if (!sliceRows(reinterpret_cast<const char *>(held), heldSize,
                   reinterpret_cast<char *>(result), rowBytes, sourceRows,
                   offset, step, rows, resultRows, at, moveBytesNccl))
      leave();
    return;
  }
  // Through the host: the result comes too, as the other slices of a roll
  // or concat fill its other rows.
  auto staged = stage({{held, heldSize, true}, {result, resultSize, true}});
  int8_t *hostHeld = staged[0], *hostResult = staged[1];
  ptensor_rt_team_slice_rows(hostHeld, hostHeld, 0, heldSize, 1, hostResult,
                             hostResult, 0, resultSize, 1, rowBytes,
                             sourceRows, offset, step, rows, resultRows, at);
  copyStaged(result, hostResult, static_cast<size_t>(resultSize));
}

void ptensor_rt_team_reblock_device(
    int8_t *, int8_t *local, int64_t localOffset, int64_t localSize, int64_t,
    int8_t *, int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t, int64_t sourceRows, int64_t sourceRowElements, int64_t rows,
    int64_t rowElements, int64_t elementBytes, int64_t localRows) {
  if (!ensureInitialized() || !decideTransport())
    leave();
  local += localOffset;
  result += resultOffset;
  if (transport == Transport::Nccl) {
    if (!reblock(reinterpret_cast<const char *>(local),
                 reinterpret_cast<char *>(result), sourceRows,
                 sourceRowElements, rows, rowElements, elementBytes,
                 localRows, moveBytesNccl))
      leave();
    return;
  }
  auto staged = stage({{local, localSize, true}, {result, resultSize, false}});
  int8_t *hostLocal = staged[0], *hostResult = staged[1];
  ptensor_rt_team_reblock(hostLocal, hostLocal, 0, localSize, 1, hostResult,
                          hostResult, 0, resultSize, 1, sourceRows,
                          sourceRowElements, rows, rowElements, elementBytes,
                          localRows);
  copyStaged(result, hostResult, static_cast<size_t>(resultSize));
}

void ptensor_rt_team_resplit_device(
    int8_t *, int8_t *local, int64_t localOffset, int64_t localSize, int64_t,
    int8_t *, int8_t *packed, int64_t packedOffset, int64_t, int64_t,
    int8_t *, int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t, int64_t rows, int64_t mid, int64_t splitSize,
    int64_t innerBytes) {
  if (!ensureInitialized() || !decideTransport())
    leave();
  local += localOffset;
  result += resultOffset;
  if (transport == Transport::Nccl) {
    if (!resplitNccl(local, packed + packedOffset, result, rows, mid,
                     splitSize, innerBytes))
      leave();
    return;
  }
  auto staged = stage({{local, localSize, true}, {result, resultSize, false}});
  int8_t *hostLocal = staged[0], *hostResult = staged[1];
  ptensor_rt_team_resplit(hostLocal, hostLocal, 0, localSize, 1, hostResult,
                          hostResult, 0, resultSize, 1, rows, mid, splitSize,
                          innerBytes);
  copyStaged(result, hostResult, static_cast<size_t>(resultSize));
}

int64_t ptensor_rt_team_exchange_rows_device(int8_t *, int8_t *ends,
                                             int64_t endsOffset,
                                             int64_t endsSize, int64_t,
                                             int64_t localRows,
                                             int64_t rowBytes) {
  auto staged = stage({{ends + endsOffset, endsSize, true}});
  int8_t *hostEnds = staged[0];
  return ptensor_rt_team_exchange_rows(hostEnds, hostEnds, 0, endsSize, 1,
                                       localRows, rowBytes);
}

void ptensor_rt_team_exchange_device(
    int8_t *, int8_t *local, int64_t localOffset, int64_t localSize, int64_t,
    int8_t *, int8_t *result, int64_t resultOffset, int64_t resultSize,
    int64_t, int8_t *, int8_t *ends, int64_t endsOffset, int64_t endsSize,
    int64_t, int8_t *, int8_t *runEnds, int64_t runEndsOffset,
    int64_t runEndsSize, int64_t, int64_t localRows, int64_t rowBytes,
    int64_t receivedRows) {
  if (!ensureInitialized() || !decideTransport())
    leave();
  local += localOffset;
  result += resultOffset;
  runEnds += runEndsOffset;
  // The run ends are read and written on the host; the rows stay on the
  // GPU with NCCL.
  bool nccl = transport == Transport::Nccl;
  DeviceBuffer endsBuffer{ends + endsOffset, endsSize, true};
  DeviceBuffer runEndsBuffer{runEnds, runEndsSize, false};
  auto staged = nccl ? stage({endsBuffer, runEndsBuffer})
                     : stage({endsBuffer, runEndsBuffer,
                              {local, localSize, true},
                              {result, resultSize, false}});
  auto [hostEnds, hostRunEnds, hostLocal, hostResult] = staged;
  if (nccl) {
    constexpr int64_t kEndBytes = sizeof(int64_t);
    if (!exchange(reinterpret_cast<const char *>(local),
                  reinterpret_cast<char *>(result),
                  reinterpret_cast<const int64_t *>(hostEnds),
                  endsSize / kEndBytes, localRows, rowBytes, receivedRows,
                  reinterpret_cast<int64_t *>(hostRunEnds),
                  runEndsSize / kEndBytes, moveBytesNccl))
      leave();
  } else {
    ptensor_rt_team_exchange(hostLocal, hostLocal, 0, localSize, 1,
                             hostResult, hostResult, 0, resultSize, 1,
                             hostEnds, hostEnds, 0, endsSize, 1, hostRunEnds,
                             hostRunEnds, 0, runEndsSize, 1, localRows,
                             rowBytes, receivedRows);
    copyStaged(result, hostResult, static_cast<size_t>(resultSize));
  }
  copyStaged(runEnds, hostRunEnds, static_cast<size_t>(runEndsSize));
}

} // extern "C"
