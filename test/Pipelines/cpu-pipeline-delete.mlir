// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline --mlir-print-ir-after=ptensor-release-deleted -o /dev/null 2>&1 | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-to-nvvm-pipeline --mlir-print-ir-after=ptensor-release-deleted -o /dev/null 2>&1 | FileCheck %s

// ptensor.delete frees a temporary where it stands: the row sums' buffer is
// freed before the tanh's result is allocated, not at the end of the
// function with the others.

!m = !ptensor.ptensor<?x?xf64>
!v = !ptensor.ptensor<?xf64>
!s = !ptensor.ptensor<f64>

// CHECK-LABEL: func.func @row_sums_deleted(
// CHECK:         %[[SUMS:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?xf64>
// CHECK:         linalg.generic {{.*}} outs(%[[SUMS]] : memref<?xf64>)
// CHECK:         %[[MAX:.*]] = memref.alloc() {{.*}} : memref<f64>
// CHECK:         linalg.generic {{.*}} ins(%[[SUMS]] : memref<?xf64>) outs(%[[MAX]] : memref<f64>)
// CHECK:         memref.dealloc %[[SUMS]] : memref<?xf64>
// CHECK-NOT:     ptensor.release_buffer
// CHECK:         %[[TANH:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {{.*}} : memref<?x?xf64>
// CHECK-NOT:     memref.dealloc %[[SUMS]] :
// CHECK:         return
func.func @row_sums_deleted(%a: !m) -> !m {
  %t = ptensor.reduce sum %a axes [1] : !m -> !v
  %s = ptensor.reduce max %t : !v -> !s
  ptensor.delete %t : !v
  %u = ptensor.elementwise_unary tanh %a : (!m) -> !m
  %r = ptensor.elementwise_binary add %u, %s : (!m, !s) -> !m
  return %r : !m
}

// -----

// f32 row sums accumulate in an f64 buffer whose cast to f32 is fused into
// the max: deleting the sums frees that buffer.
!m = !ptensor.ptensor<?x?xf32>
!v = !ptensor.ptensor<?xf32>
!s = !ptensor.ptensor<f32>

// CHECK-LABEL: func.func @fused_cast_deleted(
// CHECK:         %[[ACC:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?xf64>
// CHECK:         linalg.generic {{.*}} ins(%[[ACC]] : memref<?xf64>)
// CHECK:         memref.dealloc %[[ACC]] : memref<?xf64>
// CHECK:         memref.alloc(%{{.*}}, %{{.*}}) {{.*}} : memref<?x?xf32>
// CHECK-NOT:     memref.dealloc %[[ACC]] :
// CHECK:         return
func.func @fused_cast_deleted(%a: !m) -> !m {
  %t = ptensor.reduce sum %a axes [1] : !m -> !v
  %s = ptensor.reduce max %t : !v -> !s
  ptensor.delete %t : !v
  %u = ptensor.elementwise_unary tanh %a : (!m) -> !m
  %r = ptensor.elementwise_binary add %u, %s : (!m, !s) -> !m
  return %r : !m
}
