//===- LoopBlocks.h - one block of a loop split in equal blocks -*- C++ -*-===//
//
// The host lowerings split a long loop [0, n) in blocks of `size` positions
// run on threads (ReductionsToLoops: a full reduction's chunks, a column
// reduction's columns); the parallel threshold recognizes the same bounds
// to weigh the loop over one block. Both use this one shape:
//   first = block * size,  last = min(first + size, n).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_LOOPBLOCKS_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_LOOPBLOCKS_H

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::ptensor {

/// The positions [first, last) of block `block` (index values).
struct BlockBounds {
  Value first, last;
};

/// Builds the bounds of block `block` of [0, n) split in blocks of `size`.
BlockBounds buildBlockBounds(OpBuilder &b, Location loc, Value block,
                             Value size, Value n);

/// What `last` was built from, where `last` is min(first + size, n) as
/// buildBlockBounds makes it (either operand order of the min and the add).
struct BlockEnd {
  Value size, n;
};

/// The block's size and n when `last` bounds the block that starts at
/// `first` (the shape buildBlockBounds builds); nullopt otherwise.
std::optional<BlockEnd> matchBlockEnd(Value first, Value last);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_LOOPBLOCKS_H
