// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa features=+ptx60" -o /dev/null 2>&1 | FileCheck %s
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa chip=sm_90a features=+ptx78" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90A
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa chip=sm_100 features=+ptx85" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM100
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa features=ptx80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa features=+ptx79" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa features=+ptx-80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa chip=sm_91" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa chip=90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP

// `chip` and `features` are checked against the chips and PTX versions
// LLVM's NVPTX backend knows before the pipeline is built: a PTX version
// older than the chip's minimum would abort the whole process from the
// backend ("LLVM ERROR: PTX version 6.0 does not support target 'sm_90'"),
// with no diagnostic for embedders.

// CHECK-NOT: LLVM ERROR
// CHECK: error: ptensor-to-nvvm-pipeline option 'features' is '+ptx60'; expected +ptx78 or newer, the oldest PTX version LLVM accepts for sm_90
// SM90A: error: ptensor-to-nvvm-pipeline option 'features' is '+ptx78'; expected +ptx80 or newer, the oldest PTX version LLVM accepts for sm_90a
// SM100: error: ptensor-to-nvvm-pipeline option 'features' is '+ptx85'; expected +ptx86 or newer, the oldest PTX version LLVM accepts for sm_100
// MALFORMED: error: ptensor-to-nvvm-pipeline option 'features' is '{{.*}}'; expected one PTX version feature: +ptx32, {{.*}}, +ptx78, +ptx80, {{.*}}, +ptx90
// CHIP: error: ptensor-to-nvvm-pipeline option 'chip' is '{{.*}}'; expected a chip LLVM's NVPTX backend knows: sm_50, {{.*}}, sm_90, sm_90a, {{.*}}, sm_120, {{.*}}

func.func @device_neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
