// XFAIL: *
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa cuda-path=/nonexistent" -o /dev/null 2>&1 | FileCheck %s

// BUG: with format=isa and a CUDA path that does not exist, the pipeline
// prints "error: CUDA path: /nonexistent does not exist or is not a
// directory." but ptensor-opt exits 0 and emits a gpu.binary whose PTX calls
// the unresolved extern function __nv_expf (libdevice was not linked), which
// fails only later, when the driver loads the module. (gpu-module-to-binary
// reports the error without failing the pass.) Expected: a non-zero exit,
// e.g. by checking the toolkit path when the pipeline is built.

// CHECK: error: CUDA path: /nonexistent does not exist or is not a directory.

func.func @device_exp(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
