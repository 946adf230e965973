// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu="strided-paths=0" | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu | FileCheck %s --check-prefix=EVERY

// strided-paths=0 (for callers whose operands are contiguous) compiles two
// launches per elementwise generic: the flat vector path where it applies,
// or else the row-vector path, then one general path with 64-bit indices
// (index-typed loop) for whatever the run-time tests refuse. By default
// (EVERY) the tiled transpose path (a kernel for interior tiles with
// vector accesses, one for the rest) and the general path's 32-bit variant
// are there too.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @same_shape(
// The flat vector path:
// CHECK:         gpu.launch
// CHECK-NOT:       workgroup(
// CHECK:           vector.load
// CHECK:           vector.store
// CHECK:         } else {
// and the general path, in 64-bit indices only:
// CHECK-NOT:       scf.if
// CHECK:           gpu.launch
// CHECK:             scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:         vector.store
// CHECK:             memref.store
// CHECK-NOT:     gpu.launch
// CHECK:         return

// EVERY-LABEL: func.func @same_shape(
// EVERY-COUNT-6: gpu.launch
// EVERY-NOT:     gpu.launch
// EVERY:         return
func.func @same_shape(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row broadcast is no flat-vector candidate: the row-vector path and the
// 64-bit general path.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @row_broadcast(
// CHECK:         gpu.launch
// CHECK:           vector.store %{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:         } else {
// CHECK-NOT:       scf.if
// CHECK:           gpu.launch
// CHECK:             scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     gpu.launch
// CHECK:         return

// EVERY-LABEL: func.func @row_broadcast(
// EVERY-COUNT-4: gpu.launch
// EVERY-NOT:     gpu.launch
// EVERY:         return
func.func @row_broadcast(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?xf32, strided<[?], offset: ?>>, %out: memref<?x?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
