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
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect"];
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

    Coalescing of contiguous dimensions depends on run-time strides and is
    done when buffers are bound (runtime), not here.
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

#endif // PTENSOR_TRANSFORMS_PASSES_TD
