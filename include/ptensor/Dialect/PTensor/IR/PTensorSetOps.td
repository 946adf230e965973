//===- PTensorSetOps.td - unique_* -------------------------*- tablegen -*-===//
//
// The PTensor RFC's set functions. Which results each kind gives is the
// semantics library's (ptensor/Semantics/Sets.h). Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SET_OPS_TD
#define PTENSOR_SET_OPS_TD

def PTensor_UniqueOp : PTensor_Op<"unique", [Pure, InferTypeOpAdaptor]> {
  let summary = "the unique values of a tensor (unique_all, unique_counts, "
                "unique_inverse, unique_values)";
  let description = [{
    The array API's `unique_<kind>` of `input` (any rank, 0-d included, any
    dtype): the input is flattened in row-major order and its distinct
    values are given sorted ascending (the order of `ptensor.sort`). Equal
    means `==`: `-0.0` equals `0.0` (the first of them in the input is
    kept) and every NaN is distinct from every other (each is its own value,
    at the end). The results, in this order, as the kind has them:

    | kind      | results |
    |-----------|---------|
    | `all`     | values, indices, inverse_indices, counts |
    | `counts`  | values, counts |
    | `inverse` | values, inverse_indices |
    | `values`  | values |

    `values` has the input's dtype; the others are i64: `indices` the
    position in the flattened input of each value's first occurrence,
    `inverse_indices` (the input's shape) the position in `values` of each
    element's value, `counts` how often each value occurs. The number of
    unique values is known only at run time (dynamic in the types). All
    results have the input's device and team.

    Lowering (host and GPU): a stable sort of the flattened input (with the
    permutation when indices or inverse_indices are asked for), then the
    count → select steps over the flags "first of its run", a gather per
    run and `ptensor.scatter_runs` for inverse_indices.

    ```mlir
    %v, %c = ptensor.unique counts %x : !ptensor.ptensor<?x?xi32> -> (!ptensor.ptensor<?xi32>, !ptensor.ptensor<?xi64>)
    ```
  }];
  let arguments = (ins PTensor_UniqueKind:$kind, PTensor:$input);
  let results = (outs Variadic<PTensor>:$results);
  let assemblyFormat = [{
    $kind $input attr-dict `:` qualified(type($input)) `->` `(` qualified(type($results)) `)`
  }];
}

#endif // PTENSOR_SET_OPS_TD
