//===- Manipulation.h - the rules of reshape, concat, stack, roll -*- C++ -*-===//
//
// Part of the semantics library (no MLIR): the result shapes, dtypes and
// messages of the RFC's data-movement ops (reshape, combine{concat,stack},
// roll, extract_triangle, eye). The dialect's type inference, the lowering's
// run-time checks and Python ask these functions, so a mistake reads the
// same wherever it was made.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_MANIPULATION_H
#define PTENSOR_SEMANTICS_MANIPULATION_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace ptensor::semantics {

/// The number of elements of `shape`, or kDynamicSize when a dim is dynamic
/// or the count overflows int64 (no array of that shape exists at run time).
int64_t numElements(const Shape &shape);

/// The result shape of reshaping `source` to `requested`: sizes >= 0, at
/// most one -1 (inferred from the element count) and kDynamicSize for sizes
/// given at run time. A -1 is static when everything it depends on is.
/// Value errors: a second -1, a size below -1, element counts that differ
/// statically, or a -1 that cannot be inferred (a zero-size dim beside it,
/// or a count that does not divide).
Result<Shape> reshapeResultShape(const Shape &source, const Shape &requested);

/// The message of a reshape whose element counts differ (also printed by
/// the run-time check, with the real sizes).
std::string reshapeMismatchMessage(const Shape &source, const Shape &requested);

/// Why extract_slice's `size` elements from `offset` with `step` (non-zero)
/// along dimension `dim` of `dimSize` elements (< 0: unknown, only the
/// lower bound is checked) do not fit: a negative size, an offset + (size -
/// 1) * step that overflows, or an element read outside [0, dimSize);
/// nullopt when they fit. The verifier asks it with static sizes, the
/// run-time check's message (extractSliceBoundsMessage) with the real ones.
std::optional<std::string> sliceBoundsError(int64_t dim, int64_t dimSize,
                                            int64_t offset, int64_t size,
                                            int64_t step);

/// The message of the run-time check of an extract_slice of `source`
/// (the real sizes) along `dim`: sliceBoundsError's, with the shape.
std::string extractSliceBoundsMessage(const Shape &source, int64_t dim,
                                      int64_t offset, int64_t size,
                                      int64_t step);

/// How `combine` joins its operands.
enum class CombineKind { Concat = 0, Stack = 1 };

/// The IR's and the array API's name of `kind` ("concat", "stack").
const char *combineKindName(CombineKind kind);

/// The result of combining operands.
struct Combination {
  Shape result; ///< the result shape
  DType dtype;  ///< the operands' promoted dtype
  int64_t axis; ///< the normalized axis of the result
};

/// The array API's concat (operands of one rank >= 1 whose sizes agree
/// except along `axis`, which the result sums) and stack (operands of one
/// shape, joined along a new result dim `axis`). Negative axes count from
/// the end (of the result for stack). Dtypes promote like an elementwise
/// op's. A size that differs statically is a Broadcast error naming both
/// shapes; dynamic ones are checked at run time.
Result<Combination> combineResult(CombineKind kind,
                                  const std::vector<Shape> &shapes,
                                  const std::vector<DType> &dtypes,
                                  int64_t axis);

/// The message of operand `operand` whose dim `dim` (of `other`) differs
/// from operand 0's (`first`) in a combine: printed by the verifier and,
/// with the real sizes, by the run-time check.
std::string combineMismatchMessage(CombineKind kind, const Shape &first,
                                   const Shape &other, int64_t operand,
                                   int64_t dim);

/// The shift of each dim of a rank-`rank` tensor rolled by `shifts` along
/// `axes` (numpy.roll: one shift for all axes or one per axis, repeated
/// axes add up, negative axes count from the end). `axes` must not be empty
/// (a roll of the flattened tensor is a roll of its 1-D reshape).
Result<std::vector<int64_t>> rollShifts(int64_t rank,
                                        const std::vector<int64_t> &shifts,
                                        const std::vector<int64_t> &axes);

/// The result shape of boolean-mask indexing `source[mask]` (the array
/// API's boolean array index): the mask (bool, rank k >= 1) covers the first
/// k dims of the source; the result is one dynamic dim (the number of true
/// elements, known at run time) followed by the source's other dims. A
/// DType error for a non-bool mask, a Value error for a rank above the
/// source's, a Broadcast error naming both shapes for static sizes that
/// differ (dynamic ones are checked at run time).
Result<Shape> extractMaskResultShape(const Shape &source, const Shape &mask,
                                     DType maskDType);

/// The message of a mask whose sizes differ from the source's first dims
/// (also printed by the run-time check, with the real sizes).
std::string extractMaskMismatchMessage(const Shape &source, const Shape &mask);

/// Checks that tril/triu (extract_triangle) applies to `shape`: at least
/// 2-D (the last two dims form the matrices).
std::optional<Error> checkTriangle(const Shape &shape);

/// Checks the dtype and shape of eye: a 2-D result; any dtype.
std::optional<Error> checkEye(const Shape &shape);

/// The ops whose result sizes the caller gives at run time, as the run-time
/// size check names them; the values are the runtime ABI's
/// (ptensor_rt_size_failed's `op`).
enum class SizedOp {
  Create = 0,
  Eye = 1,
  BroadcastTo = 2,
  Reshape = 3,
  Linspace = 4,
  Arange = 5
};

/// The array API's name of `op` ("create", "eye", "broadcast_to", ...), or
/// nullptr for a value outside the enum.
const char *sizedOpName(SizedOp op);

/// The message of a requested shape (with its real sizes) that no array can
/// have: its first negative size, e.g. "create: invalid size -3 at dimension
/// 0 of shape [-3, 4] (expected >= 0)" (the -1 at `inferredDim`, a
/// reshape's inferred size, is not one), else its size in bytes with
/// elements of `elementBytes` bytes: "create: shape [3037000500,
/// 3037000500] of 8-byte elements needs more than 2^62 bytes" (kMaxArrayBytes).
std::string invalidSizeMessage(SizedOp op, const Shape &shape,
                               int64_t elementBytes, int64_t inferredDim = -1);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_MANIPULATION_H
