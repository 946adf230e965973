// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result types of elementwise ops, one function per rule of DESIGN.md
// (docs/Semantics.md). Every op is written with the result type the rules
// give; the verifier rejects any other (see invalid.mlir, "inferred type(s)
// ... are incompatible"), and FileCheck pins the type down.
// Operand notation in the comments: tensors by dtype, `s:` for a scalar.

// Same kind: the larger type; bool < i8 < ... < i64.
// CHECK-LABEL: func.func @same_kind(
func.func @same_kind(%a0: !ptensor.ptensor<4xi8>, %a1: !ptensor.ptensor<4xi32>, %a2: !ptensor.ptensor<4xi64>, %a3: !ptensor.ptensor<4xi16>, %a4: !ptensor.ptensor<4xi1>, %a5: !ptensor.ptensor<4xui8>, %a6: !ptensor.ptensor<4xui32>, %a7: !ptensor.ptensor<4xui64>, %a8: !ptensor.ptensor<4xui16>, %a9: !ptensor.ptensor<4xf16>, %a10: !ptensor.ptensor<4xf64>, %a11: !ptensor.ptensor<4xf32>, %a12: !ptensor.ptensor<4xbf16>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r1 = ptensor.elementwise_binary add %a2, %a3 : (!ptensor.ptensor<4xi64>, !ptensor.ptensor<4xi16>) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi8>
  %r2 = ptensor.elementwise_binary add %a4, %a0 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xui32>
  %r3 = ptensor.elementwise_binary add %a5, %a6 : (!ptensor.ptensor<4xui8>, !ptensor.ptensor<4xui32>) -> !ptensor.ptensor<4xui32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xui64>
  %r4 = ptensor.elementwise_binary add %a7, %a8 : (!ptensor.ptensor<4xui64>, !ptensor.ptensor<4xui16>) -> !ptensor.ptensor<4xui64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf64>
  %r5 = ptensor.elementwise_binary add %a9, %a10 : (!ptensor.ptensor<4xf16>, !ptensor.ptensor<4xf64>) -> !ptensor.ptensor<4xf64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r6 = ptensor.elementwise_binary add %a11, %a9 : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r7 = ptensor.elementwise_binary add %a12, %a11 : (!ptensor.ptensor<4xbf16>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi32>
  %r8 = ptensor.elementwise_binary add %a1, %a1 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32>
  return
}

// f16 with bf16 has no common 16-bit type: f32.
// CHECK-LABEL: func.func @f16_bf16(
func.func @f16_bf16(%a0: !ptensor.ptensor<4xf16>, %a1: !ptensor.ptensor<4xbf16>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xf16>, !ptensor.ptensor<4xbf16>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r1 = ptensor.elementwise_binary add %a1, %a0 : (!ptensor.ptensor<4xbf16>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf32>
  return
}

// Signed with unsigned: the smallest signed type holding both.
// CHECK-LABEL: func.func @signed_unsigned(
func.func @signed_unsigned(%a0: !ptensor.ptensor<4xui8>, %a1: !ptensor.ptensor<4xi8>, %a2: !ptensor.ptensor<4xi16>, %a3: !ptensor.ptensor<4xi64>, %a4: !ptensor.ptensor<4xui16>, %a5: !ptensor.ptensor<4xi32>, %a6: !ptensor.ptensor<4xui32>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi16>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xui8>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi16>
  %r1 = ptensor.elementwise_binary add %a1, %a0 : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi16>
  %r2 = ptensor.elementwise_binary add %a0, %a2 : (!ptensor.ptensor<4xui8>, !ptensor.ptensor<4xi16>) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r3 = ptensor.elementwise_binary add %a0, %a3 : (!ptensor.ptensor<4xui8>, !ptensor.ptensor<4xi64>) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi32>
  %r4 = ptensor.elementwise_binary add %a4, %a1 : (!ptensor.ptensor<4xui16>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi32>
  %r5 = ptensor.elementwise_binary add %a4, %a2 : (!ptensor.ptensor<4xui16>, !ptensor.ptensor<4xi16>) -> !ptensor.ptensor<4xi32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi32>
  %r6 = ptensor.elementwise_binary add %a5, %a4 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xui16>) -> !ptensor.ptensor<4xi32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r7 = ptensor.elementwise_binary add %a6, %a1 : (!ptensor.ptensor<4xui32>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r8 = ptensor.elementwise_binary add %a6, %a2 : (!ptensor.ptensor<4xui32>, !ptensor.ptensor<4xi16>) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r9 = ptensor.elementwise_binary add %a6, %a5 : (!ptensor.ptensor<4xui32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi64>
  return
}

// bool is below every integer type, unsigned included.
// CHECK-LABEL: func.func @bool_unsigned(
func.func @bool_unsigned(%a0: !ptensor.ptensor<4xi1>, %a1: !ptensor.ptensor<4xui8>, %a2: !ptensor.ptensor<4xui64>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xui8>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xui8>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xui64>
  %r1 = ptensor.elementwise_binary add %a2, %a0 : (!ptensor.ptensor<4xui64>, !ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xui64>
  return
}

// Three operands promote in any order; with a float tensor the integers
// do not matter (no ui64 + signed error).
// CHECK-LABEL: func.func @three_operands(
func.func @three_operands(%a0: !ptensor.ptensor<4xi1>, %a1: !ptensor.ptensor<4xui8>, %a2: !ptensor.ptensor<4xi8>, %a3: !ptensor.ptensor<4xui64>, %a4: !ptensor.ptensor<4xf16>) {
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xi16>
  %r0 = ptensor.where %a0, %a1, %a2 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xui8>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xi16>
  %r1 = ptensor.where %a0, %a2, %a1 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi8>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xf16>
  %r2 = ptensor.where %a0, %a3, %a4 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xui64>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xf16>
  %r3 = ptensor.where %a0, %a4, %a3 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf16>, !ptensor.ptensor<4xui64>) -> !ptensor.ptensor<4xf16>
  return
}

// Integer or bool with float: that float type (PyTorch).
// CHECK-LABEL: func.func @int_float(
func.func @int_float(%a0: !ptensor.ptensor<4xi64>, %a1: !ptensor.ptensor<4xf16>, %a2: !ptensor.ptensor<4xbf16>, %a3: !ptensor.ptensor<4xui64>, %a4: !ptensor.ptensor<4xi1>, %a5: !ptensor.ptensor<4xf32>, %a6: !ptensor.ptensor<4xi32>, %a7: !ptensor.ptensor<4xf64>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf16>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xi64>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xbf16>
  %r1 = ptensor.elementwise_binary add %a2, %a3 : (!ptensor.ptensor<4xbf16>, !ptensor.ptensor<4xui64>) -> !ptensor.ptensor<4xbf16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r2 = ptensor.elementwise_binary add %a4, %a5 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf64>
  %r3 = ptensor.elementwise_binary add %a6, %a7 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xf64>) -> !ptensor.ptensor<4xf64>
  return
}

// A float scalar with an integer or bool tensor gives f32.
// CHECK-LABEL: func.func @weak_float_scalar(
func.func @weak_float_scalar(%a0: !ptensor.ptensor<4xi32>, %a1: f32, %a2: f64, %a3: !ptensor.ptensor<4xi8>, %a4: !ptensor.ptensor<4xui64>, %a5: !ptensor.ptensor<4xi1>, %a6: f16) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xi32>, f32) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary subtract {{.*}} -> !ptensor.ptensor<4xf32>
  %r1 = ptensor.elementwise_binary subtract %a2, %a0 : (f64, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r2 = ptensor.elementwise_binary add %a3, %a2 : (!ptensor.ptensor<4xi8>, f64) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r3 = ptensor.elementwise_binary add %a4, %a2 : (!ptensor.ptensor<4xui64>, f64) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf32>
  %r4 = ptensor.elementwise_binary add %a5, %a6 : (!ptensor.ptensor<4xi1>, f16) -> !ptensor.ptensor<4xf32>
  return
}

// Any scalar with a tensor of its kind keeps the tensor type.
// CHECK-LABEL: func.func @weak_same_kind(
func.func @weak_same_kind(%a0: !ptensor.ptensor<4xi8>, %a1: i64, %a2: !ptensor.ptensor<4xui8>, %a3: index, %a4: !ptensor.ptensor<4xi16>, %a5: ui32, %a6: !ptensor.ptensor<4xf16>, %a7: f64, %a8: !ptensor.ptensor<4xbf16>, %a9: f32, %a10: i32, %a11: !ptensor.ptensor<4xi1>, %a12: i1) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi8>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xi8>, i64) -> !ptensor.ptensor<4xi8>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi8>
  %r1 = ptensor.elementwise_binary add %a1, %a0 : (i64, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xui8>
  %r2 = ptensor.elementwise_binary add %a2, %a3 : (!ptensor.ptensor<4xui8>, index) -> !ptensor.ptensor<4xui8>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi16>
  %r3 = ptensor.elementwise_binary add %a4, %a5 : (!ptensor.ptensor<4xi16>, ui32) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf16>
  %r4 = ptensor.elementwise_binary add %a6, %a7 : (!ptensor.ptensor<4xf16>, f64) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xbf16>
  %r5 = ptensor.elementwise_binary add %a8, %a9 : (!ptensor.ptensor<4xbf16>, f32) -> !ptensor.ptensor<4xbf16>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xf16>
  %r6 = ptensor.elementwise_binary add %a6, %a10 : (!ptensor.ptensor<4xf16>, i32) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.elementwise_binary bitwise_and {{.*}} -> !ptensor.ptensor<4xi1>
  %r7 = ptensor.elementwise_binary bitwise_and %a11, %a12 : (!ptensor.ptensor<4xi1>, i1) -> !ptensor.ptensor<4xi1>
  return
}

// An integer scalar with a bool tensor gives i64.
// CHECK-LABEL: func.func @weak_int_bool(
func.func @weak_int_bool(%a0: !ptensor.ptensor<4xi1>, %a1: i32, %a2: ui8, %a3: index) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4xi1>, i32) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4xi64>
  %r1 = ptensor.elementwise_binary add %a2, %a0 : (ui8, !ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.elementwise_binary bitwise_or {{.*}} -> !ptensor.ptensor<4xi64>
  %r2 = ptensor.elementwise_binary bitwise_or %a0, %a3 : (!ptensor.ptensor<4xi1>, index) -> !ptensor.ptensor<4xi64>
  return
}

