// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per message of the contractions' type inference
// (ptensor/Semantics/Contraction.cpp).

func.func @matmul_0d(%a: !ptensor.ptensor<f32>, %b: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{matmul needs operands of rank 1 or more, but got shapes [] and [3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<f32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @matmul_bool(%a: !ptensor.ptensor<2x3xi1>, %b: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{matmul needs numeric operands, but got i1 and f32}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<2x3xi1>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<2xf32>
  return
}

// -----

func.func @matmul_mismatch(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<4x5xf32>) {
  // expected-error @below {{matmul: contracted dimensions differ: dimension 1 of shape [2, 3] has size 3 and dimension 0 of shape [4, 5] has size 4}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<2x5xf32>
  return
}

// -----

func.func @matmul_batch(%a: !ptensor.ptensor<2x4x3xf32>, %b: !ptensor.ptensor<5x3x4xf32>) {
  // expected-error @below {{matmul: the batch dimensions of shapes [2, 4, 3] and [5, 3, 4] do not broadcast (cannot broadcast shapes [2] and [5]: sizes 2 and 5 of dimension -1 (right-aligned) differ and neither is 1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<2x4x3xf32>, !ptensor.ptensor<5x3x4xf32>) -> !ptensor.ptensor<5x4x4xf32>
  return
}

// -----

func.func @matmul_dtypes(%a: !ptensor.ptensor<2x3xui64>, %b: !ptensor.ptensor<3xi64>) {
  // expected-error @below {{ui64}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<2x3xui64>, !ptensor.ptensor<3xi64>) -> !ptensor.ptensor<2xi64>
  return
}

// -----

func.func @matmul_device(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32, device = "cuda:0">) {
  // expected-error @below {{operands must be on the same device, but got host and "cuda:0"}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3xf32, device = "cuda:0">) -> !ptensor.ptensor<2xf32>
  return
}

// -----

func.func @matmul_result(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{failed to infer returned types}}
  // expected-error @below {{'ptensor.matmul' op inferred type(s) '!ptensor.ptensor<2xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<3xf32>'}}
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @vecdot_axis(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{vecdot: axis -2 is out of range for shapes [2, 3] and [3] (expected -1 to -1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.vecdot %a, %b {axis = -2 : i64} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @vecdot_axis_positive(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{vecdot: axis 2 is out of range for shapes [2, 3] and [2, 3] (expected -2 to -1, or 0 to 1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.vecdot %a, %b {axis = 2 : i64} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2xf32>
  return
}

// -----

// Found by scripts/fuzz-mlir.py under UBSan: the range check negated the
// axis, which overflows for INT64_MIN.
func.func @vecdot_axis_min(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{vecdot: axis -9223372036854775808 is out of range for shapes [2, 3] and [2, 3] (expected -2 to -1, or 0 to 1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.vecdot %a, %b {axis = -9223372036854775808 : i64} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2xf32>
  return
}

// -----

func.func @vecdot_0d(%a: !ptensor.ptensor<f32>, %b: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{vecdot needs operands of rank 1 or more, but got shapes [] and [3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.vecdot %a, %b : (!ptensor.ptensor<f32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @vecdot_mismatch(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<1xf32>) {
  // expected-error @below {{vecdot: contracted dimensions differ: dimension 1 of shape [2, 3] has size 3 and dimension 0 of shape [1] has size 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.vecdot %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<1xf32>) -> !ptensor.ptensor<2xf32>
  return
}

// -----

func.func @vecdot_broadcast(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<4x3xf32>) {
  // expected-error @below {{vecdot: shapes [2, 3] and [4, 3] do not broadcast outside the contracted axis (cannot broadcast shapes [2, 1] and [4, 1]: sizes 2 and 4 of dimension -2 (right-aligned) differ and neither is 1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.vecdot %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<4x3xf32>) -> !ptensor.ptensor<2xf32>
  return
}

// -----

func.func @tensordot_lengths(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3x2xf32>) {
  // expected-error @below {{tensordot: the two axis lists must have the same length, but got 2 and 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64: 0, 1>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3x2xf32>) -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @tensordot_range(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3x2xf32>) {
  // expected-error @below {{tensordot: axis -3 of x1 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64: -3>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3x2xf32>) -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @tensordot_twice(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3x3xf32>) {
  // expected-error @below {{tensordot: axis -2 of x2 is given twice}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64: 0, 1>, rhs_axes = array<i64: 0, -2>} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3x3xf32>) -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @tensordot_mismatch(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3x2xf32>) {
  // expected-error @below {{tensordot: contracted dimensions differ: dimension 0 of shape [2, 3] has size 2 and dimension 0 of shape [3, 2] has size 3}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64: 0>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3x2xf32>) -> !ptensor.ptensor<3x2xf32>
  return
}

