// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline --mlir-print-ir-after=ptensor-copies-to-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS

// An out= / in-place write (ptensor.write) computes the value directly in
// the destination's buffer (ptensor.strided_write is a subset insertion for
// eliminate-empty-tensors) when reading and writing the same element is
// safe, as for `a += s`: no allocation and a single loop nest. Where an
// input of the value overlaps the destination differently (a = flip(a) + b),
// one-shot bufferize keeps a temporary, and a second loop fills it.
// Numbers: test/Integration/CPU/write_order.py.

// CHECK-LABEL: llvm.func @add_scalar_in_place(
// CHECK-NOT:     llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.fadd
// CHECK-NOT:     llvm.call @ptensor_rt_host_alloc
// CHECK-NOT:     llvm.call @ptensor_rt_host_free
// CHECK:         llvm.return
// LOOPS-LABEL: func.func @add_scalar_in_place(
// LOOPS-NOT:     memref.alloc
// LOOPS-COUNT-1: linalg.generic
// LOOPS-NOT:     linalg.generic
// LOOPS:         return
func.func @add_scalar_in_place(%a: !ptensor.ptensor<?xf32>, %s: f32) {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<?xf32>, f32) -> !ptensor.ptensor<?xf32>
  ptensor.write %0 into %a : !ptensor.ptensor<?xf32>
  return
}

// -----

// Static shapes, two tensors: a = a * b in place.
// LOOPS-LABEL: func.func @multiply_in_place(
// LOOPS-NOT:     memref.alloc
// LOOPS-COUNT-1: linalg.generic
// LOOPS-NOT:     linalg.generic
// LOOPS:         return
func.func @multiply_in_place(%a: !ptensor.ptensor<4x3xf32>, %b: !ptensor.ptensor<4x3xf32>) {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<4x3xf32>, !ptensor.ptensor<4x3xf32>) -> !ptensor.ptensor<4x3xf32>
  ptensor.write %0 into %a : !ptensor.ptensor<4x3xf32>
  return
}

// -----

// a = flip(a) + b: element i reads element n-1-i, which an in-place loop
// would already have overwritten; one-shot bufferize copies the flipped
// input to a temporary first (a second loop), then adds into `a`.
// CHECK-LABEL: llvm.func @write_flipped_into_source(
// CHECK:         llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.fadd
// CHECK:         llvm.call @ptensor_rt_host_free
// LOOPS-LABEL: func.func @write_flipped_into_source(
// LOOPS:         %[[T:.*]] = memref.alloc
// LOOPS:         linalg.generic {{.*}} outs(%[[T]]
// LOOPS-NEXT:      ^bb0
// LOOPS-NEXT:      linalg.yield
// LOOPS:         linalg.generic {{.*}} outs(%arg0
// LOOPS:           arith.addf
// LOOPS:         memref.dealloc %[[T]]
func.func @write_flipped_into_source(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<3xf32>) {
  %fa = ptensor.flip %a [0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
  %s = ptensor.elementwise_binary add %fa, %b : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<?x3xf32>
  ptensor.write %s into %a : !ptensor.ptensor<?x3xf32>
  return
}
