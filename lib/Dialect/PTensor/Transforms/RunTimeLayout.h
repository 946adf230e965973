//===- RunTimeLayout.h - run-time strides of memref operands -----*- C++ -*-===//
//
// Shared by ptensor-coalesce-dims' parts (contiguous fast path, loop order,
// output layout): the sizes and strides of a memref operand and the
// run-time loop-order decision.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_RUNTIMELAYOUT_H
#define PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_RUNTIMELAYOUT_H

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

/// A copy of `op`, created before it, whose loops are interchanged so that
/// loop d of the copy is loop n-1-d of `op` (same body, same elements).
linalg::GenericOp createReversedCopy(linalg::GenericOp op);

/// Gives the output of `op` that is a fresh row-major allocation (written
/// before it is read) the inputs' order at run time: a
/// memref.reinterpret_cast with column-major strides when every input votes
/// for the reversed order (InputsAgree), row-major strides otherwise. The
/// allocation itself is unchanged (same size); its later users read the
/// view. Left alone when a user might rely on the identity layout.
void followInputOrder(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_RUNTIMELAYOUT_H
