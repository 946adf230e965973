//===- PTensorLinalgOps.td - ptensor linear algebra --------*- tablegen -*-===//
//
// The PTensor RFC's linear algebra: matmul, vecdot and tensordot. Each is a
// contraction (ptensor/Semantics/Contraction.h): the semantics library
// decides the result shape and dtype and every message, and one lowering
// builds the loop nest. Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LINALG_OPS_TD
#define PTENSOR_LINALG_OPS_TD

class PTensor_ContractionOp<string mnemonic, list<Trait> traits = []>
    : PTensor_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]> {
  let results = (outs PTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` `(` qualified(type($lhs)) `,` qualified(type($rhs)) `)` `->` qualified(type($result))
  }];
}

def PTensor_MatmulOp : PTensor_ContractionOp<"matmul"> {
  let summary = "matrix product with the array API's rules";
  let description = [{
    The matrix product of `lhs` (`... x M x K`) and `rhs` (`... x K x N`):
    a 1-D `lhs` is a row and a 1-D `rhs` a column, their dim removed from
    the result; the batch dims (all but the last two) broadcast. The result
    dtype is the operands' promoted dtype (bool is rejected); f16 and bf16
    accumulate in f32, integers in the result dtype (wrapping). Contracted
    sizes that differ are an error (a run-time check naming both shapes
    when one is dynamic). Device and team are the operands'.

    ```mlir
    %c = ptensor.matmul %a, %b : (!ptensor.ptensor<?x4x8xf32>, !ptensor.ptensor<8x?xf32>) -> !ptensor.ptensor<?x4x?xf32>
    %v = ptensor.matmul %a, %x : (!ptensor.ptensor<3x8xf16>, !ptensor.ptensor<8xf16>) -> !ptensor.ptensor<3xf16>
    ```
  }];
  let arguments = (ins PTensor:$lhs, PTensor:$rhs);
}

def PTensor_VecdotOp : PTensor_ContractionOp<"vecdot"> {
  let summary = "dot products along an axis, broadcasting the other dims";
  let description = [{
    `sum(lhs * rhs, axis)` without the product in memory: `lhs` and `rhs`
    broadcast in every dim but `axis` (negative, counted from the end of
    both; non-negative when the ranks are equal), whose sizes must be
    equal. The result is the broadcast shape without `axis`; dtypes as
    `ptensor.matmul`'s.

    ```mlir
    %d = ptensor.vecdot %a, %b {axis = -1 : i64} : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<?xf32>
    ```
  }];
  let arguments = (ins PTensor:$lhs, PTensor:$rhs,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def PTensor_TensordotOp : PTensor_ContractionOp<"tensordot"> {
  let summary = "sum of products over pairs of axes";
  let description = [{
    Contracts dim `lhs_axes[i]` of `lhs` with dim `rhs_axes[i]` of `rhs`
    (negative axes count from the end; sizes must be equal). The result is
    `lhs`'s other dims followed by `rhs`'s; dtypes as `ptensor.matmul`'s.
    The array API's `axes=n` is `lhs_axes` = the last n dims,
    `rhs_axes` = the first n.

    ```mlir
    %t = ptensor.tensordot %a, %b {lhs_axes = array<i64: 1, 2>, rhs_axes = array<i64: 0, 1>}
        : (!ptensor.ptensor<2x3x4xf64>, !ptensor.ptensor<3x4x5xf64>) -> !ptensor.ptensor<2x5xf64>
    ```
  }];
  let arguments = (ins PTensor:$lhs, PTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_axes,
                       DenseI64ArrayAttr:$rhs_axes);
}

#endif // PTENSOR_LINALG_OPS_TD
