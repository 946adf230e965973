//===- CompactionOps.cpp - count_true, select_true, scatter_runs ----------===//
//
// The lowering-internal steps of the ops whose result size is a count of
// flags: verifiers, memory effects on buffers and bufferization. select_true
// and scatter_runs are destination-passing with their last operand the
// output (only written); every other operand is only read.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::bufferization;

/// Checks that `value` is a 1-D tensor or memref of `element`, named `what`.
static LogicalResult verifyLine(Operation *op, Value value, Type element,
                                StringRef what) {
  auto type = cast<ShapedType>(value.getType());
  if (type.getRank() != 1 || type.getElementType() != element)
    return op->emitOpError("expected ")
           << what << " of rank 1 and " << element << ", but got " << type;
  return success();
}

/// The checks shared by the destination-passing steps: all operands
/// tensors or all memrefs; on tensors one result of the output's type (the
/// last operand), none on memrefs; all operands of one size.
static LogicalResult verifyDestinationPassing(Operation *op) {
  bool onTensors = isa<RankedTensorType>(op->getOperand(0).getType());
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()) != onTensors)
      return op->emitOpError("expected the operands all tensors or all "
                             "memrefs");
  Type output = op->getOperands().back().getType();
  if (onTensors ? op->getNumResults() != 1 || op->getResult(0).getType() != output
                : op->getNumResults() != 0)
    return op->emitOpError("expected ")
           << (onTensors ? "one result of the output's type" : "no results")
           << " on " << (onTensors ? "tensors" : "memrefs");
  return success();
}

/// Read effects on the memref operands but the last, a write on the last
/// (when `lastIsOutput`).
static void addEffects(
    Operation *op, bool lastIsOutput,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  unsigned last = op->getNumOperands() - 1;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    bool writes = lastIsOutput && operand.getOperandNumber() == last;
    if (writes)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

/// The buffers of all operands of `op`, in order; failure when one has
/// none.
static FailureOr<SmallVector<Value>>
operandBuffers(RewriterBase &rewriter, Operation *op,
               const BufferizationOptions &options, BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  return buffers;
}

/// Bufferizes a destination-passing step: the same op on the buffers,
/// replaced by the output's buffer.
template <typename OpT>
static LogicalResult bufferizeDestinationPassing(
    OpT op, RewriterBase &rewriter, const BufferizationOptions &options,
    BufferizationState &state) {
  FailureOr<SmallVector<Value>> buffers =
      operandBuffers(rewriter, op, options, state);
  if (failed(buffers))
    return failure();
  OpT::create(rewriter, op.getLoc(), TypeRange{}, *buffers, op->getAttrs());
  replaceOpWithBufferizedValues(rewriter, op, buffers->back());
  return success();
}

/// Whether `operand` is the output (the last operand) of `op`.
static bool isOutput(Operation *op, OpOperand &operand) {
  return operand.getOperandNumber() == op->getNumOperands() - 1;
}

//===----------------------------------------------------------------------===//
// CountTrueOp
//===----------------------------------------------------------------------===//

LogicalResult CountTrueOp::verify() {
  return verifyLine(*this, getFlags(), IntegerType::get(getContext(), 1),
                    "flags");
}

void CountTrueOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addEffects(*this, /*lastIsOutput=*/false, effects);
}

bool CountTrueOp::bufferizesToMemoryRead(OpOperand &, const AnalysisState &) {
  return true;
}

bool CountTrueOp::bufferizesToMemoryWrite(OpOperand &,
                                          const AnalysisState &) {
  return false;
}

AliasingValueList CountTrueOp::getAliasingValues(OpOperand &,
                                                 const AnalysisState &) {
  return {};
}

LogicalResult CountTrueOp::bufferize(RewriterBase &rewriter,
                                     const BufferizationOptions &options,
                                     BufferizationState &state) {
  FailureOr<Value> flags = getBuffer(rewriter, getFlags(), options, state);
  if (failed(flags))
    return failure();
  replaceOpWithNewBufferizedOp<CountTrueOp>(rewriter, *this, *flags);
  return success();
}

//===----------------------------------------------------------------------===//
// SelectTrueOp and ScatterRunsOp
//===----------------------------------------------------------------------===//

LogicalResult SelectTrueOp::verify() {
  Type i1 = IntegerType::get(getContext(), 1);
  Type i64 = IntegerType::get(getContext(), 64);
  if (failed(verifyLine(*this, getFlags(), i1, "flags")) ||
      failed(verifyLine(*this, getPositions(), i64, "positions")))
    return failure();
  return verifyDestinationPassing(*this);
}

LogicalResult ScatterRunsOp::verify() {
  Type i1 = IntegerType::get(getContext(), 1);
  Type i64 = IntegerType::get(getContext(), 64);
  if (failed(verifyLine(*this, getStarts(), i1, "starts")) ||
      failed(verifyLine(*this, getPermutation(), i64, "permutation")) ||
      failed(verifyLine(*this, getInverse(), i64, "inverse")))
    return failure();
  auto starts = cast<ShapedType>(getStarts().getType());
  for (Value other : {getPermutation(), getInverse()})
    if (failed(verifyCompatibleShape(starts.getShape(),
                                     cast<ShapedType>(other.getType())
                                         .getShape())))
      return emitOpError("expected starts, permutation and inverse of one "
                         "size, but got ")
             << getStarts().getType() << ", " << getPermutation().getType()
             << " and " << getInverse().getType();
  return verifyDestinationPassing(*this);
}

#define PTENSOR_DESTINATION_PASSING_STEP(OpT)                                  \
  void OpT::getEffects(                                                        \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    addEffects(*this, /*lastIsOutput=*/true, effects);                         \
  }                                                                            \
  bool OpT::bufferizesToMemoryRead(OpOperand &operand,                         \
                                   const AnalysisState &) {                    \
    return !isOutput(*this, operand);                                          \
  }                                                                            \
  bool OpT::bufferizesToMemoryWrite(OpOperand &operand,                        \
                                    const AnalysisState &) {                   \
    return isOutput(*this, operand);                                           \
  }                                                                            \
  AliasingValueList OpT::getAliasingValues(OpOperand &operand,                 \
                                           const AnalysisState &) {            \
    if (!isOutput(*this, operand))                                             \
      return {};                                                               \
    return {{getResult(0), BufferRelation::Equivalent, /*isDefinite=*/true}};  \
  }                                                                            \
  LogicalResult OpT::bufferize(RewriterBase &rewriter,                         \
                               const BufferizationOptions &options,            \
                               BufferizationState &state) {                    \
    return bufferizeDestinationPassing(*this, rewriter, options, state);       \
  }

PTENSOR_DESTINATION_PASSING_STEP(SelectTrueOp)
PTENSOR_DESTINATION_PASSING_STEP(ScatterRunsOp)

#undef PTENSOR_DESTINATION_PASSING_STEP
