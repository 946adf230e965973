// REQUIRES: ptxas
// RUN: ptensor-opt %s -split-input-file --ptensor-to-nvvm-pipeline | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-to-nvvm-pipeline=format=isa --mlir-print-ir-after=ptensor-copies-to-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: ptensor-opt %s -split-input-file --ptensor-to-nvvm-pipeline=format=isa --mlir-print-ir-after=ptensor-lower-device-copies -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU

// On "cuda:0" tensors, as on the host (cpu-pipeline-inplace-temporary.mlir),
// an in-place or out= write (ptensor.write, a subset insertion) computes the
// value directly in the destination's device buffer: empty-tensor
// elimination runs before one-shot bufferize in both pipelines. `a += s` is
// one linalg.generic into the argument, hence one kernel (its vectorized,
// 32-bit and 64-bit index versions are alternatives chosen at run time),
// with no device allocation (gpu.alloc / mgpuMemAlloc) and no second copy
// kernel or memcpy into the destination. Where an input overlaps the
// destination in a way that changes the result (a = flip(a) + b), one-shot
// bufferize keeps a device temporary filled by a copy kernel first.
// Numbers: test/Integration/CPU/write_order.py (exported to cuda:0 by
// scripts/gpu-check.sh).

// CHECK-LABEL: llvm.func @add_scalar_in_place(
// CHECK-SAME:    attributes {ptensor.device = "cuda:0"}
// CHECK-NOT:     mgpuMem
// CHECK:         gpu.launch_func @add_scalar_in_place_kernel
// CHECK-NOT:     mgpuMem
// CHECK:         llvm.return
// CHECK-NOT:     mgpuMem
// CHECK:       gpu.binary @add_scalar_in_place_kernel
// CHECK-NOT:     mgpuMem
// LOOPS-LABEL: func.func @add_scalar_in_place(
// LOOPS-NOT:     memref.alloc(
// LOOPS-NOT:     memref.copy
// LOOPS-COUNT-1: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%arg0 :
// LOOPS-NOT:     linalg.generic
// LOOPS-NOT:     memref.alloc(
// LOOPS-NOT:     memref.copy
// LOOPS:         return
// GPU-LABEL: func.func @add_scalar_in_place(
// GPU-NOT:     gpu.alloc
// GPU-NOT:     gpu.memcpy
// GPU:         gpu.launch
// GPU-NOT:     gpu.alloc
// GPU-NOT:     gpu.memcpy
// GPU-NOT:     gpu.dealloc
// GPU:         return
func.func @add_scalar_in_place(%a: !ptensor.ptensor<?xf32, device = "cuda:0">, %s: f32) {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<?xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  ptensor.write %0 into %a : !ptensor.ptensor<?xf32, device = "cuda:0">
  return
}

// -----

// out= into another argument (broadcast row): computed in %out's buffer.
// CHECK-LABEL: llvm.func @add_out_into_argument(
// CHECK-NOT:     mgpuMem
// CHECK:         gpu.launch_func @add_out_into_argument_kernel
// CHECK-NOT:     mgpuMem
// CHECK:         llvm.return
// CHECK-NOT:     mgpuMem
// CHECK:       gpu.binary @add_out_into_argument_kernel
// CHECK-NOT:     mgpuMem
// LOOPS-LABEL: func.func @add_out_into_argument(
// LOOPS-NOT:     memref.alloc(
// LOOPS-NOT:     memref.copy
// LOOPS-COUNT-1: linalg.generic {{.*}} outs(%arg2 :
// LOOPS-NOT:     linalg.generic
// LOOPS-NOT:     memref.alloc(
// LOOPS-NOT:     memref.copy
// LOOPS:         return
// GPU-LABEL: func.func @add_out_into_argument(
// GPU-NOT:     gpu.alloc
// GPU-NOT:     gpu.memcpy
// GPU:         gpu.launch
// GPU-NOT:     gpu.alloc
// GPU-NOT:     gpu.memcpy
// GPU-NOT:     gpu.dealloc
// GPU:         return
func.func @add_out_into_argument(%a: !ptensor.ptensor<?x3xf32, device = "cuda:0">, %b: !ptensor.ptensor<3xf32, device = "cuda:0">, %out: !ptensor.ptensor<?x3xf32, device = "cuda:0">) {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, device = "cuda:0">, !ptensor.ptensor<3xf32, device = "cuda:0">) -> !ptensor.ptensor<?x3xf32, device = "cuda:0">
  ptensor.write %0 into %out : !ptensor.ptensor<?x3xf32, device = "cuda:0">
  return
}

