// RUN: ptensor-opt %s -canonicalize -split-input-file | FileCheck %s

// Each fold of PTensorFolds.cpp, followed by the cases that must not fold.

!f = !ptensor.ptensor<4x?xf32>

// CHECK-LABEL: func.func @cast_same_dtype(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<4x?xf32>
// CHECK-NEXT: return %[[A]]
func.func @cast_same_dtype(%a: !f) -> !f {
  %0 = ptensor.cast %a : !f -> !f
  return %0 : !f
}

// CHECK-LABEL: func.func @cast_other_dtype(
// CHECK: ptensor.cast
func.func @cast_other_dtype(%a: !f) -> !ptensor.ptensor<4x?xf16> {
  %0 = ptensor.cast %a : !f -> !ptensor.ptensor<4x?xf16>
  return %0 : !ptensor.ptensor<4x?xf16>
}

// -----

// CHECK-LABEL: func.func @copy_same_placement(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<4xf32, device = "cuda">
// CHECK-NEXT: return %[[A]]
func.func @copy_same_placement(%a: !ptensor.ptensor<4xf32, device = "cuda">) -> !ptensor.ptensor<4xf32, device = "cuda"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32, device = "cuda"> -> !ptensor.ptensor<4xf32, device = "cuda">
  return %0 : !ptensor.ptensor<4xf32, device = "cuda">
}

// CHECK-LABEL: func.func @copy_other_device(
// CHECK: ptensor.copy
func.func @copy_other_device(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32, device = "cuda"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32, device = "cuda">
  return %0 : !ptensor.ptensor<4xf32, device = "cuda">
}

// -----

// CHECK-LABEL: func.func @broadcast_own_shape(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<2x3xf32>
// CHECK-NEXT: return %[[A]]
func.func @broadcast_own_shape(%a: !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2x3xf32> {
  %0 = ptensor.broadcast %a to () : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3xf32>
  return %0 : !ptensor.ptensor<2x3xf32>
}

// A dynamic source dim of size 1 may be broadcast to a different size.
// CHECK-LABEL: func.func @broadcast_dynamic_shape(
// CHECK: ptensor.broadcast
func.func @broadcast_dynamic_shape(%a: !ptensor.ptensor<?xf32>, %n: index) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.broadcast %a to (%n) : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}

// CHECK-LABEL: func.func @broadcast_other_shape(
// CHECK: ptensor.broadcast
func.func @broadcast_other_shape(%a: !ptensor.ptensor<1x3xf32>) -> !ptensor.ptensor<2x3xf32> {
  %0 = ptensor.broadcast %a to () : !ptensor.ptensor<1x3xf32> -> !ptensor.ptensor<2x3xf32>
  return %0 : !ptensor.ptensor<2x3xf32>
}

// -----

!i = !ptensor.ptensor<?xi32>

// CHECK-LABEL: func.func @positive(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?xi32>
// CHECK-NEXT: return %[[A]]
func.func @positive(%a: !i) -> !i {
  %0 = ptensor.elementwise_unary positive %a : (!i) -> !i
  return %0 : !i
}

// CHECK-LABEL: func.func @double_negative(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?xi32>
// CHECK-NEXT: return %[[A]]
func.func @double_negative(%a: !i) -> !i {
  %0 = ptensor.elementwise_unary negative %a : (!i) -> !i
  %1 = ptensor.elementwise_unary negative %0 : (!i) -> !i
  return %1 : !i
}

// CHECK-LABEL: func.func @double_bitwise_invert(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?xi32>
// CHECK-NEXT: return %[[A]]
func.func @double_bitwise_invert(%a: !i) -> !i {
  %0 = ptensor.elementwise_unary bitwise_invert %a : (!i) -> !i
  %1 = ptensor.elementwise_unary bitwise_invert %0 : (!i) -> !i
  return %1 : !i
}

