//===- RunTimeLayout.h - run-time strides of memref operands ---*- C++ -*-===//
//
// Shared by ptensor-coalesce-dims' parts (contiguous fast path, loop order,
// output layout) and the GPU reduction kernels: the sizes and strides of a
// memref operand and the run-time loop-order decision.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_RUNTIMELAYOUT_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_RUNTIMELAYOUT_H

#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::ptensor {

/// Records the ops a builder creates, to erase those left unused (checks
/// that folded, all of them when a version is statically impossible).
struct CreatedOps : public OpBuilder::Listener {
  SmallVector<Operation *> ops;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.push_back(op);
  }
  void eraseDead();
};

/// Run-time sizes, strides and offset of a memref operand; static entries of
/// its type are attributes.
struct Layout {
  SmallVector<OpFoldResult> sizes, strides;
  OpFoldResult offset;
};

/// The layout of `memref`: static parts from its type, the rest from
/// memref.extract_strided_metadata.
Layout getLayout(OpBuilder &b, Location loc, Value memref);

/// Which operands' votes decide the loop order (TensorIterator's
/// reorder_dimensions compares two dims operand by operand).
enum class OrderVote {
  /// The first operand (outputs first) whose strides differ decides: the
  /// loop order of a loop nest.
  FirstDecides,
  /// Every input with distinct strides must agree (outputs do not vote): the
  /// layout of a freshly allocated output (DESIGN.md: row-major otherwise).
  InputsAgree,
};

/// The i1 that is true when `op`'s loops should run in reversed order: the
/// operands' effective strides are smaller in the outermost loop dim than in
/// the innermost one (a column-major or transposed walk). Null when no
/// operand can vote (rank < 2, or no memref reads both dims); folds to a
/// constant where the strides are static.
Value buildReversedOrderCondition(IndexMath &math, linalg::GenericOp op,
                                  OrderVote rule);

/// Whether every memref operand of `op` is ranked and strided and read
/// through a projected permutation (identity, permutation or broadcast):
/// what run-time layout versioning can reason about.
bool hasStridedPermutedOperands(linalg::GenericOp op);

/// Whether `op` is a reduction over two loops, one kept and one reduced (what
/// the layout pass leaves of most reductions), on strided memrefs read
/// through permutations: its loops may run either way round
/// (createReversedCopy), a row reduction over a transposed view then being
/// a column reduction of unit-stride rows, and the other way round.
bool isTwoLoopReduction(linalg::GenericOp op);

/// A copy of `op`, created before it, whose loops are interchanged so that
/// loop d of the copy is loop n-1-d of `op` (same body, same elements).
linalg::GenericOp createReversedCopy(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_RUNTIMELAYOUT_H
