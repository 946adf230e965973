//===- PartitionTeams.h - state of ptensor-partition-teams -------*- C++ -*-===//
//
// The pass rewrites a function op by op, in order. TeamPartitioner holds
// what it knows about the values rewritten so far (which are split, their
// team types) and the helpers that make communication steps; the
// reductions across a team live in TeamReductions.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_PARTITIONTEAMS_H
#define PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_PARTITIONTEAMS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::ptensor {

/// `t` without its team: the type of the whole tensor on one process.
PTensorType wholeType(PTensorType t);

/// The type of a process's block of team tensor `t`: no team, and a
/// dynamic first dim (blocks differ in size) unless `t` is 0-d (replicated).
PTensorType blockType(PTensorType t);

/// The axis of sort or argsort `op` of a tensor of rank `rank`, in
/// [0, rank).
int64_t sortAxis(Operation *op, int64_t rank);

/// The elementwise `kind` of `lhs` and `rhs` (tensors or scalars).
inline Value binary(OpBuilder &b, Location loc, BinaryOpKind kind, Value lhs,
                    Value rhs) {
  return ElementwiseBinaryOp::create(
      b, loc, BinaryOpKindAttr::get(b.getContext(), kind), lhs, rhs);
}

/// The rewriting state of ptensor-partition-teams over one module: which
/// values are split blocks, their team types, and team 1's grid and size.
class TeamPartitioner {
public:
  TeamPartitioner(FlatSymbolRefAttr grid, int64_t teamSize)
      : grid(grid), teamSize(teamSize) {}

  /// Rewrites `op` (its operands are rewritten already); fails with an
  /// error on `op` for what is not supported on a team.
  LogicalResult partitionOp(Operation *op);

  /// Gives team value `v` its block type (records its team type, and that
  /// it is split when it has a first dim).
  void localize(Value v);

private:
  bool isSplit(Value v) const { return split.contains(v); }
  PTensorType globalOf(Value v) const { return globalTypes.lookup(v); }
  /// Records `v` (a block) as split with team type `global`.
  void markSplit(Value v, PTensorType global);

  /// The global size of the first dim of split value `v`: static, that
  /// of the operand whose rows its op kept (rowsSource), the size a
  /// broadcast asked for, or the sum of the blocks' sizes (one all-reduce
  /// per value and block: later uses in the block reuse it).
  Value globalRows(OpBuilder &b, Location loc, Value v);
  /// The rows of every process's `part` (a block, or a part of any size)
  /// summed over the team: its dim 0 and one all-reduce.
  Value partRows(OpBuilder &b, Location loc, Value part);
  /// Fails when the code runs, on every process alike, when the global
  /// rows of split `x` and `y` differ (nothing when both are static: the
  /// verifier compared them), with `message`; the blocks' sizes may agree
  /// on some processes where the global ones differ.
  void checkSameGlobalRows(OpBuilder &b, Location loc, Value x, Value y,
                           StringRef message);
  /// Whether `v` asks a team tensor's global rows (its dim 0, its shape's
  /// first size, or its size) in an op the pass has not rewritten yet.
  bool isPendingRowsQuery(Value v) const;
  /// The split operand whose rows partitioned op `op`'s split result has
  /// (elementwise ops, views of the block, a contraction's operand with
  /// the result's rows, searchsorted's values, take's indices or source,
  /// a reduction over other dims' input), else null.
  Value rowsSource(Operation *op) const;
  /// The whole tensor of split value `v`, on every process: one gather per
  /// value and block that later uses in the block reuse, or with `shared`
  /// false a new one (a copy out of the team, which may be written).
  Value gather(OpBuilder &b, Location loc, Value v, bool shared = true);
  /// This process's block of `whole` (which every process has), a split
  /// value of team type `global`.
  Value block(OpBuilder &b, Location loc, Value whole, PTensorType global);
  /// This process's rows of a broadcast result of team type `global`.
  Value localRows(OpBuilder &b, Location loc, PTensorType global,
                  ArrayRef<Value> sizes);
  /// The first row of this process's block of split value `v`.
  Value blockStart(OpBuilder &b, Location loc, Value v);

