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

namespace ptensor::semantics {

/// The dim a team tensor of rank >= 1 is split along (a 0-d one is
/// replicated).
inline constexpr int64_t kTeamSplitDim = 0;

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

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_TEAMS_H
