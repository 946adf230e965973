//===- IndexMath.h - index arithmetic that folds what is static -*- C++ -*-===//
//
// The one helper for index and i1 arithmetic in the lowering and the layout
// passes: sizes, strides and offsets are OpFoldResults, static parts stay
// attributes (so the checks of static layouts fold away while they are
// built), and constants are created once per helper.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_INDEXMATH_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_INDEXMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ptensor {

/// Index and i1 arithmetic at one location. A null i1 Value is `true` for
/// andI (an empty conjunction).
struct IndexMath {
  IndexMath(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &b;
  Location loc;

  /// `v` as a Value (an index constant, created once, when static).
  Value value(OpFoldResult v);
  /// Each of `vs` as a Value, in order.
  SmallVector<Value> values(ArrayRef<OpFoldResult> vs);
  /// The static index `v`.
  OpFoldResult index(int64_t v) { return b.getIndexAttr(v); }
  Value boolean(bool v);

  OpFoldResult add(OpFoldResult x, OpFoldResult y);
  OpFoldResult sub(OpFoldResult x, OpFoldResult y);
  OpFoldResult mul(OpFoldResult x, OpFoldResult y);
  /// `v` mod `n` in [0, n) (0 for n == 0), static when n is: the shift of
  /// a roll along a dim of size n.
  OpFoldResult wrap(int64_t v, OpFoldResult n);
  /// The product of `factors` (1 when there are none): an element count.
  OpFoldResult product(ArrayRef<OpFoldResult> factors);
  /// max(x, y), signed.
  OpFoldResult max(OpFoldResult x, OpFoldResult y);
  Value eq(OpFoldResult x, OpFoldResult y);
  Value slt(OpFoldResult x, OpFoldResult y);
  Value ult(Value x, Value y);
  Value orI(Value x, Value y);
  Value andI(Value x, Value y);
  Value notI(Value x);
  Value select(Value cond, Value x, Value y);
  /// |s| when the dim's size is not 1, else 0: the stride TensorIterator
  /// compares (a size-1 dim's stride is never used, like a broadcast's).
  Value effectiveStride(OpFoldResult size, OpFoldResult stride);
  /// A run-time assertion that `ok` holds (cf.assert with `message`).
  void check(Value ok, const Twine &message);

private:
  DenseMap<int64_t, Value> constants;
  Value booleans[2];
};

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_INDEXMATH_H
