//===- FlagKernels.cu - ptensor's own count and select of flags -----------===//
//
// FlagKernels.cuh's countContiguous and selectAligned: each thread reads
// 16 flags at once (a uint4) and compares their bytes with __vcmpne4.
//
//===----------------------------------------------------------------------===//

#include "FlagKernels.cuh"

#include <cub/block/block_reduce.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <climits>

namespace ptensor::rt::gpu {
namespace {

/// The number of nonzero bytes of a 32-bit word.
__device__ __forceinline__ unsigned nonzeroByteCount(unsigned word) {
  return __popc(__vcmpne4(word, 0u)) >> 3;
}

constexpr int kCountBlock = 256;

/// Adds the number of nonzero bytes of `words` (16-byte aligned), of the
/// `head` bytes before them and of the `tail` bytes after them (each fewer
/// than 16, counted by the first block) to `count`. Each block sums its
/// part and adds it once.
__global__ void __launch_bounds__(kCountBlock)
    countNonzeroBytes(const uint8_t *head, int headBytes, const uint4 *words,
                      int64_t wordCount, int tailBytes,
                      unsigned long long *count) {
  unsigned long long local = 0;
  for (int64_t i = blockIdx.x * int64_t(kCountBlock) + threadIdx.x;
       i < wordCount; i += int64_t(gridDim.x) * kCountBlock) {
    uint4 w = words[i];
    local += nonzeroByteCount(w.x) + nonzeroByteCount(w.y) +
             nonzeroByteCount(w.z) + nonzeroByteCount(w.w);
  }
  if (blockIdx.x == 0) {
    if (int(threadIdx.x) < headBytes)
      local += head[threadIdx.x] != 0;
    const uint8_t *tail = reinterpret_cast<const uint8_t *>(words + wordCount);
    int t = int(threadIdx.x) - 16;
    if (t >= 0 && t < tailBytes)
      local += tail[t] != 0;
  }
  using Reduce = cub::BlockReduce<unsigned long long, kCountBlock>;
  __shared__ typename Reduce::TempStorage temp;
  unsigned long long total = Reduce(temp).Sum(local);
  if (threadIdx.x == 0 && total)
    atomicAdd(count, total);
}

/// The positions of the true flags of a contiguous, 16-byte aligned flag
/// array, in one pass over the flags (a decoupled look-back, Merrill and
/// Garland's single-pass prefix scan). CUB's DeviceSelect::Flagged reads
/// the flags a byte per item; here a warp takes a chunk of kChunkFlags
/// flags, reads them 16 per lane, and:
///  1. counts its true flags and publishes the count in its chunk state;
///  2. looks back over the states of the chunks before it, 32 at a time,
///     until one has published its inclusive prefix: the sum is its first
///     output, and it publishes its own inclusive prefix;
///  3. writes its positions in rounds of kRoundFlags flags: each lane's
///     true flags as a 16-bit mask, their prefix sum over the warp
///     (shuffles), each lane's positions into the warp's shared buffer (as
///     offsets in the round), then the warp copies the round's positions
///     to the output, contiguous.
/// Chunks are numbered in the order warps take them (a ticket), so every
/// chunk a warp waits for belongs to a warp already running. The grid is
/// as many warps as run at once, each taking chunks until none is left.
/// On the H100, 2^26 flags half true (bench/micro/select_flags.cu, stop
/// 89): 151 us against 188-194 for the three kernels before (a count of
/// the chunks, CUB's scan of the counts, the writes); a warp per chunk of
/// 4096 or 8192 flags without the loop took 175 and 165, the loop with
/// chunks of 2048 or 4096 flags 180 and 162.
constexpr int kWarp = 32;
constexpr int kLaneFlags = 16;
constexpr int kRoundFlags = kWarp * kLaneFlags;
constexpr int kChunkRounds = 16;
constexpr int64_t kChunkFlags = int64_t(kRoundFlags) * kChunkRounds;
constexpr int kWarpsPerBlock = 8;
constexpr unsigned kAllLanes = 0xffffffffu;

/// A chunk's state: 0 until it has counted its flags, then kAggregate with
/// its count, then kInclusive with the count up to its end (bits 0..61).
using ChunkState = unsigned long long;
constexpr ChunkState kAggregate = 1ull << 62;
constexpr ChunkState kInclusive = 2ull << 62;
constexpr ChunkState kCountBits = kAggregate - 1;

/// The state words are read and written whole (a relaxed 64-bit access at
/// device scope): the count travels in the word that says it is ready.
__device__ inline ChunkState loadState(const ChunkState *state) {
  // (atomic_ref of a const type is C++26: the load does not write.)
  return cuda::atomic_ref<ChunkState, cuda::thread_scope_device>(
             *const_cast<ChunkState *>(state))
      .load(cuda::memory_order_relaxed);
}
__device__ inline void storeState(ChunkState *state, ChunkState value) {
  cuda::atomic_ref<ChunkState, cuda::thread_scope_device>(*state).store(
      value, cuda::memory_order_relaxed);
}

/// Bit j set where byte j of `word` is not 0 (j = 0..3).
__device__ inline uint32_t nonzeroByteMask(uint32_t word) {
  // __vcmpne4 makes each byte 0xff or 0; the multiply gathers the four
  // top bits (7, 15, 23, 31) into bits 28..31 without carries.
  uint32_t top = __vcmpne4(word, 0) & 0x80808080u;
  return (top * 0x00204081u) >> 28;
}

/// Lane `lane`'s flags of the chunk at `start`: its 16 of each full round
/// (kRoundFlags of them before `n`), all loads issued at once. The words
/// of other rounds keep what they held: roundMask reads those rounds' flags
/// itself (the same test of a full round).
__device__ inline void loadChunk(const uint8_t *flags, int64_t start, int64_t n,
                                 int lane, uint4 (&words)[kChunkRounds]) {
#pragma unroll
  for (int r = 0; r < kChunkRounds; ++r) {
    int64_t round = start + int64_t(r) * kRoundFlags;
    if (round + kRoundFlags <= n)
      words[r] = *reinterpret_cast<const uint4 *>(flags + round +
                                                  int64_t(lane) * kLaneFlags);
  }
}

/// Lane `lane`'s kLaneFlags flags of the round at `round` as a mask (bit j:
/// flag round + lane * kLaneFlags + j; past `n` false): from `words`, the
/// lane's load of a full round.
__device__ inline uint32_t roundMask(const uint4 &words, const uint8_t *flags,
                                     int64_t round, int64_t n, int lane) {
  if (round + kRoundFlags <= n)
    return nonzeroByteMask(words.x) | nonzeroByteMask(words.y) << 4 |
           nonzeroByteMask(words.z) << 8 | nonzeroByteMask(words.w) << 12;
  int64_t first = round + int64_t(lane) * kLaneFlags;
  uint32_t mask = 0;
  for (int j = 0; j < kLaneFlags; ++j)
    if (first + j < n && flags[first + j] != 0)
      mask |= 1u << j;
  return mask;
}

/// The number of true flags before chunk `chunk` (> 0), whose own count
/// the warp has published: the states of the chunks before it, read 32 at
/// a time (lane i reads chunk end - 1 - i), summed back to the first
/// inclusive one. Every lane returns it.
__device__ int64_t countBefore(const ChunkState *states, int64_t chunk,
                               int lane) {
  int64_t before = 0;
  for (int64_t end = chunk;; end -= kWarp) {
    int64_t j = end - 1 - lane;
    // Before chunk 0 nothing is counted: an inclusive 0.
    ChunkState state = j >= 0 ? loadState(states + j) : kInclusive;
    while (__any_sync(kAllLanes, state == 0))
      if (state == 0)
        state = loadState(states + j);
    unsigned inclusive = __ballot_sync(kAllLanes, state >= kInclusive);
    // Lanes past the first inclusive state read chunks it covers.
    int last = inclusive ? __ffs(inclusive) - 1 : kWarp - 1;
    ChunkState count = lane <= last ? state & kCountBits : 0;
    // Aggregates are at most kChunkFlags; the inclusive one may not fit
    // 32 bits.
    if (inclusive) {
      before += int64_t(__shfl_sync(kAllLanes, count, last));
      if (lane == last)
        count = 0;
    }
    before += __reduce_add_sync(kAllLanes, unsigned(count));
    if (inclusive)
      return before;
  }
}

/// The warp's next chunk (every lane gets it).
__device__ inline int64_t takeTicket(unsigned *tickets, int lane) {
  unsigned ticket = lane == 0 ? atomicAdd(tickets, 1u) : 0;
  return __shfl_sync(kAllLanes, ticket, 0);
}

/// The warp's copy of the `total` staged positions (offsets in the round
/// at `round`) to `to`, in pairs (16-byte stores: 151 us against 160 with
/// 8-byte ones for the bench's 2^26 flags); a first and a last position
/// that have no pair alone.
__device__ inline void copyRound(const uint16_t *stage, int total,
                                 int64_t round, int lane, int64_t *to) {
  // `to` is 8-byte aligned: the pairs start at the first 16-byte boundary.
  int first = int((reinterpret_cast<uintptr_t>(to) / 8) & 1);
  if (lane == 0 && first && total > 0)
    to[0] = round + stage[0];
  for (int i = first + 2 * lane; i + 1 < total; i += 2 * kWarp)
    *reinterpret_cast<longlong2 *>(to + i) =
        make_longlong2(round + stage[i], round + stage[i + 1]);
  if (lane == 0 && total > first && (total - first) % 2)
    to[total - 1] = round + stage[total - 1];
}

/// Writes the positions of the true flags of the chunk at `start` (lane
/// masks `masks`) to `positions` from `out` on, through `stage`, the
/// warp's buffer.
__device__ inline void writeChunk(const uint32_t (&masks)[kChunkRounds],
                                  int64_t start, int64_t out, int lane,
                                  uint16_t *stage, int64_t *positions) {
#pragma unroll
  for (int r = 0; r < kChunkRounds; ++r) {
    uint32_t mask = masks[r];
    // The warp's inclusive prefix sum of the lanes' counts.
    int laneCount = __popc(mask), upTo = laneCount;
#pragma unroll
    for (int d = 1; d < kWarp; d *= 2) {
      int other = __shfl_up_sync(kAllLanes, upTo, d);
      if (lane >= d)
        upTo += other;
    }
    int total = __shfl_sync(kAllLanes, upTo, kWarp - 1);
    for (int k = upTo - laneCount; mask; ++k, mask &= mask - 1)
      stage[k] = uint16_t(lane * kLaneFlags + __ffs(mask) - 1);
    __syncwarp();
    copyRound(stage, total, start + int64_t(r) * kRoundFlags, lane,
              positions + out);
    __syncwarp();
    out += total;
  }
}

/// A warp takes chunks until none is left. It loads the next chunk's flags
/// before it writes this one's positions, so the loads are in flight while
/// it stores.
__global__ void __launch_bounds__(kWarp *kWarpsPerBlock)
    selectChunks(const uint8_t *flags, int64_t n, int64_t chunks,
                 unsigned *tickets, ChunkState *states, int64_t *positions) {
  __shared__ uint16_t staged[kWarpsPerBlock][kRoundFlags];
  int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  uint4 words[kChunkRounds] = {}; // (only defined: roundMask ignores them)
  int64_t chunk = takeTicket(tickets, lane);
  if (chunk < chunks)
    loadChunk(flags, chunk * kChunkFlags, n, lane, words);
  while (chunk < chunks) {
    int64_t start = chunk * kChunkFlags;
    uint32_t masks[kChunkRounds];
    int count = 0;
#pragma unroll
    for (int r = 0; r < kChunkRounds; ++r) {
      masks[r] =
          roundMask(words[r], flags, start + int64_t(r) * kRoundFlags, n, lane);
      count += __popc(masks[r]);
    }
    count = __reduce_add_sync(kAllLanes, count);
    int64_t out = 0;
    if (chunk == 0) {
      if (lane == 0)
        storeState(states, kInclusive | ChunkState(count));
    } else {
      if (lane == 0)
        storeState(states + chunk, kAggregate | ChunkState(count));
      out = countBefore(states, chunk, lane);
      if (lane == 0)
        storeState(states + chunk, kInclusive | ChunkState(out + count));
    }
    int64_t next = takeTicket(tickets, lane);
    if (next < chunks)
      loadChunk(flags, next * kChunkFlags, n, lane, words);
    writeChunk(masks, start, out, lane, staged[warp], positions);
    chunk = next;
  }
}

/// Sets `count` to the current device's number of multiprocessors (the
/// kernels' grids are sized by it). Returns 0, or 1 with a message in
/// `error`.
int multiprocessorCount(int &count, char *error, size_t errorSize) {
  int device = 0;
  if (cudaError_t status = cudaGetDevice(&device))
    return fail(error, errorSize, "finding the current device", status);
  if (cudaError_t status = cudaDeviceGetAttribute(
          &count, cudaDevAttrMultiProcessorCount, device))
    return fail(error, errorSize, "reading the multiprocessor count", status);
  return 0;
}

} // namespace

int countContiguous(const uint8_t *flags, int64_t n, int64_t *count,
                    cudaStream_t stream, char *error, size_t errorSize) {
  if (cudaError_t status = cudaMemsetAsync(count, 0, sizeof(int64_t), stream))
    return fail(error, errorSize, "clearing the count", status);
  int64_t headBytes =
      (16 - int64_t(reinterpret_cast<uintptr_t>(flags) % 16)) % 16;
  if (headBytes > n)
    headBytes = n;
  int64_t wordCount = (n - headBytes) / 16;
  int64_t tailBytes = n - headBytes - wordCount * 16;
  int multiprocessors = 0;
  if (multiprocessorCount(multiprocessors, error, errorSize))
    return 1;
  int64_t wanted = (wordCount + kCountBlock - 1) / kCountBlock;
  int64_t most = int64_t(multiprocessors) * 8;
  unsigned blocks = unsigned(wanted < 1 ? 1 : (wanted < most ? wanted : most));
  countNonzeroBytes<<<blocks, kCountBlock, 0, stream>>>(
      flags, int(headBytes), reinterpret_cast<const uint4 *>(flags + headBytes),
      wordCount, int(tailBytes), reinterpret_cast<unsigned long long *>(count));
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the count kernel", status);
  return 0;
}

int selectAligned(Scratch &s, const uint8_t *flags, int64_t n,
                  int64_t *positions, cudaStream_t stream, char *error,
                  size_t errorSize, int maxBlocks) {
  if (n == 0)
    return 0;
  int64_t chunks = (n + kChunkFlags - 1) / kChunkFlags;
  // Tickets (32-bit) run to chunks plus the grid's warps. (2^31 chunks are
  // 2^44 flags: more than a device holds.)
  if (chunks > int64_t(INT_MAX))
    return fail(error, errorSize, "the position kernel (too many flags)",
                cudaErrorInvalidValue);
  // The ticket counter (an unsigned in the first word), then a state per
  // chunk, all cleared.
  auto *words = s.get<ChunkState>(size_t(chunks) + 1);
  if (!words)
    return outOfMemoryFor(error, errorSize, "the chunks' states");
  size_t bytes = (size_t(chunks) + 1) * sizeof(ChunkState);
  if (cudaError_t status = cudaMemsetAsync(words, 0, bytes, stream))
    return fail(error, errorSize, "clearing the chunks' states", status);
  // As many warps as run at once (each takes chunks until none is left),
  // at most a block per kWarpsPerBlock chunks; fewer when `maxBlocks` > 0.
  constexpr int kThreads = kWarp * kWarpsPerBlock;
  int multiprocessors = 0, perMultiprocessor = 0;
  if (multiprocessorCount(multiprocessors, error, errorSize))
    return 1;
  if (cudaError_t status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &perMultiprocessor, selectChunks, kThreads, 0))
    return fail(error, errorSize, "the position kernel's occupancy", status);
  int64_t resident = int64_t(multiprocessors) * std::max(perMultiprocessor, 1);
  if (maxBlocks > 0)
    resident = std::min(resident, int64_t(maxBlocks));
  auto blocks = unsigned(
      std::min((chunks + kWarpsPerBlock - 1) / kWarpsPerBlock, resident));
  selectChunks<<<blocks, kThreads, 0, stream>>>(
      flags, n, chunks, reinterpret_cast<unsigned *>(words), words + 1,
      positions);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the position kernel", status);
  return 0;
}

} // namespace ptensor::rt::gpu
