//===- KernelCommon.h - pieces shared by the kernel paths -----------------===//
//
// The elementwise lowering emits, per fused linalg.generic, several
// `gpu.launch` variants chosen at run time (flat vector, row vector, tiled
// transpose, scalar 32-bit and 64-bit index paths), and the reduction and
// row-group kernels have row-vector paths too. These helpers build the
// parts they share (beside the generic's body for one element, from
// Utils/GenericBody.h): run-time layout tests of operands, how a row path
// reads an input, and the thread coordinates of a 1-D launch.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_KERNELCOMMON_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_KERNELCOMMON_H

#include "ElementwiseKernel.h"

#include "ptensor/Dialect/PTensor/Utils/GenericBody.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

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

/// Tests that `memref` has unit stride in its innermost dim and that every
/// row starts `align`-byte aligned (its first element aligned, each outer
/// stride a multiple of `width` elements), and returns a view of it whose
/// type says the unit innermost stride (what vector loads and stores of
/// `width` consecutive row elements need).
GuardedView rowView(OpBuilder &b, Location loc, Value memref, int64_t width,
                    int64_t align);

/// rowView without the alignment test: rows may start anywhere (a box at
/// an odd column, a roll's shifted part). A row path through it peels each
/// row's first elementsBeforeAligned(...) elements.
GuardedView rowViewFromAnyColumn(OpBuilder &b, Location loc, Value memref,
                                 int64_t width);

/// Elements (index) before the first `align`-byte aligned element of
/// `memref`, counted from its first element: every row's, in a
/// rowViewFromAnyColumn view. (The aligned pointer is element-aligned.)
Value elementsBeforeAligned(OpBuilder &b, Location loc, Value memref,
                            int64_t align);

/// i1: element `element` (index, counted from the first element along a
/// row) of `memref` is `align`-byte aligned.
Value isElementAligned(OpBuilder &b, Location loc, Value memref, Value element,
                       int64_t align);

/// Whether `op` may sit between generics that one kernel computes (the
/// members of a row group, a fill and the reduction it is folded into): it
/// has no memory effect but allocation.
bool isNeutralBetweenKernels(Operation &op);

/// How a row path (a thread reading `width` consecutive elements of the
/// innermost loop with one vector load or store) reads an input.
enum class RowAccess {
  Unsupported, ///< innermost loop dim read at another position (transposed)
  Broadcast,   ///< innermost loop dim not read: one value per row
  AlongRow,    ///< innermost index is the innermost loop dim: needs a unit
               ///< row stride at run time
};
RowAccess rowAccessOf(linalg::GenericOp op, OpOperand *in);

/// Alignment (bytes) of a row path's vector of `width` `element`s (at most
/// 16: wider vectors are split into 16-byte accesses).
int64_t rowAlignment(int64_t width, Type element);

/// Smallest element size in bytes over the memref operands of `op`.
int64_t smallestElementBytes(linalg::GenericOp op, bool outputsOnly = false);

/// True when no buffer holds i1: vectors of i1 are bit-packed, but i1
/// buffers hold a byte per element.
bool hasByteElements(linalg::GenericOp op);

/// True when the body of `op` calls a math-dialect function that takes
/// more than a few instructions (exp, tanh, sqrt, ...; not abs, floor,
/// fma, isnan and the like): its kernels are bound by computation rather
/// than by memory.
bool callsMathFunction(linalg::GenericOp op);

/// `v` (index or an integer) as `to`, cast as unsigned where it differs.
Value castUnsigned(OpBuilder &b, Location loc, Value v, Type to);

/// Thread coordinates of a 1-D launch, as `type` (i32 unless given; an
/// integer or index).
struct ThreadCoordinates {
  Value thread, block, blockSize, gridSize;
  Value globalId;    ///< block * blockSize + thread
  Value threadCount; ///< gridSize * blockSize
};
ThreadCoordinates threadCoordinates(OpBuilder &b, Location loc,
                                    gpu::LaunchOp launch, Type type = Type());

/// A grid-stride loop over the whole chunks of `unroll` x blockSize items
/// among `total` items (the type of `c`'s values): in chunk j, thread t
/// takes items j * chunk + t + k * blockSize, k < unroll (each item a
/// coalesced access of the block), and `body` gets the `unroll` items at
/// once so that it can issue every load before any store (one item per
/// step keeps one load in flight per thread). Returns the first item after
/// the whole chunks; callers finish the rest one item per thread and step.
Value emitUnrolledChunks(
    OpBuilder &b, Location loc, const ThreadCoordinates &c, Value total,
    int64_t unroll,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// Blocks for `work` items (index) of which each thread takes `unroll`
/// (see emitUnrolledChunks).
Value gridForUnrolled(OpBuilder &b, Location loc, Value work, int64_t unroll,
                      const KernelConfig &config);

/// Emits a 1-D `gpu.launch` of `blocks` x `blockSize` threads (with
/// `workgroup` shared-memory buffers, and `dynamicSharedBytes` (i32) of
/// dynamic shared memory when given) and returns it with the insertion
/// point of `b` moved into its body, before the terminator (callers keep
/// their own insertion point with an InsertionGuard).
gpu::LaunchOp beginLaunch(OpBuilder &b, Location loc, Value blocks,
                          Value blockSize, TypeRange workgroup = {},
                          Value dynamicSharedBytes = Value());

/// Blocks for `work` items (index): ceil(work / blockSize), clamped to
/// [1, maxBlocks] (a zero-block grid is invalid even in dead code).
Value gridFor(OpBuilder &b, Location loc, Value work, const KernelConfig &config);

/// Shorthands.
Value indexConstant(OpBuilder &b, Location loc, int64_t v);
Value i32Constant(OpBuilder &b, Location loc, int64_t v);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_KERNELCOMMON_H
