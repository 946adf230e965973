//===- SortKernels.cu - GPU sort along a dim, around CUB -------------------===//
//
// libptensor_runtime_cuda: ptensor_cuda_sort (SortKernels.h), called by
// libptensor_runtime's ptensor_rt_gpu_sort. Three steps on the caller's
// stream:
//   1. a gather kernel reads every element of the (strided) input and
//      writes, line by line into contiguous scratch, its unsigned key
//      (SortKeys.h: the one owner of the order), its position in the line
//      and (for sorted values) its bits;
//   2. CUB sorts the (key, position) pairs: DeviceRadixSort for one line,
//      DeviceSegmentedSort::StableSortPairs for many (both stable, so ties
//      keep their order in both directions);
//   3. a scatter kernel writes element j of each output line (strided): the
//      element at the j-th sorted position, and/or that position.
// Scratch comes from the runtime's caching allocator, released in stream
// order.
//
//===----------------------------------------------------------------------===//

#include "SortKernels.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <cstdio>

using namespace ptensor::rt;

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
  int64_t offset = j * strides[g.dim];
  for (int d = g.rank - 1; d >= 0; --d) {
    if (d == g.dim)
      continue;
    offset += (line % g.sizes[d]) * strides[d];
    line /= g.sizes[d];
  }
  return offset;
}

/// The strides of the three buffers, as kernel parameters.
struct Strides {
  int64_t input[kMaxSortRank], values[kMaxSortRank], indices[kMaxSortRank];
};

template <typename U>
__global__ void gatherKeys(Geometry g, Strides st, SortFormat f,
                           bool descending, const U *input, U *sortKeys,
                           int32_t *positions, U *bits, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t line = i / g.n, j = i % g.n;
    U b = input[elementOffset(g, st.input, line, j)];
    if (bits)
      bits[i] = b;
    sortKeys[i] = sortKeyOf(b, f, descending);
    positions[i] = int32_t(j);
  }
}

template <typename U>
__global__ void scatterSorted(Geometry g, Strides st, U *values,
                              int64_t *indices, const int32_t *positions,
                              const U *bits, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t line = i / g.n, j = i % g.n;
    int32_t p = positions[i];
    if (values)
      values[elementOffset(g, st.values, line, j)] = bits[line * g.n + p];
    if (indices)
      indices[elementOffset(g, st.indices, line, j)] = p;
  }
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

/// The scratch of one call, released (in stream order) on every path.
struct Scratch {
  const GpuSortCall &call;
  void *pointers[8] = {};
  int used = 0;
  explicit Scratch(const GpuSortCall &c) : call(c) {}
  ~Scratch() {
    for (int i = 0; i < used; ++i)
      call.release(call.allocatorContext, pointers[i]);
  }
  template <typename T> T *get(size_t count) {
    void *p = call.allocate(call.allocatorContext, count * sizeof(T));
    if (p)
      pointers[used++] = p;
    return static_cast<T *>(p);
  }
};

/// Formats `what` failing with `status` into `error`; returns 1.
int fail(char *error, size_t size, const char *what, cudaError_t status) {
  std::snprintf(error, size, "%s failed: %s (%s)", what,
                cudaGetErrorName(status), cudaGetErrorString(status));
  return 1;
}

template <typename U>
int sortWidth(const GpuSortCall &c, const Geometry &g, const Strides &st,
              int64_t lines, char *error, size_t errorSize) {
  int64_t total = lines * g.n;
  auto stream = static_cast<cudaStream_t>(c.stream);
  Scratch s(c);
  U *keys = s.get<U>(total), *keys2 = s.get<U>(total);
  U *bits = c.values ? s.get<U>(total) : nullptr;
  int32_t *positions = s.get<int32_t>(total),
          *positions2 = s.get<int32_t>(total);
  int64_t *offsets = lines > 1 ? s.get<int64_t>(lines + 1) : nullptr;
  if (!keys || !keys2 || (c.values && !bits) || !positions || !positions2 ||
      (lines > 1 && !offsets)) {
    std::snprintf(error, errorSize, "out of device memory for the scratch "
                  "of a sort of %lld elements", static_cast<long long>(total));
    return 1;
  }
  unsigned blocks = blocksFor(total);
  gatherKeys<U><<<blocks, 256, 0, stream>>>(
      g, st, c.format, c.descending, static_cast<const U *>(c.input), keys,
      positions, bits, total);
  if (cudaError_t status = cudaGetLastError())
    return fail(error, errorSize, "the sort's gather kernel", status);
  cub::DoubleBuffer<U> keyBuffers(keys, keys2);
  cub::DoubleBuffer<int32_t> positionBuffers(positions, positions2);
  size_t tempBytes = 0;
  cudaError_t status;
  auto run = [&](void *temp) {
    if (lines == 1)
      return cub::DeviceRadixSort::SortPairs(temp, tempBytes, keyBuffers,
                                             positionBuffers, total, 0,
                                             int(sizeof(U) * 8), stream);
    return cub::DeviceSegmentedSort::StableSortPairs(
        temp, tempBytes, keyBuffers, positionBuffers, total, lines, offsets,
        offsets + 1, stream);
  };
  if (lines > 1) {
    lineOffsets<<<blocksFor(lines + 1), 256, 0, stream>>>(offsets, lines, g.n);
    if ((status = cudaGetLastError()))
      return fail(error, errorSize, "the sort's offsets kernel", status);
  }
  if ((status = run(nullptr)))
    return fail(error, errorSize, "CUB's sort (temporary storage size)",
                status);
  void *temp = s.get<char>(tempBytes > 0 ? tempBytes : 1);
  if (!temp) {
    std::snprintf(error, errorSize, "out of device memory for CUB's "
                  "temporary storage (%zu bytes)", tempBytes);
    return 1;
  }
  if ((status = run(temp)))
    return fail(error, errorSize, "CUB's sort", status);
  scatterSorted<U><<<blocks, 256, 0, stream>>>(
      g, st, static_cast<U *>(c.values), c.indices, positionBuffers.Current(),
      bits, total);
  if ((status = cudaGetLastError()))
    return fail(error, errorSize, "the sort's scatter kernel", status);
  return 0;
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
