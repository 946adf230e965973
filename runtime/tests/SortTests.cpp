//===- SortTests.cpp - the host sort through its C ABI --------------------===//
///
/// \file
/// ptensor_rt_cpu_sort called as compiled code calls it: an output that is
/// the input itself keeps the bits of -0.0 and NaNs in input order (a
/// stable sort's), argsort of ties is stable in both directions, and a
/// call with no output is an error through the trap, not a write through a
/// null pointer. ptensor_rt_cpu_sort_runs (the `runs` hint) merges sorted
/// runs to the same result (special values, descending ties, a last end
/// short of the line, long lines on threads), sorts a line whose run is
/// not sorted, and refuses ends out of order.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "SortKeys.h"

#include "ptensor/Runtime/PTensorRuntime.h"
#include "ptensor/Runtime/Sort.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

using namespace ptensor::rt::test;

namespace {

intptr_t address(const void *p) { return reinterpret_cast<intptr_t>(p); }

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

int64_t sizes[1] = {6}, unit[1] = {1};

/// Six floats sorted in place (values = input), ascending.
void sortInPlace(void **args) {
  auto *x = static_cast<float *>(args[0]);
  ptensor_rt_cpu_sort(PTENSOR_RT_SORT_F32, PTENSOR_RT_SORT_STABLE, 1, 0,
                      address(sizes), address(x), 0, address(unit),
                      address(x), 0, address(unit), 0, 0, 0);
}

/// argsort of six int32 with ties, descending, with the sorted values too.
void argsortDescending(void **args) {
  ptensor_rt_cpu_sort(PTENSOR_RT_SORT_I32,
                      PTENSOR_RT_SORT_STABLE | PTENSOR_RT_SORT_DESCENDING, 1,
                      0, address(sizes), address(args[0]), 0, address(unit),
                      address(args[2]), 0, address(unit), address(args[1]), 0,
                      address(unit));
}

void noOutput(void **args) {
  ptensor_rt_cpu_sort(PTENSOR_RT_SORT_F32, 0, 1, 0, address(sizes),
                      address(args[0]), 0, address(unit), 0, 0, 0, 0, 0, 0);
}

/// A 1-D sort with the runs hint: args are the input, the values (or
/// null), the indices (or null), the run ends, then the size, the key
/// type, the flags and the number of ends, each as an int64_t.
void sortRuns(void **args) {
  auto number = [&](int i) { return *static_cast<int64_t *>(args[i]); };
  ptensor_rt_cpu_sort_runs(number(5), number(6), 1, 0, address(args[4]),
                           address(args[0]), 0, address(unit),
                           address(args[1]), 0, address(unit),
                           address(args[2]), 0, address(unit),
                           address(args[3]), 1, number(7));
}

/// sortRuns of `n` elements at `in` (type code `type`) with `ends`.
ptensor_rt_status callSortRuns(const void *in, void *values, int64_t *indices,
                               std::vector<int64_t> ends, int64_t n,
                               int64_t type, int64_t flags) {
  int64_t size = n, count = static_cast<int64_t>(ends.size());
  void *args[] = {const_cast<void *>(in), values, indices, ends.data(),
                  &size, &type, &flags, &count};
  return ptensor_rt_call_checked(sortRuns, args);
}

/// The runs hint on short lines, long lines and bad ends.
/// The exact float keys of the GPU's rows (SortKeys.h exactFloatKeyOf):
/// their unsigned order is the floats' with -0.0 just below 0.0 and NaNs
/// (the sign cleared) last, reversed descending, and each key gives its
/// float's bits back.
void runExactFloatKeyTests() {
  ptensor::rt::SortFormat f;
  EXPECT_TRUE(ptensor::rt::sortFormatOf(PTENSOR_RT_SORT_F32, f));
  const uint32_t ascending[] = {
      0xFF800000u,   bitsOf(-2.0f), 0x80000001u,   0x80000000u, 0x00000000u,
      0x00000001u,   bitsOf(1.0f),  0x7F800000u,   0x7FC00000u, 0x7FC00001u};
  const int n = sizeof ascending / sizeof ascending[0];
  for (bool descending : {false, true}) {
    for (int i = 0; i + 1 < n; ++i) {
      uint32_t low = ptensor::rt::exactFloatKeyOf(ascending[i], f, descending);
      uint32_t high =
          ptensor::rt::exactFloatKeyOf(ascending[i + 1], f, descending);
      EXPECT_TRUE(descending ? high < low : low < high);
    }
    for (uint32_t b : ascending)
      EXPECT_EQ(ptensor::rt::bitsOfExactFloatKey(
                    ptensor::rt::exactFloatKeyOf(b, f, descending), descending),
                b);
    // A NaN with the sign bit: the key (and bits) of the positive one.
    EXPECT_EQ(ptensor::rt::exactFloatKeyOf(0xFFC00001u, f, descending),
              ptensor::rt::exactFloatKeyOf(0x7FC00001u, f, descending));
  }
}

void runSortRunsTests() {
  // Two runs of f32 in sort order (-0.0 equal to 0.0, NaNs last), the last
  // end left out: merged with the zeros and NaNs in input order.
  uint32_t in[7] = {0x80000000u, bitsOf(1.0f),  0xFFC00001u, bitsOf(-2.0f),
                    0x00000000u, bitsOf(1.0f), 0x7FC00000u};
  uint32_t out[7] = {};
  EXPECT_EQ(callSortRuns(in, out, nullptr, {3}, 7, PTENSOR_RT_SORT_F32,
                         PTENSOR_RT_SORT_STABLE),
            PTENSOR_RT_SUCCESS);
  uint32_t want[7] = {bitsOf(-2.0f), 0x80000000u, 0x00000000u, bitsOf(1.0f),
                      bitsOf(1.0f),  0xFFC00001u, 0x7FC00000u};
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(out[i], want[i]);
  // Descending runs of i32 with ties across them: argsort keeps them in
  // input order.
  int32_t keys[6] = {3, 3, 1, 3, 2, 1};
  int64_t positions[6] = {};
  EXPECT_EQ(callSortRuns(keys, nullptr, positions, {3, 6}, 6,
                         PTENSOR_RT_SORT_I32,
                         PTENSOR_RT_SORT_STABLE | PTENSOR_RT_SORT_DESCENDING),
            PTENSOR_RT_SUCCESS);
  int64_t wantPositions[6] = {0, 1, 3, 4, 2, 5};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(positions[i], wantPositions[i]);
  // A run that is not sorted: the line is sorted whole.
  int32_t unsorted[4] = {2, 1, 0, 5}, sortedOut[4] = {};
  EXPECT_EQ(callSortRuns(unsorted, sortedOut, nullptr, {2}, 4,
                         PTENSOR_RT_SORT_I32, PTENSOR_RT_SORT_STABLE),
            PTENSOR_RT_SUCCESS);
  int32_t wantSorted[4] = {0, 1, 2, 5};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(sortedOut[i], wantSorted[i]);
  // Ends out of order fail like a run-time check, naming the end.
  ptensor_rt_status status = callSortRuns(unsorted, sortedOut, nullptr,
                                          {3, 2}, 4, PTENSOR_RT_SORT_I32, 0);
  std::printf("runs out of order -> %s: %s\n", statusName(status),
              ptensor_rt_last_error());
  EXPECT_EQ(status, PTENSOR_RT_ERROR_CHECK_FAILED);
  EXPECT_TRUE(std::strstr(ptensor_rt_last_error(), "run end 1 is 2") != nullptr);
  // A long line of four sorted runs (merged on threads), values and
  // positions, against the stable order.
  const int64_t n = int64_t(1) << 20;
  std::vector<int32_t> line(n);
  std::mt19937 random(7);
  for (int32_t &v : line)
    v = static_cast<int32_t>(random() % 1000);
  std::vector<int64_t> ends = {n / 8, n / 2, n / 2, 3 * n / 4};
  for (size_t r = 0; r <= ends.size(); ++r)
    std::sort(line.begin() + (r ? ends[r - 1] : 0),
              line.begin() + (r < ends.size() ? ends[r] : n));
  std::vector<int32_t> values(n);
  std::vector<int64_t> indices(n), expected(n);
  EXPECT_EQ(callSortRuns(line.data(), values.data(), indices.data(), ends, n,
                         PTENSOR_RT_SORT_I32, PTENSOR_RT_SORT_STABLE),
            PTENSOR_RT_SUCCESS);
  std::iota(expected.begin(), expected.end(), int64_t(0));
  // The stable order: by value, ties by position.
  std::sort(expected.begin(), expected.end(), [&](int64_t a, int64_t b) {
    return line[a] < line[b] || (line[a] == line[b] && a < b);
  });
  EXPECT_TRUE(indices == expected);
  bool valuesMatch = true;
  for (int64_t i = 0; i < n; ++i)
    valuesMatch = valuesMatch && values[i] == line[expected[i]];
  EXPECT_TRUE(valuesMatch);
}

} // namespace

