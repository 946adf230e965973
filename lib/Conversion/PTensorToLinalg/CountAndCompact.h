//===- CountAndCompact.h - results whose size is a count of flags -*- C++ -*-===//
//
// The count → compact machinery of the ops whose result size is the number
// of true flags (extract_mask, nonzero, unique), on the host.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_COUNTANDCOMPACT_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_COUNTANDCOMPACT_H

#include "mlir/IR/Builders.h"

namespace mlir::ptensor {

/// The flag of the loop indices `ivs`: an i1.
using FlagFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;
/// The results (tensors) made with the count of true flags (an index).
using AllocateFn = function_ref<SmallVector<Value>(Value)>;
/// The results updated with the element at `ivs`, the `row`-th true flag
/// (an index): `(builder, loc, results, ivs, row)`.
using StoreFn = function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                ValueRange, ValueRange, Value)>;

/// Pass 1 counts the indices `ivs` of the loop nest over `ubs` where
/// `flag(ivs)` is true; `allocate(count)` makes the results; pass 2 calls
/// `store` for those indices in row-major order (row 0, 1, ...). Returns
/// the updated results.
SmallVector<Value> countAndCompact(OpBuilder &b, Location loc,
                                   ArrayRef<Value> ubs, FlagFn flag,
                                   AllocateFn allocate, StoreFn store);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_COUNTANDCOMPACT_H
