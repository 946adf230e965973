// RUN: ptensor-opt %s -canonicalize | FileCheck %s

// The attribute ops fold to constants when the type says the answer.

// CHECK-LABEL: func.func @attributes(
func.func @attributes(%a: !ptensor.ptensor<4x6xf32>, %b: !ptensor.ptensor<4x?xf32>)
    -> (index, index, index, index, index, index) {
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
  // CHECK-DAG: %[[C24:.*]] = arith.constant 24 : index
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
  // CHECK-DAG: %[[N:.*]] = ptensor.size %{{.*}} : !ptensor.ptensor<4x?xf32>
  // CHECK-DAG: %[[S:.*]]:2 = ptensor.shape %{{.*}} : !ptensor.ptensor<4x?xf32>
  // CHECK: return %[[C4]], %[[C6]], %[[C24]], %[[C2]], %[[N]], %[[S]]#1
  %m, %n = ptensor.shape %a : !ptensor.ptensor<4x6xf32>
  %s = ptensor.size %a : !ptensor.ptensor<4x6xf32>
  %r = ptensor.rank %b : !ptensor.ptensor<4x?xf32>
  %t = ptensor.size %b : !ptensor.ptensor<4x?xf32>
  %u:2 = ptensor.shape %b : !ptensor.ptensor<4x?xf32>
  return %m, %n, %s, %r, %t, %u#1 : index, index, index, index, index, index
}
