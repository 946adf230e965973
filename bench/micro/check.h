// CHECK(x): a CUDA runtime call whose failure ends the micro-benchmark
// with its message.
#ifndef PTENSOR_BENCH_MICRO_CHECK_H
#define PTENSOR_BENCH_MICRO_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#endif // PTENSOR_BENCH_MICRO_CHECK_H
