//===- SortKernels.cu - GPU sort along a dim, around CUB -------------------===//
//
// libptensor_runtime_cuda: ptensor_cuda_sort (SortKernels.h), called by
// libptensor_runtime's ptensor_rt_gpu_sort. Three steps on the caller's
// stream: a gather kernel reads the (strided) input line by line into
// contiguous scratch, CUB sorts it — DeviceRadixSort for one line,
// DeviceSegmentedSort for many, both stable, so ties keep their order in
// both directions — and a scatter kernel writes the (strided) outputs.
// Many lines too long for the segmented sort's warp merge sorts and of up
// to 4096 elements (1024 of 8 bytes) take one kernel instead: a warp
// (lines of up to 256: cub::WarpMergeSort) or a block (cub::BlockRadixSort)
// reads a line, sorts its (key, bits) or (key, position) pairs, stably, and
// writes it.
//  - argsort: the scratch holds each element's unsigned key (SortKeys.h:
//    the one owner of the order) and its position; CUB sorts the pairs.
//  - sorted values: only keys are sorted. Integers and bools as their
//    unsigned keys, which give the bits back. Floats of one line as CUB's
//    own float keys (__half, __nv_bfloat16, float, double), whose radix
//    order is ours — -0.0 equal to 0.0, so their input order is kept, and
//    NaNs after +inf (before it, descending) once the gather clears the
//    sign of negative NaNs; the NaNs then come out positive, the only
//    difference from numpy's result — and which are written back as they
//    are. A contiguous line into a contiguous result skips the gather: CUB
//    reads the input itself, and two kernels that return at once unless
//    the line has negative NaNs move those to the NaNs' end afterwards.
//    Floats of many lines as unsigned keys that keep every bit (the
//    segmented sort compares short segments with `<`, which NaNs break),
//    -0.0's below 0.0's, so a kernel puts the zeros back in input order
//    where there is a -0.0.
// One line of integer keys is radix-sorted only over the bits where its
// keys differ (one reduction first, radixBits): a narrow range of values
// takes a few passes. Scratch comes from the runtime's caching allocator,
// released in stream order.
//
//===----------------------------------------------------------------------===//

#include "CubSupport.cuh"
#include "SortKernels.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <type_traits>
#include <utility>

using namespace ptensor::rt;
using namespace ptensor::rt::gpu;

namespace {

/// The dims of a call, as kernel parameters.
struct Geometry {
  int32_t rank, dim;
  int64_t n; ///< the line length
  int64_t sizes[kMaxSortRank];
};

/// The offset of element j of line `line` in a buffer with `strides`.
__device__ int64_t elementOffset(const Geometry &g, const int64_t *strides,
                                 int64_t line, int64_t j) {
  return j * strides[g.dim] +
         sortLineOffset(g.rank, g.dim, g.sizes, strides, line);
}

/// Calls fn(i, line, j) for each element i of the `total` elements of the
/// lines laid end to end (element j of line `line`): a grid-stride loop.
template <typename Fn>
__device__ void forEachElement(const Geometry &g, int64_t total, Fn fn) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x)
    fn(i, i / g.n, i % g.n);
}

/// The strides of the three buffers, as kernel parameters.
struct Strides {
  int64_t input[kMaxSortRank], values[kMaxSortRank], indices[kMaxSortRank];
};

template <typename U>
__global__ void gatherKeys(Geometry g, Strides st, SortFormat f,
                           bool descending, const U *input, U *sortKeys,
                           int32_t *positions, U *bits, int64_t total) {
  forEachElement(g, total, [&](int64_t i, int64_t line, int64_t j) {
    U b = input[elementOffset(g, st.input, line, j)];
    if (bits)
      bits[i] = b;
    sortKeys[i] = sortKeyOf(b, f, descending);
    if (positions)
      positions[i] = int32_t(j);
  });
}

template <typename U>
__global__ void scatterSorted(Geometry g, Strides st, U *values,
                              int64_t *indices, const int32_t *positions,
                              const U *bits, int64_t total) {
  forEachElement(g, total, [&](int64_t i, int64_t line, int64_t j) {
    int32_t p = positions[i];
    if (values)
      values[elementOffset(g, st.values, line, j)] = bits[line * g.n + p];
    if (indices)
      indices[elementOffset(g, st.indices, line, j)] = p;
  });
}

/// The values path's gather: floats' bits (negative NaNs made positive),
/// other orders' unsigned keys.
template <typename U>
__global__ void gatherValues(Geometry g, Strides st, SortFormat f,
                             bool descending, const U *input, U *keys,
                             int64_t total) {
  forEachElement(g, total, [&](int64_t i, int64_t line, int64_t j) {
    U b = input[elementOffset(g, st.input, line, j)];
    keys[i] = f.order == SortOrder::Float ? positiveNaNs(b, f)
                                          : sortKeyOf(b, f, descending);
  });
}

/// The values path's scatter: the sorted floats as they are, other
/// orders' elements from their keys.
template <typename U>
__global__ void scatterValues(Geometry g, Strides st, SortFormat f,
                              bool descending, U *values, const U *keys,
                              int64_t total) {
  forEachElement(g, total, [&](int64_t i, int64_t line, int64_t j) {
    U k = keys[i];
    values[elementOffset(g, st.values, line, j)] =
        f.order == SortOrder::Float ? k : sortBitsOf(k, f, descending);
  });
}

