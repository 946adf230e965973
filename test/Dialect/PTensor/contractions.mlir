// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result types of matmul, vecdot and tensordot (ptensor/Semantics/
// Contraction.h): each op is written with the type the rules give; the
// verifier rejects any other (contractions-invalid.mlir).

// CHECK-LABEL: func.func @matmul(
func.func @matmul(%a: !ptensor.ptensor<4x8xf32>, %b: !ptensor.ptensor<8x5xf32>,
                  %v: !ptensor.ptensor<8xf32>, %s: !ptensor.ptensor<3x1x4x8xf16>,
                  %t: !ptensor.ptensor<?x8x?xf16>, %i: !ptensor.ptensor<8x2xi8>) {
  // CHECK: ptensor.matmul {{.*}} -> !ptensor.ptensor<4x5xf32>
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<4x8xf32>, !ptensor.ptensor<8x5xf32>) -> !ptensor.ptensor<4x5xf32>
  // A 1-D rhs is a column, a 1-D lhs a row; their dim is removed.
  // CHECK: ptensor.matmul {{.*}} -> !ptensor.ptensor<4xf32>
  %1 = ptensor.matmul %a, %v : (!ptensor.ptensor<4x8xf32>, !ptensor.ptensor<8xf32>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.matmul {{.*}} -> !ptensor.ptensor<5xf32>
  %2 = ptensor.matmul %v, %b : (!ptensor.ptensor<8xf32>, !ptensor.ptensor<8x5xf32>) -> !ptensor.ptensor<5xf32>
  // CHECK: ptensor.matmul {{.*}} -> !ptensor.ptensor<f32>
  %3 = ptensor.matmul %v, %v : (!ptensor.ptensor<8xf32>, !ptensor.ptensor<8xf32>) -> !ptensor.ptensor<f32>
  // Batch dims broadcast (3x1 with ?: 3x?).
  // CHECK: ptensor.matmul {{.*}} -> !ptensor.ptensor<3x?x4x?xf16>
  %4 = ptensor.matmul %s, %t : (!ptensor.ptensor<3x1x4x8xf16>, !ptensor.ptensor<?x8x?xf16>) -> !ptensor.ptensor<3x?x4x?xf16>
  // CHECK: ptensor.matmul {{.*}} -> !ptensor.ptensor<4x2xf32>
  %5 = ptensor.matmul %a, %i : (!ptensor.ptensor<4x8xf32>, !ptensor.ptensor<8x2xi8>) -> !ptensor.ptensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @vecdot(
func.func @vecdot(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<3xf32>,
                  %c: !ptensor.ptensor<3x4xi32>, %d: !ptensor.ptensor<2x1x4xi64>) {
  // CHECK: ptensor.vecdot {{.*}} -> !ptensor.ptensor<?xf32>
  %0 = ptensor.vecdot %a, %b : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.vecdot {{.*}} {axis = -2 : i64} {{.*}} -> !ptensor.ptensor<3xf32>
  %1 = ptensor.vecdot %a, %a {axis = -2 : i64} : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<3xf32>
  // CHECK: ptensor.vecdot {{.*}} -> !ptensor.ptensor<2x3xi64>
  %2 = ptensor.vecdot %c, %d : (!ptensor.ptensor<3x4xi32>, !ptensor.ptensor<2x1x4xi64>) -> !ptensor.ptensor<2x3xi64>
  // A non-negative axis when the ranks are equal.
  // CHECK: ptensor.vecdot {{.*}} {axis = 0 : i64} {{.*}} -> !ptensor.ptensor<3xf32>
  %3 = ptensor.vecdot %a, %a {axis = 0 : i64} : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<3xf32>
  return
}

// CHECK-LABEL: func.func @tensordot(
func.func @tensordot(%a: !ptensor.ptensor<2x3x4xf64>, %b: !ptensor.ptensor<3x4x5xf64>) {
  // CHECK: ptensor.tensordot {{.*}} -> !ptensor.ptensor<2x5xf64>
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64: 1, 2>, rhs_axes = array<i64: 0, 1>} : (!ptensor.ptensor<2x3x4xf64>, !ptensor.ptensor<3x4x5xf64>) -> !ptensor.ptensor<2x5xf64>
  // No axes: the outer product.
  // CHECK: ptensor.tensordot {{.*}} -> !ptensor.ptensor<2x3x4x3x4x5xf64>
  %1 = ptensor.tensordot %a, %b {lhs_axes = array<i64>, rhs_axes = array<i64>} : (!ptensor.ptensor<2x3x4xf64>, !ptensor.ptensor<3x4x5xf64>) -> !ptensor.ptensor<2x3x4x3x4x5xf64>
  // Negative axes count from the end.
  // CHECK: ptensor.tensordot {{.*}} -> !ptensor.ptensor<2x4x4x5xf64>
  %2 = ptensor.tensordot %a, %b {lhs_axes = array<i64: -2>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<2x3x4xf64>, !ptensor.ptensor<3x4x5xf64>) -> !ptensor.ptensor<2x4x4x5xf64>
  return
}
