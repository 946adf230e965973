// RUN: ptensor-opt %s -split-input-file --ptensor-copies-to-linalg | FileCheck %s

// ptensor-copies-to-linalg: memref.copy becomes a copy-shaped
// linalg.generic (identity maps, parallel loops, body yields the input),
// keeping both operands' layouts.

// CHECK-DAG:   #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @strided_copy(
// CHECK-SAME:    %[[SRC:.*]]: memref<4x?xf32, strided<[?, ?], offset: ?>>, %[[DST:.*]]: memref<4x?xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[SRC]] : memref<4x?xf32, strided<[?, ?], offset: ?>>) outs(%[[DST]] : memref<4x?xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK-NOT:     memref.copy
func.func @strided_copy(%a: memref<4x?xf32, strided<[?, ?], offset: ?>>, %b: memref<4x?xf32>) {
  memref.copy %a, %b : memref<4x?xf32, strided<[?, ?], offset: ?>> to memref<4x?xf32>
  return
}

// -----

// Into a strided destination (an out= operand keeps its strides).
// CHECK-LABEL: func.func @into_strided(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%arg0 : memref<2x3x4xi8>) outs(%arg1 : memref<2x3x4xi8, strided<[1, 8, 2], offset: 3>>)
// CHECK:           linalg.yield %{{.*}} : i8
func.func @into_strided(%a: memref<2x3x4xi8>, %b: memref<2x3x4xi8, strided<[1, 8, 2], offset: 3>>) {
  memref.copy %a, %b : memref<2x3x4xi8> to memref<2x3x4xi8, strided<[1, 8, 2], offset: 3>>
  return
}

// -----

// Rank 0: a generic without loops.
// CHECK-DAG:   #[[ID0:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @rank0(
// CHECK:         linalg.generic {indexing_maps = [#[[ID0]], #[[ID0]]], iterator_types = []}
// CHECK-SAME:      ins(%arg0 : memref<f64>) outs(%arg1 : memref<f64, strided<[], offset: ?>>)
func.func @rank0(%a: memref<f64>, %b: memref<f64, strided<[], offset: ?>>) {
  memref.copy %a, %b : memref<f64> to memref<f64, strided<[], offset: ?>>
  return
}

// -----

// Several copies in nested regions are all converted.
// CHECK-LABEL: func.func @nested(
// CHECK-NOT:     memref.copy
// CHECK:         scf.if
// CHECK:           linalg.generic
// CHECK:         } else {
// CHECK:           linalg.generic
// CHECK-NOT:     memref.copy
func.func @nested(%c: i1, %a: memref<8xf32>, %b: memref<8xf32>) {
  scf.if %c {
    memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  } else {
    memref.copy %b, %a : memref<8xf32> to memref<8xf32>
  }
  return
}