__global__ void lineOffsets(int64_t *offsets, int64_t lines, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i <= lines;
       i += int64_t(gridDim.x) * blockDim.x)
    offsets[i] = i * n;
}

/// Blocks of 256 threads for `count` elements, capped (grid-stride loops).
unsigned blocksFor(int64_t count) {
  int64_t blocks = (count + 255) / 256;
  return unsigned(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536);
}

/// The offsets of the lines (lines + 1 of them) for the segmented sorts,
/// or null for one line; false when out of memory or the kernel fails.
int64_t *lineOffsetsFor(Scratch &s, const Geometry &g, int64_t lines,
                        cudaStream_t stream, bool &ok) {
  ok = true;
  if (lines == 1)
    return nullptr;
  int64_t *offsets = s.get<int64_t>(lines + 1);
  ok = offsets != nullptr;
  if (ok) {
    lineOffsets<<<blocksFor(lines + 1), 256, 0, stream>>>(offsets, lines, g.n);
    ok = cudaGetLastError() == cudaSuccess;
  }
  return offsets;
}

int outOfMemory(char *error, size_t errorSize, int64_t total) {
  std::snprintf(error, errorSize, "out of device memory for the scratch of "
                "a sort of %lld elements", static_cast<long long>(total));
  return 1;
}

/// The AND and the OR of keys: the bits set in some and clear in others
/// are `any ^ all`.
template <typename U> struct KeyBits {
  U all, any;
};

template <typename U> struct ToKeyBits {
  __device__ KeyBits<U> operator()(U key) const { return {key, key}; }
};

template <typename U> struct CombineKeyBits {
  __device__ KeyBits<U> operator()(KeyBits<U> a, KeyBits<U> b) const {
    return {U(a.all & b.all), U(a.any | b.any)};
  }
};

/// The bits [begin, end) of the radix sort of one line of `total` unsigned
/// keys: those where the keys differ (the others are equal in every key,
/// so the order by these bits alone is the same, and equal keys keep their
/// order as the sort is stable). Integers of a narrow range — unique's
/// usual input — then take a few radix passes instead of one per digit of
/// the width. One reduction and a wait for the stream; the full width for
/// short lines, where that would not pay.
template <typename U>
int radixBits(Scratch &s, const U *keys, int64_t total, cudaStream_t stream,
              int &begin, int &end, char *error, size_t errorSize) {
  begin = 0;
  end = int(sizeof(U) * 8);
  if (total < (int64_t(1) << 16))
    return 0;
  KeyBits<U> *result = s.get<KeyBits<U>>(1);
  if (!result)
    return outOfMemoryFor(error, errorSize, "the keys' bit range");
  auto run = [&](void *temp, size_t &bytes) {
    return cub::DeviceReduce::TransformReduce(
        temp, bytes, keys, result, total, CombineKeyBits<U>{}, ToKeyBits<U>{},
        KeyBits<U>{U(~U(0)), U(0)}, stream);
  };
  if (int failed = runCub(s, "CUB's DeviceReduce (key bits)", run, error,
                          errorSize))
    return failed;
  KeyBits<U> bits;
  if (cudaError_t status = cudaMemcpyAsync(&bits, result, sizeof bits,
                                           cudaMemcpyDeviceToHost, stream))
    return fail(error, errorSize, "copying the keys' bit range", status);
  if (cudaError_t status = cudaStreamSynchronize(stream))
    return fail(error, errorSize, "waiting for the keys' bit range", status);
  uint64_t differ = uint64_t(U(bits.any ^ bits.all));
  if (differ == 0) {
    end = 1; // all keys equal: one pass keeps their order
    return 0;
  }
  begin = 0;
  while (!(differ >> begin & 1))
    ++begin;
  end = int(sizeof(U) * 8);
  while (!(differ >> (end - 1) & 1))
    --end;
  return 0;
}

