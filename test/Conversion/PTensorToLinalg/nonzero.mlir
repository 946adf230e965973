// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// nonzero on the host (CompactionToLinalg.cpp): a loop nest counts the
// elements whose truth value is true (floats: `une 0`, so NaN counts and
// -0.0 does not), one i64 tensor per dim is made with the count, and a
// second loop nest stores the loop indices of the true elements at the
// next row, carrying the results and the row.
// CHECK-LABEL: func.func @nonzero(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[M:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[COUNT:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[M]]
// CHECK: %[[X:.*]] = tensor.extract %[[A]][%[[I]], %[[J]]]
// CHECK: %[[T:.*]] = arith.cmpf une, %[[X]], %{{.*}} : f32
// CHECK: arith.select %[[T]]
// CHECK: %[[ROWS:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi64>
// CHECK: %[[COLS:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi64>
// CHECK: %[[OUT:.*]]:3 = scf.for %[[I2:.*]] = {{.*}} iter_args(%{{.*}} = %[[ROWS]], %{{.*}} = %[[COLS]], %{{.*}} = %{{.*}})
// CHECK: scf.for %[[J2:.*]] = {{.*}} iter_args(%[[R:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[ROW:.*]] = %{{.*}})
// CHECK: scf.if
// CHECK: %[[I64:.*]] = arith.index_cast %[[I2]] : index to i64
// CHECK: tensor.insert %[[I64]] into %[[R]][%[[ROW]]]
// CHECK: %[[J64:.*]] = arith.index_cast %[[J2]] : index to i64
// CHECK: tensor.insert %[[J64]] into %[[C]][%[[ROW]]]
// CHECK: arith.addi %[[ROW]], %{{.*}} : index
// CHECK: return %[[OUT]]#0, %[[OUT]]#1
func.func @nonzero(%a: !ptensor.ptensor<?x4xf32>) -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>) {
  %r:2 = ptensor.nonzero %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>)
  return %r#0, %r#1 : !ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>
}
