// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Sizes given at run time are checked before anything is allocated: per
// size, `slt 0` (negative) and whether the bytes so far exceed 2^62 divided
// by the size (0 counted as 1; no multiplication can overflow unnoticed;
// folded as built, so static sizes add no ops);
// on failure the runtime's ptensor_rt_size_failed gets the whole requested
// shape (static sizes as constants), the op (semantics::SizedOp: 1 eye,
// 3 reshape) and the element size.

// CHECK-LABEL: func.func private @ptensor_rt_size_failed(memref<?xi64>, i64, i64, i64)
// CHECK-LABEL: func.func @eye(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 4611686018427387904 : index
// CHECK-DAG:     %[[F32:.*]] = arith.constant 4 : index
// CHECK:         %[[NEXT:.*]] = arith.maxsi %[[N]], %[[ONE]] : index
// CHECK:         %[[NROOM:.*]] = arith.divui %[[LIMIT]], %[[NEXT]] : index
// CHECK:         %[[NBIG:.*]] = arith.cmpi ult, %[[NROOM]], %[[F32]] : index
// CHECK:         %[[NNEG:.*]] = arith.cmpi slt, %[[N]], %[[Z]] : index
// CHECK:         %[[NBAD:.*]] = arith.ori %[[NNEG]], %[[NBIG]] : i1
// CHECK:         %[[BYTES:.*]] = arith.muli %[[NEXT]], %[[F32]] : index
// CHECK:         %[[MEXT:.*]] = arith.maxsi %[[M]], %[[ONE]] : index
// CHECK:         %[[MROOM:.*]] = arith.divui %[[LIMIT]], %[[MEXT]] : index
// CHECK:         %[[MBIG:.*]] = arith.cmpi ugt, %[[BYTES]], %[[MROOM]] : index
// CHECK:         %[[MNEG:.*]] = arith.cmpi slt, %[[M]], %[[Z]] : index
// CHECK:         %[[MBAD:.*]] = arith.ori %[[MNEG]], %[[MBIG]] : i1
// CHECK:         %[[ANY:.*]] = arith.ori %[[NBAD]], %[[MBAD]] : i1
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[REQ:.*]] = memref.alloca() : memref<2xi64>
// CHECK:           %[[REQD:.*]] = memref.cast %[[REQ]] : memref<2xi64> to memref<?xi64>
// CHECK:           %[[KIND:.*]] = arith.constant 1 : i64
// CHECK:           %[[WIDTH:.*]] = arith.constant 4 : i64
// CHECK:           %[[NONE:.*]] = arith.constant -1 : i64
// CHECK:           func.call @ptensor_rt_size_failed(%[[REQD]], %[[KIND]], %[[WIDTH]], %[[NONE]])
// CHECK:         }
// CHECK:         tensor.empty(%[[N]], %[[M]]) : tensor<?x?xf32>
func.func @eye(%n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.eye (%n, %m) : !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}

// -----

// reshape: the -1 (inferred) is a constant of the requested shape, counted
// as 1; the run-time size is checked, and the runtime is told which size is
// the inferred one (1), so that a run-time -1 at dimension 0 is named.
// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf32>, %[[N:.*]]: index)
// CHECK-NOT:     arith.cmpi slt, %c-1
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[MINUS1:.*]] = arith.constant -1 : index
// CHECK:           %[[REQ:.*]] = memref.alloca() : memref<2xi64>
// CHECK:           arith.index_cast %[[N]] : index to i64
// CHECK:           arith.index_cast %[[MINUS1]] : index to i64
// CHECK:           %[[KIND:.*]] = arith.constant 3 : i64
// CHECK:           %[[INFERRED:.*]] = arith.constant 1 : i64
// CHECK:           func.call @ptensor_rt_size_failed(%{{.*}}, %[[KIND]], %{{.*}}, %[[INFERRED]])
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