/// argsort (and values with indices): (key, position) pairs.
template <typename U>
int sortPositions(const GpuSortCall &c, const Geometry &g, const Strides &st,
                  int64_t lines, char *error, size_t errorSize) {
  int64_t total = lines * g.n;
  auto stream = static_cast<cudaStream_t>(c.shared.stream);
  Scratch s(c.shared);
  U *keys = s.get<U>(total), *keys2 = s.get<U>(total);
  U *bits = c.values ? s.get<U>(total) : nullptr;
  int32_t *positions = s.get<int32_t>(total),
          *positions2 = s.get<int32_t>(total);
  bool ok;
  int64_t *offsets = lineOffsetsFor(s, g, lines, stream, ok);
  if (!keys || !keys2 || (c.values && !bits) || !positions || !positions2 ||
      !ok)
    return outOfMemory(error, errorSize, total);
  unsigned blocks = blocksFor(total);
  gatherKeys<U><<<blocks, 256, 0, stream>>>(
      g, st, c.format, c.descending, static_cast<const U *>(c.input), keys,
      positions, bits, total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's gather kernel", status);
  int begin = 0, end = int(sizeof(U) * 8);
  if (lines == 1 && c.format.order != SortOrder::Float)
    if (int failed = radixBits(s, keys, total, stream, begin, end, error,
                               errorSize))
      return failed;
  cub::DoubleBuffer<U> keyBuffers(keys, keys2);
  cub::DoubleBuffer<int32_t> positionBuffers(positions, positions2);
  auto sort = [&](void *temp, size_t &bytes) {
    if (lines == 1)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keyBuffers,
                                             positionBuffers, total, begin,
                                             end, stream);
    return cub::DeviceSegmentedSort::StableSortPairs(
        temp, bytes, keyBuffers, positionBuffers, total, lines, offsets,
        offsets + 1, stream);
  };
  if (int failed = runCub(s, "CUB's sort", sort, error, errorSize))
    return failed;
  scatterSorted<U><<<blocks, 256, 0, stream>>>(
      g, st, static_cast<U *>(c.values), c.indices, positionBuffers.Current(),
      bits, total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's scatter kernel", status);
  return 0;
}

/// Whether a buffer with `strides` holds the lines in the scratch's order:
/// element j of line l at offset l * n + j (the sort dim last, unit stride,
/// the other dims row-major).
bool isLinear(const Geometry &g, const int64_t *strides) {
  if (strides[g.dim] != 1)
    return false;
  int64_t expected = g.n;
  for (int d = g.rank - 1; d >= 0; --d) {
    if (d == g.dim)
      continue;
    if (g.sizes[d] != 1 && strides[d] != expected)
      return false;
    expected *= g.sizes[d];
  }
  return true;
}

/// The byte range [first, last] that a buffer with `strides` spans.
std::pair<const char *, const char *> extent(const Geometry &g,
                                             const int64_t *strides,
                                             const void *base, int bytes) {
  int64_t low = 0, high = 0;
  for (int d = 0; d < g.rank; ++d) {
    int64_t span = (g.sizes[d] - 1) * strides[d];
    (span < 0 ? low : high) += span;
  }
  auto *p = static_cast<const char *>(base);
  return {p + low * bytes, p + high * bytes + bytes - 1};
}

/// Whether the values may serve as the sort's first key buffer: laid out
/// like the scratch and apart from the input (which the gather still reads).
bool valuesAsKeys(const GpuSortCall &c, const Geometry &g, const Strides &st) {
  if (!c.values || !isLinear(g, st.values))
    return false;
  int bytes = c.format.bytes;
  auto [inFirst, inLast] = extent(g, st.input, c.input, bytes);
  auto [outFirst, outLast] = extent(g, st.values, c.values, bytes);
  return outLast < inFirst || inLast < outFirst;
}

/// Whether float bits `b` are a NaN with its sign set.
template <typename U>
__device__ bool isNegativeNaN(U b, const SortFormat &f) {
  return (b & signBitOf<U>()) && isNaNBits(b, U(f.exponent), U(f.mantissa));
}

/// The negative NaNs of a line that CUB's float order sorted: they are
/// its smallest keys, so they lead the line ascending and end it
/// descending; their count, by binary search.
template <typename U>
__device__ int64_t negativeNaNCount(const U *sorted, int64_t n,
                                    bool descending, const SortFormat &f) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (isNegativeNaN(sorted[descending ? n - 1 - mid : mid], f))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// Blocks of the fix-up kernels below: they return at once unless the
/// line has a negative NaN, so few blocks (a grid-stride loop) keep their
/// launches cheap.
constexpr unsigned kNaNFixBlocks = 264;

/// Writes the CUB-sorted line `sorted` into `rotated` with its negative
/// NaNs moved where the gather path puts NaNs (last ascending, first
/// descending) and made positive, and sets `*moved`; does nothing (but
/// clear `*moved`) where the line has none.
template <typename U>
__global__ void rotateNegativeNaNs(const U *sorted, U *rotated, int *moved,
                                   int64_t n, bool descending, SortFormat f) {
  bool any = isNegativeNaN(sorted[descending ? n - 1 : 0], f);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *moved = any;
  if (!any)
    return;
  int64_t k = negativeNaNCount(sorted, n, descending, f);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t from = descending ? (i < k ? n - k + i : i - k)
                              : (i < n - k ? i + k : i - (n - k));
    rotated[i] = positiveNaNs(sorted[from], f);
  }
}

/// Copies `rotated` back into the line where rotateNegativeNaNs moved it.
template <typename U>
__global__ void copyBackIfMoved(const U *rotated, U *line, const int *moved,
                                int64_t n) {
  if (*moved == 0)
    return;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    line[i] = rotated[i];
}

/// Sorted values of one contiguous line of floats into a contiguous buffer
/// apart from it: CUB reads the input and writes the values itself, no
/// gather pass (which read and wrote the line once more only to make
/// negative NaNs positive). CUB's float order puts negative NaNs before
/// -inf (after it descending); two small kernels then move them to the
/// other NaNs' end, made positive — the gather path's result — and return
/// at once where there are none (on the device: the host does not wait).
template <typename U, typename K>
int sortFloatLine(const GpuSortCall &c, int64_t n, bool descending,
                  char *error, size_t errorSize) {
  auto stream = static_cast<cudaStream_t>(c.shared.stream);
  Scratch s(c.shared);
  int *moved = s.get<int>(1);
  if (!moved)
    return outOfMemory(error, errorSize, n);
  auto *in = static_cast<const K *>(c.input);
  auto *out = static_cast<K *>(c.values);
  auto sort = [&](void *temp, size_t &bytes) {
    using Radix = cub::DeviceRadixSort;
    int end = int(sizeof(K) * 8);
    return descending ? Radix::SortKeysDescending(temp, bytes, in, out, n, 0,
                                                  end, stream)
                      : Radix::SortKeys(temp, bytes, in, out, n, 0, end,
                                        stream);
  };
  // The fix-up's copy goes into CUB's storage (which holds a line of keys
  // beside its own state) once the sort is done with it.
  void *temp = nullptr;
  if (int failed = runCub(s, "CUB's sort", sort, error, errorSize, &temp,
                          n * sizeof(U)))
    return failed;
  auto *rotated = static_cast<U *>(temp);
  auto *line = static_cast<U *>(c.values);
  rotateNegativeNaNs<U><<<kNaNFixBlocks, 256, 0, stream>>>(
      line, rotated, moved, n, descending, c.format);
  copyBackIfMoved<U><<<kNaNFixBlocks, 256, 0, stream>>>(rotated, line, moved,
                                                        n);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's NaN kernels", status);
  return 0;
}