  bool keepsRows(Operation *op) const;
  /// Whether `size` (an index operand of `user`) is the global rows of
  /// split value `source`.
  bool isGlobalRows(Value size, Value source, Operation *user) const;
  bool firstSizeIsGlobalRows(ArrayRef<int64_t> staticSizes,
                             ValueRange dynamicSizes, Value source,
                             Operation *user) const;
  /// Whether `slice` takes every row of its split source (offset 0, step 1,
  /// the global first dim's size): a slice of the block.
  bool slicesWholeRows(ExtractSliceOp slice) const;
  /// Whether `reshape` keeps the first dim (the global rows, no -1 after
  /// it): each row is reshaped alone, so the block is.
  bool reshapesWithinRows(ReshapeOp reshape) const;
  /// Whether `combine` joins split operands of the same static global rows
  /// along another axis than the first (concat, or stack past dim 0): the
  /// blocks line up and are joined alone.
  bool combinesBesideRows(CombineOp combine) const;
  /// Makes such a slice or reshape one of the block (its first size the
  /// block's rows).
  void partitionRowsView(Operation *op);
  /// Whether `op` reorders or selects rows of its split source: a slice
  /// of the first dim, a flip or a roll of it.
  bool movesRows(Operation *op) const;
  /// Moves the rows of such an op between processes (team_slice_rows: each
  /// gets only its block of the result's rows) and does the rest of it
  /// (the other dims) on the moved block.
  void partitionRowsMove(Operation *op);
  void partitionRoll(RollOp roll);
  /// Whether `combine` concatenates split operands along the first dim,
  /// their other dims typed like the result's.
  bool concatsRows(CombineOp combine) const;
  /// Moves each operand's rows to their place in the result's blocks
  /// (team_slice_rows of one slice per operand, cast to the result's dtype
  /// first where it differs).
  void partitionConcat(CombineOp concat);
  /// One slice of rows that team_slice_rows moves: rows `offset + i *
  /// step` (`rows` of them) of split value `block` (`sourceRows` global
  /// rows).
  struct RowSlice {
    Value block, sourceRows, offset, rows, step;
  };
  /// This process's block of the rows of `slices` joined (team_slice_rows),
  /// recorded as a split value of team type `global`, whose global rows
  /// are `rows` (recorded when dynamic and known).
  Value moveRows(OpBuilder &b, Location loc, ArrayRef<RowSlice> slices,
                 PTensorType global, Value rows);
  /// What is left of `op` (a flip or a roll of split operand 0) once its
  /// rows moved into `moved`: nothing when `done` (`moved` replaces it),
  /// else `op` on the moved block, `restrict` keeping only its other dims.
  void finishOnMovedRows(Operation *op, Value moved, bool done,
                         function_ref<void()> restrict);
  /// Whether `op` is a permute_dims whose result's first dim is not its
  /// split source's.
  bool movesSplitDim(Operation *op) const;
  /// Permutes the block where it is (the split dim lands elsewhere) and
  /// resplits that along the first dim (team_resplit: each process gets
  /// only its block of the result), which it returns.
  Value partitionPermute(PermuteDimsOp permute);
  // TeamSorting.cpp: sorts along the rows, sample sorts, unique counts.
  /// Whether `op` is a sort or argsort along the first dim of a split
  /// tensor of rank >= 2.
  bool sortsAlongRows(Operation *op) const;
  /// Sorts along the last dim instead: the split dim moved there (a
  /// resplit), sorted on the block (every process has whole lines), moved
  /// back (a resplit).
  void partitionSortAlongRows(Operation *op);
  /// Whether `op` is a sort or argsort of a split 1-D tensor.
  bool sortsSplitLine(Operation *op) const;
  /// A sample sort (TeamSorting.cpp): each process sorts its block, cuts
  /// it at splitters chosen alike from gathered samples and sends each run
  /// to its process (team_exchange; argsort: each element's global
  /// position beside it), which sorts what it received; the parts are
  /// rebalanced into blocks.
  void partitionSampleSort(Operation *op);
  /// What a process received in a sample sort's exchange: the runs of the
  /// sorted parts (in rank order) whose values fall in its range, and the
  /// runs of the tensor carried beside them (or null), and where the
  /// received runs end (P i64: the sorts' `runs` hint).
  struct SampleRuns {
    Value received, carried, runEnds;
  };
  /// The exchange of a sample sort of every process's `sorted` (1-D, its
  /// part sorted, `descending` or not) and `carried` (null, or a 1-D
  /// tensor beside it): up to P evenly spaced samples of each are gathered
  /// and sorted alike, P - 1 splitters picked, `sorted` cut at them (ties
  /// with a splitter go to its process) and run p sent to process p
  /// (team_exchange, `carried` at the same ends).
  SampleRuns exchangeRuns(OpBuilder &b, Location loc, Value sorted,
                          Value carried, bool descending);
  /// unique counts of a split tensor: the block's elements sorted and
  /// exchanged as a sample sort does (every copy of a value reaches one
  /// process), the unique values and counts of what arrived, rebalanced
  /// into blocks; the input is never gathered.
  void partitionUniqueCounts(UniqueOp op);
  /// Whether `op` is a reshape of a split tensor that changes its rows
  /// into a result of rank >= 1.
  bool reblocksRows(Operation *op) const;
  /// Reblocks the elements for the result's rows between processes
  /// (team_reblock: each gets only its rows' elements, flat) and reshapes
  /// that flat block into the result's block (a view), which it returns.
  Value partitionReshape(ReshapeOp reshape);
  /// The reshape of split value `source` to [1, its global shape] (a new
  /// first dim: the whole tensor is one row), of team type `global`, not
  /// yet partitioned.
  ReshapeOp reshapeToOneRow(OpBuilder &b, Location loc, Value source,
                            PTensorType global);
  /// Whether `op` is an expand_dims at 0 of a split tensor, or a stack
  /// along the first dim of split operands of the stacked shape: their rows
  /// change.
  bool addsRowsDim(Operation *op) const;
  /// expand_dims at 0 is a reshape to one row (reblocked); a stack along
  /// the first dim the concat of its operands so reshaped (each reblocked,
  /// then their rows moved to their place: team_slice_rows).
  void partitionNewRowsDim(Operation *op);
  /// `flat`, this process's block of the elements of the rows of team type
  /// `global` (a team_reblock's result), in the block's shape: its rows of
  /// `rows` (global) by `otherSizes` (dims 1 on).
  Value unflattenBlock(OpBuilder &b, Location loc, Value flat,
                       PTensorType global, Value rows,
                       ArrayRef<OpFoldResult> otherSizes);
  /// The block of team type `global` whose rows are those of every
  /// process's `part` (any number of rows each, in rank order): team_reblock
  /// of uneven parts, recorded as split with global rows `rows` (summed
  /// over the team when null).
  Value rebalance(OpBuilder &b, Location loc, Value part, PTensorType global,
                  Value rows = {});
  /// nonzero: each process finds the non-zero elements of its block (the
  /// first index made global with the block's first row), and the parts
  /// are rebalanced into blocks.
  void partitionNonzero(NonzeroOp op);
  /// extract_mask of a split source by a split mask (rows checked to agree
  /// on every process): each block is masked alone, and the parts are
  /// rebalanced into blocks.
  void partitionExtractMask(ExtractMaskOp op);
  /// unique values of a split tensor: each process's distinct values,
  /// gathered in rank order (only those move), and the distinct values of
  /// them (the first of equal values stays the input's first; NaNs stay
  /// distinct).
  void partitionUniqueValues(UniqueOp op);
  /// tril/triu of a split tensor: a batch of matrices (rank >= 3) holds
  /// whole matrices in each block; a block of one matrix is told the row
  /// it starts at (first_row: the block start, which needs the global
  /// rows).
  void partitionTriangle(ExtractTriangleOp op);
  /// take: along the first dim the result's rows are the indices' (whose
  /// block stays; the source is gathered), along another dim the
  /// source's (whose block stays; the indices are gathered).
  void partitionTake(TakeOp op);
  /// meshgrid: the results' rows are those of the input that varies along
  /// dim 0, whose block stays; the other inputs are gathered.
  void partitionMeshgrid(MeshgridOp op);
  LogicalResult partitionElementwise(Operation *op);
  void partitionBroadcast(BroadcastOp op);
  void checkNotStretched(OpBuilder &b, Location loc, Value source,
                         PTensorType global, ArrayRef<Value> sizes);
  void partitionCopy(CopyOp op);
  void partitionDelete(DeleteOp op);
  /// A write into a team tensor: each process writes its block of the
  /// value into its block of the destination (they have one team type);
  /// refused into a copy a communication step made (a view that moves
  /// rows), which a write would not carry back.
  LogicalResult partitionWrite(WriteOp op);
  /// A call: its team results are blocks (the callee is partitioned
  /// alike); refused when the callee writes a split argument.
  LogicalResult partitionCall(func::CallOp call);
  void partitionCreation(Operation *op);
  LogicalResult partitionWhole(Operation *op);
  void partitionShapeQuery(Operation *op);

