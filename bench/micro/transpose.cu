// out = in.T of a row-major N x N f32 matrix (a transposed read into a
// contiguous result: `a.T.reshape(-1)`, and the staged half of `a + b.T`):
// the kernel shapes a generated tiled transpose could take, timed beside a
// device copy of the same bytes. Used to decide the GPU tiled transpose
// path of issues 14 and 18 (bench/RESULTS.md), not part of the build.
//
//   nvcc -O3 -arch=sm_90 transpose.cu -o transpose && ./transpose [N]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

// (1) The textbook kernel: a TILE x TILE tile per block, 32 x ROWS threads,
// scalar accesses, one padding column.
template <int TILE, int ROWS>
__global__ void scalarTile(const float *in, float *out, int n) {
  __shared__ float s[TILE][TILE + 1];
  int tilesPerRow = n / TILE;
  for (int t = blockIdx.x; t < tilesPerRow * tilesPerRow; t += gridDim.x) {
    int r0 = (t / tilesPerRow) * TILE, c0 = (t % tilesPerRow) * TILE;
#pragma unroll
    for (int j = 0; j < TILE; j += 32)
#pragma unroll
      for (int i = 0; i < TILE; i += ROWS)
        s[threadIdx.y + i][threadIdx.x + j] =
            in[(long)(c0 + threadIdx.y + i) * n + r0 + threadIdx.x + j];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE; j += 32)
#pragma unroll
      for (int i = 0; i < TILE; i += ROWS)
        out[(long)(r0 + threadIdx.y + i) * n + c0 + threadIdx.x + j] =
            s[threadIdx.x + j][threadIdx.y + i];
    __syncthreads();
  }
}

// (2) float4 accesses (ptensor's vector variant): TILE x TILE tile,
// THREADS threads, each loads float4s along the input's rows and stores
// float4s along the output's rows; PIPE: the next tile's loads are issued
// before this tile's stores (a persistent grid). GROUP > 0: the tiles in
// the generated kernels' order (TiledTransposeKernel.cpp): GROUP tile rows
// of the result side by side, down a column of tiles, then the next column.
template <int TILE, int THREADS, bool PIPE, int GROUP = 0>
__global__ void __launch_bounds__(THREADS)
    vectorTile(const float *in, float *out, int n) {
  constexpr int LANES = TILE / 4;               // float4s per tile row
  constexpr int LINES = THREADS / LANES;        // tile rows per pass
  constexpr int PASSES = TILE / LINES;          // float4s per thread
  __shared__ float s[TILE][TILE + 1];
  int lane = threadIdx.x % LANES, line = threadIdx.x / LANES;
  int tilesPerRow = n / TILE, tiles = tilesPerRow * tilesPerRow;
  float4 v[PASSES];
  // The result's first row and column of tile t.
  auto origin = [&](int t, int &r0, int &c0) {
    if (GROUP == 0) {
      r0 = (t / tilesPerRow) * TILE, c0 = (t % tilesPerRow) * TILE;
      return;
    }
    int group = t / (GROUP * tilesPerRow), within = t % (GROUP * tilesPerRow);
    int rows = min(GROUP, tilesPerRow - group * GROUP);
    r0 = (group * GROUP + within % rows) * TILE, c0 = (within / rows) * TILE;
  };
  auto load = [&](int t) {
    int r0, c0;
    origin(t, r0, c0);
#pragma unroll
    for (int p = 0; p < PASSES; ++p)
      v[p] = *reinterpret_cast<const float4 *>(
          in + (long)(c0 + line + p * LINES) * n + r0 + lane * 4);
  };
  int t = blockIdx.x;
  if (PIPE && t < tiles)
    load(t);
  for (; t < tiles; t += gridDim.x) {
    int r0, c0;
    origin(t, r0, c0);
    if (!PIPE)
      load(t);
#pragma unroll
    for (int p = 0; p < PASSES; ++p) {
      float *row = s[line + p * LINES] + lane * 4;
      row[0] = v[p].x, row[1] = v[p].y, row[2] = v[p].z, row[3] = v[p].w;
    }
    __syncthreads();
    if (PIPE && t + gridDim.x < tiles)
      load(t + gridDim.x);
#pragma unroll
    for (int p = 0; p < PASSES; ++p) {
      int i = line + p * LINES;
      float4 o = make_float4(s[lane * 4][i], s[lane * 4 + 1][i],
                             s[lane * 4 + 2][i], s[lane * 4 + 3][i]);
      *reinterpret_cast<float4 *>(out + (long)(r0 + i) * n + c0 + lane * 4) = o;
    }
    __syncthreads();
  }
}

/// Milliseconds per launch: the median of 30 samples of 10 launches.
template <class Launch> static float timeIt(Launch launch) {
  return medianMs(launch, 30, 10);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  size_t bytes = (size_t)n * n * sizeof(float);
  std::vector<float> host(size_t(n) * n);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i % 100003);
  float *in, *out;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  int sms;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float copy = timeIt([&] {
    CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice));
  });
  std::printf("N %d, %d SMs, copy %.1f us (%.0f GB/s)\n", n, sms, copy * 1e3,
              2 * bytes / copy / 1e6);
  std::vector<float> back(host.size());
  auto report = [&](const char *name, int grid, auto launch) {
    CHECK(cudaMemset(out, 0, bytes));
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(back.data(), out, bytes, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (long r = 0; r < n; ++r)
      for (long c = 0; c < n; ++c)
        bad += back[r * n + c] != host[c * n + r];
    float t = timeIt(launch);
    std::printf("%-28s grid %6d  %8.1f us  %.2f of copy%s\n", name, grid,
                t * 1e3, copy / t, bad ? "  WRONG" : "");
  };
  int tiles32 = (n / 32) * (n / 32), tiles64 = (n / 64) * (n / 64);
  for (int grid : {tiles32, sms * 8, sms * 16})
    report("scalar t32 32x8", grid, [&] {
      scalarTile<32, 8><<<grid, dim3(32, 8)>>>(in, out, n);
    });
  for (int grid : {tiles64, sms * 4, sms * 8})
    report("scalar t64 32x16", grid, [&] {
      scalarTile<64, 16><<<grid, dim3(32, 16)>>>(in, out, n);
    });
  for (int grid : {tiles32, sms * 8, sms * 16}) {
    report("vector t32 256", grid, [&] {
      vectorTile<32, 256, false><<<grid, 256>>>(in, out, n);
    });
    report("vector t32 128", grid, [&] {
      vectorTile<32, 128, false><<<grid, 128>>>(in, out, n);
    });
  }
  for (int grid : {tiles64, sms * 4, sms * 8}) {
    report("vector t64 256", grid, [&] {
      vectorTile<64, 256, false><<<grid, 256>>>(in, out, n);
    });
    report("vector t64 512", grid, [&] {
      vectorTile<64, 512, false><<<grid, 512>>>(in, out, n);
    });
    report("vector t64 256 group 8", grid, [&] {
      vectorTile<64, 256, false, 8><<<grid, 256>>>(in, out, n);
    });
  }
  for (int grid : {sms * 4, sms * 8, sms * 16}) {
    report("vector t32 256 pipelined", grid, [&] {
      vectorTile<32, 256, true><<<grid, 256>>>(in, out, n);
    });
    report("vector t32 128 pipelined", grid, [&] {
      vectorTile<32, 128, true><<<grid, 128>>>(in, out, n);
    });
    report("vector t64 256 pipelined", grid, [&] {
      vectorTile<64, 256, true><<<grid, 256>>>(in, out, n);
    });
  }
  return 0;
}
