//===- Passes.td - ptensor transformation passes -----------*- tablegen -*-===//

#ifndef PTENSOR_TRANSFORMS_PASSES_TD
#define PTENSOR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PTensorPromoteTypes : Pass<"ptensor-promote-types"> {
  let summary = "Inserts explicit casts to every op's computation dtype";
  let description = [{
    After this pass every elementwise op's ptensor and scalar operands have
    the dtype the op computes in: the promoted common dtype (DESIGN.md), with
    INT_TO_FLOAT ops on integers computing in f32 and f16/bf16 computing in
    f32 (opmath). When the computation dtype differs from the result dtype
    the result is cast back once (one rounding at the store). Comparisons
    compare in the promoted dtype; `where` selects in the result dtype.

    ```mlir
    %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf16>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
    // becomes
    %0 = ptensor.cast %a : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf32>
    %1 = ptensor.cast %b : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf32>
    %2 = ptensor.elementwise_binary add %0, %1 : ... -> !ptensor.ptensor<4xf32>
    %c = ptensor.cast %2 : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PTensorBroadcast : Pass<"ptensor-broadcast"> {
  let summary = "Makes implicit broadcasting explicit";
  let description = [{
    Every ptensor operand of a broadcasting op (binary, comparison, `where`,
    `pointwise`) whose shape differs from the result's, or which has a
    dynamic dimension that could be 1 at run time, becomes an explicit
    `ptensor.broadcast` to the result shape. Dynamic result dimensions are
    computed from the operands (`ptensor.dim`: the first size that is not 1).
    The lowering of `ptensor.broadcast` checks at run time that every source
    size is 1 or the target size, so a mismatch stops with
    `ptensor: cannot broadcast shapes [?] and [4]` instead of reading out of
    bounds. Broadcasts lower to indexing maps or zero-stride views, never to
    copies.

    The batch dims of `matmul`, `vecdot` and `tensordot` (result dims both
    operands index) are broadcast the same way where a dynamic size could
    be 1 while the other operand's is not; the other dims keep their sizes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def PTensorPartitionTeams : Pass<"ptensor-partition-teams", "::mlir::ModuleOp"> {
  let summary = "Turns ops on team tensors into ops on each process's block "
                "plus the communication they need";
  let description = [{
    Compute follows data (docs/Teams.md): a tensor of team 1 of rank >= 1
    is split along its first dim over the `team-size` processes (of N rows,
    rank r holds N / P plus one when r < N % P, in rank order); a 0-d team
    tensor is replicated. After this pass no type has a team: function
    arguments and results are the process's blocks (first dim dynamic),
    and each op works on local blocks, with communication where the data
    it needs is elsewhere (`ptensor.team_*` ops on the team's
    `shard.grid @ptensor_team1(shape = team-size)`):

    - elementwise ops, `pointwise`, `where`, casts and broadcasts whose
      source's first dim is the result's work on the blocks: no
      communication;
    - a broadcast whose source is not split like its result (a K-vector
      against N x K, a 1 x K row, a 0-d tensor) gathers the source
      (`team_gather`, if it is split) and broadcasts it to the block;
    - reductions (`reduce`, `test`, `find_index`) over axes without the
      first dim stay local; over the first dim they reduce the block and
      combine the partial results over the team (all-reduce of f64 sums,
      gathered extrema so that NaNs propagate, two-pass var/std, gathered
      argmax/argmin candidates) and keep the result's block
      (`team_block`) if it has a first dim;
    - `ptensor.dim` of the first dim is the global size (`team_sum` of the
      blocks' sizes, or the static size; once per value and block: the
      results of ops that keep an operand's rows, such as elementwise ops
      and views, reuse that operand's, and a broadcast's the size it was
      asked for);
    - `create` makes only the block; `arange`/`linspace` make the whole
      tensor and keep their block (convert-ptensor-to-linalg then computes
      only the block); views that keep the first dim work on the block,
      and so do contractions whose result's first dim is an operand's
      (the other operand gathered unless it shares that dim), and
      `searchsorted` of split values (the sorted line and the sorter are
      gathered); `copy` out of the team gathers (a tensor of its own),
      into it keeps the block; calls pass blocks (the callee is
      partitioned too); slices, flips and rolls of the first dim and
      concats along it move rows between processes (`team_slice_rows` of
      one slice, two for a roll, one per concat operand: each process
      receives only its block of the result's rows), then slice, flip or
      roll the other dims on the block;
      a `permute_dims` that moves the first dim permutes the block where
      it is and resplits that along the first dim (`team_resplit`: one
      all-to-all, each process receives only its block of the result); a
      `reshape` that changes the rows reblocks the elements for the
      result's rows (`team_reblock`: one all-to-all of contiguous ranges,
      sizes and a `-1` from the global count, checked on every process)
      and reshapes the flat block locally; `expand_dims` at 0 is such a
      reshape (to one row), a stack along the first dim the concat of its
      operands so reshaped; sorts along another dim sort the block, and
      along the first dim of rank >= 2 move it last and back (two
      resplits); a sort or argsort of a split 1-D tensor is a sample sort
      (local sorts, splitters from gathered samples, each run sent to its
      process with `team_exchange`, argsort's global positions beside it,
      sorted there and rebalanced); `take` keeps the block of the indices
      (along the first dim) or of the source (along another) and gathers
      the other;
      tril/triu work on the block (a block of one matrix told
      its first row), `meshgrid` keeps the block of the input varying
      along the rows and gathers the others, contractions of both first
      dims with each other contract the blocks and all-reduce the partial
      products;
      `nonzero` and `extract_mask` work on the block and rebalance their
      parts of data-dependent size into blocks (`team_reblock` uneven),
      `unique` values gathers each block's distinct values only,
      `unique` counts exchanges the block's sorted elements as the
      sample sort does and rebalances each process's values and counts;
    - every other op gathers its split operands, computes the whole result
      on every process and keeps the result's block.

    A split value is gathered, and its global first-dim size summed, once
    per block: later ops in the block reuse them, up to a `write` (the
    gathers are made again after it).

    `write` into a team tensor writes each process's block of the value
    into its block of the destination; it is an error into a copy that a
    communication step made (a slice or flip of the split dim) or when such
    a copy of the destination, taken before the write, is viewed after it;
    a call that passes a team tensor to a function writing it is an error
    too. Ops with regions (other than `pointwise`) are errors naming the
    op. With team-size 1 the pass drops the teams and adds no
    communication.

    Team tensors on a GPU keep their blocks on the GPU, and so do their
    collectives (the team runtime moves device memory: NCCL when every
    process has a GPU of its own, host buffers otherwise).
  }];
  let options = [
    Option<"teamSize", "team-size", "int64_t", /*default=*/"1",
           "Number of processes of team 1 (the MPI job's size)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::shard::ShardDialect"];
}

def PTensorLayout : Pass<"ptensor-layout"> {
  let summary = "TensorIterator layout decisions: iteration order and output layout";
  let description = [{
    Makes the compile-time part of TensorIterator's layout decisions visible
    in IR: the output layout follows the inputs' stride order. An elementwise
    op whose ptensor operands are all `permute_dims` views with the same
    permutation is computed on the unpermuted operands, and its result is
    the permuted view of that; the loop nest then walks every operand in
    memory order and the output has the inputs' layout (TensorIterator's
    `reorder_dimensions` + `allocate_or_resize_outputs`).

    Coalescing of contiguous dimensions, and the loop order and output
    layout when strides are known only at run time (function arguments),
    are the job of `ptensor-coalesce-dims`, after bufferization.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def PTensorFuseElementwise : Pass<"ptensor-fuse-elementwise"> {
  let summary = "Fuses chains of elementwise linalg.generic ops";
  let description = [{
    Upstream elementwise fusion (`populateElementwiseOpsFusionPatterns`) with
    a control function that also fuses producers with several users when the
    producer's body is cheap to recompute (no more than `max-recompute-ops`
    scalar ops), trading recomputation for a round trip through memory.
    Producers also fuse into reductions and contractions, except into a
    generic marked `ptensor.library_contraction` (a matrix product that a
    BLAS may run: its body must stay a product of two buffers).
  }];
  let options = [
    Option<"maxRecomputeOps", "max-recompute-ops", "unsigned", "16",
           "Largest producer body (scalar ops) recomputed for extra users">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PTensorCopiesToLinalg : Pass<"ptensor-copies-to-linalg"> {
  let summary = "Turns memref.copy into an elementwise linalg.generic";
  let description = [{
    After bufferization, strided `memref.copy` ops (out= writes, clones of
    returned arguments) become copy-shaped `linalg.generic` ops on memrefs.
    They then lower like every other loop nest (vectorizable loops on the
    CPU, a kernel on the GPU) instead of calling `memrefCopy` from MLIR's
    C runner utilities, which compiled libraries must not depend on.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PTensorReleaseDeleted : Pass<"ptensor-release-deleted"> {
  let summary = "Frees a deleted tensor's buffer at its delete";
  let description = [{
    After the buffer deallocation pipeline, a `ptensor.release_buffer` (the
    lowering of `ptensor.delete`) marks where its buffer's life ends. When
    the buffer is an allocation of the function whose one deallocation is
    unconditional, later in the same block, and nothing that may share the
    buffer (views, casts, its metadata) is used between the two, that
    deallocation moves up to the release: the memory is free for the
    allocations that follow. Otherwise (a function argument, a buffer that a
    later op writes into in place, a deallocation under an ownership
    condition) the buffer is freed where the pipeline put it. Every
    `ptensor.release_buffer` is erased.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PTensorSimplifyPowers : Pass<"ptensor-simplify-powers"> {
  let summary = "`math.powf` by a constant 2 or 1 as a product or its operand";
  let description = [{
    `x ** 2` (array API `pow`/`square`-like code and `pointwise` bodies)
    becomes `x * x` and `x ** 1` becomes `x`: the same values for every `x`
    (one rounding, like a correctly rounded pow; NaN, infinities and -0.0
    included), without a call of `powf` per element. Other constant
    exponents keep `math.powf` (a cube rounds twice; a square root differs
    from `pow(x, 0.5)` at -0.0 and -inf).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PTensorTanhSums : Pass<"ptensor-tanh-sums"> {
  let summary = "`1 + tanh(u)` and `1 - tanh(u)` as `2 / (1 + exp(-+2u))`";
  let description = [{
    The tanh form of GELU, `0.5 * x * (1 + tanh(u))`, and other
    sigmoid-like code add 1 to a tanh: where tanh(u) is near -1 the sum
    cancels (float32 GELU's relative error is 1.3e-5 at x = -3, 4.5e-4 at
    -4, 0.3 at -5, and the result 0 from -6 on), while `2 / (1 + exp(-2u))`,
    the same function, is accurate to a few ulp everywhere (at most 1e-6
    down to -10; 0 only where it underflows). The
    division is approximate (`fastmath<afn>`: the chip's reciprocal and a
    product, within 2 ulp, where the denominator, at least 1, allows it),
    so on the GPU the sum takes no more instructions than libdevice's tanhf
    (the bf16 GELU kernel: 24.6 PTX instructions an element, from 29.5; the
    same time on an H100). `1 - tanh(u)` becomes `2 / (1 + exp(2u))`
    alike. A tanh with other users stays for them. Two folds (scalings by
    powers of two: the same values within the approximate division's
    error) take three products off GELU's tanh form: the -+2 joins a
    constant factor of u (`exp(-2 * (c * s))` is `exp((-2c) * s)`), and
    `(c * x) * (k / d)` with c * k = 1 and an approximate division becomes
    the approximate `x / d` (`0.5 * x * (2 / d)`): GELU is
    `x / (1 + exp(-1.5957691 * (x + 0.044715 x^3)))` (the bf16 bias + GELU
    kernel of a matmul's epilogue: 266 -> 244 PTX instructions per 8
    elements, 28.2 -> 26.5 us on an H100).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def PTensorSeparateInits : Pass<"ptensor-separate-inits"> {
  let summary = "A linalg.fill of its own for each op accumulating into one";
  let description = [{
    CSE merges the equal `linalg.fill`s (an identity, a zero) that give
    same-shape contractions and reductions their initial values, and
    one-shot bufferize then copies the shared fill for every accumulating
    op but one: an extra pass over each such output, and a product whose
    sums buffer has that copy as a second writer gets no library epilogue
    (ptensor-contractions-to-library). Run right before bufferization (no
    CSE after it), this clones a tensor fill (and the `tensor.empty` it
    fills) for each use as the init of a destination-style op beyond the
    first: each clone bufferizes to an allocation of its own, and nothing
    is copied. A fill so used also gets an empty tensor of its own when CSE
    shared its empty tensor with other inits: bufferization would otherwise
    reuse the accumulator's buffer for a later result (a second writer of
    the sums, which stops an epilogue too).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PTensorFoldUnitDims : Pass<"ptensor-fold-unit-dims"> {
  let summary = "Static size-1 loop dims of linalg ops dropped, through rank-reducing slices";
  let description = [{
    Upstream's `linalg-fold-unit-extent-dims` with rank-reducing
    `tensor.extract_slice`/`insert_slice` instead of reshapes (so that
    empty-tensor elimination still sees the destination and bufferization
    adds no copies), except for ops with a loop of static size 0: they do no
    work, and a rank-reducing slice of a tensor with a 0-size dim does not
    verify in MLIR 22 (`offset 0 is out-of-bounds: 0 >= 0`), which failed
    the CPU pipeline on, e.g., a sum over a `0x1` tensor.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def PTensorCoalesceDims : Pass<"ptensor-coalesce-dims"> {
  let summary = "Run-time loop order and contiguous fast path of elementwise loop nests";
  let description = [{
    The run-time half of TensorIterator's layout decisions (`ptensor-layout`
    makes the compile-time half). Function arguments have fully dynamic
    strided layouts after bufferization, so whether their dims can be
    coalesced is known only at run time. Every elementwise `linalg.generic`
    on memrefs (all loops parallel, every indexing map an identity or a
    broadcast, i.e. a projected permutation; for a body with `linalg.index`
    see the unit innermost strides below) is versioned:

    ```mlir
    scf.if %fits {   // {ptensor.contiguous_fast_path}
      // the same body over merged dims: memref.reinterpret_cast views,
      // innermost stride 1
    } else {
      // the original strided loop nest
    }
    ```

    Decisions:
    - *Which dims merge* (compile time): adjacent loop dims `d`, `d+1` merge
      when every operand reads both, at adjacent positions and in order, or
      neither. Without broadcast operands everything merges into one loop;
      a row-broadcast operand `(d0, d1, d2) -> (d2)` keeps `d2` apart and
      lets `d0, d1` merge (two loops); a column broadcast
      `(d0, d1) -> (d0)` merges nothing, but the fast path still gets a
      static unit innermost stride. An operand whose view has a static zero
      stride in a dim (a broadcast view, as `ptensor-broadcast` makes of a
      `1 x ?` operand) does not read that loop dim: it counts as if its map
      lacked it, and the fast path reads it through a view without the dim
      (`m * v` of a matrix and a broadcast row runs rows of unit-stride
      columns, `v` a 1-D view; a scalar broadcast to every dim a 0-d view).
    - *When the fast path runs* (run time): for every memref operand and
      every group of merged dims it reads, each dim whose size is not 1 has
      the row-major stride: the product of the inner sizes of the group
      times 1 for the innermost group (the one holding the innermost loop),
      times the group's innermost stride for the others. Size-1 dims are
      ignored (their stride is never used); zero strides of expanded dims and
      negative strides of flipped ones fail the check and take the strided
      path. Identity-layout buffers (allocations) always pass.
    - Checks that fold to true at compile time (static contiguous layouts)
      give the fast path alone; checks that fold to false, and generics
      whose fast path would be the same loop nest (one loop already, unit
      stride known), are left alone.
    - *Unit innermost strides* (run time): where the fast path merged dims,
      the strided loop nest that stays is versioned once more the same way
      with every dim its own group: the check asks only that each operand
      reading the innermost loop has stride 1 there (or size 1), and the
      views make that stride static while the other strides stay dynamic.
      Slices whose rows are apart (`m[::2, 1:]`, flipped rows, Fortran
      order slices in the reversed order) and broadcasts passed with zero
      strides in outer dims then run unit-stride rows, which the CPU
      pipeline vectorizes and runs on threads (`ptensor-serial-inner-loop`;
      the strided nest is collapsed into one scalar loop there):

      A body that reads its loop indices (`linalg.index`: a triangle's
      mask) gets this version alone: merging dims would change its indices.

      ```mlir
      scf.if %contiguous { <one loop> } else {
        scf.if %unitInner { <the loops, views strided<[?, 1]>> }
        else { <the strided loop nest> }
      }
      ```

    Both versions visit the same elements in the same order, so in-place
    updates behave the same. Static size-1 dims are dropped earlier, on
    tensors, by upstream `linalg-fold-unit-extent-dims` (see the CPU
    pipeline).

    *Run-time loop order* (`reorder-loops`, on by default; TensorIterator's
    `reorder_dimensions` restricted to two orders a static loop nest can
    have): before the contiguity versioning, a loop nest of rank >= 2 is
    versioned on its loop order:

    ```mlir
    scf.if %reversed {   // {ptensor.reversed_loop_order}
      // the same generic with its loops reversed (linalg::interchangeGenericOp):
      // the outermost logical dim is the innermost loop; versioned on
      // contiguity in that order (a column-major fast path: one flat loop)
    } else {
      // the logical order, versioned on row-major contiguity as above
    }
    ```

    - *The vote* (TensorIterator's comparator on the outermost and the
      innermost loop dims): operands are asked in turn, outputs first; an
      operand's effective stride of a dim is |stride|, or 0 when the dim
      has size 1 or the operand does not read it (broadcast); an operand
      whose two effective strides are non-zero and differ decides (reversed
      when the outermost dim's is smaller), others pass; nobody deciding
      means the logical order. Negative strides (flips) count by their
      magnitude. Static layouts decide at compile time: an identity-layout
      (allocated) operand always votes for the logical order, so loop
      nests that write a row-major allocation get no reversed version.
    - *Fresh outputs follow the inputs* (TensorIterator allocates outputs
      after reordering): an output that is a row-major `memref.alloc`
      written by the loop nest before anything reads it, used afterwards
      only by loop nests, deallocations and casts to fully dynamic layouts,
      is replaced by a `memref.reinterpret_cast` of the same allocation
      with column-major strides when every input with distinct strides
      votes reversed, row-major strides otherwise (DESIGN.md: the output
      follows the inputs when they agree). `a.T + b.T` on column-major
      inputs then runs as one flat contiguous loop and returns a
      column-major result.
    - *Reductions over two loops* (one kept, one reduced: what the layout
      pass leaves of most reductions) are versioned the same way, the
      inputs voting (the output does not): a row sum over a transposed
      view or a Fortran-order array runs as a column sum of unit-stride
      rows (`[reduction, parallel]`), a column sum over one as a row sum;
      each order is then versioned on unit innermost strides (its loops
      as they are: nothing merges).
      The GPU pipeline, which
      does not run this pass, takes the same decision in
      convert-ptensor-linalg-to-gpu's reduction kernels.

    Only the identity and the reversed order exist: a 3-D permutation such
    as `(1, 0, 2)` runs in whichever of the two the vote picks. Every
    version visits each element once, reading before writing it, so
    in-place writes (an output that is also an input) stay correct.
  }];
  let options = [
    Option<"reorderLoops", "reorder-loops", "bool", "true",
           "Version loop nests and two-loop reductions on their run-time "
           "loop order (identity or reversed) and give fresh outputs the "
           "inputs' order">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // PTENSOR_TRANSFORMS_PASSES_TD
