//===- CpuCompact.cpp - host count, select and scatter steps --------------===//
//
// ptensor_rt_cpu_count_true, _select_true, _scatter_runs (Compact.h): one
// pass each over contiguous host buffers. They cannot fail.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Compact.h"

#include <cstdint>

extern "C" int64_t ptensor_rt_cpu_count_true(intptr_t flags, int64_t n) {
  const auto *f = reinterpret_cast<const uint8_t *>(flags);
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i)
    count += f[i] != 0;
  return count;
}

extern "C" void ptensor_rt_cpu_select_true(intptr_t flags, int64_t n,
                                           intptr_t positions) {
  const auto *f = reinterpret_cast<const uint8_t *>(flags);
  auto *out = reinterpret_cast<int64_t *>(positions);
  int64_t next = 0;
  for (int64_t i = 0; i < n; ++i)
    if (f[i])
      out[next++] = i;
}

extern "C" void ptensor_rt_cpu_scatter_runs(intptr_t starts,
                                            intptr_t permutation, int64_t n,
                                            intptr_t inverse) {
  const auto *s = reinterpret_cast<const uint8_t *>(starts);
  const auto *perm = reinterpret_cast<const int64_t *>(permutation);
  auto *out = reinterpret_cast<int64_t *>(inverse);
  int64_t run = -1;
  for (int64_t i = 0; i < n; ++i) {
    run += s[i] != 0;
    out[perm[i]] = run;
  }
}
