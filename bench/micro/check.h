// CHECK(x): a CUDA runtime call whose failure ends the micro-benchmark
// with its message; medianMs: the timing loop the micro-benchmarks share.
#ifndef PTENSOR_BENCH_MICRO_CHECK_H
#define PTENSOR_BENCH_MICRO_CHECK_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/// The median over `samples` of the device time (ms) of one `run()`,
/// timed between CUDA events around `calls` back-to-back runs, after 5
/// warm-up runs.
template <typename F> float medianMs(F run, int samples, int calls = 1) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 5; ++i)
    run();
  std::vector<float> times;
  for (int s = 0; s < samples; ++s) {
    CHECK(cudaEventRecord(start));
    for (int i = 0; i < calls; ++i)
      run();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms / calls);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

#endif // PTENSOR_BENCH_MICRO_CHECK_H
