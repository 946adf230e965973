//===- CpuCompact.cpp - host count, select and scatter steps --------------===//
//
// ptensor_rt_cpu_count_true, _select_true, _scatter_runs (Compact.h): one
// pass each over host buffers (strided inputs, contiguous outputs). They
// cannot fail.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Compact.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

extern "C" int64_t ptensor_rt_cpu_count_true(intptr_t flags,
                                              int64_t flagsStride, int64_t n) {
  const auto *f = reinterpret_cast<const uint8_t *>(flags);
  int64_t count = 0;
  if (flagsStride == 1) {
    // The contiguous case on its own, so that the compiler vectorizes it.
    for (int64_t i = 0; i < n; ++i)
      count += f[i] != 0;
    return count;
  }
  for (int64_t i = 0; i < n; ++i)
    count += f[i * flagsStride] != 0;
  return count;
}

extern "C" void ptensor_rt_cpu_select_true(intptr_t flags,
                                           int64_t flagsStride, int64_t n,
                                           intptr_t positions) {
  const auto *f = reinterpret_cast<const uint8_t *>(flags);
  auto *out = reinterpret_cast<int64_t *>(positions);
  // Branch-free within a block (random flags would mispredict half the
  // branches): every position is written to a stack buffer, kept when its
  // flag is set; the kept ones are then copied out, so nothing is written
  // past the counted size.
  constexpr int64_t kBlock = 512;
  int64_t block[kBlock];
  int64_t written = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    int64_t end = std::min(n, start + kBlock);
    int64_t kept = 0;
    for (int64_t i = start; i < end; ++i) {
      block[kept] = i;
      kept += f[i * flagsStride] != 0;
    }
    std::memcpy(out + written, block, kept * sizeof(int64_t));
    written += kept;
  }
}

extern "C" void ptensor_rt_cpu_scatter_runs(intptr_t starts,
                                            int64_t startsStride,
                                            intptr_t permutation,
                                            int64_t permutationStride,
                                            int64_t n, intptr_t inverse) {
  const auto *s = reinterpret_cast<const uint8_t *>(starts);
  const auto *perm = reinterpret_cast<const int64_t *>(permutation);
  auto *out = reinterpret_cast<int64_t *>(inverse);
  int64_t run = -1;
  for (int64_t i = 0; i < n; ++i) {
    run += s[i * startsStride] != 0;
    out[perm[i * permutationStride]] = run;
  }
}
