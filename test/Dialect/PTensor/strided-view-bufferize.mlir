// RUN: ptensor-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=fully-dynamic-layout-map" | FileCheck %s

// ptensor.strided_view (the lowering of the ptensor views) bufferizes to a
// memref.reinterpret_cast of its source's buffer, and one-shot analysis
// knows that the view aliases the source.

// A view of a function argument: no allocation, no copy.
// CHECK-LABEL: func.func @view_of_argument(
// CHECK-SAME:    %[[A:.*]]: memref<5x6xf32, strided<[?, ?], offset: ?>>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[A]] to offset: [%{{[a-z_0-9]+}}], sizes: [6, 5], strides: [%{{[a-z_0-9#]+}}, %{{[a-z_0-9#]+}}]
// CHECK-SAME:      to memref<6x5xf32, strided<[?, ?], offset: ?>>
// CHECK:         return %[[V]]
func.func @view_of_argument(%a: tensor<5x6xf32>) -> tensor<6x5xf32> {
  %m = bufferization.to_buffer %a read_only : tensor<5x6xf32> to memref<5x6xf32, strided<[?, ?], offset: ?>>
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<5x6xf32, strided<[?, ?], offset: ?>> -> memref<f32>, index, index, index, index, index
  %v = ptensor.strided_view %a to offset: %off, sizes: [], strides: [%strides#1, %strides#0] : tensor<5x6xf32> to tensor<6x5xf32>
  return %v : tensor<6x5xf32>
}

// -----

// The regression: a transposed view of a computed tensor whose tensor.empty
// is shared (after CSE) with a second computation. The view keeps the first
// buffer alive, so the second generic gets its own allocation instead of
// overwriting what the view returns.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @view_of_computed(
// CHECK:         %[[X:.*]] = memref.alloc() {{.*}} : memref<5x6xf32>
// CHECK:         %[[Y:.*]] = memref.alloc() {{.*}} : memref<5x6xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[Y]] : memref<5x6xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[Y]]
// CHECK:         linalg.generic {{.*}} outs(%[[X]] : memref<5x6xf32>)
// CHECK:           arith.addf
// CHECK:         %[[S:.*]] = memref.cast %[[X]]
// CHECK:         return %[[V]], %[[S]]
func.func @view_of_computed(%a: tensor<5x6xf32>) -> (tensor<6x5xf32>, tensor<5x6xf32>) {
  %e = tensor.empty() : tensor<5x6xf32>
  %p = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<5x6xf32>
  %m = bufferization.to_buffer %p read_only : tensor<5x6xf32> to memref<5x6xf32, strided<[?, ?], offset: ?>>
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<5x6xf32, strided<[?, ?], offset: ?>> -> memref<f32>, index, index, index, index, index
  %v = ptensor.strided_view %p to offset: %off, sizes: [], strides: [%strides#1, %strides#0] : tensor<5x6xf32> to tensor<6x5xf32>
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<5x6xf32>
  return %v, %s : tensor<6x5xf32>, tensor<5x6xf32>
}

// -----

// Once the view's last reader has run, the source's buffer is reused in
// place: the view costs no allocation when it does not need one.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @view_dead_before_reuse(
// CHECK:         %[[P:.*]] = memref.alloc() {{.*}} : memref<5x6xf32>
// CHECK:           arith.mulf
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[P]]
// CHECK:         %[[T:.*]] = memref.alloc() {{.*}} : memref<5x6xf32>
// CHECK:         linalg.transpose ins(%[[V]] {{.*}} outs(%[[T]]
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : memref<5x6xf32>) outs(%[[P]] : memref<5x6xf32>)
// CHECK:           arith.addf
func.func @view_dead_before_reuse(%a: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %e = tensor.empty() : tensor<5x6xf32>
  %p = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<5x6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %v = ptensor.strided_view %p to offset: %c0, sizes: [], strides: [%c1, %c6] : tensor<5x6xf32> to tensor<6x5xf32>
  %e2 = tensor.empty() : tensor<5x6xf32>
  %t = linalg.transpose ins(%v : tensor<6x5xf32>) outs(%e2 : tensor<5x6xf32>) permutation = [1, 0]
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<5x6xf32>
  return %s : tensor<5x6xf32>
}
