// RUN: ptensor-opt %s --ptensor-simplify-powers | FileCheck %s

// A square is a product, a first power the operand itself; other constant
// exponents (a cube, a square root) and variable ones keep powf.
// CHECK-LABEL: func.func @powers(
// CHECK-SAME:    %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[V:.*]]: vector<4xf64>
// CHECK:         %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:         %[[CUBE:.*]] = math.powf %[[X]], %{{.*}} : f32
// CHECK:         %[[ROOT:.*]] = math.powf %[[X]], %{{.*}} : f32
// CHECK:         %[[VAR:.*]] = math.powf %[[X]], %[[Y]] : f32
// CHECK:         %[[VSQ:.*]] = arith.mulf %[[V]], %[[V]] : vector<4xf64>
// CHECK:         return %[[SQ]], %[[X]], %[[CUBE]], %[[ROOT]], %[[VAR]], %[[VSQ]]
func.func @powers(%x: f32, %y: f32, %v: vector<4xf64>) -> (f32, f32, f32, f32, f32, vector<4xf64>) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %half = arith.constant 0.5 : f32
  %vtwo = arith.constant dense<2.0> : vector<4xf64>
  %0 = math.powf %x, %two : f32
  %1 = math.powf %x, %one : f32
  %2 = math.powf %x, %three : f32
  %3 = math.powf %x, %half : f32
  %4 = math.powf %x, %y : f32
  %5 = math.powf %v, %vtwo : vector<4xf64>
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, vector<4xf64>
}
