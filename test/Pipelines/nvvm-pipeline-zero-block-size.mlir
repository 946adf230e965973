// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa block-size=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa block-size=1025" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGBLOCK
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa max-blocks=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa opt-level=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT

// Launch sizes outside what CUDA can launch (a zero-thread block, more than
// 1024 threads, an empty grid) are rejected before the pipeline is built,
// with a message naming the option, instead of invalid IR deep inside it.

// BLOCK: error: ptensor-to-nvvm-pipeline option 'block-size' is '0'; expected 1 to 1024 threads per block
// BIGBLOCK: error: ptensor-to-nvvm-pipeline option 'block-size' is '1025'; expected 1 to 1024 threads per block
// GRID: error: ptensor-to-nvvm-pipeline option 'max-blocks' is '0'; expected 1 to 2147483647 blocks
// OPT: error: ptensor-to-nvvm-pipeline option 'opt-level' is '4'; expected 0, 1, 2 or 3

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
