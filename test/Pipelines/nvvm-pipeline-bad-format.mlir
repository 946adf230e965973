// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline=format=foo -o /dev/null 2>&1 | FileCheck %s
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline=format=llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=LLVM

// An unknown `format` (or one the runtime cannot load, like LLVM offloading
// objects) stops the pipeline before it is built, with a non-zero exit and
// a message naming the option and the accepted formats.

// CHECK: error: ptensor-to-nvvm-pipeline option 'format' is 'foo'; expected bin (cubin), isa (PTX text) or fatbin
// CHECK-NOT: gpu.module
// LLVM: error: ptensor-to-nvvm-pipeline option 'format' is 'llvm'; expected bin

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
