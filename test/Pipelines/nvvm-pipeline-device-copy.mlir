// REQUIRES: ptxas
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline=format=isa | FileCheck %s
// RUN: not ptensor-opt %s --ptensor-to-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=CPU

// Host<->device ptensor.copy (issue 4): the destination is allocated on its
// side (mgpuMemAlloc on the GPU, malloc on the host) and filled by
// mgpuMemcpy on a stream that is synchronized right after; a source that
// is not row-major at run time is staged first (host loops, or a copy
// kernel on the GPU) and the staging buffer freed after the copy.

// CHECK-LABEL: llvm.func @to_device(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         llvm.call @mgpuStreamSynchronize
// CHECK:         llvm.call @ptensor_rt_host_free
// CHECK:         llvm.return

// The host destination is not device memory; the staging buffer is.
// CHECK-LABEL: llvm.func @to_host(
// CHECK-NOT:     llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         llvm.call @mgpuMemFree
// CHECK:         llvm.return

// A value computed on the GPU is row-major by construction: no staging
// kernel between the host destination and the copy back.
// CHECK-LABEL: llvm.func @roundtrip(
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         gpu.launch_func
// CHECK:         llvm.call @ptensor_rt_host_alloc
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         llvm.call @mgpuMemFree
// CHECK:         llvm.return

// CPU: error: a copy from the host to "cuda:0" needs ptensor-to-nvvm-pipeline (device code)

func.func @to_device(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32, device = "cuda:0"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<4xf32, device = "cuda:0">
}

func.func @to_host(%a: !ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32, device = "cuda:0"> -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

func.func @roundtrip(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %d = ptensor.copy %a : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %e = ptensor.elementwise_unary exp %d : (!ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %h = ptensor.copy %e : !ptensor.ptensor<?x?xf32, device = "cuda:0"> -> !ptensor.ptensor<?x?xf32>
  return %h : !ptensor.ptensor<?x?xf32>
}
