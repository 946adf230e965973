//===- KernelCommon.h - pieces shared by the elementwise kernel paths -----===//
//
// The elementwise lowering emits, per fused linalg.generic, several
// `gpu.launch` variants chosen at run time (flat vector, row vector, tiled
// transpose, scalar 32-bit and 64-bit index paths). These helpers build the
// parts they share: the generic's body inlined for one element, run-time
// layout tests of operands and the thread coordinates of a 1-D launch.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_KERNELCOMMON_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_KERNELCOMMON_H

#include "ElementwiseKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// Clones the body of `op` with its input block arguments bound to
/// `inputs` (one value per DPS input), its output block arguments to
/// `outputs` (one per DPS init; may be empty when the body reads none) and
/// `linalg.index` bound to `ids` (may be empty when the body reads no
/// index); returns the yielded values.
SmallVector<Value> inlineBody(OpBuilder &b, linalg::GenericOp op,
                              ValueRange inputs, ValueRange ids,
                              ValueRange outputs = {});

/// The indices into memref input `in` that iteration `ids` reads (a
/// constant in its indexing map reads that index).
SmallVector<Value> indicesThroughMap(OpBuilder &b, Location loc,
                                     linalg::GenericOp op, OpOperand *in,
                                     ValueRange ids);

/// Loads the element of memref input `in` that iteration `ids` reads.
Value loadThroughMap(OpBuilder &b, Location loc, linalg::GenericOp op,
                     OpOperand *in, ValueRange ids);

/// Loads the inputs of element `ids` through their indexing maps (a
/// broadcast dimension reads index 0) and inlines the body for it, its
/// output block arguments bound to `outputs` (a reduction's accumulators;
/// empty when the body reads none). A non-null `preloaded[i]` is used for
/// input i instead of a load.
SmallVector<Value> emitElement(OpBuilder &b, Location loc, linalg::GenericOp op,
                               ValueRange ids, ArrayRef<Value> preloaded = {},
                               ValueRange outputs = {});

/// Splits the linear index `lin` (i32 or index) over `sizes` (index),
/// innermost fastest, in `lin`'s type; returns the indices as index values.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value lin,
                               ValueRange sizes);

/// A run-time test and the view it guards.
struct GuardedView {
  Value ok;   ///< i1: the view is valid
  Value view; ///< memref usable where `ok` holds
};

/// Tests that `memref` is row-major contiguous (size-1 dims may have any
/// stride) with its first element aligned to `align` bytes, and returns its
/// flat 1-D view of `count` elements.
GuardedView flatView(OpBuilder &b, Location loc, Value memref, Value count,
                     int64_t align);

/// Smallest element size in bytes over the memref operands of `op`.
int64_t smallestElementBytes(linalg::GenericOp op, bool outputsOnly = false);

/// True when no buffer holds i1: vectors of i1 are bit-packed, but i1
/// buffers hold a byte per element.
bool hasByteElements(linalg::GenericOp op);

/// Thread coordinates of a 1-D launch, as i32.
struct ThreadCoordinates {
  Value thread, block, blockSize, gridSize;
  Value globalId;    ///< block * blockSize + thread
  Value threadCount; ///< gridSize * blockSize
};
ThreadCoordinates threadCoordinates(OpBuilder &b, Location loc,
                                    gpu::LaunchOp launch);

/// Emits a 1-D `gpu.launch` of `blocks` x `blockSize` threads (with
/// `workgroup` shared-memory buffers) and returns it with the insertion
/// point of `b` moved into its body, before the terminator (callers keep
/// their own insertion point with an InsertionGuard).
gpu::LaunchOp beginLaunch(OpBuilder &b, Location loc, Value blocks,
                          Value blockSize, TypeRange workgroup = {});

/// Blocks for `work` items (index): ceil(work / blockSize), clamped to
/// [1, maxBlocks] (a zero-block grid is invalid even in dead code).
Value gridFor(OpBuilder &b, Location loc, Value work, const KernelConfig &config);

/// Shorthands.
Value indexConstant(OpBuilder &b, Location loc, int64_t v);
Value i32Constant(OpBuilder &b, Location loc, int64_t v);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_KERNELCOMMON_H
