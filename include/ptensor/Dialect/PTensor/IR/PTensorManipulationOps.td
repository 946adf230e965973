//===- PTensorManipulationOps.td - data movement and attributes -*- tablegen -*-===//
//
// The PTensor RFC's manipulation, creation and attribute ops: reshape,
// combine{concat,stack}, roll, extract_triangle{lower,upper}, eye,
// create_like, meshgrid, shape, size and rank. Their rules (result shapes
// and dtypes, every message) are the semantics library's
// (ptensor/Semantics/Manipulation.h). Views stay views (strided metadata,
// no copy); copies are bandwidth-bound generics that fuse with elementwise
// neighbours. Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_MANIPULATION_OPS_TD
#define PTENSOR_MANIPULATION_OPS_TD

def PTensor_ReshapeOp : PTensor_Op<"reshape", [Pure, InferTypeOpAdaptor]> {
  let summary = "the same elements in another shape (a view when it can be)";
  let description = [{
    The elements of `source` in row-major order, in the shape `sizes`:
    static sizes, at most one `-1` (inferred from the element count) and
    `index` operands for sizes known at run time. Element counts that differ
    are an error (a run-time check naming both shapes when a size is
    dynamic).

    Without `copy`, the result is a view of `source` (no copy: its strided
    metadata) when the source's strides allow one — the dims that merge
    into one result dim are contiguous among themselves (numpy's and
    PyTorch's rule), whatever the offset — and a row-major copy otherwise,
    chosen at run time. `copy = true` always copies; `copy =
    false` never does, and a source whose strides need a copy is a run-time
    error (the array API's `copy` argument). Device and team are kept.

    ```mlir
    %r = ptensor.reshape %a [2, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<2x12xf32>
    %f = ptensor.reshape %b [-1] {copy = true} : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
    %d = ptensor.reshape %c [%n, 3] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x3xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, Variadic<Index>:$sizes,
                       DenseI64ArrayAttr:$static_sizes,
                       OptionalAttr<BoolAttr>:$copy);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $source custom<DynamicIndexList>($sizes, $static_sizes) attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_CombineOp : PTensor_Op<"combine", [Pure, InferTypeOpAdaptor]> {
  let summary = "joins tensors along an axis: concat, stack";
  let description = [{
    `concat` joins operands of one rank along the existing dim `axis`;
    their other sizes must agree. `stack` joins operands of one shape along
    a new result dim `axis`. Negative axes count from the end (of the result
    for `stack`). Dtypes promote like an elementwise op's, and each operand
    may have its own layout and dynamic sizes (sizes that must agree are
    checked at run time, naming both shapes). One bandwidth-bound copy per
    operand writes its part of the result; elementwise producers fuse into
    it. Device and team are the operands'.

    ```mlir
    %c = ptensor.combine concat %a, %b axis 0
        : (!ptensor.ptensor<2x?xf32>, !ptensor.ptensor<?x?xf16>) -> !ptensor.ptensor<?x?xf32>
    %s = ptensor.combine stack %a, %b axis -1
        : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4x2xi32>
    ```
  }];
  let arguments = (ins PTensor_CombineKind:$kind, Variadic<PTensor>:$inputs,
                       I64Attr:$axis);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $inputs `axis` $axis attr-dict `:` `(` qualified(type($inputs)) `)` `->` qualified(type($result))
  }];
}

def PTensor_RollOp : PTensor_Op<"roll", [Pure, InferTypeOpAdaptor]> {
  let summary = "rotates elements along axes";
  let description = [{
    Element `i` along each of `axes` moves to `(i + shift) mod size`
    (numpy.roll): one shift for all axes or one per axis, negative shifts
    and shifts larger than the size allowed, repeated axes add up. Rolling
    the flattened tensor is rolling its 1-D `reshape`. Lowered to one
    bandwidth-bound copy per contiguous piece (two per rolled axis).

    ```mlir
    %r = ptensor.roll %a shifts [1, -2] axes [0, 1] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, DenseI64ArrayAttr:$shifts,
                       DenseI64ArrayAttr:$axes);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $source `shifts` $shifts `axes` $axes attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_ExtractTriangleOp : PTensor_Op<"extract_triangle", [Pure, InferTypeOpAdaptor]> {
  let summary = "the lower or upper triangle of matrices (tril, triu)";
  let description = [{
    Keeps element `(..., i, j)` of `source` where `j - i <= offset`
    (`lower`, numpy's `tril(x, k)`) or `j - i >= offset` (`upper`, `triu`)
    and sets the others to zero; the last two dims hold the matrices, the
    others are batch dims. An elementwise generic: it fuses with its
    producers and consumers. With `first_row`, the source's rows are rows
    `first_row`, `first_row + 1`, ... of the matrices (a process's block of
    a team matrix, whose rows start there): row `i` is tested as row
    `i + first_row`.

    ```mlir
    %l = ptensor.extract_triangle lower %a offset -1 : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
    %u = ptensor.extract_triangle upper %block first_row %start : !ptensor.ptensor<?x8xf64> -> !ptensor.ptensor<?x8xf64>
    ```
  }];
  let arguments = (ins PTensor_TriangleKind:$kind, PTensor:$source,
                       DefaultValuedAttr<I64Attr, "0">:$offset,
                       Optional<Index>:$first_row);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $kind $source (`offset` $offset^)? (`first_row` $first_row^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PTensor_ExtractMaskOp : PTensor_Op<"extract_mask", [Pure, InferTypeOpAdaptor]> {
  let summary = "the elements where a bool mask is true (x[mask])";
  let description = [{
    Boolean-mask indexing (the array API's boolean array index): `mask`, a
    bool ptensor of rank k, covers the first k dims of `source`; the result
    holds, in row-major order of the mask, the sub-tensors `source[i]` for
    every index `i` where `mask[i]` is true. Its first dim is the number of
    true elements, known only at run time (dynamic in the type); the other
    dims are the source's last ones. Mask sizes that differ from the
    source's are an error (a run-time check naming both shapes when one is
    dynamic). A count pass, then a compaction pass into a result allocated
    with the count.

    ```mlir
    %s = ptensor.extract_mask %x, %m : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?xi1>) -> !ptensor.ptensor<?x4xf32>
    ```
  }];
  let arguments = (ins PTensor:$source, PTensor:$mask);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $source `,` $mask attr-dict `:` `(` qualified(type($source)) `,` qualified(type($mask)) `)` `->` qualified(type($result))
  }];
}

def PTensor_TakeOp : PTensor_Op<"take", [Pure, InferTypeOpAdaptor]> {
  let summary = "elements at given indices along an axis (x.take)";
  let description = [{
    Element `i` along `axis` of the result is element `indices[i]` along
    that axis of `source` (the array API's and numpy's `take` with 1-D
    indices): the result has the source's dtype and shape, but the axis
    has as many elements as `indices` (1-D, any integer dtype). Negative
    indices count from the end of the axis; an index outside
    `[-size, size)` is an error when the code runs (the indices are
    counted first, so nothing is read out of bounds). `axis` counts from
    the end when negative and may be left out only for a 1-D source.
    Operands share a device and a team. Lowering: one parallel generic
    over the result that reads the source by position (`tensor.extract`),
    on the host and the GPU alike.

    ```mlir
    %t = ptensor.take %x, %i axis 1 : (!ptensor.ptensor<?x8xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
    %u = ptensor.take %v, %p : (!ptensor.ptensor<?xf16>, !ptensor.ptensor<5xi64>) -> !ptensor.ptensor<5xf16>
    ```
  }];
  let arguments = (ins PTensor:$source, PTensor:$indices,
                       OptionalAttr<I64Attr>:$axis);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $source `,` $indices (`axis` $axis^)? attr-dict `:` `(`
    qualified(type($source)) `,` qualified(type($indices)) `)` `->`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// The axis taken along, in [0, rank) (verified).
    int64_t getTakenAxis();
  }];
}

def PTensor_EyeOp : PTensor_Op<"eye", [Pure]> {
  let summary = "a 2-D ptensor with ones on a diagonal";
  let description = [{
    Ones where `column - row == offset` (numpy's `eye(n, m, k)`), zeros
    elsewhere, in the result type's dtype, device and team; one index
    operand per dynamic dim.

    ```mlir
    %i = ptensor.eye (%n) offset 1 : !ptensor.ptensor<?x4xf32, device = "cuda:0">
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicSizes,
                       DefaultValuedAttr<I64Attr, "0">:$offset);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    ` ` `(` $dynamicSizes `)` (`offset` $offset^)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def PTensor_CreateLikeOp : PTensor_Op<"create_like", [Pure, InferTypeOpAdaptor]> {
  let summary = "a new ptensor shaped and placed like another, filled";
  let description = [{
    A new ptensor with the shape, device and team of `source` and the dtype
    `dtype` (the source's when absent), every element `fill` converted to
    it (`zeros_like`, `ones_like`, `full_like`; `empty_like` may fill with
    anything).

    ```mlir
    %z = ptensor.create_like %a fill %zero {dtype = i64} : !ptensor.ptensor<?x4xf32>, f32 -> !ptensor.ptensor<?x4xi64>
    ```
  }];
  let arguments = (ins PTensor:$source, PTensor_Scalar:$fill,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $source `fill` $fill attr-dict `:` qualified(type($source)) `,` type($fill) `->` qualified(type($result))
  }];
}

def PTensor_MeshgridOp : PTensor_Op<"meshgrid", [Pure, InferTypeOpAdaptor]> {
  let summary = "coordinate grids of 1-D ptensors, as broadcast views";
  let description = [{
    For N 1-D operands of sizes s0 ... sN-1, N results of one N-D shape:
    result `k` repeats operand `k` along every other dim. With `ij`
    indexing the shape is `s0 x ... x sN-1` and operand `k` varies along
    dim `k`; with `xy` (the array API's default) the first two sizes are
    swapped, so operand 0 varies along dim 1 and operand 1 along dim 0. The
    operands share a dtype; results are views (zero strides), no copies.

    ```mlir
    %x, %y = ptensor.meshgrid xy %a, %b : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<?xf32>)
        -> (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>)
    ```
  }];
  let arguments = (ins PTensor_MeshgridIndexing:$indexing,
                       Variadic<PTensor>:$inputs);
  let results = (outs Variadic<PTensor>:$results);
  let assemblyFormat = [{
    $indexing $inputs attr-dict `:` `(` qualified(type($inputs)) `)` `->` `(` qualified(type($results)) `)`
  }];
}

def PTensor_ShapeOp : PTensor_Op<"shape", [Pure, InferTypeOpAdaptor]> {
  let summary = "the sizes of all dimensions, as indices";
  let description = [{
    One `index` result per dimension of `source`: its size (static sizes
    fold to constants).

    ```mlir
    %m, %n = ptensor.shape %a : !ptensor.ptensor<4x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source);
  let results = (outs Variadic<Index>:$sizes);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) }];
  let hasFolder = 1;
}

def PTensor_SizeOp : PTensor_Op<"size", [Pure]> {
  let summary = "the number of elements, as an index";
  let description = [{
    The product of the sizes of `source` (1 for a 0-d ptensor); folds to a
    constant when the shape is static.

    ```mlir
    %n = ptensor.size %a : !ptensor.ptensor<4x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source);
  let results = (outs Index:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) }];
  let hasFolder = 1;
}

def PTensor_RankOp : PTensor_Op<"rank", [Pure]> {
  let summary = "the number of dimensions, as an index";
  let description = [{
    The rank of `source`'s type; always folds to a constant.

    ```mlir
    %r = ptensor.rank %a : !ptensor.ptensor<4x?xf32>
    ```
  }];
  let arguments = (ins PTensor:$source);
  let results = (outs Index:$result);
  let assemblyFormat = [{ $source attr-dict `:` qualified(type($source)) }];
  let hasFolder = 1;
}

#endif // PTENSOR_MANIPULATION_OPS_TD
