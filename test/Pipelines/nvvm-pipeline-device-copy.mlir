// XFAIL: *
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline=format=isa | FileCheck %s

// BUG: ptensor.copy between the host and a GPU is not lowered by any
// pipeline. convert-ptensor-to-linalg's CopyPattern refuses it with the
// reason "copies to or from a GPU are lowered by ptensor-to-nvvm-pipeline",
// but that pipeline runs the same conversion, so it fails with
//   error: failed to legalize operation 'ptensor.copy' that was explicitly marked illegal
// (and the reason is only visible with -debug). Expected: host<->device
// copies become gpu.alloc + gpu.memcpy (mgpuMemcpy after gpu-to-llvm).

// CHECK-LABEL: llvm.func @to_device(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @mgpuMemcpy
// CHECK-LABEL: llvm.func @to_host(
// CHECK:         llvm.call @mgpuMemcpy

func.func @to_device(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32, device = "cuda:0"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<4xf32, device = "cuda:0">
}

func.func @to_host(%a: !ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32, device = "cuda:0"> -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}
