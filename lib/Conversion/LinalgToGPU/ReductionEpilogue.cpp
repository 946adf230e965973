//===- ReductionEpilogue.cpp - elementwise work after a reduction ---------===//

#include "ReductionEpilogue.h"

#include "KernelCommon.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Whether every output of `op` is indexed by its kept (parallel) dims in
/// order: element k of the kept space is element k of each output.
static bool outputsIndexedByKeptDims(linalg::GenericOp op) {
  SmallVector<unsigned> kept;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::parallel)
      kept.push_back(d);
  for (OpOperand &out : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&out);
    if (map.getNumResults() != kept.size())
      return false;
    for (auto [e, d] : llvm::zip(map.getResults(), kept)) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || dim.getPosition() != d)
        return false;
    }
  }
  return true;
}

/// Whether `value` is available before `op`: defined before it in its
/// block, or before the op that holds it there (or a block argument).
static bool isDefinedBefore(Value value, Operation *op) {
  Operation *ancestor = value.getParentBlock()->findAncestorOpInBlock(*op);
  if (!ancestor)
    return false;
  Operation *def = value.getDefiningOp();
  return !def || def->isBeforeInBlock(ancestor);
}

/// Whether `value` is available before `op`, or computed from such values
/// by effect-free ops after `op` in its block (a size or a scalar of the
/// epilogue computed between the two), which makeAvailableBefore moves.
static bool canMakeAvailableBefore(Value value, Operation *op) {
  if (isDefinedBefore(value, op))
    return true;
  Operation *def = value.getDefiningOp();
  return def && def->getBlock() == op->getBlock() &&
         def->getNumRegions() == 0 && isPure(def) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return canMakeAvailableBefore(operand, op);
         });
}

/// Moves the ops canMakeAvailableBefore found before `op`, operands first.
static void makeAvailableBefore(Value value, Operation *op) {
  if (isDefinedBefore(value, op))
    return;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    makeAvailableBefore(operand, op);
  def->moveBefore(op);
}

/// Whether reduction `op` reads (a view of) `buffer`.
static bool reads(linalg::GenericOp op, Value buffer) {
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    auto memref = dyn_cast<MemrefValue>(in->get());
    return memref && memref::skipViewLikeOps(memref) == buffer;
  });
}

/// The values `generic`'s body uses from above it.
static SetVector<Value> capturedValues(linalg::GenericOp generic) {
  SetVector<Value> captured;
  generic.getBody()->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!generic->isAncestor(operand.getParentBlock()->getParentOp()))
        captured.insert(operand);
  });
  return captured;
}

linalg::GenericOp mlir::ptensor::takeReductionEpilogue(linalg::GenericOp op) {
  if (!outputsIndexedByKeptDims(op))
    return {};
  Operation *next = op->getNextNode();
  while (next && isNeutralBetweenKernels(*next))
    next = next->getNextNode();
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumReductionLoops() != 0 ||
      epilogue.getNumLoops() != op.getNumParallelLoops())
    return {};
  SmallVector<Value> outputs(op.getDpsInits());
  bool readsResult = false;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    if (!isa<MemRefType>(in->get().getType()))
      continue;
    if (!llvm::is_contained(outputs, in->get()) ||
        !epilogue.getMatchingIndexingMap(in).isIdentity())
      return {};
    readsResult = true;
  }
  if (!readsResult)
    return {};
  SmallVector<Value> needed;
  for (OpOperand *in : epilogue.getDpsInputOperands())
    if (!isa<MemRefType>(in->get().getType()))
      needed.push_back(in->get());
  llvm::append_range(needed, capturedValues(epilogue));
  SmallVector<memref::AllocOp> allocations;
  for (OpOperand &out : epilogue.getDpsInitsMutable()) {
    auto alloc = out.get().getDefiningOp<memref::AllocOp>();
    if (!alloc || !epilogue.getMatchingIndexingMap(&out).isIdentity() ||
        epilogue.payloadUsesValueFromOperand(&out) ||
        llvm::is_contained(outputs, out.get()) || reads(op, out.get()))
      return {};
    if (isDefinedBefore(alloc.getResult(), op))
      continue;
    if (alloc->getBlock() != op->getBlock())
      return {};
    llvm::append_range(needed, alloc->getOperands());
    allocations.push_back(alloc);
  }
  // What the kernels need of the epilogue must be there before `op`
  // (checked first: nothing moves unless everything can).
  if (!llvm::all_of(needed,
                    [&](Value v) { return canMakeAvailableBefore(v, op); }))
    return {};
  for (Value v : needed)
    makeAvailableBefore(v, op);
  // The kernels write the epilogue's outputs: allocate them before.
  for (memref::AllocOp alloc : allocations)
    alloc->moveBefore(op);
  return epilogue;
}
