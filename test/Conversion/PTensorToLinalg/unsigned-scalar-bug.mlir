// XFAIL: *
// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-promote-types | FileCheck %s --check-prefix=PROMOTE

// BUG: builtin scalar operands of an unsigned type (ui8 ... ui64) are
// accepted by the verifiers (PTensor_Scalar includes AnyUnsignedInteger,
// and test/Dialect/PTensor/ops.mlir uses `ui16` scalars) but both
// ptensor-promote-types and convert-ptensor-to-linalg feed them directly to
// arith ops, which take signless integers only, so the passes fail with
// e.g.
//   error: 'arith.trunci' op operand #0 must be signless-fixed-width-integer-like, but got 'ui16'
//   error: 'arith.uitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'ui16'
//   error: 'arith.addi' op operand #1 must be signless-integer-like, but got 'ui16'
//   error: 'linalg.fill' op expected fill value type ('ui16') to match output element type ('i16')
//   error: 'arith.subi' op operand #0 must be signless-integer-like, but got 'ui8'   (arange)
// Expected: unsigned scalars are reinterpreted as signless (same bits,
// unsigned semantics kept: extui/uitofp) before any arith op.

// CHECK-LABEL: func.func @ui8_tensor_ui16_scalar(
// CHECK:         linalg.generic
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i8
// PROMOTE-LABEL: func.func @ui8_tensor_ui16_scalar(
// PROMOTE:         ptensor.elementwise_binary add
func.func @ui8_tensor_ui16_scalar(%a: !ptensor.ptensor<4xui8>, %s: ui16) -> !ptensor.ptensor<4xui8> {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<4xui8>, ui16) -> !ptensor.ptensor<4xui8>
  return %0 : !ptensor.ptensor<4xui8>
}

// -----

// CHECK-LABEL: func.func @f32_tensor_ui16_scalar(
// CHECK:         arith.uitofp %{{.*}} : i16 to f32
// PROMOTE-LABEL: func.func @f32_tensor_ui16_scalar(
// PROMOTE:         arith.uitofp %{{.*}} : i16 to f32
func.func @f32_tensor_ui16_scalar(%a: !ptensor.ptensor<4xf32>, %s: ui16) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.elementwise_binary multiply %a, %s : (!ptensor.ptensor<4xf32>, ui16) -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @same_unsigned_dtype(
// CHECK:         arith.addi %{{.*}}, %{{.*}} : i16
// PROMOTE-LABEL: func.func @same_unsigned_dtype(
func.func @same_unsigned_dtype(%a: !ptensor.ptensor<4xui16>, %s: ui16) -> !ptensor.ptensor<4xui16> {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<4xui16>, ui16) -> !ptensor.ptensor<4xui16>
  return %0 : !ptensor.ptensor<4xui16>
}

// -----

// CHECK-LABEL: func.func @create_fill_unsigned(
// CHECK:         linalg.fill ins(%{{.*}} : i16) outs(%{{.*}} : tensor<4xi16>)
// PROMOTE-LABEL: func.func @create_fill_unsigned(
func.func @create_fill_unsigned(%s: ui16) -> !ptensor.ptensor<4xui16> {
  %0 = ptensor.create () fill %s : ui16 -> !ptensor.ptensor<4xui16>
  return %0 : !ptensor.ptensor<4xui16>
}

// -----

// CHECK-LABEL: func.func @arange_unsigned(
// CHECK:         linalg.generic
// CHECK:           linalg.index 0
// PROMOTE-LABEL: func.func @arange_unsigned(
func.func @arange_unsigned(%a: ui8, %b: ui8, %s: ui8) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.arange %a, %b, %s : ui8 -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}
