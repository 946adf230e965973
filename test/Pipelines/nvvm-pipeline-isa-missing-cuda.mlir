// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa cuda-path=/nonexistent" -o /dev/null 2>&1 | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/bin
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa cuda-path=%t" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIBDEVICE -DDIR=%t

// The CUDA toolkit is checked when the pipeline is built (every kernel is
// linked with its libdevice, which defines the __nv_* math functions):
// a missing directory, or one without libdevice, is an error with a
// non-zero exit instead of PTX with unresolved calls.

// CHECK: error: CUDA path: /nonexistent does not exist or is not a directory.
// CHECK-SAME: set the option 'cuda-path' or CUDA_HOME
// LIBDEVICE: error: LibDevice path: [[DIR]]/nvvm/libdevice/libdevice.10.bc does not exist or is not a file; the CUDA toolkit at [[DIR]] is incomplete

func.func @device_exp(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
