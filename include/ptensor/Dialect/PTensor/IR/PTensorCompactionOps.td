//===- PTensorCompactionOps.td - count, select, scatter ----*- tablegen -*-===//
//
// Lowering-internal steps of the ops whose result size is a count of flags
// (nonzero, extract_mask, unique): convert-ptensor-to-linalg makes them,
// one-shot bufferization gives them buffers and
// convert-ptensor-sort-to-library makes them calls of the runtime
// (ptensor/Runtime/Compact.h: loops on the host, CUB on the GPU).
// Included by PTensorOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_COMPACTION_OPS_TD
#define PTENSOR_COMPACTION_OPS_TD

def PTensor_CountTrueOp : PTensor_Op<"count_true", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "getAliasingValues", "bufferize"]>]> {
  let summary = "the number of true flags (lowering of nonzero, "
                "extract_mask, unique)";
  let description = [{
    The number of true elements of the 1-D bool `flags` (a tensor, or a
    contiguous memref after bufferization), as an index known on the host:
    the size of the results that `ptensor.select_true` fills.

    ```mlir
    %n = ptensor.count_true %flags : tensor<?xi1>
    ```
  }];
  let arguments = (ins PTensor_Ranked:$flags);
  let results = (outs Index:$count);
  let assemblyFormat = "$flags attr-dict `:` type($flags)";
  let hasVerifier = 1;
}

def PTensor_SelectTrueOp : PTensor_Op<"select_true", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "getAliasingValues", "bufferize"]>]> {
  let summary = "the positions of the true flags (lowering of nonzero, "
                "extract_mask, unique)";
  let description = [{
    Writes the positions (i64, ascending) of the true elements of the 1-D
    bool `flags` into `positions`, whose size is their number
    (`ptensor.count_true`). Destination-passing: on tensors the result is
    the written `positions`; on memrefs there is none.

    ```mlir
    %p = ptensor.select_true %flags into %e : tensor<?xi1>, tensor<?xi64> -> tensor<?xi64>
    ```
  }];
  let arguments = (ins PTensor_Ranked:$flags, PTensor_Ranked:$positions);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $flags `into` $positions attr-dict `:` type($flags) `,` type($positions)
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

def PTensor_ScatterRunsOp : PTensor_Op<"scatter_runs", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface, [
      "bufferizesToMemoryRead", "bufferizesToMemoryWrite",
      "getAliasingValues", "bufferize"]>]> {
  let summary = "run numbers scattered through a permutation (lowering of "
                "unique's inverse_indices)";
  let description = [{
    For a sorted line whose runs of equal elements start where `starts` (1-D
    bool) is true, and the `permutation` (i64) that sorted it, writes
    `inverse[permutation[i]] = (number of true starts[0..i]) - 1`: each
    input position gets the number of its element's run. All three have
    one size. Destination-passing like `ptensor.select_true`.

    ```mlir
    %i = ptensor.scatter_runs %starts, %perm into %e : tensor<?xi1>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
    ```
  }];
  let arguments = (ins PTensor_Ranked:$starts, PTensor_Ranked:$permutation,
                       PTensor_Ranked:$inverse);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $starts `,` $permutation `into` $inverse attr-dict `:` type($starts) `,`
    type($permutation) `,` type($inverse) (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

#endif // PTENSOR_COMPACTION_OPS_TD
