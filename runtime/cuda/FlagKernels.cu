//===- FlagKernels.cu - ptensor's own count and select of flags -----------===//
//
// FlagKernels.cuh's countContiguous and selectAligned: each thread reads
// 16 flags at once (a uint4) and compares their bytes with __vcmpne4.
//
//===----------------------------------------------------------------------===//

#include "FlagKernels.cuh"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>

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
/// array. CUB's DeviceSelect::Flagged reads the flags a byte per item;
/// here they are read 16 per thread and the positions written through
/// shared memory, so that a warp's stores cover one contiguous range:
///  1. countChunks: a warp per chunk of kChunkFlags flags counts its true
///     ones;
///  2. DeviceScan::ExclusiveSum of the counts: each chunk's first output;
///  3. writeChunks: a warp per chunk again, in rounds of kRoundFlags flags
///     (16 per lane): each lane's true flags as a 16-bit mask, their
///     prefix sum over the warp (shuffles), each lane's positions into the
///     warp's shared buffer (as offsets in the round), then the warp copies
///     the round's positions to the output, contiguous.
constexpr int kWarp = 32;
constexpr int kLaneFlags = 16;
constexpr int kRoundFlags = kWarp * kLaneFlags;
constexpr int kChunkRounds = 8;
constexpr int64_t kChunkFlags = int64_t(kRoundFlags) * kChunkRounds;
constexpr int kWarpsPerBlock = 8;

/// Bit j set where byte j of `word` is not 0 (j = 0..3).
__device__ inline uint32_t nonzeroByteMask(uint32_t word) {
  // __vcmpne4 makes each byte 0xff or 0; the multiply gathers the four
  // top bits (7, 15, 23, 31) into bits 28..31 without carries.
  uint32_t top = __vcmpne4(word, 0) & 0x80808080u;
  return (top * 0x00204081u) >> 28;
}

/// Lane `lane`'s kLaneFlags flags of the round at `start` as a mask (bit j:
/// flag start + lane * kLaneFlags + j); past `n` false.
__device__ inline uint32_t roundMask(const uint8_t *flags, int64_t start,
                                     int64_t n, int lane) {
  int64_t first = start + int64_t(lane) * kLaneFlags;
  if (start + kRoundFlags <= n) {
    uint4 v = *reinterpret_cast<const uint4 *>(flags + first);
    return nonzeroByteMask(v.x) | nonzeroByteMask(v.y) << 4 |
           nonzeroByteMask(v.z) << 8 | nonzeroByteMask(v.w) << 12;
  }
  uint32_t mask = 0;
  for (int j = 0; j < kLaneFlags; ++j)
    if (first + j < n && flags[first + j] != 0)
      mask |= 1u << j;
  return mask;
}

/// Lane `lane`'s masks of every round of the chunk starting at `start`
/// (all loads issued before any is used).
__device__ inline void chunkMasks(const uint8_t *flags, int64_t start,
                                  int64_t n, int lane,
                                  uint32_t (&masks)[kChunkRounds]) {
#pragma unroll
  for (int r = 0; r < kChunkRounds; ++r)
    masks[r] = roundMask(flags, start + int64_t(r) * kRoundFlags, n, lane);
}

__global__ void countChunks(const uint8_t *flags, int64_t n, int64_t chunks,
                            int64_t *counts) {
  int lane = threadIdx.x % kWarp;
  int64_t chunk = int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / kWarp;
  if (chunk >= chunks)
    return;
  uint32_t masks[kChunkRounds];
  chunkMasks(flags, chunk * kChunkFlags, n, lane, masks);
  int count = 0;
#pragma unroll
  for (int r = 0; r < kChunkRounds; ++r)
    count += __popc(masks[r]);
  count = __reduce_add_sync(0xffffffffu, count);
  if (lane == 0)
    counts[chunk] = count;
}

__global__ void writeChunks(const uint8_t *flags, int64_t n, int64_t chunks,
                            const int64_t *firsts, int64_t *positions) {
  __shared__ uint16_t staged[kWarpsPerBlock][kRoundFlags];
  int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  int64_t chunk = int64_t(blockIdx.x) * kWarpsPerBlock + warp;
  if (chunk >= chunks)
    return;
  int64_t start = chunk * kChunkFlags;
  uint32_t masks[kChunkRounds];
  chunkMasks(flags, start, n, lane, masks);
  int64_t out = firsts[chunk];
  uint16_t *stage = staged[warp];
#pragma unroll
  for (int r = 0; r < kChunkRounds; ++r) {
    uint32_t mask = masks[r];
    // The warp's inclusive prefix sum of the lanes' counts.
    int count = __popc(mask), before = count;
#pragma unroll
    for (int d = 1; d < kWarp; d *= 2) {
      int other = __shfl_up_sync(0xffffffffu, before, d);
      if (lane >= d)
        before += other;
    }
    int total = __shfl_sync(0xffffffffu, before, kWarp - 1);
    before -= count;
    for (int k = before; mask; ++k, mask &= mask - 1)
      stage[k] = uint16_t(lane * kLaneFlags + __ffs(mask) - 1);
    __syncwarp();
    int64_t round = start + int64_t(r) * kRoundFlags;
    for (int i = lane; i < total; i += kWarp)
      positions[out + i] = round + stage[i];
    __syncwarp();
    out += total;
  }
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
  int device = 0, multiprocessors = 0;
  if (cudaError_t status = cudaGetDevice(&device))
    return fail(error, errorSize, "finding the current device", status);
  if (cudaError_t status = cudaDeviceGetAttribute(
          &multiprocessors, cudaDevAttrMultiProcessorCount, device))
    return fail(error, errorSize, "reading the multiprocessor count", status);
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
                  size_t errorSize) {
  if (n == 0)
    return 0;
  int64_t chunks = (n + kChunkFlags - 1) / kChunkFlags;
  int64_t *counts = s.get<int64_t>(size_t(chunks));
  int64_t *firsts = s.get<int64_t>(size_t(chunks));
  if (!counts || !firsts)
    return outOfMemoryFor(error, errorSize, "the chunks' counts");
  auto blocks = unsigned((chunks + kWarpsPerBlock - 1) / kWarpsPerBlock);
  constexpr int kThreads = kWarp * kWarpsPerBlock;
  countChunks<<<blocks, kThreads, 0, stream>>>(flags, n, chunks, counts);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the chunk count kernel", status);
  auto scan = [&](void *temp, size_t &bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, counts, firsts, chunks,
                                         stream);
  };
  if (runCub(s, "CUB's DeviceScan::ExclusiveSum", scan, error, errorSize))
    return 1;
  writeChunks<<<blocks, kThreads, 0, stream>>>(flags, n, chunks, firsts,
                                               positions);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the position kernel", status);
  return 0;
}

} // namespace ptensor::rt::gpu
