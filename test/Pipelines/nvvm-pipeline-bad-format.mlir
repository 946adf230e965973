// XFAIL: *
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline=format=foo -o /dev/null 2>&1 | FileCheck %s

// BUG: an unknown `format` is reported ("<file>:0:0: error: Invalid format
// specified." from gpu-module-to-binary) but ptensor-opt exits 0 and prints
// a module whose gpu.modules were never serialized. Expected: the option is
// validated (bin, isa or fatbin) with a non-zero exit.

// CHECK: error: {{.*}}format

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
