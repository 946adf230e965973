// RUN: ptensor-opt %s --convert-ptensor-to-linalg --canonicalize | FileCheck %s

// take along axis 1 of a ?x8 source: the indices outside [-8, 8) are
// counted first (count_true) and must be none; then one parallel generic
// over the result reads the index of its column, counts a negative one
// from the end, and extracts the source's element at (row, index).
// CHECK: #[[COLUMN:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @take(
// CHECK-SAME: %[[X:.*]]: tensor<?x8xf32>, %[[I:.*]]: tensor<?xi32>
// CHECK: %[[FLAGS:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<?xi32>) outs(%{{.*}} : tensor<?xi1>)
// CHECK: %[[W:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.cmpi slt, %[[W]], %c-8_i64 : i64
// CHECK: arith.cmpi sge, %[[W]], %c8_i64 : i64
// CHECK: %[[BAD:.*]] = ptensor.count_true %[[FLAGS]] : tensor<?xi1>
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[BAD]], %c0 : index
// CHECK: cf.assert %[[NONE]], "take: an index is out of range
// CHECK: %[[ROWS:.*]] = tensor.dim %[[X]], %c0 : tensor<?x8xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[I]], %c0 : tensor<?xi32>
// CHECK: %[[E:.*]] = tensor.empty(%[[ROWS]], %[[N]]) : tensor<?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[COLUMN]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[I]] : tensor<?xi32>) outs(%[[E]] : tensor<?x?xf32>)
// CHECK: %[[AT:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[AT]], %c0_i64 : i64
// CHECK: %[[FROM_END:.*]] = arith.addi %[[AT]], %c8_i64 : i64
// CHECK: %[[WRAPPED:.*]] = arith.select %[[NEG]], %[[FROM_END]], %[[AT]] : i64
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COL:.*]] = arith.index_cast %[[WRAPPED]] : i64 to index
// CHECK: %[[V:.*]] = tensor.extract %[[X]][%[[ROW]], %[[COL]]] : tensor<?x8xf32>
// CHECK: linalg.yield %[[V]] : f32
func.func @take(%x: !ptensor.ptensor<?x8xf32>, %i: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.take %x, %i axis 1 : (!ptensor.ptensor<?x8xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}

// Unsigned indices have no negative range: compared unsigned against the
// size only (a ui64 past 2^63 is not read as a negative index).
// CHECK-LABEL: func.func @take_unsigned(
// CHECK: arith.cmpi uge, %{{.*}}, %{{.*}} : i64
// CHECK-NOT: arith.cmpi slt
// CHECK: ptensor.count_true
func.func @take_unsigned(%v: !ptensor.ptensor<?xf64>, %i: !ptensor.ptensor<4xui64>) -> !ptensor.ptensor<4xf64> {
  %0 = ptensor.take %v, %i : (!ptensor.ptensor<?xf64>, !ptensor.ptensor<4xui64>) -> !ptensor.ptensor<4xf64>
  return %0 : !ptensor.ptensor<4xf64>
}