  // TeamReductions.cpp: reductions whose reduced dims include the split
  // one.
  LogicalResult partitionReduction(Operation *op);
  // TeamContractions.cpp: matmul, vecdot and tensordot.
  /// Contracting the first dims with each other, contracts the blocks and
  /// sums the partial products over the team; else keeps the blocks of the
  /// operands with the result's rows and gathers the others.
  void partitionContraction(Operation *op);
  /// Whether operand `operand` (0: lhs, 1: rhs) of contraction `op` has
  /// the rows of the result (of team type `result`): split, its first dim
  /// the result's, not a single row stretched over more.
  bool hasContractionRows(Operation *op, unsigned operand,
                          PTensorType result) const;
  /// The first operand of `op` that has the result's rows, else null.
  Value contractionRowsOperand(Operation *op, PTensorType result) const;
  /// Replaces `op`, whose result every process computed whole as `whole`,
  /// by that (0-d) or its block.
  void replaceByWhole(Operation *op, Value whole);
  Value combineSum(OpBuilder &b, Location loc, Operation *op);
  Value combineExtremum(OpBuilder &b, Location loc, Operation *op,
                        ReduceKind kind);
  Value combineMoments(OpBuilder &b, Location loc, ReduceOp op);
  Value combineFindIndex(OpBuilder &b, Location loc, FindIndexOp op);
  Value combineTest(OpBuilder &b, Location loc, TestOp op);
  /// The kind's extremum over the team of `partial` (whole-shaped, every
  /// process's own): gathered along a new first dim and reduced locally, so
  /// that NaNs propagate like a one-process max/min.
  Value gatherReduce(OpBuilder &b, Location loc, Value partial,
                     ReduceKind kind);
  /// Fails at run time, like a one-process reduction, when the split dim
  /// of `input` is empty on every process (kinds without identity).
  void checkNotEmpty(OpBuilder &b, Location loc, Operation *op, Value input);
  /// The number of elements a reduction over `dims` of split `input`
  /// combines (the same on every process), as an index, and as f64 (the
  /// divisor of mean and var).
  Value globalCountIndex(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> dims);
  Value globalCount(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> dims);
  /// `v` of every process stacked along a new first dim of size teamSize.
  Value gatherAlongNewDim(OpBuilder &b, Location loc, Value v);

  /// Values split along their first dim, of their block type now.
  DenseSet<Value> split;
  /// The team type each localized value had.
  DenseMap<Value, PTensorType> globalTypes;
  /// The global first-dim size and the whole tensor of split values, by
  /// the block they were computed in (globalRows, gather).
  DenseMap<std::pair<Value, Block *>, Value> globalSizes, gathered;
  FlatSymbolRefAttr grid;
  int64_t teamSize;
};

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_DIALECT_PTENSOR_TRANSFORMS_PARTITIONTEAMS_H