// INT_TO_FLOAT kinds give f32 on integer dtypes and keep float dtypes.
// CHECK-LABEL: func.func @int_to_float(
func.func @int_to_float(%a0: !ptensor.ptensor<4xi32>, %a1: !ptensor.ptensor<4xui8>, %a2: !ptensor.ptensor<4xi64>, %a3: !ptensor.ptensor<4xf16>, %a4: !ptensor.ptensor<4xi8>, %a5: i64, %a6: !ptensor.ptensor<4xf64>, %a7: !ptensor.ptensor<4xui16>, %a8: !ptensor.ptensor<4xi16>) {
  // CHECK: ptensor.elementwise_unary exp {{.*}} -> !ptensor.ptensor<4xf32>
  %r0 = ptensor.elementwise_unary exp %a0 : (!ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_unary sqrt {{.*}} -> !ptensor.ptensor<4xf32>
  %r1 = ptensor.elementwise_unary sqrt %a1 : (!ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_unary sin {{.*}} -> !ptensor.ptensor<4xf32>
  %r2 = ptensor.elementwise_unary sin %a2 : (!ptensor.ptensor<4xi64>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_unary exp {{.*}} -> !ptensor.ptensor<4xf16>
  %r3 = ptensor.elementwise_unary exp %a3 : (!ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.elementwise_binary divide {{.*}} -> !ptensor.ptensor<4xf32>
  %r4 = ptensor.elementwise_binary divide %a0, %a0 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary divide {{.*}} -> !ptensor.ptensor<4xf32>
  %r5 = ptensor.elementwise_binary divide %a4, %a5 : (!ptensor.ptensor<4xi8>, i64) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.elementwise_binary divide {{.*}} -> !ptensor.ptensor<4xf16>
  %r6 = ptensor.elementwise_binary divide %a0, %a3 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.elementwise_binary divide {{.*}} -> !ptensor.ptensor<4xf64>
  %r7 = ptensor.elementwise_binary divide %a6, %a2 : (!ptensor.ptensor<4xf64>, !ptensor.ptensor<4xi64>) -> !ptensor.ptensor<4xf64>
  // CHECK: ptensor.elementwise_binary atan2 {{.*}} -> !ptensor.ptensor<4xf32>
  %r8 = ptensor.elementwise_binary atan2 %a7, %a8 : (!ptensor.ptensor<4xui16>, !ptensor.ptensor<4xi16>) -> !ptensor.ptensor<4xf32>
  return
}

// DEFAULT kinds keep integer dtypes.
// CHECK-LABEL: func.func @default_kinds(
func.func @default_kinds(%a0: !ptensor.ptensor<4xi8>, %a1: !ptensor.ptensor<4xi32>, %a2: !ptensor.ptensor<4xi1>, %a3: !ptensor.ptensor<4xui8>) {
  // CHECK: ptensor.elementwise_unary abs {{.*}} -> !ptensor.ptensor<4xi8>
  %r0 = ptensor.elementwise_unary abs %a0 : (!ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8>
  // CHECK: ptensor.elementwise_unary floor {{.*}} -> !ptensor.ptensor<4xi32>
  %r1 = ptensor.elementwise_unary floor %a1 : (!ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32>
  // CHECK: ptensor.elementwise_unary bitwise_invert {{.*}} -> !ptensor.ptensor<4xi1>
  %r2 = ptensor.elementwise_unary bitwise_invert %a2 : (!ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xi1>
  // CHECK: ptensor.elementwise_binary floor_divide {{.*}} -> !ptensor.ptensor<4xi32>
  %r3 = ptensor.elementwise_binary floor_divide %a1, %a1 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32>
  // CHECK: ptensor.elementwise_binary bitwise_left_shift {{.*}} -> !ptensor.ptensor<4xi16>
  %r4 = ptensor.elementwise_binary bitwise_left_shift %a3, %a0 : (!ptensor.ptensor<4xui8>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi16>
  return
}

// ALWAYS_BOOL: tests and comparisons give i1.
// CHECK-LABEL: func.func @always_bool(
func.func @always_bool(%a0: !ptensor.ptensor<4xf32>, %a1: !ptensor.ptensor<4xi32>, %a2: !ptensor.ptensor<4xi1>, %a3: f32, %a4: !ptensor.ptensor<4xi8>, %a5: !ptensor.ptensor<4xf16>) {
  // CHECK: ptensor.elementwise_binary_test less {{.*}} -> !ptensor.ptensor<4xi1>
  %r0 = ptensor.elementwise_binary_test less %a0, %a1 : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi1>
  // CHECK: ptensor.elementwise_binary_test equal {{.*}} -> !ptensor.ptensor<4xi1>
  %r1 = ptensor.elementwise_binary_test equal %a2, %a2 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xi1>
  // CHECK: ptensor.elementwise_binary_test logical_and {{.*}} -> !ptensor.ptensor<4xi1>
  %r2 = ptensor.elementwise_binary_test logical_and %a3, %a4 : (f32, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi1>
  // CHECK: ptensor.elementwise_unary_test isnan {{.*}} -> !ptensor.ptensor<4xi1>
  %r3 = ptensor.elementwise_unary_test isnan %a5 : (!ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1>
  // CHECK: ptensor.elementwise_unary_test logical_not {{.*}} -> !ptensor.ptensor<4xi1>
  %r4 = ptensor.elementwise_unary_test logical_not %a1 : (!ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi1>
  return
}

// NO_OPMATH: where keeps the promoted dtype of x and y (no f32 opmath);
// with two scalars the defaults are bool, i64 and f32.
// CHECK-LABEL: func.func @where_no_opmath(
func.func @where_no_opmath(%a0: !ptensor.ptensor<4xi1>, %a1: !ptensor.ptensor<4xf16>, %a2: !ptensor.ptensor<4xi8>, %a3: !ptensor.ptensor<4xui8>, %a4: f64, %a5: f32, %a6: i64, %a7: index, %a8: i1) {
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xf16>
  %r0 = ptensor.where %a0, %a1, %a1 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf16>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xi16>
  %r1 = ptensor.where %a0, %a2, %a3 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi8>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi16>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xf16>
  %r2 = ptensor.where %a0, %a1, %a4 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf16>, f64) -> !ptensor.ptensor<4xf16>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xf32>
  %r3 = ptensor.where %a0, %a2, %a5 : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi8>, f32) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xf32>
  %r4 = ptensor.where %a0, %a6, %a4 : (!ptensor.ptensor<4xi1>, i64, f64) -> !ptensor.ptensor<4xf32>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xi64>
  %r5 = ptensor.where %a0, %a6, %a7 : (!ptensor.ptensor<4xi1>, i64, index) -> !ptensor.ptensor<4xi64>
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4xi1>
  %r6 = ptensor.where %a0, %a8, %a8 : (!ptensor.ptensor<4xi1>, i1, i1) -> !ptensor.ptensor<4xi1>
  return
}

// Static shapes broadcast right-aligned (NumPy).
// CHECK-LABEL: func.func @broadcast_static(
func.func @broadcast_static(%a0: !ptensor.ptensor<4x1xf32>, %a1: !ptensor.ptensor<5xf32>, %a2: !ptensor.ptensor<2x1x3xf32>, %a3: !ptensor.ptensor<3xf32>, %a4: !ptensor.ptensor<2x1x1xf32>, %a5: !ptensor.ptensor<1xf32>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4x5xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<2x4x3xf32>
  %r1 = ptensor.elementwise_binary add %a2, %a0 : (!ptensor.ptensor<2x1x3xf32>, !ptensor.ptensor<4x1xf32>) -> !ptensor.ptensor<2x4x3xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<2x1x3xf32>
  %r2 = ptensor.elementwise_binary add %a3, %a4 : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<2x1x1xf32>) -> !ptensor.ptensor<2x1x3xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<1xf32>
  %r3 = ptensor.elementwise_binary add %a5, %a5 : (!ptensor.ptensor<1xf32>, !ptensor.ptensor<1xf32>) -> !ptensor.ptensor<1xf32>
  return
}

// A dynamic dim against N gives N (checked at run time); against 1 stays dynamic.
// CHECK-LABEL: func.func @broadcast_dynamic_static(
func.func @broadcast_dynamic_static(%a0: !ptensor.ptensor<?xf32>, %a1: !ptensor.ptensor<5xf32>, %a2: !ptensor.ptensor<?x1xf32>, %a3: !ptensor.ptensor<1x5xf32>, %a4: !ptensor.ptensor<1xf32>, %a5: !ptensor.ptensor<3x?xf32>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<5xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<5xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<?x5xf32>
  %r1 = ptensor.elementwise_binary add %a2, %a3 : (!ptensor.ptensor<?x1xf32>, !ptensor.ptensor<1x5xf32>) -> !ptensor.ptensor<?x5xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<?xf32>
  %r2 = ptensor.elementwise_binary add %a0, %a4 : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<1xf32>) -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<3x?xf32>
  %r3 = ptensor.elementwise_binary add %a5, %a0 : (!ptensor.ptensor<3x?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<3x?xf32>
  return
}

// Dynamic against dynamic gives dynamic.
// CHECK-LABEL: func.func @broadcast_dynamic_dynamic(
func.func @broadcast_dynamic_dynamic(%a0: !ptensor.ptensor<?xf32>, %a1: !ptensor.ptensor<?x?xf32>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<?xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a0 : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<?x?xf32>
  %r1 = ptensor.elementwise_binary add %a1, %a0 : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?x?xf32>
  return
}

// Rank 0 broadcasts against any shape.
// CHECK-LABEL: func.func @broadcast_rank0(
func.func @broadcast_rank0(%a0: !ptensor.ptensor<f32>, %a1: !ptensor.ptensor<4x?xf32>, %a2: !ptensor.ptensor<i32>, %a3: !ptensor.ptensor<f16>, %a4: f32) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4x?xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<f32>, !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4x?xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<f32>
  %r1 = ptensor.elementwise_binary add %a0, %a2 : (!ptensor.ptensor<f32>, !ptensor.ptensor<i32>) -> !ptensor.ptensor<f32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<f16>
  %r2 = ptensor.elementwise_binary add %a3, %a4 : (!ptensor.ptensor<f16>, f32) -> !ptensor.ptensor<f16>
  return
}

// Size-0 dims: 0 with 1 or ? gives 0.
// CHECK-LABEL: func.func @broadcast_size0(
func.func @broadcast_size0(%a0: !ptensor.ptensor<0xf32>, %a1: !ptensor.ptensor<1xf32>, %a2: !ptensor.ptensor<0x4xf32>, %a3: !ptensor.ptensor<4xf32>, %a4: !ptensor.ptensor<?xf32>) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<0xf32>
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<0xf32>, !ptensor.ptensor<1xf32>) -> !ptensor.ptensor<0xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<0xf32>
  %r1 = ptensor.elementwise_binary add %a1, %a0 : (!ptensor.ptensor<1xf32>, !ptensor.ptensor<0xf32>) -> !ptensor.ptensor<0xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<0x4xf32>
  %r2 = ptensor.elementwise_binary add %a2, %a3 : (!ptensor.ptensor<0x4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<0x4xf32>
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<0xf32>
  %r3 = ptensor.elementwise_binary add %a0, %a4 : (!ptensor.ptensor<0xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<0xf32>
  return
}

// where broadcasts all three operands.
// CHECK-LABEL: func.func @broadcast_where(
func.func @broadcast_where(%a0: !ptensor.ptensor<4x1x1xi1>, %a1: !ptensor.ptensor<5x1xf32>, %a2: !ptensor.ptensor<6xf32>) {
  // CHECK: ptensor.where {{.*}} -> !ptensor.ptensor<4x5x6xf32>
  %r0 = ptensor.where %a0, %a1, %a2 : (!ptensor.ptensor<4x1x1xi1>, !ptensor.ptensor<5x1xf32>, !ptensor.ptensor<6xf32>) -> !ptensor.ptensor<4x5x6xf32>
  return
}

// Device and team of the operands are kept.
// CHECK-LABEL: func.func @placement_kept(
func.func @placement_kept(%a0: !ptensor.ptensor<4x1xf16, device = "cuda:0">, %a1: !ptensor.ptensor<5xi32, device = "cuda:0">, %a2: !ptensor.ptensor<?xi8, team = 1>, %a3: f64) {
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<4x5xf16, device = "cuda:0">
  %r0 = ptensor.elementwise_binary add %a0, %a1 : (!ptensor.ptensor<4x1xf16, device = "cuda:0">, !ptensor.ptensor<5xi32, device = "cuda:0">) -> !ptensor.ptensor<4x5xf16, device = "cuda:0">
  // CHECK: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<?xf32, team = 1>
  %r1 = ptensor.elementwise_binary add %a2, %a3 : (!ptensor.ptensor<?xi8, team = 1>, f64) -> !ptensor.ptensor<?xf32, team = 1>
  return
}

// pointwise applies each output's method to the promotion of all inputs.
// CHECK-LABEL: func.func @pointwise_methods(
// CHECK: -> (!ptensor.ptensor<4x3xi8>, !ptensor.ptensor<4x3xi8>, !ptensor.ptensor<4x3xf32>, !ptensor.ptensor<4x3xi1>, !ptensor.ptensor<4x3xi8>)
// CHECK: -> (!ptensor.ptensor<3xi64>, !ptensor.ptensor<3xi1>, !ptensor.ptensor<3xf32>)
// CHECK: -> (!ptensor.ptensor<3xf16>, !ptensor.ptensor<3xf16>)
// CHECK: -> (!ptensor.ptensor<3xf16>, !ptensor.ptensor<3xi1>)
// CHECK: -> !ptensor.ptensor<3xf16>
func.func @pointwise_methods(%a: !ptensor.ptensor<4x1xi8>, %b: !ptensor.ptensor<3xi1>, %c: !ptensor.ptensor<3xf16>, %s: f64,
                             %d: !ptensor.ptensor<3xui64>, %e: !ptensor.ptensor<3xi8>) {
  %0:5 = ptensor.pointwise (%a, %b) promotion [DEFAULT, NO_OPMATH, INT_TO_FLOAT, ALWAYS_BOOL, BOOL_TO_LONG]
      : (!ptensor.ptensor<4x1xi8>, !ptensor.ptensor<3xi1>)
      -> (!ptensor.ptensor<4x3xi8>, !ptensor.ptensor<4x3xi8>, !ptensor.ptensor<4x3xf32>, !ptensor.ptensor<4x3xi1>, !ptensor.ptensor<4x3xi8>) {
  ^bb0(%x: i8, %y: i1):
    %f = arith.sitofp %x : i8 to f32
    ptensor.yield %x, %x, %f, %y, %x : i8, i8, f32, i1, i8
  }
  %1:3 = ptensor.pointwise (%b) promotion [BOOL_TO_LONG, DEFAULT, INT_TO_FLOAT]
      : (!ptensor.ptensor<3xi1>)
      -> (!ptensor.ptensor<3xi64>, !ptensor.ptensor<3xi1>, !ptensor.ptensor<3xf32>) {
  ^bb0(%y: i1):
    %i = arith.extui %y : i1 to i64
    %f = arith.uitofp %y : i1 to f32
    ptensor.yield %i, %y, %f : i64, i1, f32
  }
  %2:2 = ptensor.pointwise (%c, %s) promotion [NO_OPMATH, BOOL_TO_LONG]
      : (!ptensor.ptensor<3xf16>, f64) -> (!ptensor.ptensor<3xf16>, !ptensor.ptensor<3xf16>) {
  ^bb0(%h: f16, %z: f64):
    ptensor.yield %h, %h : f16, f16
  }
  %3:2 = ptensor.pointwise (%d, %e, %c) promotion [DEFAULT, ALWAYS_BOOL]
      : (!ptensor.ptensor<3xui64>, !ptensor.ptensor<3xi8>, !ptensor.ptensor<3xf16>)
      -> (!ptensor.ptensor<3xf16>, !ptensor.ptensor<3xi1>) {
  ^bb0(%x: i64, %y: i8, %h: f16):
    %t = arith.constant true
    ptensor.yield %h, %t : f16, i1
  }
  %4 = ptensor.pointwise (%c, %e, %d) promotion [INT_TO_FLOAT]
      : (!ptensor.ptensor<3xf16>, !ptensor.ptensor<3xi8>, !ptensor.ptensor<3xui64>)
      -> (!ptensor.ptensor<3xf16>) {
  ^bb0(%h: f16, %y: i8, %x: i64):
    ptensor.yield %h : f16
  }
  return
}

// Scalar ops of a pointwise body: the result has the operand's type (i1 for
// the tests); `as` gives the semantic dtype of signless operands.
// CHECK-LABEL: func.func @scalar_ops(
// CHECK:         ptensor.scalar_unary exp %{{.*}} : f32
// CHECK:         ptensor.scalar_unary_test isnan %{{.*}} : f32
// CHECK:         ptensor.scalar_binary hypot %{{.*}}, %{{.*}} : f32
// CHECK:         ptensor.scalar_binary floor_divide %{{.*}}, %{{.*}} as ui8 : i8
// CHECK:         ptensor.scalar_binary_test less %{{.*}}, %{{.*}} as ui8 : i8
// CHECK:         ptensor.scalar_cast %{{.*}} as ui8 to f32 : i8
// CHECK:         ptensor.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, i1, i8
func.func @scalar_ops(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xui8>)
    -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>, !ptensor.ptensor<?xf32>) {
  %0:3 = ptensor.pointwise (%a, %b) promotion [DEFAULT, ALWAYS_BOOL, NO_OPMATH]
      : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xui8>)
      -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>, !ptensor.ptensor<?xf32>) {
  ^bb0(%x: f32, %i: i8):
    %e = ptensor.scalar_unary exp %x : f32
    %n = ptensor.scalar_unary_test isnan %e : f32
    %h = ptensor.scalar_binary hypot %x, %e : f32
    %q = ptensor.scalar_binary floor_divide %i, %i as ui8 : i8
    %l = ptensor.scalar_binary_test less %q, %i as ui8 : i8
    %f = ptensor.scalar_cast %q as ui8 to f32 : i8
    %s = arith.addf %h, %f : f32
    %m = arith.andi %n, %l : i1
    ptensor.yield %s, %m, %q : f32, i1, i8
  }
  return %0#0, %0#1, %0#2 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>, !ptensor.ptensor<?xf32>
}
