// RUN: ptensor-opt %s -split-input-file | ptensor-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: ptensor-opt %s -split-input-file --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=fully-dynamic-layout-map" --canonicalize | FileCheck %s

// ptensor.strided_write (the lowering of ptensor.write) bufferizes in place
// into its destination's buffer: a copy, or nothing when empty-tensor
// elimination let the value's producer write there.

#map = affine_map<(d0) -> (d0)>
// ROUND-LABEL: func.func @in_place(
// ROUND:         ptensor.strided_write %{{.*}} into %{{.*}} : tensor<?xf32> into tensor<?xf32>
// CHECK-LABEL: func.func @in_place(
// CHECK-SAME:    %[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : {{.*}}) outs(%[[A]] :
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @in_place(%a: tensor<?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %v = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  %w = ptensor.strided_write %v into %a : tensor<?xf32> into tensor<?xf32>
  return
}

// -----

// Into a view (every other element): the producer writes through a
// reinterpret_cast of the destination; no allocation, no copy.
#map = affine_map<(d0) -> (d0)>
// ROUND-LABEL: func.func @into_view(
// ROUND:         ptensor.strided_write %{{.*}} into %{{.*}} to offset: %{{.*}}, sizes: [], strides: [%{{.*}}] : tensor<3xf32> into tensor<6xf32>
// CHECK-LABEL: func.func @into_view(
// CHECK-SAME:    %[[A:.*]]: memref<6xf32, strided<[?], offset: ?>>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[A]]
// CHECK:         linalg.generic {{.*}} outs(%[[V]] :
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @into_view(%a: tensor<6xf32>, %b: tensor<3xf32>, %o: index, %st: index) {
  %e = tensor.empty() : tensor<3xf32>
  %v = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%b : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<3xf32>
  %w = ptensor.strided_write %v into %a to offset: %o, sizes: [], strides: [%st] : tensor<3xf32> into tensor<6xf32>
  return
}

// -----

// A value that is not computed in place is copied into the view.
// CHECK-LABEL: func.func @copy_into_view(
// CHECK-SAME:    %[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[B:.*]]: memref<?xf32, strided<[?], offset: ?>>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [%{{.*}}]
// CHECK:         memref.copy %[[B]], %[[V]]
func.func @copy_into_view(%a: tensor<?xf32>, %b: tensor<?xf32>, %o: index, %n: index, %st: index) {
  %w = ptensor.strided_write %b into %a to offset: %o, sizes: [%n], strides: [%st] : tensor<?xf32> into tensor<?xf32>
  return
}
