// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline --mlir-print-ir-after=ptensor-coalesce-dims -o /dev/null 2>&1 | FileCheck %s
// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline="parallel=true" --mlir-print-ir-after=ptensor-coalesce-dims -o /dev/null 2>&1 | FileCheck %s

// The CPU pipeline's layout decisions after bufferization: static size-1
// dims are gone (linalg-fold-unit-extent-dims on tensors), and every
// elementwise loop nest has a contiguous fast path over one flat loop,
// taken when the run-time strides of all operands are row-major (size-1
// dims ignored), next to the strided loop nest.

// CHECK-LABEL: func.func @add3(
// CHECK-SAME:    %[[A:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[B:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>)
// CHECK:         %[[O:.*]] = memref.alloc({{.*}}) {{.*}} : memref<?x?x?xf32>
// CHECK:         scf.if %{{.*}} {
// CHECK-DAG:       %[[FA:.*]] = memref.reinterpret_cast %{{.*}} to {{.*}} : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-DAG:       %[[FB:.*]] = memref.reinterpret_cast %{{.*}} to {{.*}} : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-DAG:       %[[FO:.*]] = memref.reinterpret_cast %[[O]] to {{.*}} : memref<?x?x?xf32> to memref<?xf32, strided<[1]>>
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[FA]], %[[FB]] : {{.*}}) outs(%[[FO]] : {{.*}})
// CHECK:             arith.addf
// CHECK:         } else {
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK:             arith.addf
// CHECK:         } {ptensor.contiguous_fast_path}
func.func @add3(%a: !ptensor.ptensor<?x?x?xf32>, %b: !ptensor.ptensor<?x?x?xf32>) -> !ptensor.ptensor<?x?x?xf32> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x?x?xf32>, !ptensor.ptensor<?x?x?xf32>) -> !ptensor.ptensor<?x?x?xf32>
  return %0 : !ptensor.ptensor<?x?x?xf32>
}

// The size-1 dim of 4x1x8 is dropped (rank-reducing subview, no copy);
// the flat fast path covers 32 elements.
// CHECK-LABEL: func.func @unit_dim(
// CHECK-NOT:     memref.copy
// CHECK:         %[[O:.*]] = memref.alloc() {{.*}} : memref<4x1x8xf32>
// CHECK-DAG:     memref.subview %arg0[0, 0, 0] [4, 1, 8] [1, 1, 1] : memref<4x1x8xf32, strided<[?, ?, ?], offset: ?>> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// CHECK-DAG:     memref.subview %arg1[0, 0, 0] [4, 1, 8] [1, 1, 1] : memref<4x1x8xf32, strided<[?, ?, ?], offset: ?>> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// CHECK:         scf.if %{{.*}} {
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel"]} ins({{.*}} : memref<32xf32, strided<[1], offset: ?>>, memref<32xf32, strided<[1], offset: ?>>) outs({{.*}} : memref<32xf32, strided<[1]>>)
// CHECK:         } else {
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK:         } {ptensor.contiguous_fast_path}
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @unit_dim(%a: !ptensor.ptensor<4x1x8xf32>, %b: !ptensor.ptensor<4x1x8xf32>) -> !ptensor.ptensor<4x1x8xf32> {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<4x1x8xf32>, !ptensor.ptensor<4x1x8xf32>) -> !ptensor.ptensor<4x1x8xf32>
  return %0 : !ptensor.ptensor<4x1x8xf32>
}
