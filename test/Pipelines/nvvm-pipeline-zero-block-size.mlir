// XFAIL: *
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa block-size=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa max-blocks=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID

// BUG: block-size=0 or max-blocks=0 are accepted and produce invalid IR deep
// in the pipeline:
//   error: 'nvvm.read.ptx.sreg.ntid.x' op invalid range attribute: Lower ==
//   Upper, but they aren't min (0) or max (4294967295) value! ...
// (a zero-thread launch would be a CUDA error anyway). Expected: the options
// are validated up front with a message naming them.

// BLOCK: error: {{.*}}block-size
// GRID: error: {{.*}}max-blocks

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
