// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Broadcasting: statically known broadcasts are indexing maps (constant 0
// for a size-1 dim, dropped leading dims), never copies; a broadcast whose
// source has dynamic sizes is a zero-stride view with run-time checks.

// Implicit broadcast inside one op: 4x1 reads (d0, 0), 5 reads (d1).
// CHECK-DAG:   #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @implicit_static(
// CHECK-SAME:    %[[A:.*]]: tensor<4x1xf32>, %[[B:.*]]: tensor<5xf32>) -> tensor<4x5xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<4x1xf32>, tensor<5xf32>) outs(%[[E]] : tensor<4x5xf32>)
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @implicit_static(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32>
  return %c : !ptensor.ptensor<4x5xf32>
}

// -----

// A rank-0 operand reads through a map with no results.
// CHECK-DAG:   #[[NONE:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @rank0_operand(
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[NONE]], #{{.*}}]
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<?x3xf32>, tensor<f32>)
func.func @rank0_operand(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<f32>) -> !ptensor.ptensor<?x3xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<f32>) -> !ptensor.ptensor<?x3xf32>
  return %c : !ptensor.ptensor<?x3xf32>
}

// -----

// An explicit ptensor.broadcast of a static source is a copy-shaped generic
// (which fusion folds into its consumers): the leading dim is dropped from
// the map and the size-1 dim reads index 0.
// CHECK-DAG:   #[[SRC:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG:   #[[DST:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @static_broadcast_generic(
// CHECK-SAME:    %[[A:.*]]: tensor<4x1xf32>) -> tensor<2x4x5xf32>
// CHECK-NOT:     ptensor.strided_view
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x4x5xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[SRC]], #[[DST]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[A]] : tensor<4x1xf32>) outs(%[[E]] : tensor<2x4x5xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK:         return %[[R]]
func.func @static_broadcast_generic(%a: !ptensor.ptensor<4x1xf32>) -> !ptensor.ptensor<2x4x5xf32> {
  %0 = ptensor.broadcast %a to () : !ptensor.ptensor<4x1xf32> -> !ptensor.ptensor<2x4x5xf32>
  return %0 : !ptensor.ptensor<2x4x5xf32>
}

// -----