// CHECK-LABEL: func.func @single_negative(
// CHECK: ptensor.elementwise_unary negative
func.func @single_negative(%a: !i) -> !i {
  %0 = ptensor.elementwise_unary negative %a : (!i) -> !i
  return %0 : !i
}

// CHECK-LABEL: func.func @negative_of_invert(
// CHECK: ptensor.elementwise_unary bitwise_invert
// CHECK: ptensor.elementwise_unary negative
func.func @negative_of_invert(%a: !i) -> !i {
  %0 = ptensor.elementwise_unary bitwise_invert %a : (!i) -> !i
  %1 = ptensor.elementwise_unary negative %0 : (!i) -> !i
  return %1 : !i
}

// abs is not an involution.
// CHECK-LABEL: func.func @double_abs(
// CHECK-COUNT-2: ptensor.elementwise_unary abs
func.func @double_abs(%a: !i) -> !i {
  %0 = ptensor.elementwise_unary abs %a : (!i) -> !i
  %1 = ptensor.elementwise_unary abs %0 : (!i) -> !i
  return %1 : !i
}

// -----

!t = !ptensor.ptensor<2x?x4xf32>

// CHECK-LABEL: func.func @identity_permutation(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<2x?x4xf32>
// CHECK-NEXT: return %[[A]], %[[A]]
func.func @identity_permutation(%a: !t) -> (!t, !t) {
  %0 = ptensor.permute_dims %a [0, 1, 2] : !t -> !t
  %1 = ptensor.permute_dims %a [-3, 1, -1] : !t -> !t
  return %0, %1 : !t, !t
}

// CHECK-LABEL: func.func @other_permutation(
// CHECK: ptensor.permute_dims %{{.*}} [0, 2, 1]
func.func @other_permutation(%a: !t) -> !ptensor.ptensor<2x4x?xf32> {
  %0 = ptensor.permute_dims %a [0, 2, 1] : !t -> !ptensor.ptensor<2x4x?xf32>
  return %0 : !ptensor.ptensor<2x4x?xf32>
}

// -----

!t = !ptensor.ptensor<2x?x4xf32>

// CHECK-LABEL: func.func @double_flip(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<2x?x4xf32>
// CHECK-NEXT: return %[[A]], %[[A]]
func.func @double_flip(%a: !t) -> (!t, !t) {
  %0 = ptensor.flip %a [0, 2] : !t -> !t
  %1 = ptensor.flip %0 [0, 2] : !t -> !t
  %2 = ptensor.flip %a [1, -1] : !t -> !t
  %3 = ptensor.flip %2 [2, 1] : !t -> !t
  return %1, %3 : !t, !t
}

// CHECK-LABEL: func.func @flip_no_axes(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<2x?x4xf32>
// CHECK-NEXT: return %[[A]]
func.func @flip_no_axes(%a: !t) -> !t {
  %0 = ptensor.flip %a [] : !t -> !t
  return %0 : !t
}

// CHECK-LABEL: func.func @flip_other_axes(
// CHECK: ptensor.flip %{{.*}} [0]
// CHECK: ptensor.flip %{{.*}} [0, 1]
func.func @flip_other_axes(%a: !t) -> !t {
  %0 = ptensor.flip %a [0] : !t -> !t
  %1 = ptensor.flip %0 [0, 1] : !t -> !t
  return %1 : !t
}

// -----

// CHECK-LABEL: func.func @dim(
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[D1:.*]] = ptensor.dim %{{.*}}, 1
// CHECK: return %[[C2]], %[[D1]], %[[C0]]
func.func @dim(%a: !ptensor.ptensor<2x?x0xf32>) -> (index, index, index) {
  %0 = ptensor.dim %a, 0 : !ptensor.ptensor<2x?x0xf32>
  %1 = ptensor.dim %a, 1 : !ptensor.ptensor<2x?x0xf32>
  %2 = ptensor.dim %a, 2 : !ptensor.ptensor<2x?x0xf32>
  return %0, %1, %2 : index, index, index
}
