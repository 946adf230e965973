//===- ReductionCombiner.h - how partial results of a reduction merge -*- C++ -*-===//
//
// A reduction's linalg.generic folds each element into accumulators with a
// *combiner*: an associative and commutative merge of two partial results
// with an identity. The lowering to linalg builds the generic's body with
// it and marks the op of the body that gives the first yielded value
// (kCombinerAttrName; an attribute of the body survives fusion and
// canonicalization, which rebuild the generic itself), so that the GPU
// lowering can merge the partial results of threads, warps and blocks with
// the same code, in any order, and get the same result.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_UTILS_REDUCTIONCOMBINER_H
#define PTENSOR_DIALECT_PTENSOR_UTILS_REDUCTIONCOMBINER_H

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::ptensor {

/// The merge of two partial results. Max/Min propagate NaN (arith's
/// maximumf); ArgMax/ArgMin merge (value, i64 index) pairs and keep the
/// greatest (least) value with the smallest index, NaN counting as the
/// greatest (least), so any merge order gives numpy's first occurrence.
enum class Combiner {
  AddF, AddI, MulF, MulI,
  MaxF, MaxSI, MaxUI, MinF, MinSI, MinUI,
  Or, And,
  ArgMaxF, ArgMaxSI, ArgMaxUI, ArgMinF, ArgMinSI, ArgMinUI,
};

/// The divisor of var and std over `count` elements (an f64 value):
/// numpy's max(count - correction, 0), so that 0/0 is NaN and x/0 inf. The
/// one-process lowering and the team combine both divide by it.
Value buildVarianceDivisor(OpBuilder &b, Location loc, Value count,
                           double correction);

/// The attribute naming the combiner, on the op of a reduction generic's
/// body that computes the first yielded value.
inline constexpr llvm::StringLiteral kCombinerAttrName = "ptensor.combiner";

/// The unit attribute on the combine (a min of i64 positions) of a host
/// full reduction that finds the first position whose element matches the
/// extremum in its 0-d input, which an earlier full reduction over the same
/// loops wrote (argmax/argmin's second pass; ReductionsToLinalg.cpp sets
/// it). convert-ptensor-reductions-to-loops then scans only the first chunk
/// whose partial extremum matches (an attribute of the body: it survives
/// fusion).
inline constexpr llvm::StringLiteral kFirstMatchAttrName =
    "ptensor.first_match";

/// The unit attribute on the compare of a first-match search's body whose
/// second operand is the extremum searched for (the block argument of the
/// 0-d input; fusion may add other 0-d inputs before it).
inline constexpr llvm::StringLiteral kFirstMatchExtremumAttrName =
    "ptensor.first_match_extremum";

/// The attribute on the elementwise generic that rounds a contraction's f32
/// sums to its f16/bf16 result (convert-ptensor-to-linalg sets it; a
/// generic fusion rebuilds has none): the library pass may let cuBLASLt
/// write the rounded result instead.
inline constexpr llvm::StringLiteral kRoundsContractionAttrName =
    "ptensor.rounds_contraction";

/// The attribute on a contraction generic that a vendor library may run (a
/// matrix product of matmul or tensordot; convert-ptensor-to-linalg sets
/// it): ptensor-fuse-elementwise fuses no producer into it, since a fused
/// body is no longer a product of two buffers a BLAS can take (`(a / 2) @ b`
/// computes `a / 2` first, then calls the library).
inline constexpr llvm::StringLiteral kLibraryContractionAttrName =
    "ptensor.library_contraction";

/// Whether a product with `outputRank` result dims and `contractedLoops`
/// contracted loops has the shape the libraries take
/// (ptensor-contractions-to-library): a matrix or a batch of matrices out,
/// one contracted loop or several (a tensordot over pairs of axes, one loop
/// for the library where the strides allow at run time).
/// ContractionsToLinalg marks only such products with
/// kLibraryContractionAttrName.
inline bool hasLibraryShape(int64_t outputRank, int64_t contractedLoops) {
  return contractedLoops >= 1 && outputRank >= 2 && outputRank <= 3;
}

/// Marks `op` (the combine of a reduction body) with `combiner`.
void markCombiner(Operation *op, Combiner combiner);

/// The combiner of a reduction generic's body, read from the op giving the
/// first value of its terminator `yield`, or nullopt when it is unmarked.
std::optional<Combiner> getMarkedCombiner(Operation *yield);

/// The combiner's name ("addf", "argmaxsi", ...) and its inverse.
StringRef stringifyCombiner(Combiner combiner);
std::optional<Combiner> symbolizeCombiner(StringRef name);

/// The number of accumulators (2 for argmax/argmin: value and index).
unsigned getNumAccumulators(Combiner combiner);

/// The combiner folding elements of semantic dtype `dtype` (an MLIR
/// element type; unsigned integers choose the unsigned comparisons) with
/// the reduction `kind` ("sum", "prod", "max", "min", "any", "all",
/// "argmax", "argmin"; mean/var/std sum).
Combiner getCombiner(StringRef kind, Type dtype);

/// The identity of `combiner` for accumulators of storage types `types`:
/// -0.0 or 0 for sums, 1 for products, the lowest (highest) value for max
/// (min), false for any, true for all, and (lowest or highest, INT64_MAX)
/// for argmax/argmin.
SmallVector<Value> buildIdentity(OpBuilder &b, Location loc, Combiner combiner,
                                 TypeRange types);

/// The index of argmax/argmin's identity, INT64_MAX of `indexType`: no
/// element yet (every position is smaller).
Value buildNoIndex(OpBuilder &b, Location loc, Type indexType);

/// Whether `combiner` merges (value, index) pairs (argmax/argmin).
bool isArgCombiner(Combiner combiner);

/// The combiner of an argmax/argmin's values alone: the NaN-propagating
/// max (min) of the same comparisons.
Combiner getExtremumCombiner(Combiner argCombiner);

/// Whether (value, index) `rhs` wins over `lhs` in an argmax/argmin merge
/// (the i1 that buildCombine selects with).
Value buildArgTakesRhs(OpBuilder &b, Location loc, Combiner combiner,
                       ValueRange lhs, ValueRange rhs);

/// Whether element (value, index) `rhs` wins over `lhs` where every index
/// merged into `lhs` is smaller than rhs's (a fold visiting the elements in
/// order): strictly better, NaN better than a number and a NaN never
/// replaced, or `lhs` still the identity (index INT64_MAX; an element
/// equal to the identity's value must still replace it). Ties need no
/// index comparison: the earlier element already holds.
Value buildArgTakesLater(OpBuilder &b, Location loc, Combiner combiner,
                         ValueRange lhs, ValueRange rhs);

/// Whether element value `v` is the `extremum` an argmax/argmin searches
/// for: equal (-0.0 and 0.0 are), or, for floats, NaN where the extremum is
/// NaN. A non-empty `markCompare` names a unit attribute set on the
/// equality compare.
Value buildMatchesExtremum(OpBuilder &b, Location loc, Value v,
                           Value extremum, StringRef markCompare = {});

/// Rewrites the body of argmax/argmin generic `op` (buildCombine's pair of
/// selects on its outputs) to choose with buildArgTakesLater, for loops
/// that fold its elements in order: a single reduced dimension, the index
/// yielded being that dimension's position. Returns whether it did (false
/// for other reductions, several reduced dimensions, or a body already
/// rewritten). Merges of partial results keep buildCombine's full rule.
bool foldArgInOrder(Operation *op);

/// The merge of partial results `lhs` and `rhs` (getNumAccumulators values
/// each).
SmallVector<Value> buildCombine(OpBuilder &b, Location loc, Combiner combiner,
                                ValueRange lhs, ValueRange rhs);

/// The merge of `lanes` partial results laid out one after the other in
/// `values` (getNumAccumulators values each) in a fixed tree order: (0,1)
/// (2,3) ..., then the pairs' results, an odd last one carried up.
SmallVector<Value> buildLaneMerge(OpBuilder &b, Location loc,
                                  Combiner combiner, ValueRange values,
                                  unsigned lanes);

/// Returns the accumulators after folding one position (an index) into
/// `acc`.
using PositionFold = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value position, ValueRange acc)>;

/// Folds positions lo, lo + step, ... < hi (index values; none when hi <=
/// lo) into the accumulators `init`. With `lanes` > 1 the bulk — the number
/// of positions rounded down to a multiple of `lanes` — goes into `lanes`
/// interleaved sets (position lo + (lanes * i + j) * step into set j: set 0
/// starts from `init`, the others from the identity), merged in
/// buildLaneMerge's order; the remaining positions follow, in order. One
/// loop for the GPU threads' strided ranges and the CPU's innermost loops.
SmallVector<Value> buildLaneFold(OpBuilder &b, Location loc, Combiner combiner,
                                 ValueRange init, unsigned lanes, Value lo,
                                 Value hi, Value step, PositionFold fold);

/// The accumulators' storage types of a reduction generic on memrefs: its
/// outputs' element types.
SmallVector<Type> getAccumulatorTypes(Operation *reductionGeneric);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_UTILS_REDUCTIONCOMBINER_H
