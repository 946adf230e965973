// A chain of elementwise ops (with broadcasting, a promotion to f32, a weak
// scalar and a select) fuses into exactly one linalg.generic: one loop nest.
// fused_chain.py checks the values of the same chain.
// RUN: ptensor-opt %s --ptensor-promote-types --ptensor-layout --ptensor-broadcast --convert-ptensor-to-linalg --ptensor-fuse-elementwise | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<5xf16>, %c: !ptensor.ptensor<4x5xf32>, %s: f32) -> !ptensor.ptensor<4x5xf32> {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf16>) -> !ptensor.ptensor<4x5xf32>
  %1 = ptensor.elementwise_binary add %0, %c : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  %2 = ptensor.elementwise_unary tanh %1 : (!ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  %3 = ptensor.elementwise_unary abs %a : (!ptensor.ptensor<4x1xf32>) -> !ptensor.ptensor<4x1xf32>
  %4 = ptensor.elementwise_unary sqrt %3 : (!ptensor.ptensor<4x1xf32>) -> !ptensor.ptensor<4x1xf32>
  %5 = ptensor.elementwise_binary multiply %4, %s : (!ptensor.ptensor<4x1xf32>, f32) -> !ptensor.ptensor<4x1xf32>
  %6 = ptensor.elementwise_binary subtract %2, %5 : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x1xf32>) -> !ptensor.ptensor<4x5xf32>
  %7 = ptensor.elementwise_binary_test greater %6, %s : (!ptensor.ptensor<4x5xf32>, f32) -> !ptensor.ptensor<4x5xi1>
  %8 = ptensor.elementwise_unary exp %6 : (!ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  %9 = ptensor.where %7, %6, %8 : (!ptensor.ptensor<4x5xi1>, !ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  return %9 : !ptensor.ptensor<4x5xf32>
}
