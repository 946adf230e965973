// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Sizes given at run time are checked before anything is allocated: one
// `slt 0` per dynamic size, or-ed, and on failure the runtime's
// ptensor_rt_size_failed gets the whole requested shape (static sizes as
// constants) and the op (semantics::SizedOp: 1 eye, 3 reshape).

// CHECK-LABEL: func.func private @ptensor_rt_size_failed(memref<?xi64>, i64)
// CHECK-LABEL: func.func @eye(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[NN:.*]] = arith.cmpi slt, %[[N]], %[[Z]] : index
// CHECK:         %[[MN:.*]] = arith.cmpi slt, %[[M]], %[[Z]] : index
// CHECK:         %[[ANY:.*]] = arith.ori %[[NN]], %[[MN]] : i1
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[REQ:.*]] = memref.alloca() : memref<2xi64>
// CHECK:           %[[REQD:.*]] = memref.cast %[[REQ]] : memref<2xi64> to memref<?xi64>
// CHECK:           %[[KIND:.*]] = arith.constant 1 : i64
// CHECK:           func.call @ptensor_rt_size_failed(%[[REQD]], %[[KIND]])
// CHECK:         }
// CHECK:         tensor.empty(%[[N]], %[[M]]) : tensor<?x?xf32>
func.func @eye(%n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.eye (%n, %m) : !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}

// -----

// reshape: the -1 (inferred) is a constant of the requested shape, not
// checked; the run-time size is.
// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf32>, %[[N:.*]]: index)
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK-NOT:     arith.ori
// CHECK:         scf.if %[[NEG]] {
// CHECK:           %[[MINUS1:.*]] = arith.constant -1 : index
// CHECK:           %[[REQ:.*]] = memref.alloca() : memref<2xi64>
// CHECK:           arith.index_cast %[[N]] : index to i64
// CHECK:           arith.index_cast %[[MINUS1]] : index to i64
// CHECK:           %[[KIND:.*]] = arith.constant 3 : i64
// CHECK:           func.call @ptensor_rt_size_failed(%{{.*}}, %[[KIND]])
// CHECK:         }
func.func @reshape(%a: !ptensor.ptensor<?xf32>, %n: index) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.reshape %a [%n, -1] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}

// -----

// Static sizes only: no check and no declaration.
// CHECK-NOT:   ptensor_rt_size_failed
// CHECK-LABEL: func.func @static_eye(
// CHECK-NOT:   ptensor_rt_size_failed
func.func @static_eye() -> !ptensor.ptensor<3x4xf32> {
  %0 = ptensor.eye () offset 1 : !ptensor.ptensor<3x4xf32>
  return %0 : !ptensor.ptensor<3x4xf32>
}
