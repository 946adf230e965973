// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline --mlir-print-ir-after=ptensor-copies-to-linalg -o /dev/null 2>&1 | FileCheck %s

// Copies fuse with their elementwise neighbours and views stay views
// through bufferization: the product is computed straight into its box of
// the concat's result (no temporary), and a reshape with copy = false is a
// memref.reinterpret_cast of the argument read by the negation.

// CHECK-LABEL: func.func @concat_of_product(
// CHECK:         %[[R:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {{.*}} : memref<?x?xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[LEFT:.*]] = memref.subview %[[R]][0, 0]
// CHECK:         linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%[[LEFT]] :
// CHECK:           arith.mulf
// CHECK:         %[[RIGHT:.*]] = memref.subview %[[R]][0, %{{.*}}]
// CHECK:         linalg.generic {{.*}} ins(%arg1 : {{.*}}) outs(%[[RIGHT]] :
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @concat_of_product(%a: !ptensor.ptensor<?x?xf32>, %b: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %p = ptensor.elementwise_binary multiply %a, %a : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %c = ptensor.combine concat %p, %b axis 1 : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %c : !ptensor.ptensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @view(
// CHECK:         cf.assert %{{.*}}, "ptensor: reshape with copy=False
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %arg0
// CHECK:         %[[OUT:.*]] = memref.alloc
// CHECK:         linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[OUT]] :
// CHECK:           arith.negf
func.func @view(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.reshape %a [-1] {copy = false} : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
  %d = ptensor.elementwise_unary negative %c : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %d : !ptensor.ptensor<?xf32>
}
