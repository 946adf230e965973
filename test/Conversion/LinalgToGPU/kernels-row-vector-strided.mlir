// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu | FileCheck %s

// The row-vector path writes outputs that are boxes of a larger buffer (a
// concat's part: unit stride along rows, a row stride larger than the row):
// the run-time test asks for a unit innermost stride, row strides that are
// a multiple of the vector width and an aligned first element, and the
// vector stores go through a view whose type has the unit innermost stride.

// CHECK-LABEL: func.func @copy_into_box(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[OUT:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>
// The row-vector path follows the tiled path's launch (its else-branch):
// CHECK:         workgroup(
// CHECK:         } else {
// CHECK:           %{{.*}}, %[[OFF:.*]], %[[SIZES:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[OUT]]
// CHECK:           %[[UNIT:.*]] = arith.cmpi eq, %[[ST]]#1, %{{.*}}
// CHECK:           %[[REST:.*]] = arith.remsi %[[ST]]#0, %{{.*}}
// CHECK:           %[[WHOLE:.*]] = arith.cmpi eq, %[[REST]], %{{.*}}
// CHECK:           arith.andi %[[UNIT]], %[[WHOLE]]
// CHECK:           %[[ROWS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[OFF]]], sizes: [%[[SIZES]]#0, %[[SIZES]]#1], strides: [%[[ST]]#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:           gpu.launch
// CHECK-NOT:       workgroup(
// CHECK:             vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
func.func @copy_into_box(%in: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32, strided<[?, ?], offset: ?>>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
