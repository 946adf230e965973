//===- PTensorSortingOps.td - sort and argsort -------------*- tablegen -*-===//
//
// The PTensor RFC's sorting functions and nonzero. Their rules (axis,
// result dtype, order) are the semantics library's
// (ptensor/Semantics/Sorting.h, Searching.h).
// Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SORTING_OPS_TD
#define PTENSOR_SORTING_OPS_TD

class PTensor_SortOp<string mnemonic, string what, string example>
    : PTensor_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let description = [{
    Sorts `input` along `axis` (negative axes count from the end; the
    input must have rank 1 or more) and gives }] # what # [{ The result has
    the input's shape, device and team.

    The order is ascending, or descending with `descending`: integers and
    bool (false before true) by value; floats by value with `-0.0` equal to
    `0.0` and every NaN after `+inf` (numpy's order; descending puts NaNs
    first). With `stable` (the default, as in the array API) equal elements
    keep their input order, descending included; without it their order is
    unspecified (argsort's indices stay deterministic).

    `runs` (optional, 1-D i64, the input's device, no team) says where
    runs of each line along `axis` end: the line is those runs joined,
    each already sorted in the op's order, the last ending at the line's
    end (an end left out is the line's size). The result is the same as
    without it; the host sort then merges the runs instead of sorting
    (what a sample sort receives from the team's processes), and sorts the
    line whole when a run is not sorted. Ends out of order or past the line
    fail when the code runs. GPU sorts do not use it. Spelled
    `ptensor.sort %x runs %ends : !ptensor.ptensor<4xi64> : ...`.

    ```mlir
    }] # example # [{
    ```
  }];
  let arguments = (ins PTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$descending,
                       DefaultValuedAttr<BoolAttr, "true">:$stable,
                       Optional<PTensor>:$runs);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $input (`axis` $axis^)? (`runs` $runs^ `:` qualified(type($runs)))?
    attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_SortValuesOp : PTensor_SortOp<"sort",
    "the sorted values (numpy.sort, the array API's `sort`).",
    "%s = ptensor.sort %a axis 0 {descending = true} : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>"> {
  let summary = "sorts along an axis";
}

def PTensor_ArgsortOp : PTensor_SortOp<"argsort",
    "the indices (i64) that sort it: element `i` of a row is the position "
    "in the input row of the row's `i`-th element in sorted order "
    "(numpy.argsort).",
    "%i = ptensor.argsort %a : !ptensor.ptensor<?xf16> -> !ptensor.ptensor<?xi64>"> {
  let summary = "the indices that sort along an axis";
}

def PTensor_NonzeroOp : PTensor_Op<"nonzero", [Pure, InferTypeOpAdaptor]> {
  let summary = "the indices of the non-zero elements (one tensor per dim)";
  let description = [{
    The positions of the elements of `input` that are not zero (true for
    bool, NaN counts as non-zero, `-0.0` as zero), in row-major order: result
    `d` holds their indices along dim `d` (i64), so element `i` of the
    results together is the `i`-th non-zero element's position (the array
    API's `nonzero`, numpy's). Their size is the number of non-zero elements,
    known only at run time (dynamic in the types). The input must have rank
    1 or more. A count pass, then a pass writing the indices into results
    allocated with the count (host tensors for now, like `extract_mask`).

    ```mlir
    %i:2 = ptensor.nonzero %m : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>)
    ```
  }];
  let arguments = (ins PTensor:$input);
  let results = (outs Variadic<PTensor>:$indices);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` `(` qualified(type($indices)) `)`
  }];
}

def PTensor_SearchsortedOp : PTensor_Op<"searchsorted", [Pure, InferTypeOpAdaptor]> {
  let summary = "where values would be inserted into a sorted 1-D tensor";
  let description = [{
    For each element `v` of `values` (any shape), the position in the 1-D
    `sorted` at which `v` would be inserted to keep it sorted (the array
    API's and numpy's `searchsorted`): with side `left` (the default) the
    number of elements less than `v`, with `right` the number not greater
    than `v`. `sorted` must be ascending in the order of `ptensor.sort`
    (`-0.0` equal to `0.0`, NaNs after `+inf`), or `sorter` (1-D, integer,
    as many elements as `sorted`) gives the positions that sort it
    (numpy's `sorter`, e.g. argsort's result): element `i` in sorted order
    is `sorted[sorter[i]]`. A sorter index outside `[0, size)` is an error
    when the code runs. Both sides are compared in the promoted dtype of
    `sorted` and `values`, an integer against a float in f64 (numpy's rule;
    docs/Semantics.md). The result is i64 with the
    shape of `values`; all operands share a device and a team (on a team
    each process searches its block of `values` in the whole `sorted`).

    Lowering: a parallel generic over `values` whose body is a binary
    search (`scf.while`, about log2(size) steps) reading `sorted` (and
    `sorter`) by position; the sorter's range is checked first by counting
    the indices out of range.

    ```mlir
    %i = ptensor.searchsorted right %s, %v : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?x3xi64>
    %j = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<?xi32>, !ptensor.ptensor<5xi32>, !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<5xi64>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<PTensor_SearchSide,
                                         "::mlir::ptensor::SearchSide::left">:$side,
                       PTensor:$sorted, PTensor:$values,
                       Optional<PTensor>:$sorter);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    ($side^)? $sorted `,` $values (`sorter` $sorter^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Lowering-internal
//===----------------------------------------------------------------------===//

def PTensor_SortAlongOp : PTensor_Op<"sort_along", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "getAliasingValues", "bufferize"]>]> {
  let summary = "sorts along a dim into new buffers (lowering of sort/argsort)";
  let description = [{
    The lowering of `ptensor.sort` and `ptensor.argsort`
    (convert-ptensor-to-linalg): reads `input` (any layout) and writes its
    lines along `dim`, sorted in the order of `ptensor.sort` (with its
    `descending` and `stable`) for elements of the semantic dtype `dtype`
    (the input's element type with signedness: `ui8`, `i1`, `f16`, ...),
    into `values` (the input's shape and element type) and/or, as i64
    positions along `dim` (argsort), into `indices`. At least one of the two
    is given; both are only written, never read. `runs` (1-D i64, read),
    where given, is the sort's hint of where sorted runs of each line end.

    On builtin tensors the results are the written `values` and `indices`
    (destination-passing: one-shot bufferization writes their buffers); on
    memrefs there are no results. convert-ptensor-sort-to-library makes it
    a call of the runtime (docs/ABI.md: ptensor_rt_cpu_sort,
    ptensor_rt_gpu_sort).

    ```mlir
    %v = ptensor.sort_along %x into values(%e : tensor<?x?xf32>) dim 1
        {dtype = f32, descending = false, stable = true} : tensor<?x?xf32> -> tensor<?x?xf32>
    ptensor.sort_along %b into indices(%i : memref<8xi64>) dim 0
        {dtype = ui8, descending = true, stable = true} : memref<8xi8>
    ```
  }];
  let arguments = (ins PTensor_Ranked:$input, Optional<PTensor_Ranked>:$values,
                       Optional<PTensor_Ranked>:$indices,
                       Optional<PTensor_Ranked>:$runs, I64Attr:$dim,
                       TypeAttr:$dtype, BoolAttr:$descending, BoolAttr:$stable);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $input `into` (`values` `(` $values^ `:` type($values) `)`)?
    (`indices` `(` $indices^ `:` type($indices) `)`)?
    (`runs` `(` $runs^ `:` type($runs) `)`)? `dim` $dim attr-dict
    `:` type($input) (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    /// The outputs given (values, then indices).
    ::llvm::SmallVector<::mlir::Value> getOutputs();
    /// Whether `operand` is only read: the input or the runs.
    bool isReadOnly(::mlir::OpOperand &operand);
  }];
  let hasVerifier = 1;
}

#endif // PTENSOR_SORTING_OPS_TD
