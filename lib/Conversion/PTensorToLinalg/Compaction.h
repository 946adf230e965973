//===- Compaction.h - results whose size is a count of flags ----*- C++ -*-===//
//
// The count → select machinery of the ops whose result size is the number
// of true flags (extract_mask, nonzero, unique), on the host and the GPU
// alike: the flags are computed into a new row-major bool tensor (a
// parallel generic: a GPU kernel on the device), `ptensor.count_true` gives
// their number on the host, `ptensor.select_true` writes the positions of
// the true ones into a tensor of that size (both runtime calls after
// bufferization: loops on the host, CUB on the GPU), and the results are
// parallel generics gathering through the positions.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_COMPACTION_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_COMPACTION_H

#include "mlir/IR/Builders.h"

namespace mlir::ptensor {

/// `input` (a converted tensor of any rank) as a 1-D tensor in row-major
/// order: a view when its layout allows, a copy made by bufferization
/// otherwise.
Value flatten(OpBuilder &b, Location loc, Value input);

/// The flag of one element (an i1).
using ElementFlagFn = function_ref<Value(OpBuilder &, Location, Value)>;

/// A new row-major i1 tensor of `input`'s shape holding `flag(element)`
/// for each element of `input` (a parallel generic).
Value computeFlags(OpBuilder &b, Location loc, Value input,
                   ElementFlagFn flag);

/// The positions (i64, ascending) of the true elements of the 1-D i1
/// tensor `flags`: a tensor of their number (count_true, select_true).
Value truePositions(OpBuilder &b, Location loc, Value flags);

/// The indices (index) along dims of `sizes` (index) of the row-major
/// linear `position` (index): the last dim varies fastest.
SmallVector<Value> unravel(OpBuilder &b, Location loc, Value position,
                           ArrayRef<Value> sizes);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_COMPACTION_H