// -----

// out= into a strided view of an argument (every other column): computed
// through the view, still without a temporary.
// LOOPS-LABEL: func.func @multiply_into_strided_view(
// LOOPS-NOT:     memref.alloc(
// LOOPS:         %[[V:.*]] = memref.reinterpret_cast %arg2
// LOOPS-NOT:     memref.alloc(
// LOOPS-COUNT-1: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%[[V]] :
// LOOPS-NOT:     linalg.generic
// LOOPS-NOT:     memref.copy
// LOOPS:         return
// GPU-LABEL: func.func @multiply_into_strided_view(
// GPU-NOT:     gpu.alloc
// GPU-NOT:     gpu.memcpy
// GPU:         gpu.launch
// GPU-NOT:     gpu.alloc
// GPU-NOT:     gpu.memcpy
// GPU-NOT:     gpu.dealloc
// GPU:         return
func.func @multiply_into_strided_view(%x: !ptensor.ptensor<3x2xf32, device = "cuda:0">, %s: f32, %out: !ptensor.ptensor<?x4xf32, device = "cuda:0">) {
  %v = ptensor.extract_slice %out [0, 1] [3, 2] [1, 2] : !ptensor.ptensor<?x4xf32, device = "cuda:0"> -> !ptensor.ptensor<3x2xf32, device = "cuda:0">
  %0 = ptensor.elementwise_binary multiply %x, %s : (!ptensor.ptensor<3x2xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<3x2xf32, device = "cuda:0">
  ptensor.write %0 into %v : !ptensor.ptensor<3x2xf32, device = "cuda:0">
  return
}

// -----

// a = flip(a) + b: element i reads element n-1-i, which an in-place kernel
// may already have overwritten; the flipped input is copied to a device
// temporary first (a copy kernel), then the sum is computed into `a`.
// CHECK-LABEL: llvm.func @write_flipped_into_source(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func @write_flipped_into_source_kernel
// CHECK:         llvm.call @mgpuMemFree
// CHECK:         llvm.return
// LOOPS-LABEL: func.func @write_flipped_into_source(
// LOOPS:         %[[T:.*]] = memref.alloc
// LOOPS:         linalg.generic {{.*}} outs(%[[T]]
// LOOPS-NEXT:      ^bb0
// LOOPS-NEXT:      linalg.yield
// LOOPS:         linalg.generic {{.*}} outs(%arg0
// LOOPS:           arith.addf
// LOOPS:         memref.dealloc %[[T]]
// GPU-LABEL: func.func @write_flipped_into_source(
// GPU:         %[[T:.*]], %{{.*}} = gpu.alloc
// GPU:         gpu.launch
// GPU:         gpu.dealloc async [%{{.*}}] %[[T]]
// GPU:         return
func.func @write_flipped_into_source(%a: !ptensor.ptensor<?x3xf32, device = "cuda:0">, %b: !ptensor.ptensor<3xf32, device = "cuda:0">) {
  %fa = ptensor.flip %a [0] : !ptensor.ptensor<?x3xf32, device = "cuda:0"> -> !ptensor.ptensor<?x3xf32, device = "cuda:0">
  %s = ptensor.elementwise_binary add %fa, %b : (!ptensor.ptensor<?x3xf32, device = "cuda:0">, !ptensor.ptensor<3xf32, device = "cuda:0">) -> !ptensor.ptensor<?x3xf32, device = "cuda:0">
  ptensor.write %s into %a : !ptensor.ptensor<?x3xf32, device = "cuda:0">
  return
}