/// Sorted values only: keys of type K (CUB's float type, or U), ascending
/// or, with `descending`, descending. Where the values buffer is laid out
/// like the scratch, it is the sort's first buffer: floats then need no
/// scatter pass (CUB's even number of passes leaves them there, else one
/// copy).
template <typename U, typename K>
int sortValues(const GpuSortCall &c, const Geometry &g, const Strides &st,
               int64_t lines, bool descending, char *error,
               size_t errorSize) {
  static_assert(sizeof(U) == sizeof(K), "keys are the elements' bits");
  if constexpr (!std::is_same_v<U, K>)
    if (isLinear(g, st.input) && valuesAsKeys(c, g, st))
      return sortFloatLine<U, K>(c, g.n, descending, error, errorSize);
  int64_t total = lines * g.n;
  auto stream = static_cast<cudaStream_t>(c.shared.stream);
  Scratch s(c.shared);
  bool inValues = valuesAsKeys(c, g, st);
  U *keys = inValues ? static_cast<U *>(c.values) : s.get<U>(total);
  U *keys2 = s.get<U>(total);
  bool ok;
  int64_t *offsets = lineOffsetsFor(s, g, lines, stream, ok);
  if (!keys || !keys2 || !ok)
    return outOfMemory(error, errorSize, total);
  unsigned blocks = blocksFor(total);
  gatherValues<U><<<blocks, 256, 0, stream>>>(
      g, st, c.format, c.descending, static_cast<const U *>(c.input), keys,
      total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's gather kernel", status);
  int begin = 0, end = int(sizeof(K) * 8);
  if (lines == 1 && c.format.order != SortOrder::Float)
    if (int failed = radixBits(s, keys, total, stream, begin, end, error,
                               errorSize))
      return failed;
  cub::DoubleBuffer<K> buffers(reinterpret_cast<K *>(keys),
                               reinterpret_cast<K *>(keys2));
  auto sort = [&](void *temp, size_t &bytes) {
    using Radix = cub::DeviceRadixSort;
    using Segmented = cub::DeviceSegmentedSort;
    if (lines == 1)
      return descending
                 ? Radix::SortKeysDescending(temp, bytes, buffers, total,
                                             begin, end, stream)
                 : Radix::SortKeys(temp, bytes, buffers, total, begin, end,
                                   stream);
    return descending ? Segmented::StableSortKeysDescending(
                            temp, bytes, buffers, total, lines, offsets,
                            offsets + 1, stream)
                      : Segmented::StableSortKeys(temp, bytes, buffers, total,
                                                  lines, offsets, offsets + 1,
                                                  stream);
  };
  if (int failed = runCub(s, "CUB's sort", sort, error, errorSize))
    return failed;
  const U *sorted = reinterpret_cast<const U *>(buffers.Current());
  if (inValues && c.format.order == SortOrder::Float) {
    if (sorted == keys)
      return 0;
    if (cudaError_t status = cudaMemcpyAsync(c.values, sorted, total * sizeof(U),
                                             cudaMemcpyDeviceToDevice, stream))
      return fail(error, errorSize, "the sort's copy back", status);
    return 0;
  }
  // In place when the keys are in the values (each element reads its own).
  scatterValues<U><<<blocks, 256, 0, stream>>>(
      g, st, c.format, c.descending, static_cast<U *>(c.values), sorted,
      total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's scatter kernel", status);
  return 0;
}

/// The rows' gather: each float's exact key (exactFloatKeyOf), and a flag
/// set where some element is -0.0.
template <typename U>
__global__ void gatherExactFloatKeys(Geometry g, Strides st, SortFormat f,
                                     bool descending, const U *input, U *keys,
                                     int *negativeZero, int64_t total) {
  forEachElement(g, total, [&](int64_t i, int64_t line, int64_t j) {
    U b = input[elementOffset(g, st.input, line, j)];
    if (b == signBitOf<U>())
      *negativeZero = 1; // every writer writes the same
    keys[i] = exactFloatKeyOf(b, f, descending);
  });
}

/// The threads of a stableZeros block (cub::BlockScan's size).
constexpr int kZeroBlock = 256;

/// Puts each sorted line's zeros back in input order where the input had a
/// -0.0 (`*negativeZero`; else every block returns at once): the exact keys
/// of -0.0 and 0.0 differ, so the sort put all of one sign first. A block
/// per line counts the keys below both zeros' (where the zeros start), then
/// writes the line's zeros, read again in input order, one after another.
template <typename U>
__global__ void __launch_bounds__(kZeroBlock)
    stableZeros(Geometry g, Strides st, SortFormat f, bool descending,
                const U *input, U *keys, const int *negativeZero,
                int64_t lines) {
  if (*negativeZero == 0)
    return;
  using Scan = cub::BlockScan<int, kZeroBlock>;
  __shared__ typename Scan::TempStorage scan;
  const U sign = signBitOf<U>();
  U plusKey = exactFloatKeyOf(U(0), f, descending);
  U minusKey = exactFloatKeyOf(sign, f, descending);
  U first = plusKey < minusKey ? plusKey : minusKey;
  for (int64_t line = blockIdx.x; line < lines; line += gridDim.x) {
    U *row = keys + line * g.n;
    int64_t next = 0; // where the next zero goes
    for (int64_t j0 = 0; j0 < g.n; j0 += kZeroBlock) {
      int64_t j = j0 + threadIdx.x;
      next += __syncthreads_count(j < g.n && row[j] < first);
    }
    for (int64_t j0 = 0; j0 < g.n; j0 += kZeroBlock) {
      int64_t j = j0 + threadIdx.x;
      U b = j < g.n ? input[elementOffset(g, st.input, line, j)] : U(1);
      int zero = (b & U(~sign)) == 0, before, zeros;
      Scan(scan).ExclusiveSum(zero, before, zeros);
      if (zero)
        row[next + before] = exactFloatKeyOf(b, f, descending);
      next += zeros;
      __syncthreads(); // the scan's storage is used again
    }
  }
}

/// The rows' scatter: each float's bits from its exact key.
template <typename U>
__global__ void scatterExactFloatKeys(Geometry g, Strides st, bool descending,
                                      U *values, const U *keys,
                                      int64_t total) {
  forEachElement(g, total, [&](int64_t i, int64_t line, int64_t j) {
    values[elementOffset(g, st.values, line, j)] =
        bitsOfExactFloatKey(keys[i], descending);
  });
}

/// Sorted float values of many lines: DeviceSegmentedSort compares the
/// elements of short segments, which NaNs break, so it sorts unsigned keys
/// that keep every bit (exactFloatKeyOf) — keys alone, half the bytes of
/// (key, bits) pairs — and stableZeros then puts -0.0 and 0.0 back in input
/// order where the input has a -0.0.
template <typename U>
int sortFloatLines(const GpuSortCall &c, const Geometry &g, const Strides &st,
                   int64_t lines, char *error, size_t errorSize) {
  int64_t total = lines * g.n;
  auto stream = static_cast<cudaStream_t>(c.shared.stream);
  Scratch s(c.shared);
  U *keys = s.get<U>(total), *keys2 = s.get<U>(total);
  int *negativeZero = s.get<int>(1);
  bool ok;
  int64_t *offsets = lineOffsetsFor(s, g, lines, stream, ok);
  if (!keys || !keys2 || !negativeZero || !ok)
    return outOfMemory(error, errorSize, total);
  if (cudaError_t status =
          cudaMemsetAsync(negativeZero, 0, sizeof(int), stream))
    return fail(error, errorSize, "clearing the sort's -0.0 flag", status);
  auto input = static_cast<const U *>(c.input);
  unsigned blocks = blocksFor(total);
  gatherExactFloatKeys<U><<<blocks, 256, 0, stream>>>(
      g, st, c.format, c.descending, input, keys, negativeZero, total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's gather kernel", status);
  cub::DoubleBuffer<U> keyBuffers(keys, keys2);
  auto sort = [&](void *temp, size_t &bytes) {
    return cub::DeviceSegmentedSort::StableSortKeys(
        temp, bytes, keyBuffers, total, lines, offsets, offsets + 1, stream);
  };
  if (int failed = runCub(s, "CUB's sort", sort, error, errorSize))
    return failed;
  unsigned lineBlocks = unsigned(lines < 65536 ? lines : 65536);
  stableZeros<U><<<lineBlocks, kZeroBlock, 0, stream>>>(
      g, st, c.format, c.descending, input, keyBuffers.Current(),
      negativeZero, lines);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's kernel for signed zeros",
                status);
  scatterExactFloatKeys<U><<<blocks, 256, 0, stream>>>(
      g, st, c.descending, static_cast<U *>(c.values), keyBuffers.Current(),
      total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's scatter kernel", status);
  return 0;
}

/// The payload a line's sort carries beside each key: its position
/// (argsort) or its bits.
template <typename U, bool Positions>
using LinePayload = std::conditional_t<Positions, int32_t, U>;

/// Loads this thread's Items slots of line `line`, slot i holding element
/// elementOf(i): its key (sortKeyOf; past the line's end the largest, so
/// padding sorts after the line and stability keeps real maxima first) and
/// its payload.
template <typename U, bool Positions, int Items, typename ElementOf>
__device__ void loadLineSlots(const Geometry &g, const Strides &st,
                              const SortFormat &f, bool descending,
                              const U *input, int64_t line,
                              ElementOf elementOf, U (&keys)[Items],
                              LinePayload<U, Positions> (&payload)[Items]) {
  for (int i = 0; i < Items; ++i) {
    int64_t j = elementOf(i);
    U b = j < g.n ? input[elementOffset(g, st.input, line, j)] : U(0);
    keys[i] = j < g.n ? sortKeyOf(b, f, descending) : U(~U(0));
    if constexpr (Positions)
      payload[i] = int32_t(j);
    else
      payload[i] = b;
  }
}

/// Writes this thread's Items sorted slots of line `line` (slot i: element
/// elementOf(i) of the result): the values (the payload's bits, or the
/// input read again by position) and the indices. `barrier()` runs
/// between the reads of the input and the writes (an in-place argsort
/// with values reads its line first).
template <typename U, bool Positions, int Items, typename ElementOf,
          typename Barrier>
__device__ void
storeLineSlots(const Geometry &g, const Strides &st, const U *input,
               U *values, int64_t *indices, int64_t line, ElementOf elementOf,
               const LinePayload<U, Positions> (&payload)[Items],
               Barrier barrier) {
  U sorted[Items];
  for (int i = 0; i < Items; ++i) {
    if constexpr (Positions) {
      if (values && elementOf(i) < g.n)
        sorted[i] = input[elementOffset(g, st.input, line, payload[i])];
    } else {
      sorted[i] = payload[i];
    }
  }
  if constexpr (Positions)
    barrier();
  for (int i = 0; i < Items; ++i) {
    int64_t j = elementOf(i);
    if (j >= g.n)
      continue;
    if (values)
      values[elementOffset(g, st.values, line, j)] = sorted[i];
    if constexpr (Positions)
      indices[elementOffset(g, st.indices, line, j)] = payload[i];
  }
}

/// A block sorts a whole line in shared memory when the line has at most
/// Threads x Items elements: one read and one write of the line instead of
/// a gather, the segmented sort's passes through global memory and a
/// scatter (what torch.sort does for lines of up to 4096).
template <int Threads, int Items> struct BlockShape {
  static constexpr int kThreads = Threads, kItems = Items;
  /// Bits per radix pass.
  static constexpr int kRadixBits = 6;
  static constexpr int64_t kCapacity = int64_t(Threads) * Items;
};
using WideBlock = BlockShape<256, 16>;    ///< lines of up to 4096, U <= 4 bytes
using HalfWideBlock = BlockShape<256, 8>; ///< lines of up to 2048, U <= 4 bytes
using NarrowBlock = BlockShape<128, 8>;   ///< lines of up to 1024
using HalfBlock = BlockShape<128, 4>;     ///< lines of up to 512

/// Whether lines of U go to the 256-thread blocks (HalfWideBlock,
/// WideBlock) at all: 8-byte lines of up to 2048 in a 256 x 8 block took
/// 1.03x the segmented sort's time (f64 rows of 2048 on an H200), and of
/// 4096 (512 x 8) would need 66 KiB of shared memory, past the 48 KiB a
/// kernel may declare.
template <typename U> constexpr bool kWideBlocksFor = sizeof(U) <= 4;

/// Lines (any order) that fit a block: each line's keys (sortKeyOf, so
/// zeros and NaNs compare equal) go through cub::BlockRadixSort with a
/// payload — the elements' bits (sorted values) or their positions
/// (argsort; the values, when wanted too, read again by position) — and
/// the sort is stable, so ties (-0.0 and 0.0, NaNs) keep their input order
/// and bits. Slots past the line's end get the largest key and sort after
/// it.
template <typename U, typename Shape, bool Positions>
__global__ void __launch_bounds__(Shape::kThreads)
    sortLinesInBlocks(Geometry g, Strides st, SortFormat f, bool descending,
                      const U *input, U *values, int64_t *indices,
                      int64_t lines) {
  constexpr int kThreads = Shape::kThreads, kItems = Shape::kItems;
  using Payload = LinePayload<U, Positions>;
  using KeyExchange = cub::BlockExchange<U, kThreads, kItems>;
  using PayloadExchange = cub::BlockExchange<Payload, kThreads, kItems>;
  using Sort =
      cub::BlockRadixSort<U, kThreads, kItems, Payload, Shape::kRadixBits>;
  __shared__ union {
    typename KeyExchange::TempStorage keys;
    typename PayloadExchange::TempStorage payload;
    typename Sort::TempStorage sort;
  } temp;
  for (int64_t line = blockIdx.x; line < lines; line += gridDim.x) {
    // Striped loads (coalesced along a unit-stride line), then blocked:
    // the sort ranks equal keys by their blocked position.
    auto striped = [](int i) { return int64_t(i) * kThreads + threadIdx.x; };
    U keys[kItems];
    Payload payload[kItems];
    loadLineSlots<U, Positions>(g, st, f, descending, input, line, striped,
                                keys, payload);
    __syncthreads(); // the previous line's sort is done with `temp`
    KeyExchange(temp.keys).StripedToBlocked(keys);
    __syncthreads();
    PayloadExchange(temp.payload).StripedToBlocked(payload);
    __syncthreads();
    Sort(temp.sort).SortBlockedToStriped(keys, payload);
    storeLineSlots<U, Positions>(g, st, input, values, indices, line, striped,
                                 payload, [] { __syncthreads(); });
  }
}

/// The threads of a sortLinesInWarps block: a line per warp.
constexpr int kWarpLinesBlock = 256;

/// Ascending unsigned keys, for the merge sort.
template <typename U> struct KeyLess {
  __device__ bool operator()(U a, U b) const { return a < b; }
};

/// Lines of at most 32 x Items elements, a warp each: sortLinesInBlocks'
/// rules (keys, payload, padding, stability) with a stable merge sort of
/// the warp's registers (cub::WarpMergeSort) instead of a block's radix
/// sort, so that a short line does not leave most of a block idle. Items
/// blocked (thread t holds elements t x Items ...), which the sort ranks
/// ties by.
template <typename U, int Items, bool Positions>
__global__ void __launch_bounds__(kWarpLinesBlock)
    sortLinesInWarps(Geometry g, Strides st, SortFormat f, bool descending,
                     const U *input, U *values, int64_t *indices,
                     int64_t lines) {
  constexpr int kWarps = kWarpLinesBlock / 32;
  using Payload = LinePayload<U, Positions>;
  using Sort = cub::WarpMergeSort<U, Items, 32, Payload>;
  __shared__ typename Sort::TempStorage temp[kWarps];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  Sort sort(temp[warp]);
  for (int64_t line = blockIdx.x * int64_t(kWarps) + warp; line < lines;
       line += int64_t(gridDim.x) * kWarps) {
    auto blocked = [lane](int i) { return int64_t(lane) * Items + i; };
    U keys[Items];
    Payload payload[Items];
    loadLineSlots<U, Positions>(g, st, f, descending, input, line, blocked,
                                keys, payload);
    sort.StableSort(keys, payload, KeyLess<U>());
    storeLineSlots<U, Positions>(g, st, input, values, indices, line, blocked,
                                 payload, [] { __syncwarp(); });
  }
}

/// The longest segment that CUB's segmented sort of Key (with Value, or
/// keys alone: cub::NullType) gives a sub-warp merge sort (its "medium"
/// segments, 112 4-byte keys on sm_86 and later); it sorts longer segments
/// one by one with a block's radix sort through global memory (10 ms for
/// 2^17 lines of 128 f32 on an H200, 13x a warp's merge sort).
template <typename Key, typename Value>
constexpr int64_t kLongestMergedSegment = cub::detail::segmented_sort::
    policy_hub<Key, Value>::MaxPolicy::SmallAndMediumSegmentedSortPolicyT::
        MediumPolicyT::ITEMS_PER_TILE;

/// How lines of `n` elements of U are sorted where the outputs may be
/// written line by line.
enum class LineShape {
  Segmented,
  Warp4,
  Warp8,
  HalfBlock,
  NarrowBlock,
  HalfWideBlock,
  WideBlock
};

/// The shape for lines of `n` elements of U (with positions or alone):
/// the segmented sort where its warps merge-sort them, else a warp per
/// line (up to 256), else the smallest block that holds the line (up to
/// 4096 where kWideBlocksFor<U>, else 1024), else the segmented sort.
template <typename U> LineShape lineShapeFor(int64_t n, bool positions) {
  int64_t merged = positions ? kLongestMergedSegment<U, int32_t>
                             : kLongestMergedSegment<U, cub::NullType>;
  if (n <= merged)
    return LineShape::Segmented;
  if (n <= 32 * 4)
    return LineShape::Warp4;
  if (n <= 32 * 8)
    return LineShape::Warp8;
  if (n <= HalfBlock::kCapacity)
    return LineShape::HalfBlock;
  if (n <= NarrowBlock::kCapacity)
    return LineShape::NarrowBlock;
  if (!kWideBlocksFor<U>)
    return LineShape::Segmented;
  if (n <= HalfWideBlock::kCapacity)
    return LineShape::HalfWideBlock;
  if (n <= WideBlock::kCapacity)
    return LineShape::WideBlock;
  return LineShape::Segmented;
}

/// Whether the outputs may be written line by line while other blocks
/// still read the input: the indices apart from it, the values too or the
/// input itself (in place).
bool writableByLine(const GpuSortCall &c, const Geometry &g,
                    const Strides &st) {
  int bytes = c.format.bytes;
  std::pair<const char *, const char *> in =
      extent(g, st.input, c.input, bytes);
  const char *inFirst = in.first, *inLast = in.second;
  auto apart = [&](const int64_t *strides, const void *base, int width) {
    auto [first, last] = extent(g, strides, base, width);
    return last < inFirst || inLast < first;
  };
  if (c.indices && !apart(st.indices, c.indices, int(sizeof(int64_t))))
    return false;
  if (!c.values || apart(st.values, c.values, bytes))
    return true;
  if (c.values != c.input)
    return false;
  for (int d = 0; d < g.rank; ++d)
    if (st.values[d] != st.input[d])
      return false;
  return true;
}

/// A kernel of sortLinesInBlocks' and sortLinesInWarps' signature.
template <typename U>
using LineKernel = void (*)(Geometry, Strides, SortFormat, bool, const U *,
                            U *, int64_t *, int64_t);

/// A line sort's kernels (argsort's and the values' alone) and their
/// blocks: `threads` threads sorting `linesPerBlock` lines at a time.
template <typename U> struct LineKernels {
  LineKernel<U> withPositions, valuesOnly;
  int threads, linesPerBlock;
  const char *what; ///< names the kernel in an error
};

/// Lines that fit a block of Shape, a line per block.
template <typename U, typename Shape>
constexpr LineKernels<U> kBlockLineKernels = {
    sortLinesInBlocks<U, Shape, true>, sortLinesInBlocks<U, Shape, false>,
    Shape::kThreads, 1, "the sort's kernel of lines in blocks"};

/// Lines of at most 32 x Items elements, a line per warp.
template <typename U, int Items>
constexpr LineKernels<U> kWarpLineKernels = {
    sortLinesInWarps<U, Items, true>, sortLinesInWarps<U, Items, false>,
    kWarpLinesBlock, kWarpLinesBlock / 32,
    "the sort's kernel of lines in warps"};

/// Launches `k` over `lines` lines (a grid of at most 65536 blocks; the
/// kernels stride over the rest).
template <typename U>
int launchLineSort(const GpuSortCall &c, const Geometry &g, const Strides &st,
                   int64_t lines, const LineKernels<U> &k, char *error,
                   size_t errorSize) {
  auto stream = static_cast<cudaStream_t>(c.shared.stream);
  int64_t needed = (lines + k.linesPerBlock - 1) / k.linesPerBlock;
  unsigned blocks = unsigned(needed < 65536 ? needed : 65536);
  LineKernel<U> kernel = c.indices ? k.withPositions : k.valuesOnly;
  kernel<<<blocks, k.threads, 0, stream>>>(
      g, st, c.format, c.descending, static_cast<const U *>(c.input),
      static_cast<U *>(c.values), c.indices, lines);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, k.what, status);
  return 0;
}

/// The sort of a call whose elements are U's wide.
template <typename U>
int sortWidth(const GpuSortCall &c, const Geometry &g, const Strides &st,
              int64_t lines, char *error, size_t errorSize) {
  if (lines > 1 && writableByLine(c, g, st)) {
    switch (lineShapeFor<U>(g.n, c.indices != nullptr)) {
    case LineShape::Segmented:
      break;
    case LineShape::Warp4:
      return launchLineSort(c, g, st, lines, kWarpLineKernels<U, 4>, error,
                            errorSize);
    case LineShape::Warp8:
      return launchLineSort(c, g, st, lines, kWarpLineKernels<U, 8>, error,
                            errorSize);
    case LineShape::HalfBlock:
      return launchLineSort(c, g, st, lines, kBlockLineKernels<U, HalfBlock>,
                            error, errorSize);
    case LineShape::NarrowBlock:
      return launchLineSort(c, g, st, lines,
                            kBlockLineKernels<U, NarrowBlock>, error,
                            errorSize);
    case LineShape::HalfWideBlock:
      if constexpr (kWideBlocksFor<U>) // not instantiated for wider U
        return launchLineSort(c, g, st, lines,
                              kBlockLineKernels<U, HalfWideBlock>, error,
                              errorSize);
      break;
    case LineShape::WideBlock:
      if constexpr (kWideBlocksFor<U>)
        return launchLineSort(c, g, st, lines,
                              kBlockLineKernels<U, WideBlock>, error,
                              errorSize);
      break;
    }
  }
  if (c.indices)
    return sortPositions<U>(c, g, st, lines, error, errorSize);
  if (c.format.order != SortOrder::Float)
    // The unsigned keys carry the direction.
    return sortValues<U, U>(c, g, st, lines, false, error, errorSize);
  if (lines > 1)
    return sortFloatLines<U>(c, g, st, lines, error, errorSize);
  bool down = c.descending;
  if constexpr (sizeof(U) == 2) {
    if (c.format.exponent == 0x7C00)
      return sortValues<U, __half>(c, g, st, lines, down, error, errorSize);
    return sortValues<U, __nv_bfloat16>(c, g, st, lines, down, error,
                                        errorSize);
  } else if constexpr (sizeof(U) == 4) {
    return sortValues<U, float>(c, g, st, lines, down, error, errorSize);
  } else if constexpr (sizeof(U) == 8) {
    return sortValues<U, double>(c, g, st, lines, down, error, errorSize);
  }
  std::snprintf(error, errorSize, "no float of %d bytes", int(sizeof(U)));
  return 1;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
ptensor_cuda_sort(const GpuSortCall *call, char *error, size_t errorSize) {
  const GpuSortCall &c = *call;
  Geometry g;
  Strides st;
  g.rank = c.rank;
  g.dim = c.dim;
  g.n = c.sizes[c.dim];
  int64_t lines = 1;
  for (int d = 0; d < c.rank; ++d) {
    g.sizes[d] = c.sizes[d];
    st.input[d] = c.inputStrides[d];
    st.values[d] = c.valueStrides[d];
    st.indices[d] = c.indexStrides[d];
    if (d != c.dim)
      lines *= c.sizes[d];
  }
  if (lines == 0 || g.n == 0)
    return 0;
  if (g.n > INT32_MAX || lines > INT32_MAX / g.n) {
    std::snprintf(error, errorSize, "a GPU sort of %lld lines of %lld "
                  "elements: at most 2^31 - 1 elements are supported",
                  static_cast<long long>(lines), static_cast<long long>(g.n));
    return 1;
  }
  switch (c.format.bytes) {
  case 1: return sortWidth<uint8_t>(c, g, st, lines, error, errorSize);
  case 2: return sortWidth<uint16_t>(c, g, st, lines, error, errorSize);
  case 4: return sortWidth<uint32_t>(c, g, st, lines, error, errorSize);
  default: return sortWidth<uint64_t>(c, g, st, lines, error, errorSize);
  }
}
