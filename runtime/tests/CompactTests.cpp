//===- CompactTests.cpp - the host compaction steps through their C ABI ---===//
///
/// \file
/// ptensor_rt_cpu_count_true, _select_true and _scatter_runs called as
/// compiled code calls them: any non-zero byte is a true flag, the
/// positions ascend and fill exactly the counted size, and scatter_runs
/// gives each input position its run number.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/Compact.h"

#include <cstdint>
#include <cstdio>
#include <vector>

using namespace ptensor::rt::test;

namespace {
intptr_t address(const void *p) { return reinterpret_cast<intptr_t>(p); }
} // namespace

int ptensor::rt::test::runCompactTests() {
  int failuresBefore = failureCount();
  uint8_t flags[7] = {0, 1, 0, 2, 1, 0, 1};
  int64_t count = ptensor_rt_cpu_count_true(address(flags), 1, 7);
  std::printf("count: %lld\n", static_cast<long long>(count));
  EXPECT_EQ(count, 4);
  // One guard element after the counted size must stay untouched.
  int64_t positions[5] = {-1, -1, -1, -1, -7};
  ptensor_rt_cpu_select_true(address(flags), 1, 7, address(positions));
  int64_t want[5] = {1, 3, 4, 6, -7};
  std::printf("positions:");
  for (int i = 0; i < 5; ++i) {
    std::printf(" %lld", static_cast<long long>(positions[i]));
    EXPECT_EQ(positions[i], want[i]);
  }
  std::printf("\n");
  EXPECT_EQ(ptensor_rt_cpu_count_true(address(flags), 1, 0), 0);
  // Every other flag, backwards from the last: 1 1 0 0.
  int64_t strided = ptensor_rt_cpu_count_true(address(flags + 6), -2, 4);
  int64_t stridedPositions[2] = {};
  ptensor_rt_cpu_select_true(address(flags + 6), -2, 4,
                             address(stridedPositions));
  std::printf("strided: %lld at %lld %lld\n", static_cast<long long>(strided),
              static_cast<long long>(stridedPositions[0]),
              static_cast<long long>(stridedPositions[1]));
  EXPECT_EQ(strided, 2);
  EXPECT_EQ(stridedPositions[0], 0);
  EXPECT_EQ(stridedPositions[1], 1);

  // Long lines, against a plain loop: the vector paths (blocks of 64 flags;
  // byte counters over 255 rows of 64 flags), with runs of false flags,
  // lengths that end inside a block, on a true flag or after false ones,
  // and a guard after the counted size.
  std::vector<uint8_t> line(255 * 64 * 2 + 77);
  uint32_t state = 12345;
  for (size_t i = 0; i < line.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    bool quiet = (i / 640) % 3 == 1; // runs of 640 false flags
    line[i] = quiet ? 0 : (state >> 24) % 3;
  }
  line[line.size() - 1] = 1;
  line[line.size() - 2] = 0;
  int mismatches = 0;
  for (int64_t n : {int64_t(64), int64_t(200), int64_t(255 * 64 + 3),
                    static_cast<int64_t>(line.size()) - 1,
                    static_cast<int64_t>(line.size())}) {
    std::vector<int64_t> expected;
    for (int64_t i = 0; i < n; ++i)
      if (line[i] != 0)
        expected.push_back(i);
    int64_t counted = ptensor_rt_cpu_count_true(address(line.data()), 1, n);
    EXPECT_EQ(counted, static_cast<int64_t>(expected.size()));
    std::vector<int64_t> selected(expected.size() + 1, -7);
    ptensor_rt_cpu_select_true(address(line.data()), 1, n,
                               address(selected.data()));
    expected.push_back(-7);
    mismatches += selected != expected;
  }
  std::printf("long lines: %d mismatches\n", mismatches);
  EXPECT_EQ(mismatches, 0);

  // The sorted line 1 1 2 5 5 5 of the input 5 1 5 2 1 5.
  uint8_t starts[6] = {1, 0, 1, 1, 0, 0};
  int64_t permutation[6] = {1, 4, 3, 0, 2, 5};
  int64_t inverse[6] = {};
  ptensor_rt_cpu_scatter_runs(address(starts), 1, address(permutation), 1, 6,
                              address(inverse));
  int64_t runs[6] = {2, 0, 2, 1, 0, 2};
  std::printf("inverse:");
  for (int i = 0; i < 6; ++i) {
    std::printf(" %lld", static_cast<long long>(inverse[i]));
    EXPECT_EQ(inverse[i], runs[i]);
  }
  std::printf("\n");
  return failureCount() - failuresBefore;
}
