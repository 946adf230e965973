// RUN: ptensor-opt %s --ptensor-tanh-sums | FileCheck %s

// 1 + tanh(u) (either order) is 2 / (1 + exp(-2u)) and 1 - tanh(u) is
// 2 / (1 + exp(2u)) (an approximate division: the denominator is at least
// 1), scalars and vectors alike; a tanh with another user
// stays for it, and sums with other constants or tanh - 1 are left.
// CHECK-LABEL: func.func @sums(
// CHECK-SAME:    %[[U:.*]]: f32, %[[V:.*]]: vector<4xf64>, %[[W:.*]]: f32
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[MTWO:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG:     %[[VTWO:.*]] = arith.constant dense<2.000000e+00> : vector<4xf64>
// CHECK-DAG:     %[[VONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf64>
// CHECK-DAG:     %[[VMTWO:.*]] = arith.constant dense<-2.000000e+00> : vector<4xf64>
// CHECK:         %[[T4:.*]] = math.tanh %[[U]] : f32
// CHECK:         %[[S0:.*]] = arith.mulf %[[U]], %[[MTWO]] : f32
// CHECK:         %[[E0:.*]] = math.exp %[[S0]] : f32
// CHECK:         %[[D0:.*]] = arith.addf %[[E0]], %[[ONE]] : f32
// CHECK:         %[[R0:.*]] = arith.divf %[[TWO]], %[[D0]] fastmath<afn> : f32
// CHECK:         %[[S1:.*]] = arith.mulf %[[V]], %[[VMTWO]] : vector<4xf64>
// CHECK:         %[[E1:.*]] = math.exp %[[S1]] : vector<4xf64>
// CHECK:         %[[D1:.*]] = arith.addf %[[E1]], %[[VONE]] : vector<4xf64>
// CHECK:         %[[R1:.*]] = arith.divf %[[VTWO]], %[[D1]] fastmath<afn> : vector<4xf64>
// CHECK:         %[[S2:.*]] = arith.mulf %[[U]], %[[TWO]] : f32
// CHECK:         %[[E2:.*]] = math.exp %[[S2]] : f32
// CHECK:         %[[D2:.*]] = arith.addf %[[E2]], %[[ONE]] : f32
// CHECK:         %[[R2:.*]] = arith.divf %[[TWO]], %[[D2]] fastmath<afn> : f32
// CHECK:         %[[T3:.*]] = math.tanh %[[W]] : f32
// CHECK:         arith.mulf %[[W]], %[[MTWO]] : f32
// CHECK:         %[[R3:.*]] = arith.divf %[[TWO]], %{{.*}} fastmath<afn> : f32
// CHECK:         %[[R4:.*]] = arith.addf %[[T4]], %[[TWO]] : f32
// CHECK:         %[[R5:.*]] = arith.subf %[[T4]], %[[ONE]] : f32
// CHECK:         return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[T3]], %[[R4]], %[[R5]]
func.func @sums(%u: f32, %v: vector<4xf64>, %w: f32) -> (f32, vector<4xf64>, f32, f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %vone = arith.constant dense<1.0> : vector<4xf64>
  %t = math.tanh %u : f32
  %0 = arith.addf %one, %t : f32
  %tv = math.tanh %v : vector<4xf64>
  %1 = arith.addf %tv, %vone : vector<4xf64>
  %2 = arith.subf %one, %t : f32
  %tw = math.tanh %w : f32
  %3 = arith.addf %tw, %one : f32
  %4 = arith.addf %t, %two : f32
  %5 = arith.subf %t, %one : f32
  return %0, %1, %2, %3, %tw, %4, %5 : f32, vector<4xf64>, f32, f32, f32, f32, f32
}

// GELU's tanh form, 0.5 * x * (1 + tanh(0.7978845 * s)), becomes
// x / (1 + exp(-1.5957691 * s)): the -2 joins the constant factor of u
// (one product), and 0.5 * x times 2 / d is x / d (two products less);
// both are exact scalings by powers of two.
// CHECK-LABEL: func.func @gelu(
// CHECK-SAME:    %[[X:.*]]: f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[C:.*]] = arith.constant -1.59576917 : f32
// CHECK:         %[[S:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %[[S]], %[[C]] : f32
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT:    %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.divf %[[X]], %[[D]] fastmath<afn> : f32
// CHECK-NEXT:    return %[[R]]
func.func @gelu(%x: f32) -> f32 {
  %c0 = arith.constant 0.7978845608028654 : f32
  %c1 = arith.constant 0.044715 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %x2 = arith.mulf %x, %x : f32
  %x3 = arith.mulf %x2, %x : f32
  %k = arith.mulf %c1, %x3 : f32
  %s = arith.addf %x, %k : f32
  %u = arith.mulf %c0, %s : f32
  %t = math.tanh %u : f32
  %p = arith.addf %one, %t : f32
  %hx = arith.mulf %half, %x : f32
  %r = arith.mulf %hx, %p : f32
  return %r : f32
}

// Left: a scale whose product with the numerator is not 1, a division
// that is not approximate, and one with another user.
// CHECK-LABEL: func.func @scaled_quotients_left(
// CHECK-SAME:    %[[X:.*]]: f32, %[[D:.*]]: f32
// CHECK:         %[[Q:.*]] = arith.divf %{{.*}}, %[[D]] fastmath<afn> : f32
// CHECK:         %[[H:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK:         %[[R0:.*]] = arith.mulf %{{.*}}, %[[Q]] : f32
// CHECK:         %[[P:.*]] = arith.divf %{{.*}}, %[[D]] : f32
// CHECK:         %[[R1:.*]] = arith.mulf %[[H]], %[[P]] : f32
// CHECK:         %[[S:.*]] = arith.divf %{{.*}}, %[[D]] fastmath<afn> : f32
// CHECK:         %[[R2:.*]] = arith.mulf %[[H]], %[[S]] : f32
// CHECK:         return %[[R0]], %[[R1]], %[[R2]], %[[S]]
func.func @scaled_quotients_left(%x: f32, %d: f32) -> (f32, f32, f32, f32) {
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %q = arith.divf %two, %d fastmath<afn> : f32
  %hx = arith.mulf %half, %x : f32
  %qx = arith.mulf %quarter, %x : f32
  %0 = arith.mulf %qx, %q : f32
  %p = arith.divf %two, %d : f32
  %1 = arith.mulf %hx, %p : f32
  %s = arith.divf %two, %d fastmath<afn> : f32
  %2 = arith.mulf %hx, %s : f32
  return %0, %1, %2, %s : f32, f32, f32, f32
}

// The factor folds in the operand's element type, splats too (f16: -2 *
// 0.75 = -1.5); where -2c overflows (f16: -2 * 40000) the two products
// stay.
// CHECK-LABEL: func.func @factors(
// CHECK-SAME:    %[[S:.*]]: vector<4xf16>, %[[T:.*]]: f16
// CHECK-DAG:     %[[F:.*]] = arith.constant dense<-1.500000e+00> : vector<4xf16>
// CHECK-DAG:     %[[BIG:.*]] = arith.constant 4.000000e+04 : f16
// CHECK-DAG:     %[[MTWO:.*]] = arith.constant -2.000000e+00 : f16
// CHECK:         %[[A:.*]] = arith.mulf %[[S]], %[[F]] : vector<4xf16>
// CHECK-NEXT:    math.exp %[[A]] : vector<4xf16>
// CHECK:         %[[U:.*]] = arith.mulf %[[T]], %[[BIG]] : f16
// CHECK:         %[[B:.*]] = arith.mulf %[[U]], %[[MTWO]] : f16
// CHECK-NEXT:    math.exp %[[B]] : f16
func.func @factors(%s: vector<4xf16>, %t: f16) -> (vector<4xf16>, f16) {
  %c = arith.constant dense<0.75> : vector<4xf16>
  %vone = arith.constant dense<1.0> : vector<4xf16>
  %u = arith.mulf %s, %c : vector<4xf16>
  %tu = math.tanh %u : vector<4xf16>
  %0 = arith.addf %vone, %tu : vector<4xf16>
  %big = arith.constant 40000.0 : f16
  %one = arith.constant 1.0 : f16
  %w = arith.mulf %t, %big : f16
  %tw = math.tanh %w : f16
  %1 = arith.addf %one, %tw : f16
  return %0, %1 : vector<4xf16>, f16
}
