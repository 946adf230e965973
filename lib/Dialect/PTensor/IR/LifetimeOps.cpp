//===- LifetimeOps.cpp - delete, release_buffer and storage sharing ------===//
//
// `ptensor.delete` ends a tensor's life; its verifier rejects a later use of
// the tensor or of anything that may share its storage. Its lowering,
// `ptensor.release_buffer`, bufferizes to itself on the tensor's buffer, a
// read that keeps one-shot bufferize from writing into that buffer in place
// before it; ptensor-release-deleted then frees the buffer there.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::bufferization;

bool mlir::ptensor::isViewOp(Operation *op) {
  return isa<PermuteDimsOp, FlipOp, ExtractSliceOp, ExpandDimsOp, SqueezeOp>(
      op);
}

bool mlir::ptensor::mayShareOperandStorage(Operation *op) {
  return isViewOp(op) ||
         isa<ReshapeOp, BroadcastOp, MeshgridOp, ToRankedOp, TeamBlockOp>(op);
}

Value mlir::ptensor::getStorageRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!mayShareOperandStorage(def) || isa<MeshgridOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

BlockArgument mlir::ptensor::getWrittenArgument(WriteOp write,
                                                Operation *fn) {
  auto arg = dyn_cast<BlockArgument>(getStorageRoot(write.getDest()));
  if (!arg || arg.getOwner()->getParentOp() != fn)
    return nullptr;
  return arg;
}

//===----------------------------------------------------------------------===//
// DeleteOp
//===----------------------------------------------------------------------===//

/// The values that may be `value`'s storage by the time the delete is
/// lowered: its views, the results of region ops that yield it, and the
/// values that folds make equal to it (a copy to the same type folds away:
/// valid IR must stay valid after canonicalization).
static void appendSharingUsers(Operation *user, Value value,
                               SmallVectorImpl<Value> &worklist) {
  if (mayShareOperandStorage(user) || getIdentityFold(user) == value)
    llvm::append_range(worklist, user->getResults());
  if (user->hasTrait<OpTrait::IsTerminator>())
    llvm::append_range(worklist, user->getParentOp()->getResults());
  // An involution applied twice: value -> negative -> negative is value.
  for (Value result : user->getResults())
    for (Operation *next : result.getUsers())
      if (getIdentityFold(next) == value)
        llvm::append_range(worklist, next->getResults());
}

/// Whether `user` is in (or nested in) a block of `region` that no path
/// from the region's entry block reaches: it never runs (MLIR's dominance
/// accepts uses there; canonicalization erases such blocks).
static bool isInUnreachableBlock(Region &region, Operation *user) {
  Block *ancestor = region.findAncestorBlockInRegion(*user->getBlock());
  if (!ancestor || ancestor == &region.front())
    return false;
  SmallVector<Block *> stack{&region.front()};
  llvm::SmallPtrSet<Block *, 8> reached;
  while (!stack.empty()) {
    Block *next = stack.pop_back_val();
    if (next == ancestor)
      return false;
    if (reached.insert(next).second)
      llvm::append_range(stack, next->getSuccessors());
  }
  return true;
}

LogicalResult DeleteOp::verify() {
  Block *block = (*this)->getBlock();
  if (getSource().getParentBlock() != block)
    return emitOpError("deletes a tensor defined outside its block (expected "
                       "the delete in the block that defines the tensor)");
  // The deleted tensor and every value that may share its storage.
  SmallVector<Value> worklist{getSource()};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (user == getOperation())
        continue;
      // A use in another block (the tensor's block dominates it) runs
      // after this block, so after the delete, unless no path reaches it.
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock && isInUnreachableBlock(*block->getParent(), user))
        continue;
      if (!inBlock || (*this)->isBeforeInBlock(inBlock)) {
        bool again = isa<DeleteOp>(user) && value == getSource();
        InFlightDiagnostic diag =
            again ? emitOpError("deletes a tensor that is deleted again later "
                                "(expected one delete per tensor)")
                  : emitOpError("deletes a tensor that is used later (expected "
                                "every use of it, and of the views that may "
                                "share its storage, before the delete)");
        diag.attachNote(user->getLoc()) << "the later use";
        return diag;
      }
      appendSharingUsers(user, value, worklist);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReleaseBufferOp
//===----------------------------------------------------------------------===//

bool ReleaseBufferOp::bufferizesToMemoryRead(OpOperand &,
                                             const AnalysisState &) {
  // A read: no op before it writes its result into this buffer in place.
  return true;
}

bool ReleaseBufferOp::bufferizesToMemoryWrite(OpOperand &,
                                              const AnalysisState &) {
  return false;
}

AliasingValueList ReleaseBufferOp::getAliasingValues(OpOperand &,
                                                     const AnalysisState &) {
  return {};
}

LogicalResult ReleaseBufferOp::bufferize(RewriterBase &rewriter,
                                         const BufferizationOptions &options,
                                         BufferizationState &state) {
  FailureOr<Value> buffer = getBuffer(rewriter, getSource(), options, state);
  if (failed(buffer))
    return failure();
  ReleaseBufferOp::create(rewriter, getLoc(), *buffer);
  rewriter.eraseOp(*this);
  return success();
}

/// Whether releasing `operand` at `release` adds no read after a write into
/// it: every use of it comes before the release, and none after `producer`
/// writes into it (a destination-style init, e.g. strided_write's).
static bool isLastUseAt(Value operand, Operation *producer,
                        ReleaseBufferOp release) {
  Block *block = release->getBlock();
  return llvm::all_of(operand.getUses(), [&](OpOperand &use) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    if (!user || !user->isBeforeInBlock(release))
      return false;
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    bool writes = dps && dps.isDpsInit(&use);
    return !writes || user == producer || user->isBeforeInBlock(producer);
  });
}

/// A release is all that keeps a side-effect-free producer alive (its
/// consumers fused it): the tensor is never made, and what is released
/// instead is each tensor operand of the producer whose last use this is
/// (e.g. the f64 accumulator of a sum whose f32 cast was fused).
static LogicalResult releaseOperandsInstead(ReleaseBufferOp release,
                                            PatternRewriter &rewriter) {
  Value source = release.getSource();
  Operation *producer = source.getDefiningOp();
  if (!isa<RankedTensorType>(source.getType()) || !producer ||
      producer->getNumResults() != 1 || !source.hasOneUse() ||
      !isMemoryEffectFree(producer))
    return failure();
  llvm::SmallPtrSet<Value, 4> released;
  for (Value operand : producer->getOperands())
    if (isa<RankedTensorType>(operand.getType()) &&
        isLastUseAt(operand, producer, release) &&
        released.insert(operand).second)
      ReleaseBufferOp::create(rewriter, release.getLoc(), operand);
  rewriter.eraseOp(release);
  return success();
}

void ReleaseBufferOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                  MLIRContext *) {
  patterns.add(releaseOperandsInstead);
}
