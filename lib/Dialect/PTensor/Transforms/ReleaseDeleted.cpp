//===- ReleaseDeleted.cpp - a deleted tensor's buffer freed at its delete ===//
//
// The deallocation pipeline frees every temporary at the end of its block.
// A `ptensor.release_buffer` says the program is done with a buffer earlier;
// the buffer's deallocation moves up to it when no value that may share the
// buffer is used in between (which the delete's verifier promises for the
// ptensor values, and this pass checks again on the memrefs, where
// bufferization may have added sharing: an op writing in place).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORRELEASEDELETED
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// `alloc`'s result and every value that may share its buffer: memref
/// results of its users (views, casts, clones of the descriptor) and the
/// pointers and metadata taken out of it, transitively.
static SetVector<Value> getSharingValues(memref::AllocOp alloc) {
  SetVector<Value> values;
  values.insert(alloc.getResult());
  for (size_t i = 0; i < values.size(); ++i)
    for (Operation *user : values[i].getUsers()) {
      bool exposes = isa<memref::ExtractStridedMetadataOp,
                         memref::ExtractAlignedPointerAsIndexOp>(user);
      for (Value result : user->getResults())
        if (exposes || isa<BaseMemRefType>(result.getType()))
          values.insert(result);
    }
  return values;
}

/// Moves the deallocation of `release`'s buffer up to `release` when that
/// is sound (see the pass description).
static void freeAtRelease(ReleaseBufferOp release) {
  auto buffer = dyn_cast<MemrefValue>(release.getSource());
  if (!buffer)
    return; // A tensor: run before bufferization, there is no deallocation.
  auto alloc =
      memref::skipViewLikeOps(buffer).getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return; // A function argument (the caller's) or a buffer of unknown origin.
  Block *block = release->getBlock();
  memref::DeallocOp dealloc;
  SetVector<Value> sharing = getSharingValues(alloc);
  for (Value value : sharing)
    for (Operation *user : value.getUsers()) {
      if (isa<ReleaseBufferOp>(user))
        continue; // Releases do not touch the data.
      if (auto free = dyn_cast<memref::DeallocOp>(user)) {
        if (dealloc || free->getBlock() != block ||
            !release->isBeforeInBlock(free))
          return; // Conditional, or more than one: left where they are.
        dealloc = free;
        continue;
      }
      // A buffer passed on by a terminator (yielded out of a region, to
      // another block) lives on where this pass does not look.
      if (user->hasTrait<OpTrait::IsTerminator>())
        return;
      // A view, cast or metadata query only names the buffer again: the
      // names' uses are checked themselves.
      if (user->getNumResults() != 0 && isMemoryEffectFree(user) &&
          llvm::all_of(user->getResults(), [&](Value result) {
            return sharing.contains(result);
          }))
        continue;
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock || release->isBeforeInBlock(inBlock))
        return; // Used after the release (or outside its block).
    }
  if (!dealloc)
    return; // Returned, or owned by someone else.
  // The allocation itself: the freed pointer is the same for every view,
  // and the value the pipeline deallocated may be defined after `release`.
  OpBuilder b(release);
  memref::DeallocOp::create(b, dealloc.getLoc(), alloc.getResult());
  dealloc.erase();
}

namespace {
struct PTensorReleaseDeletedPass
    : public ptensor::impl::PTensorReleaseDeletedBase<
          PTensorReleaseDeletedPass> {
  void runOnOperation() override {
    SmallVector<ReleaseBufferOp> releases;
    getOperation()->walk(
        [&](ReleaseBufferOp release) { releases.push_back(release); });
    for (ReleaseBufferOp release : releases) {
      freeAtRelease(release);
      release.erase();
    }
  }
};
} // namespace
