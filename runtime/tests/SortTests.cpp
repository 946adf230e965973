//===- SortTests.cpp - the host sort through its C ABI --------------------===//
///
/// \file
/// ptensor_rt_cpu_sort called as compiled code calls it: an output that is
/// the input itself keeps the bits of -0.0 and NaNs in input order (a
/// stable sort's), argsort of ties is stable in both directions, and a
/// call with no output is an error through the trap, not a write through a
/// null pointer.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/PTensorRuntime.h"
#include "ptensor/Runtime/Sort.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

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
  return failureCount() - failuresBefore;
}
