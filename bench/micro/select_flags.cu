// nonzero's two GPU steps on contiguous flags, as libptensor_runtime_cuda
// runs them (runtime/cuda/FlagKernels.cu, compiled into this program):
// countContiguous, then selectAligned. Checks the positions against the
// host's for many sizes and densities, then times the two steps on 2^26
// flags, half of them true (bench/cases.py's nonzero_1d), beside CUB's
// DeviceSelect::Flagged and a device copy of the bytes the select must
// move (the flags read, the positions written), and a call on 4096 flags
// (what a call costs beyond the kernels). Used to decide issue 16's
// select kernel (bench/RESULTS.md); scripts/gpu-check.sh builds it and
// runs it in its smoke step, and its checks alone (`select_flags check`)
// under compute-sanitizer. Exits 1 when a check fails.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 -I runtime/lib -I runtime/cuda \
//     bench/micro/select_flags.cu -o select_flags && ./select_flags
//
// Another version of FlagKernels.cu (e.g. main's, to compare) is compiled
// in instead by putting its directory first in the -I list.
#include "FlagKernels.cu"

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <random>
#include <string>

#include "check.h"

using namespace ptensor::rt;

namespace {

void *allocate(void *, size_t bytes) {
  void *p = nullptr;
  return cudaMallocAsync(&p, bytes, 0) == cudaSuccess ? p : nullptr;
}
void release(void *, void *p) { cudaFreeAsync(p, 0); }

/// countContiguous then selectAligned, as CompactKernels.cu calls them;
/// the count stays on the device (nonzero copies it to the host between).
/// `maxBlocks` > 0 caps the select's grid.
void countAndSelect(const uint8_t *flags, int64_t n, int64_t *count,
                    int64_t *positions, int maxBlocks = 0) {
  char error[256] = "";
  CudaKernelsCall call{nullptr, allocate, release, nullptr};
  gpu::Scratch s(call);
  if (gpu::countContiguous(flags, n, count, 0, error, sizeof error) ||
      gpu::selectAligned(s, flags, n, positions, 0, error, sizeof error,
                         maxBlocks)) {
    std::fprintf(stderr, "FAILED: %s\n", error);
    std::exit(1);
  }
}

/// Runs both steps on `n` flags, each true with probability `density`
/// (or every `period`-th when period > 0), the select's grid capped at
/// `maxBlocks` (> 0), and compares with the host. A sentinel after the
/// last position catches a store past the end.
bool check(int64_t n, double density, int period, int maxBlocks,
           std::mt19937 &random) {
  std::vector<uint8_t> host(size_t(n > 0 ? n : 1));
  std::bernoulli_distribution coin(density);
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < n; ++i) {
    bool set = period > 0 ? i % period == 0 : coin(random);
    // Any nonzero byte is true, not only 1.
    host[size_t(i)] = set ? uint8_t(1 + i % 255) : 0;
    if (set)
      expected.push_back(i);
  }
  uint8_t *flags;
  int64_t *count, *positions;
  CHECK(cudaMalloc(&flags, host.size()));
  CHECK(cudaMalloc(&count, sizeof(int64_t)));
  // The positions and the sentinel.
  CHECK(cudaMalloc(&positions, (expected.size() + 1) * sizeof(int64_t)));
  CHECK(cudaMemcpy(flags, host.data(), host.size(), cudaMemcpyHostToDevice));
  const int64_t sentinel = -7;
  expected.push_back(sentinel);
  CHECK(cudaMemcpy(positions + expected.size() - 1, &sentinel, sizeof sentinel,
                   cudaMemcpyHostToDevice));
  countAndSelect(flags, n, count, positions, maxBlocks);
  CHECK(cudaDeviceSynchronize());
  int64_t got = -1;
  CHECK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
  std::vector<int64_t> result(expected.size());
  CHECK(cudaMemcpy(result.data(), positions, result.size() * sizeof(int64_t),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(flags));
  CHECK(cudaFree(count));
  CHECK(cudaFree(positions));
  bool ok = got == int64_t(expected.size()) - 1 && result == expected;
  if (!ok)
    std::printf("WRONG: n %lld density %g period %d blocks %d: count %lld of "
                "%zu\n",
                (long long)n, density, period, maxBlocks, (long long)got,
                expected.size() - 1);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  bool timed = !(argc > 1 && std::string(argv[1]) == "check");
  std::mt19937 random(7);
  int failures = 0, cases = 0;
  const int64_t sizes[] = {
      0,      1,    15,   16,    511,   512,     513,
      4095,   4096, 4097, 12345, 65536, 1 << 20, (1 << 20) + 77,
      3000017};
  const double densities[] = {0.0, 0.01, 0.5, 0.99, 1.0};
  for (int64_t n : sizes)
    for (double d : densities) {
      ++cases;
      failures += !check(n, d, 0, 0, random);
    }
  // Many chunks, so that look-backs cross many windows of 32 (and chunk
  // counts of 8192, 4096, about 2731 and 2); then grids of 1 and 3 blocks,
  // whose warps each take many chunks (the next chunk's loads, the last
  // partial chunk taken as a next one).
  for (int period : {1, 2, 3, 4097}) {
    ++cases;
    failures += !check((int64_t(1) << 24) + 5, 0, period, 0, random);
  }
  for (int blocks : {1, 3})
    for (int64_t n : {int64_t(8192) * 8 * blocks + 1, int64_t(3000017)})
      for (double d : {0.01, 0.5, 1.0}) {
        ++cases;
        failures += !check(n, d, 0, blocks, random);
      }
  std::printf("select_flags: %d of %d cases wrong\n", failures, cases);
  if (!timed)
    return failures != 0;

  const int64_t n = int64_t(1) << 26;
  std::vector<uint8_t> host(static_cast<size_t>(n));
  std::bernoulli_distribution half(0.5);
  for (auto &f : host)
    f = half(random);
  uint8_t *flags;
  int64_t *count, *positions, *selected;
  CHECK(cudaMalloc(&flags, size_t(n)));
  CHECK(cudaMalloc(&count, sizeof(int64_t)));
  CHECK(cudaMalloc(&selected, sizeof(int64_t)));
  CHECK(cudaMalloc(&positions, size_t(n) * sizeof(int64_t)));
  CHECK(cudaMemcpy(flags, host.data(), size_t(n), cudaMemcpyHostToDevice));
  float both =
      medianMs([&] { countAndSelect(flags, n, count, positions); }, 21, 5);
  // The timed calls' result too (the warps loop over many chunks here).
  {
    std::vector<int64_t> expected, result;
    for (int64_t i = 0; i < n; ++i)
      if (host[size_t(i)])
        expected.push_back(i);
    result.resize(expected.size());
    CHECK(cudaMemcpy(result.data(), positions, result.size() * sizeof(int64_t),
                     cudaMemcpyDeviceToHost));
    bool same = result == expected;
    std::printf("2^26 flags: the timed result %s the host's\n",
                same ? "is" : "is NOT");
    failures += !same;
  }
  char error[256];
  float countOnly = medianMs(
      [&] { gpu::countContiguous(flags, n, count, 0, error, sizeof error); },
      21, 5);
  thrust::counting_iterator<int64_t> indices(0);
  size_t tempBytes = 0;
  CHECK(cub::DeviceSelect::Flagged(nullptr, tempBytes, indices, flags,
                                   positions, selected, n));
  void *temp;
  CHECK(cudaMalloc(&temp, tempBytes));
  float cubSelect = medianMs(
      [&] {
        CHECK(cub::DeviceSelect::Flagged(temp, tempBytes, indices, flags,
                                         positions, selected, n));
      },
      21, 5);
  // The select reads n bytes and writes n / 2 positions of 8 bytes.
  size_t moved = size_t(n) + size_t(n) / 2 * sizeof(int64_t);
  char *a, *b;
  CHECK(cudaMalloc(&a, moved / 2));
  CHECK(cudaMalloc(&b, moved / 2));
  float copy = medianMs(
      [&] {
        CHECK(cudaMemcpyAsync(b, a, moved / 2, cudaMemcpyDeviceToDevice));
      },
      21, 5);
  std::printf("2^26 flags, half true, us (median of 21 x 5 calls):\n"
              "count + select %.1f (count %.1f, select %.1f), CUB "
              "DeviceSelect::Flagged %.1f, copy of the select's bytes %.1f "
              "(select: %.2f of copy)\n",
              1e3 * both, 1e3 * countOnly, 1e3 * (both - countOnly),
              1e3 * cubSelect, 1e3 * copy, copy / (both - countOnly));
  // Small calls: what the host side costs (the queries, the launches).
  float small = medianMs([&] { countAndSelect(flags, 4096, count, positions); },
                         21, 20);
  std::printf("4096 flags: count + select %.1f us a call\n", 1e3 * small);
  return failures != 0;
}
