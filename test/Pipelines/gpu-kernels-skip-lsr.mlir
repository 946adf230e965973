// CUDA kernels are generated without LLVM's Loop Strength Reduction
// (include/ptensor/Pipelines/CodegenPassGate.h: ptxas reduces address
// arithmetic itself, and a one-op kernel compiles 20 ms faster), but for
// modules that reduce across a warp's threads (llvm.nvvm.shfl calls: row
// reductions ran 2-4 % faster with it). LLVM's own pass gate
// (-opt-bisect-limit) still sees every other pass: the loop pass that
// codegen runs just before LSR is asked about in both.
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa" --opt-bisect-limit=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ADD
// ADD-NOT: Loop Strength Reduction
// ADD: BISECT: running pass ({{[0-9]+}}) Canonicalize Freeze Instructions in Loops on loop
// ADD-NOT: Loop Strength Reduction
// RUN: ptensor-opt %S/Inputs/row-sum-cuda.mlir --ptensor-to-nvvm-pipeline="format=isa" --opt-bisect-limit=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: BISECT: running pass ({{[0-9]+}}) Canonicalize Freeze Instructions in Loops on loop
// ROWS-NEXT: BISECT: running pass ({{[0-9]+}}) Loop Strength Reduction on loop

func.func @add(%a: !ptensor.ptensor<?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32, device = "cuda:0">, !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %c : !ptensor.ptensor<?xf32, device = "cuda:0">
}
