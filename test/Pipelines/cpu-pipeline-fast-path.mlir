// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline --mlir-print-ir-after=ptensor-coalesce-dims -o /dev/null 2>&1 | FileCheck %s
// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline="parallel=true" --mlir-print-ir-after=ptensor-coalesce-dims -o /dev/null 2>&1 | FileCheck %s
// Without reorder-loops: the contiguity versions alone, a row-major result.
// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline="reorder-loops=false" --mlir-print-ir-after=ptensor-coalesce-dims -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOREORDER
// NOREORDER-LABEL: func.func @add3(
// NOREORDER-NOT:     memref.reinterpret_cast %alloc{{.*}} to offset: [0], sizes: [%{{.*}}, %{{.*}}, %{{.*}}]
// NOREORDER-NOT:     ptensor.reversed_loop_order
// NOREORDER:         } {ptensor.contiguous_fast_path}
// NOREORDER-NOT:     ptensor.reversed_loop_order

// The CPU pipeline's layout decisions after bufferization: static size-1
// dims are gone (linalg-fold-unit-extent-dims on tensors), the fresh output
// follows the inputs' run-time order (a view of the allocation with
// row-major or column-major strides), and every elementwise loop nest is
// versioned on its run-time loop order (logical or reversed) and, inside
// each, on contiguity: a fast path over one flat loop next to the strided
// loop nest.

// CHECK-DAG:   #[[$REV:.*]] = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
// CHECK-LABEL: func.func @add3(
// CHECK-SAME:    %[[A:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[B:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>)
// CHECK:         %[[ALLOC:.*]] = memref.alloc({{.*}}) {{.*}} : memref<?x?x?xf32>
// CHECK:         %[[O:.*]] = memref.reinterpret_cast %[[ALLOC]] to offset: [0], sizes: [{{.*}}], strides: [{{.*}}] : memref<?x?x?xf32> to memref<?x?x?xf32, strided<[?, ?, ?]>>
// CHECK:         scf.if %{{.*}} {
// CHECK:           scf.if %{{.*}} {
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK:           } else {
// CHECK:             linalg.generic {indexing_maps = [#[[$REV]], #[[$REV]], #[[$REV]]], iterator_types = ["parallel", "parallel", "parallel"]} {{.*}} outs(%[[O]] :
// CHECK:           } {ptensor.contiguous_fast_path}
// CHECK:         } else {
// CHECK:           scf.if %{{.*}} {
// CHECK-DAG:         %[[FA:.*]] = memref.reinterpret_cast %{{.*}} to {{.*}} : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-DAG:         %[[FB:.*]] = memref.reinterpret_cast %{{.*}} to {{.*}} : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-DAG:         %[[FO:.*]] = memref.reinterpret_cast %[[O]] to {{.*}} : memref<?x?x?xf32, strided<[?, ?, ?]>> to memref<?xf32, strided<[1]>>
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[FA]], %[[FB]] : {{.*}}) outs(%[[FO]] : {{.*}})
// CHECK:               arith.addf
// CHECK:           } else {
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} {{.*}} outs(%[[O]] :
// CHECK:               arith.addf
// CHECK:           } {ptensor.contiguous_fast_path}
// CHECK:         } {ptensor.reversed_loop_order}
// CHECK:         %[[R:.*]] = memref.cast %[[O]]
// CHECK:         return %[[R]]
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
