//===- RowGroups.h - generics computed a row at a time ---------*- C++ -*-===//
//
// A normalisation reads each row of its input several times: var is a sum
// (the mean) then a sum of squared deviations from it; softmax is a max,
// a sum of exp(x - max), then exp(x - max) / sum written out. Lowered one
// generic at a time, each pass is a kernel over the whole input. A *row
// group* is a run of such generics that one kernel can compute a row at a
// time instead, a block per row of the first reduction's kept space: the
// later passes read the row the same block has just read (from its shared
// memory where the row fits, else from L2), and the per-row results
// between them never leave the block.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_ROWGROUPS_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_ROWGROUPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor {

/// What a member of a row group computes for row k.
enum class RowStep {
  Reduce,  ///< a reduction over the row (the innermost loops reduced)
  PerRow,  ///< an elementwise generic over the kept space: element k
  AlongRow ///< an elementwise generic over the whole space: row k
};

/// Generics (in program order, separated only by ops without memory
/// effects other than allocation) that one kernel may compute a row at a
/// time: the first Reduce gives the space (its loops; its kept dims are
/// the rows), every Reduce and AlongRow member reads one of that
/// reduction's inputs through the same map that visits every loop (so the
/// loop sizes are equal), and every buffer a member writes is a fresh
/// allocation that members touch only at row k's position (element k of
/// the kept space; AlongRow outputs are read by no other member). At least
/// two members read whole rows (Reduce or AlongRow): otherwise nothing is
/// read twice.
struct RowGroup {
  SmallVector<linalg::GenericOp> members;
  SmallVector<RowStep> steps;
};

/// The buffer `v` views: through every view op. `understood` tells whether
/// only reshapes and casts were passed (whose static strides say where an
/// element lies in the buffer). Every access of a buffer a group's member
/// writes is understood and at row k's one element.
Value rootOf(Value v, bool &understood);

/// The row groups among the generics of `f` on memrefs.
SmallVector<RowGroup> findRowGroups(func::FuncOp f);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_ROWGROUPS_H