int ptensor::rt::test::runSortTests() {
  int failuresBefore = failureCount();
  // -0.0, a NaN with a payload and the sign bit, 1, +0.0, a quiet NaN, -2.
  uint32_t in[6] = {0x80000000u, 0xFFC00001u, bitsOf(1.0f),
                    0x00000000u, 0x7FC00000u, bitsOf(-2.0f)};
  float x[6];
  for (int i = 0; i < 6; ++i)
    x[i] = floatOf(in[i]);
  void *args[] = {x};
  EXPECT_EQ(ptensor_rt_call_checked(sortInPlace, args), PTENSOR_RT_SUCCESS);
  // -2, then the zeros and the NaNs each in input order, bits kept.
  uint32_t want[6] = {bitsOf(-2.0f), 0x80000000u, 0x00000000u,
                      bitsOf(1.0f),  0xFFC00001u, 0x7FC00000u};
  std::printf("in place:");
  for (int i = 0; i < 6; ++i) {
    std::printf(" %08x", bitsOf(x[i]));
    EXPECT_EQ(bitsOf(x[i]), want[i]);
  }
  std::printf("\n");

  int32_t keys[6] = {3, 1, 3, 2, 1, 3};
  int64_t positions[6] = {};
  int32_t sorted[6] = {};
  void *argsortArgs[] = {keys, positions, sorted};
  EXPECT_EQ(ptensor_rt_call_checked(argsortDescending, argsortArgs),
            PTENSOR_RT_SUCCESS);
  int64_t expected[6] = {0, 2, 5, 3, 1, 4};
  std::printf("argsort descending:");
  for (int i = 0; i < 6; ++i) {
    std::printf(" %lld", static_cast<long long>(positions[i]));
    EXPECT_EQ(positions[i], expected[i]);
  }
  std::printf("\n");
  int32_t sortedWant[6] = {3, 3, 3, 2, 1, 1};
  std::printf("with values:");
  for (int i = 0; i < 6; ++i) {
    std::printf(" %d", sorted[i]);
    EXPECT_EQ(sorted[i], sortedWant[i]);
  }
  std::printf("\n");

  void *noOutputArgs[] = {x};
  ptensor_rt_status status = ptensor_rt_call_checked(noOutput, noOutputArgs);
  std::printf("no output -> %s: %s\n", statusName(status),
              ptensor_rt_last_error());
  EXPECT_EQ(status, PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  runSortRunsTests();
  runExactFloatKeyTests();
  return failureCount() - failuresBefore;
}
