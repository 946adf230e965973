// A chain of elementwise ops on dynamic shapes (passes in the order of
// ptensor-to-cpu-pipeline: broadcast views before the promotion casts) (run-time broadcast checks,
// an i32 input promoted to f32, a weak scalar) fuses into exactly one
// linalg.generic: one loop nest.
// RUN: ptensor-opt %s --ptensor-layout --ptensor-broadcast --ptensor-promote-types --convert-ptensor-to-linalg --ptensor-fuse-elementwise | FileCheck %s

// CHECK-LABEL: func.func @chain_dynamic
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain_dynamic(%a: !ptensor.ptensor<?x?xf32>, %i: !ptensor.ptensor<?xi32>, %s: f32) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.elementwise_binary add %a, %i : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
  %1 = ptensor.elementwise_unary sin %0 : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %2 = ptensor.elementwise_binary multiply %1, %s : (!ptensor.ptensor<?x?xf32>, f32) -> !ptensor.ptensor<?x?xf32>
  %3 = ptensor.elementwise_unary square %2 : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %4 = ptensor.elementwise_binary maximum %3, %a : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %5 = ptensor.elementwise_unary negative %4 : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %5 : !ptensor.ptensor<?x?xf32>
}
