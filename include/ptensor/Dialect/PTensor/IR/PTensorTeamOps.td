//===- PTensorTeamOps.td - communication of partitioned teams -*- tablegen -*-===//
//
// Lowering-internal ops that ptensor-partition-teams makes when it turns
// ops on team tensors into ops on each process's block (docs/Teams.md):
// they name the team by its `shard.grid` (one per team, its shape the
// number of processes) and work on local, team-less ptensors.
// convert-ptensor-to-linalg lowers them to slices and calls of
// libptensor_team (ptensor/Runtime/Team.h: MPI). Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_TEAM_OPS_TD
#define PTENSOR_TEAM_OPS_TD

// The collectives (team_all_reduce, team_gather, team_slice_rows,
// team_resplit, team_reblock, team_exchange, team_sum)
// touch no memory of the program but can fail (a bad slice, an MPI error,
// an allocation one process cannot make) and must be reached by every
// process alike: NoMemoryEffect without speculation, so that no pass hoists
// one out of the branch or loop that guards it. The block ops only compute
// from the rank and are Pure.

include "mlir/IR/SymbolInterfaces.td"

class PTensor_TeamOp<string mnemonic, list<Trait> traits = []>
    : PTensor_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  code commonExtraClassDeclaration = [{
    /// The number of processes of the team (the grid's size).
    int64_t getTeamSize();
  }];
  let extraClassDeclaration = commonExtraClassDeclaration;
}

def PTensor_TeamAllReduceOp : PTensor_TeamOp<"team_all_reduce",
    [NoMemoryEffect, SameOperandsAndResultType]> {
  let summary = "combine a value of every process of a team";
  let description = [{
    Every process gets the elementwise `kind` (sum, prod, max, min) of the
    `partial` values of all processes of the team `grid`: the second step
    of a reduction over the split dim. Bool values combine with max (any)
    and min (all). `partial` may be GPU data: the team runtime combines
    device memory with NCCL when every process has a GPU of its own, and
    through host buffers otherwise (docs/Teams.md, "GPU teams").

    ```mlir
    %total = ptensor.team_all_reduce sum %partial on @team1 : !ptensor.ptensor<4xf64>
    ```
  }];
  let arguments = (ins PTensor:$partial, PTensor_TeamReduceKind:$kind,
                       FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $partial `on` $grid attr-dict `:` qualified(type($partial))
  }];
  let hasVerifier = 1;
}

