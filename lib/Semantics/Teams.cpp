//===- Teams.cpp - how a team tensor is split over processes --------------===//

#include "ptensor/Semantics/Teams.h"

#include <algorithm>

using namespace ptensor::semantics;

TeamBlock ptensor::semantics::teamBlock(int64_t rows, int64_t rank,
                                        int64_t processes) {
  int64_t base = rows / processes, rest = rows % processes;
  return {rank * base + std::min(rank, rest), base + (rank < rest ? 1 : 0)};
}

/// floor(a / b) for b > 0, without int64 overflow in the operands (a and b
/// are differences of int64 values).
static __int128 floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  return q * b > a ? q - 1 : q;
}

RowRange ptensor::semantics::teamSliceRowsHeld(int64_t sourceRows,
                                              int64_t offset, int64_t step,
                                              int64_t rows, int64_t rank,
                                              int64_t processes) {
  if (step == 0) // not a slice (callers refuse it): nothing is held
    return {0, 0};
  TeamBlock source = teamBlock(sourceRows, rank, processes);
  // The rows i with source.start <= offset + i * step < source end, in
  // 128 bits (the step may be the lowest int64).
  __int128 first = source.start, last = __int128(source.start) + source.rows;
  __int128 lo, hi; // i in [lo, hi)
  if (step > 0) {
    // ceil((x - offset) / step) is floor((x - offset - 1) / step) + 1.
    lo = floorDiv(first - offset - 1, step) + 1;
    hi = floorDiv(last - offset - 1, step) + 1;
  } else {
    __int128 down = -__int128(step);
    lo = floorDiv(offset - last, down) + 1;
    hi = floorDiv(offset - first, down) + 1;
  }
  __int128 begin = std::max<__int128>(lo, 0);
  __int128 end = std::min<__int128>(hi, rows);
  if (end <= begin)
    return {0, 0};
  return {static_cast<int64_t>(begin), static_cast<int64_t>(end)};
}

RowRange ptensor::semantics::teamSliceRowsSent(
    int64_t sourceRows, int64_t offset, int64_t step, int64_t rows,
    int64_t resultRows, int64_t at, int64_t from, int64_t to,
    int64_t processes) {
  RowRange held =
      teamSliceRowsHeld(sourceRows, offset, step, rows, from, processes);
  // ... of which those with at + i in the receiver's block.
  TeamBlock result = teamBlock(resultRows, to, processes);
  __int128 begin =
      std::max<__int128>(held.begin, __int128(result.start) - at);
  __int128 end = std::min<__int128>(
      held.end, __int128(result.start) + result.rows - at);
  if (end <= begin)
    return {0, 0};
  return {static_cast<int64_t>(begin), static_cast<int64_t>(end)};
}

std::string ptensor::semantics::wholeGPUTeamTensorsRefusal(
    const std::string &function, const std::string &remedy) {
  return "@" + function +
         " takes or returns GPU team tensors, which are passed whole (split "
         "and gathered) on the host only; " +
         remedy + " (docs/Teams.md)";
}
