// Column sums of a row-major R x C f32 matrix (sum over axis 0), f64
// accumulation, result f32: the kernel shapes a generated column reduction
// could take, timed beside a device copy and a read-only row sum of the
// same bytes. Used to decide the GPU column-reduction path of issue 13
// (bench/RESULTS.md), not part of the build.
//
//   nvcc -O3 -arch=sm_90 column_sum.cu -o column_sum && ./column_sum [R C]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

// (1) Thread per (chunk, column), `LANES` accumulators over rows r, r+1...
template <int LANES>
__global__ void scalarSplit(const float *a, long R, long C, long chunks,
                            double *partial) {
  long items = chunks * C;
  for (long item = blockIdx.x * (long)blockDim.x + threadIdx.x; item < items;
       item += (long)gridDim.x * blockDim.x) {
    long c = item / C, k = item % C;
    long per = (R + chunks - 1) / chunks, lo = c * per,
         hi = lo + per < R ? lo + per : R;
    double acc[LANES] = {};
    long r = lo;
    for (; r + LANES <= hi; r += LANES)
#pragma unroll
      for (int l = 0; l < LANES; ++l)
        acc[l] += a[(r + l) * C + k];
    for (; r < hi; ++r)
      acc[0] += a[r * C + k];
    double s = 0;
#pragma unroll
    for (int l = 0; l < LANES; ++l)
      s += acc[l];
    partial[c * C + k] = s;
  }
}

// (2) Thread per (chunk, 4 columns): one float4 per row, `LANES` rows at once.
template <int LANES>
__global__ void vectorSplit(const float *a, long R, long C, long chunks,
                            double *partial) {
  long groups = C / 4, items = chunks * groups;
  for (long item = blockIdx.x * (long)blockDim.x + threadIdx.x; item < items;
       item += (long)gridDim.x * blockDim.x) {
    long c = item / groups, g = item % groups;
    long per = (R + chunks - 1) / chunks, lo = c * per,
         hi = lo + per < R ? lo + per : R;
    double acc[LANES][4] = {};
    long r = lo;
    for (; r + LANES <= hi; r += LANES)
#pragma unroll
      for (int l = 0; l < LANES; ++l) {
        float4 v = reinterpret_cast<const float4 *>(a + (r + l) * C)[g];
        acc[l][0] += v.x, acc[l][1] += v.y, acc[l][2] += v.z, acc[l][3] += v.w;
      }
    for (; r < hi; ++r) {
      float4 v = reinterpret_cast<const float4 *>(a + r * C)[g];
      acc[0][0] += v.x, acc[0][1] += v.y, acc[0][2] += v.z, acc[0][3] += v.w;
    }
    for (int j = 0; j < 4; ++j) {
      double s = 0;
#pragma unroll
      for (int l = 0; l < LANES; ++l)
        s += acc[l][j];
      partial[c * C + g * 4 + j] = s;
    }
  }
}

// (3) Block tile: blockDim (32, Y); a block owns 32 columns (x) of one
// chunk, its Y thread rows stride the chunk's rows, then a shared-memory
// sum over y: many threads per column, coalesced 128-byte rows.
template <int Y>
__global__ void tileSplit(const float *a, long R, long C, long chunks,
                          double *partial) {
  __shared__ double sums[Y][33];
  long tiles = (C + 31) / 32;
  long c = blockIdx.x / tiles, t = blockIdx.x % tiles;
  long k = t * 32 + threadIdx.x;
  long per = (R + chunks - 1) / chunks, lo = c * per,
       hi = lo + per < R ? lo + per : R;
  double acc0 = 0, acc1 = 0;
  if (k < C) {
    long r = lo + threadIdx.y;
    for (; r + Y < hi; r += 2 * Y) {
      acc0 += a[r * C + k];
      acc1 += a[(r + Y) * C + k];
    }
    if (r < hi)
      acc0 += a[r * C + k];
  }
  sums[threadIdx.y][threadIdx.x] = acc0 + acc1;
  __syncthreads();
  if (threadIdx.y == 0 && k < C) {
    double s = 0;
    for (int y = 0; y < Y; ++y)
      s += sums[y][threadIdx.x];
    partial[c * C + k] = s;
  }
}