def PTensor_TeamGatherOp
    : PTensor_TeamOp<"team_gather", [NoMemoryEffect]> {
  let summary = "the whole tensor from the blocks of every process";
  let description = [{
    Concatenates the row blocks (`block`, split along the first dim) of
    all processes of team `grid` in rank order; every process gets the
    whole tensor, whose first dim has `rows` elements (the sum of the
    blocks' first dims). Used where an operand's split does not line up
    with the result's (a replicated broadcast, a copy out of the team).
    GPU blocks are gathered in device memory, as `team_all_reduce` combines
    them.

    ```mlir
    %whole = ptensor.team_gather %block, %n on @team1 : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
    ```
  }];
  let arguments = (ins PTensor:$block, Index:$rows, FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $block `,` $rows `on` $grid attr-dict `:` qualified(type($block)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_TeamSliceRowsOp
    : PTensor_TeamOp<"team_slice_rows", [NoMemoryEffect,
                                          AttrSizedOperandSegments]> {
  let summary = "slices of the split dim, moved between processes and "
                "joined";
  let description = [{
    This process's block of the rows of one or more slices, joined along
    the first (split) dim. Slice `k` is of a team tensor of
    `source_rows[k]` rows whose block here is `blocks[k]`: its row `i`
    (`rows[k]` rows) is row `offsets[k] + i * steps[k]` of that tensor
    (the step may be negative: a flip is offset `source_rows - 1`, step
    -1); the result's rows are slice 0's, then slice 1's, and so on. Each
    process sends every other only the rows of that one's block of the
    result (one MPI_Alltoallv per slice), instead of the whole tensors a
    gather would move. A slice outside its tensor is an error on every
    process, naming the rows. Other dims are untouched and the same in
    every block. One slice is `extract_slice` or `flip` along the split
    dim; `roll` along it is two slices of one tensor, `concat` along it a
    slice of every operand. The rows of a slice that a block holds are
    packed in slice order (one copy of a strided view of the block; the
    runtime's `ptensor_rt_team_slice_held_row`/`_held_rows` say which) and
    sent as runs of that buffer, for any step. GPU blocks stay on the GPU:
    NCCL sends and receives the rows when every process has a GPU of its
    own; teams sharing a GPU go through host buffers (docs/Teams.md, "GPU
    teams").

    ```mlir
    %b = ptensor.team_slice_rows %block, %n [%c1, %m, %c2] on @team1 : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
    %r = ptensor.team_slice_rows %x, %n [%k, %s, %c1], %x, %n [%c0, %k, %c1] on @team1 : !ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
    ```
  }];
  let arguments = (ins Variadic<PTensor>:$blocks,
                       Variadic<Index>:$source_rows, Variadic<Index>:$offsets,
                       Variadic<Index>:$rows, Variadic<Index>:$steps,
                       FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result);
  let builders = [
    // One slice of `block`.
    OpBuilder<(ins "Type":$result, "Value":$block, "Value":$source_rows,
                   "Value":$offset, "Value":$rows, "Value":$step,
                   "FlatSymbolRefAttr":$grid)>
  ];
  let extraClassDeclaration = commonExtraClassDeclaration # [{
    /// The number of slices.
    unsigned getNumSlices() { return getBlocks().size(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def PTensor_TeamResplitOp
    : PTensor_TeamOp<"team_resplit", [NoMemoryEffect]> {
  let summary = "a tensor split along another dim, split along the first";
  let description = [{
    `part` is this process's part of a tensor T that is split along dim
    `axis` (>= 1) over team `grid` — of T's `split_size` elements there,
    the block rule's (`ptensor.team_block`) share for this rank —, every
    other dim whole. The result is this process's block of T split the
    usual way, along the first dim: every process sends each other the
    rows of that one's block (one MPI_Alltoallw, placed by MPI at their
    columns of the receiver's block: no packing pass). This is how a
    `permute_dims` that moves the split dim of a team tensor runs: the
    block is permuted locally (a view) and resplit, instead of the whole
    tensor being gathered on every process. GPU parts stay on the GPU:
    with NCCL each process's columns land packed in a device buffer and a
    strided device copy per sender places them (NCCL has no vector types);
    teams sharing a GPU go through host buffers (docs/Teams.md, "GPU
    teams").

    ```mlir
    %b = ptensor.team_resplit %p, %n from 1 on @team1 : !ptensor.ptensor<3x?xf32> -> !ptensor.ptensor<?x10xf32>
    ```
  }];
  let arguments = (ins PTensor:$part, Index:$split_size,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$axis,
                       FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $part `,` $split_size `from` $axis `on` $grid attr-dict `:`
    qualified(type($part)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_TeamReblockOp
    : PTensor_TeamOp<"team_reblock", [NoMemoryEffect]> {
  let summary = "the elements of a team tensor in row-major order, "
                "reblocked for rows of another length";
  let description = [{
    `block` is this process's block of a team tensor of `source_rows`
    rows. Seen in row-major order, the tensor's elements are regrouped in
    `rows` rows of `row_elements` elements each (their product must be the
    element count: checked on the global sizes by every process alike,
    naming both), and the result is this process's block of those rows,
    flat: its rows' elements in order. Each process sends each other the
    one range of its elements that falls in that one's rows (one
    MPI_Alltoallv of contiguous ranges: row-major order is the global
    order, nothing is packed). How a `reshape` that changes the rows of a
    team tensor (`[-1]`, `[5, 6]` of a 10x3 one) runs: reblock, then
    reshape the flat block locally (a view). GPU blocks move in device
    memory (NCCL sends and receives, or host buffers, as for
    `team_slice_rows`).

    With `uneven`, `block` is this process's part of the tensor, of any
    number of rows: the parts in rank order are the tensor (`source_rows`
    their sum; the sizes are exchanged first, one MPI_Allgather). How an
    op whose result size depends on the data (`nonzero`, `extract_mask`)
    runs on a team: each process computes its part, and the parts are
    rebalanced into blocks.

    ```mlir
    %f = ptensor.team_reblock %block, %n rows %r x %e on @team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf32>
    %g = ptensor.team_reblock %part, %n uneven rows %n x %c1 on @team1 : !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xi64>
    ```
  }];
  let arguments = (ins PTensor:$block, Index:$source_rows, Index:$rows,
                       Index:$row_elements, UnitAttr:$uneven,
                       FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $block `,` $source_rows (`uneven` $uneven^)? `rows` $rows `x`
    $row_elements `on` $grid attr-dict `:` qualified(type($block)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_TeamExchangeOp
    : PTensor_TeamOp<"team_exchange", [NoMemoryEffect]> {
  let summary = "consecutive runs of each process's rows, one run sent to "
                "each process";
  let description = [{
    `part` is this process's rows (any number), cut into consecutive runs
    at `ends` (1-D i64, non-decreasing, each in `[0, rows]`, at most the
    team's size minus one of them): run `p` (rows `ends[p - 1]` to
    `ends[p]`, the first from row 0, the last to the end) goes to process
    `p`; processes after the last run get nothing from this one. The
    result is what this process received, the runs of processes 0, 1, ...
    joined along the first dim: its rows are known only when the code
    runs. `runEnds` (P i64, P the team's size, on `part`'s device) says where
    those runs end in it: run `p` is rows `runEnds[p - 1]` to `runEnds[p]`
    (the sorts' `runs` hint). Two MPI_Alltoall of the run sizes (one to size the result, one
    beside the move) and one MPI_Alltoallv of the rows, contiguous on both
    sides; ends out of order or out of range, or more runs than processes,
    fail on every process alike before anything moves. How a 1-D sort of a
    team tensor runs (a sample sort): each process sorts its block, cuts it
    at splitters that every process chose alike, and sends each run to the
    process sorting that range of values. GPU runs move in device memory
    (NCCL sends and receives, or host buffers, as for `team_slice_rows`);
    the ends are read on the host.

    ```mlir
    %r, %runs = ptensor.team_exchange %sorted at %ends on @team1 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<4xi64>
    ```
  }];
  let arguments = (ins PTensor:$part, PTensor:$ends, FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result, PTensor:$runEnds);
  let assemblyFormat = [{
    $part `at` $ends `on` $grid attr-dict `:` qualified(type($part)) `,`
    qualified(type($ends)) `->` qualified(type($result)) `,`
    qualified(type($runEnds))
  }];
  let hasVerifier = 1;
}

def PTensor_TeamBlockOp : PTensor_TeamOp<"team_block", [Pure]> {
  let summary = "this process's block of a tensor every process has";
  let description = [{
    The rows of `whole` that this process holds in team `grid`: of N rows
    over P processes, rank r holds N / P rows plus one when r < N % P,
    from row r * (N / P) + min(r, N % P). A view (no copy).

    ```mlir
    %block = ptensor.team_block %whole on @team1 : !ptensor.ptensor<10x4xf32> -> !ptensor.ptensor<?x4xf32>
    ```
  }];
  let arguments = (ins PTensor:$whole, FlatSymbolRefAttr:$grid);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $whole `on` $grid attr-dict `:` qualified(type($whole)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_TeamBlockRowsOp : PTensor_TeamOp<"team_block_rows", [Pure]> {
  let summary = "the number of rows of this process's block";
  let description = [{
    Of `rows` rows split over team `grid`, the number this process holds
    (the `ptensor.team_block` rule).

    ```mlir
    %mine = ptensor.team_block_rows %n on @team1
    ```
  }];
  let arguments = (ins Index:$rows, FlatSymbolRefAttr:$grid);
  let results = (outs Index:$result);
  let assemblyFormat = "$rows `on` $grid attr-dict";
}

def PTensor_TeamBlockStartOp : PTensor_TeamOp<"team_block_start", [Pure]> {
  let summary = "the first row of this process's block";
  let description = [{
    Of `rows` rows split over team `grid`, the index of the first row this
    process holds (the `ptensor.team_block` rule): what turns a local index
    into a global one.

    ```mlir
    %first = ptensor.team_block_start %n on @team1
    ```
  }];
  let arguments = (ins Index:$rows, FlatSymbolRefAttr:$grid);
  let results = (outs Index:$result);
  let assemblyFormat = "$rows `on` $grid attr-dict";
}

def PTensor_TeamSumOp : PTensor_TeamOp<"team_sum", [NoMemoryEffect]> {
  let summary = "the sum over a team of an index of every process";
  let description = [{
    The global size of a split dim from the local ones.

    ```mlir
    %n = ptensor.team_sum %rows on @team1
    ```
  }];
  let arguments = (ins Index:$value, FlatSymbolRefAttr:$grid);
  let results = (outs Index:$result);
  let assemblyFormat = "$value `on` $grid attr-dict";
}

#endif // PTENSOR_TEAM_OPS_TD
