//===- Teams.h - how a team tensor is split over processes ------*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the distribution of team
// tensors (docs/Teams.md). Compiled code (through libptensor_team) and the
// JIT's doors ask this one function, so every process agrees on who holds
// which rows.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_TEAMS_H
#define PTENSOR_SEMANTICS_TEAMS_H

#include "ptensor/Semantics/Broadcast.h"

#include <cstdint>
#include <string>

namespace ptensor::semantics {

/// The dim a team tensor of rank >= 1 is split along (a 0-d one is
/// replicated).
inline constexpr int64_t kTeamSplitDim = 0;

/// Whether `axis` of an op on a tensor of rank `rank` (negative: counted
/// from the end, as ops' axes are written) names the split dim.
inline bool isTeamSplitAxis(int64_t axis, int64_t rank) {
  return axis == kTeamSplitDim || axis == kTeamSplitDim - rank;
}

/// The size of dim `dim` of a process's block of a team tensor of rank >= 1
/// whose size there is `size`: the split dim is dynamic (blocks differ in
/// size), the others are the tensor's. The partitioning pass's block types
/// and the JIT's block signatures both ask it.
inline int64_t teamBlockDimSize(int64_t dim, int64_t size) {
  return dim == kTeamSplitDim ? kDynamicSize : size;
}

/// The rows of a split dim that one process holds.
struct TeamBlock {
  int64_t start = 0; ///< the first row
  int64_t rows = 0;  ///< how many
};

/// The block of process `rank` (0 to processes - 1) of `rows` rows split
/// over `processes`: near-equal contiguous blocks in rank order, the first
/// `rows % processes` ranks holding one row more (10 rows over 4: 3, 3, 2, 2).
TeamBlock teamBlock(int64_t rows, int64_t rank, int64_t processes);

/// Rows [begin, end) of a slice (row i of the slice is row
/// `offset + i * step` of the source); empty when begin == end.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t count() const { return end - begin; }
};

/// The rows i of a slice (`rows` rows, row i being row `offset + i * step`
/// of a source of `sourceRows` rows) that process `rank` holds in its
/// block of the source: one range, as the block is contiguous and the step
/// constant; empty for step 0. Bounds are not checked: only rows of the
/// block are counted.
RowRange teamSliceRowsHeld(int64_t sourceRows, int64_t offset, int64_t step,
                           int64_t rows, int64_t rank, int64_t processes);

/// A slice of the split dim moved between processes (team_slice_rows):
/// of the slice's `rows` rows, placed at rows [at, at + rows) of a result
/// of `resultRows` rows, the rows i that process `from`, holding its block
/// of the source's `sourceRows`, sends to process `to`, holding its block
/// of the result. As the source rows of `from` are contiguous and the step
/// is constant, they are one range; every process computes every pair
/// alike. The slice is in bounds (sliceBoundsError says none), its step
/// non-zero and 0 <= at, at + rows <= resultRows.
RowRange teamSliceRowsSent(int64_t sourceRows, int64_t offset, int64_t step,
                           int64_t rows, int64_t resultRows, int64_t at,
                           int64_t from, int64_t to, int64_t processes);

/// The refusal of the doors that pass team tensors whole, split and
/// gathered in host memory (the JIT's whole-tensor door, Python's team
/// calls), for a `function` that takes or returns GPU team tensors;
/// `remedy` is the door's way out, e.g. "run it with ptensor-runner".
std::string wholeGPUTeamTensorsRefusal(const std::string &function,
                                       const std::string &remedy);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_TEAMS_H