__global__ void merge(const double *partial, long chunks, long C, float *out) {
  long k = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (k >= C)
    return;
  double s = 0;
  for (long c = 0; c < chunks; ++c)
    s += partial[c * C + k];
  out[k] = static_cast<float>(s);
}

// Read-only reference: each thread sums float4s of whole rows' bytes.
__global__ void readAll(const float4 *a, long n4, float *sink) {
  float s = 0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4;
       i += (long)gridDim.x * blockDim.x) {
    float4 v = a[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 1234.5f)
    *sink = s;
}

/// Microseconds per run: the median of 25 samples of one run.
template <typename F> float median(F run) { return medianMs(run, 25) * 1000; }

int main(int argc, char **argv) {
  long R = argc > 2 ? std::atol(argv[1]) : 8192;
  long C = argc > 2 ? std::atol(argv[2]) : 8192;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  size_t bytes = R * C * sizeof(float);
  std::vector<float> host(R * C);
  for (long i = 0; i < R * C; ++i)
    host[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
  std::vector<double> want(C, 0.0);
  for (long r = 0; r < R; ++r)
    for (long k = 0; k < C; ++k)
      want[k] += host[r * C + k];
  float *a, *b, *out, *sink;
  double *partial;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&out, C * sizeof(float)));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&partial, 1024 * C * sizeof(double)));
  CHECK(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));
  float copy = median([&] { CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  double copyBW = 2.0 * bytes / copy / 1e3; // GB/s, read + write
  float read = median([&] { readAll<<<sms * 8, 256>>>(reinterpret_cast<const float4 *>(a), R * C / 4, sink); });
  std::printf("%s, %d SMs, %ld x %ld f32: copy %.1f us (%.0f GB/s), read-only %.1f us (%.2f of copy)\n",
              "device 0", sms, R, C, copy, copyBW, read, bytes / read / 1e3 / copyBW);
  auto verify = [&] {
    std::vector<float> got(C);
    CHECK(cudaMemcpy(got.data(), out, C * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (long k = 0; k < C; ++k)
      worst = std::max(worst, std::fabs(got[k] - want[k]) / std::max(1.0, std::fabs(want[k])));
    return worst;
  };
  auto report = [&](const char *name, long chunks, long threads, float us) {
    std::printf("%-14s chunks %4ld threads %7ld: %7.1f us  %.3f of copy  (max rel err %.1e)\n",
                name, chunks, threads, us, bytes / us / 1e3 / copyBW, verify());
  };
  for (long chunks : {33L, 66L, 132L, 264L, 528L}) {
    if (chunks > R) continue;
    long items = chunks * C;
    int blocks = static_cast<int>(std::min<long>((items + 127) / 128, sms * 16L));
    auto withMerge = [&](auto kernel) {
      return median([&] {
        kernel();
        merge<<<(C + 255) / 256, 256>>>(partial, chunks, C, out);
      });
    };
    report("scalar L1", chunks, items, withMerge([&] { scalarSplit<1><<<blocks, 128>>>(a, R, C, chunks, partial); }));
    report("scalar L2", chunks, items, withMerge([&] { scalarSplit<2><<<blocks, 128>>>(a, R, C, chunks, partial); }));
    report("scalar L4", chunks, items, withMerge([&] { scalarSplit<4><<<blocks, 128>>>(a, R, C, chunks, partial); }));
    if (C % 4 == 0) {
      long vitems = chunks * C / 4;
      int vblocks = static_cast<int>(std::min<long>((vitems + 127) / 128, sms * 16L));
      report("vector4 L1", chunks, vitems, withMerge([&] { vectorSplit<1><<<vblocks, 128>>>(a, R, C, chunks, partial); }));
      report("vector4 L2", chunks, vitems, withMerge([&] { vectorSplit<2><<<vblocks, 128>>>(a, R, C, chunks, partial); }));
    }
    long tiles = (C + 31) / 32;
    report("tile 32x8", chunks, chunks * tiles * 256, withMerge([&] { tileSplit<8><<<chunks * tiles, dim3(32, 8)>>>(a, R, C, chunks, partial); }));
    report("tile 32x16", chunks, chunks * tiles * 512, withMerge([&] { tileSplit<16><<<chunks * tiles, dim3(32, 16)>>>(a, R, C, chunks, partial); }));
  }
  return 0;
}