// A static source broadcast to a dynamic size still is a generic; the
// dynamic size comes from the broadcast's operand.
// CHECK-DAG:   #[[ZERO:.*]] = affine_map<(d0) -> (0)>
// CHECK-LABEL: func.func @static_source_dynamic_target(
// CHECK-SAME:    %[[A:.*]]: tensor<1xi64>, %[[N:.*]]: index)
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           func.call @ptensor_rt_size_failed
// CHECK:         }
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK:         linalg.generic {indexing_maps = [#[[ZERO]], #{{.*}}]
// CHECK-SAME:      ins(%[[A]] : tensor<1xi64>) outs(%[[E]] : tensor<?xi64>)
func.func @static_source_dynamic_target(%a: !ptensor.ptensor<1xi64>, %n: index) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.broadcast %a to (%n) : !ptensor.ptensor<1xi64> -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}

// -----

// A dynamic source: a view of the source buffer with stride 0 for the new
// leading dim and for every source dim of size 1 (select), after a check
// that no requested size is negative (ptensor_rt_size_failed, op 2:
// broadcast_to) and one run-time check that each source size is 1 or the
// target size; when it fails, both shapes (real sizes) go to the runtime's
// ptensor_rt_broadcast_failed, declared once per module.
// CHECK-LABEL: func.func private @ptensor_rt_broadcast_failed(memref<?xi64>, memref<?xi64>)
// CHECK-LABEL: func.func @dynamic_broadcast_view(
// CHECK-SAME:    %[[A:.*]]: tensor<?x4xf32>, %[[N:.*]]: index) -> tensor<3x?x4xf32>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[BUF]]
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:         arith.ori %[[NEG]], %{{.*}} : i1
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[REQ:.*]] = memref.alloca() : memref<3xi64>
// CHECK:           %[[REQD:.*]] = memref.cast %[[REQ]] : memref<3xi64> to memref<?xi64>
// CHECK:           %[[KIND:.*]] = arith.constant 2 : i64
// CHECK:           %[[WIDTH:.*]] = arith.constant 4 : i64
// CHECK:           func.call @ptensor_rt_size_failed(%[[REQD]], %[[KIND]], %[[WIDTH]], %{{.*}})
// CHECK:         }
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[IS1:.*]] = arith.cmpi eq, %[[SIZES]]#0, %[[ONE]] : index
// CHECK:         %[[ISN:.*]] = arith.cmpi eq, %[[SIZES]]#0, %[[N]] : index
// CHECK:         %[[OK0:.*]] = arith.ori %[[IS1]], %[[ISN]] : i1
// CHECK:         %[[ALL0:.*]] = arith.andi %{{.*}}, %[[OK0]] : i1
// CHECK:         %[[IS1B:.*]] = arith.cmpi eq, %[[SIZES]]#1, %[[ONE]] : index
// CHECK:         %[[IS4:.*]] = arith.cmpi eq, %[[SIZES]]#1, %[[C4]] : index
// CHECK:         %[[OK1:.*]] = arith.ori %[[IS1B]], %[[IS4]] : i1
// CHECK:         %[[ALL:.*]] = arith.andi %[[ALL0]], %[[OK1]] : i1
// CHECK:         %[[BAD:.*]] = arith.xori %[[ALL]], %{{.*}} : i1
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[SRC:.*]] = memref.alloca() : memref<2xi64>
// CHECK:           memref.store %{{.*}}, %[[SRC]][%{{.*}}] : memref<2xi64>
// CHECK:           memref.store %{{.*}}, %[[SRC]][%{{.*}}] : memref<2xi64>
// CHECK:           %[[SRCD:.*]] = memref.cast %[[SRC]] : memref<2xi64> to memref<?xi64>
// CHECK:           %[[DST:.*]] = memref.alloca() : memref<3xi64>
// CHECK:           %[[DSTD:.*]] = memref.cast %[[DST]] : memref<3xi64> to memref<?xi64>
// CHECK:           func.call @ptensor_rt_broadcast_failed(%[[SRCD]], %[[DSTD]])
// CHECK:         }
// CHECK:         %[[S0:.*]] = arith.select %{{.*}}, %{{.*}}, %[[STRIDES]]#0 : index
// CHECK:         %[[S1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[STRIDES]]#1 : index
// CHECK:         %[[T:.*]] = ptensor.strided_view %[[A]] to offset: %[[OFF]], sizes: [%[[N]]], strides: [%{{.*}}, %[[S0]], %[[S1]]]
// CHECK-SAME:      : tensor<?x4xf32> to tensor<3x?x4xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[T]]
func.func @dynamic_broadcast_view(%a: !ptensor.ptensor<?x4xf32>, %n: index) -> !ptensor.ptensor<3x?x4xf32> {
  %0 = ptensor.broadcast %a to (%n) : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<3x?x4xf32>
  return %0 : !ptensor.ptensor<3x?x4xf32>
}

// -----

// The output of ptensor-broadcast on dynamic operands: views, then one
// generic reading both with identity maps.
// CHECK-LABEL: func.func @dynamic_after_broadcast_pass(
// CHECK:         func.call @ptensor_rt_broadcast_failed
// CHECK:         %[[VA:.*]] = ptensor.strided_view
// CHECK:         func.call @ptensor_rt_broadcast_failed
// CHECK:         %[[VB:.*]] = ptensor.strided_view
// CHECK:         linalg.generic {{.*}} ins(%[[VA]], %[[VB]] : tensor<?xf32>, tensor<?xf32>)
func.func @dynamic_after_broadcast_pass(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>, %n: index) -> !ptensor.ptensor<?xf32> {
  %ba = ptensor.broadcast %a to (%n) : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  %bb = ptensor.broadcast %b to (%n) : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  %c = ptensor.elementwise_binary add %ba, %bb : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}

// -----

// Hand-written IR with equal dynamic shapes (no ptensor-broadcast): the
// operands' sizes are checked against each other at run time instead of
// reading out of bounds.
// CHECK-LABEL: func.func @unchecked_dynamic_operands(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK:         %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?xf32>
// CHECK:         %[[NB:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?xf32>
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[NB]], %[[N]] : index
// CHECK:         cf.assert %[[SAME]], "ptensor: operand sizes of an elementwise op differ at run time
// CHECK:         tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         linalg.generic
func.func @unchecked_dynamic_operands(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}
