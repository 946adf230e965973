// XFAIL: *
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa features=+ptx60" -o /dev/null 2>&1 | FileCheck %s

// BUG: a PTX version below 7.8 for sm_90 (the option's help says ">= +ptx78")
// aborts the whole process from the NVPTX backend:
//   LLVM ERROR: PTX version 6.0 does not support target 'sm_90'. Minimum
//   required PTX version is 7.8. ...
// with no location and no MLIR diagnostic (embedders linking the pipeline
// lose their process). Expected: the option is checked when the pipeline is
// built and reported as an error diagnostic.

// CHECK-NOT: LLVM ERROR
// CHECK: error: {{.*}}ptx

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
