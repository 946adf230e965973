// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa block-size=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa block-size=1025" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGBLOCK
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa max-blocks=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa opt-level=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa unroll=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa transpose-tile=48" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa transpose-group=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa transpose-max-blocks=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TGRID
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa reduction-lanes=9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa strided-paths=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PATHS
// RUN: not ptensor-opt %s --convert-ptensor-linalg-to-gpu="transpose-tile=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not ptensor-opt %s --convert-ptensor-linalg-to-gpu="unroll=100 transpose-group=1000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS-LIMITS
// RUN: ptensor-opt --help | FileCheck %s --check-prefix=HELP

// The pass and the pipeline list the same kernel options (KernelOptions.def)
// with their allowed values.
// HELP:      --convert-ptensor-linalg-to-gpu
// HELP-NEXT:   --block-size=<uint> {{.*}}- Block size of every kernel [1 to 1024 threads per block]
// HELP:        --reduction-lanes=<uint> {{.*}}- Interleaved accumulator sets {{.*}}[1 to 8 accumulators per thread]
// HELP:        --strided-paths=<uint> {{.*}}- Kernels of an elementwise op {{.*}}[0 to 1 (1: every path; 0: contiguous layouts' paths)]
// HELP:        --transpose-tile=<uint> {{.*}}[32 or 64 (blocks of 256 threads)]
// HELP:        --unroll=<uint> {{.*}}[1 to 8 vectors per thread]
// HELP:      --ptensor-to-nvvm-pipeline
// HELP:        --block-size=<uint> {{.*}}- Block size of every kernel [1 to 1024 threads per block]
// HELP:        --reduction-lanes=<uint> {{.*}}[1 to 8 accumulators per thread]

// Launch sizes outside what CUDA can launch (a zero-thread block, more than
// 1024 threads, an empty grid) are rejected before the pipeline is built,
// with a message naming the option, instead of invalid IR deep inside it.

// BLOCK: error: ptensor-to-nvvm-pipeline option 'block-size' is '0'; expected 1 to 1024 threads per block
// BIGBLOCK: error: ptensor-to-nvvm-pipeline option 'block-size' is '1025'; expected 1 to 1024 threads per block
// GRID: error: ptensor-to-nvvm-pipeline option 'max-blocks' is '0'; expected 1 to 2147483647 blocks
// OPT: error: ptensor-to-nvvm-pipeline option 'opt-level' is '4'; expected 0, 1, 2 or 3
// UNROLL: error: ptensor-to-nvvm-pipeline option 'unroll' is '0'; expected 1 to 8 vectors per thread
// TILE: error: ptensor-to-nvvm-pipeline option 'transpose-tile' is '48'; expected 32 or 64 (blocks of 256 threads)
// GROUP: error: ptensor-to-nvvm-pipeline option 'transpose-group' is '0'; expected 1 to 64 tile rows
// TGRID: error: ptensor-to-nvvm-pipeline option 'transpose-max-blocks' is '0'; expected 1 to 2147483647 blocks
// LANES: error: ptensor-to-nvvm-pipeline option 'reduction-lanes' is '9'; expected 1 to 8 accumulators per thread
// PATHS: error: ptensor-to-nvvm-pipeline option 'strided-paths' is '2'; expected 0 to 1 (1: every path; 0: contiguous layouts' paths)
// The pass alone checks the same limits (one KernelConfig::verify).
// PASS: error: convert-ptensor-linalg-to-gpu option 'transpose-tile' is '16'; expected 32 or 64 (blocks of 256 threads)
// PASS-LIMITS: error: convert-ptensor-linalg-to-gpu option 'unroll' is '100'; expected 1 to 8 vectors per thread
// PASS-LIMITS: error: convert-ptensor-linalg-to-gpu option 'transpose-group' is '1000'; expected 1 to 64 tile rows

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
