//===- PTensorReductionOps.td - ptensor reductions ---------*- tablegen -*-===//
//
// The PTensor RFC's statistical (reduce), utility (test) and searching
// (find_index) reductions. Their rules (result dtypes, accumulation, axes,
// empty axes) are the semantics library's (ptensor/Semantics/Reductions.h).
// Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_REDUCTION_OPS_TD
#define PTENSOR_REDUCTION_OPS_TD

class PTensor_ReductionOp<string mnemonic, list<Trait> traits = []>
    : PTensor_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]> {
  let results = (outs PTensor:$result);
}

def PTensor_ReduceOp : PTensor_ReductionOp<"reduce"> {
  let summary = "statistical reduction: max, mean, min, prod, std, sum, var";
  let description = [{
    Reduces `input` over `axes` (all dims when absent; negative axes count
    from the end). The reduced dims are removed, or kept with size 1 with
    `keepdims`. Device and team are the input's.

    Result dtype (the array API, numpy where it is silent): `max`, `min`,
    `mean`, `var` and `std` keep the input dtype, and the last three need a
    float input; `sum` and `prod` give i64 for bool and signed integers,
    ui64 for unsigned ones and the input dtype for floats, or the `dtype`
    given, to which each element is cast first (the array API's rule: it
    may be narrower than the input, or of another kind; i1 gives numpy's
    bool add and multiply, a logical or and and). Float
    sums and products accumulate in f64, integer ones in the result dtype
    (wrapping).

    NaN propagates through every kind. Over an empty axis `sum` gives 0,
    `prod` 1, `mean`, `var` and `std` NaN; `max` and `min` have no identity:
    an empty static axis is an error, a dynamic one a run-time check.
    `var` and `std` divide by `max(N - correction, 0)` (`correction` is
    numpy's `ddof`) and use two passes (the mean, then the squared
    deviations). Results do not depend on the run (no float atomics).

    ```mlir
    %s = ptensor.reduce sum %a axes [1] : !ptensor.ptensor<4x?xi32> -> !ptensor.ptensor<4xi64>
    %v = ptensor.reduce var %x axes [-1] {keepdims = true, correction = 1.0 : f64}
        : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x1xf32>
    %t = ptensor.reduce sum %h {dtype = f32} : !ptensor.ptensor<?xf16> -> !ptensor.ptensor<f32>
    ```
  }];
  let arguments = (ins PTensor_ReduceKind:$kind, PTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       OptionalAttr<TypeAttr>:$dtype,
                       DefaultValuedAttr<F64Attr, "0.0">:$correction);
  let assemblyFormat = [{
    $kind $input (`axes` $axes^)? attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def PTensor_TestOp : PTensor_ReductionOp<"test"> {
  let summary = "utility reduction: any, all (result i1)";
  let description = [{
    Whether any (or all) of the elements over `axes` is non-zero (all dims
    when absent; negative axes count from the end; `keepdims` keeps the
    reduced dims with size 1). The result dtype is `i1`. NaN is non-zero.
    Over an empty axis `any` is false and `all` is true.

    ```mlir
    %r = ptensor.test any %m axes [0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<3xi1>
    ```
  }];
  let arguments = (ins PTensor_TestKind:$kind, PTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let assemblyFormat = [{
    $kind $input (`axes` $axes^)? attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def PTensor_FindIndexOp : PTensor_ReductionOp<"find_index"> {
  let summary = "searching reduction: argmax, argmin (result i64)";
  let description = [{
    The index of the largest (`argmax`) or smallest (`argmin`) element
    along `axis`, or into the flattened (row-major) tensor when `axis` is
    absent; the first one on ties, and the first NaN if there is one
    (numpy). `keepdims` keeps the reduced dims with size 1. The result dtype
    is `i64`. An empty axis is an error (a run-time check when its size is
    dynamic).

    ```mlir
    %i = ptensor.find_index argmax %a axis -1 : !ptensor.ptensor<?x?xf16> -> !ptensor.ptensor<?xi64>
    %j = ptensor.find_index argmin %a : !ptensor.ptensor<?x?xf16> -> !ptensor.ptensor<i64>
    ```
  }];
  let arguments = (ins PTensor_FindIndexKind:$kind, PTensor:$input,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let assemblyFormat = [{
    $kind $input (`axis` $axis^)? attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

#endif // PTENSOR_REDUCTION_OPS_TD
