// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-promote-types | FileCheck %s --check-prefix=PROMOTE

// Builtin scalar operands of an unsigned type (ui8 ... ui64) are
// reinterpreted as their signless storage type (same bits) with
// builtin.unrealized_conversion_cast before any arith op uses them; their
// unsigned meaning is kept by the conversions (extui, uitofp) and by
// arange's length (unsigned compare and division).

// CHECK-LABEL: func.func @ui8_tensor_ui16_scalar(
// CHECK-SAME:      %[[S:[a-z0-9_]+]]: ui16)
// CHECK:         %[[C:.*]] = builtin.unrealized_conversion_cast %[[S]] : ui16 to i16
// CHECK:         linalg.generic
// CHECK:           %[[T:.*]] = arith.trunci %[[C]] : i16 to i8
// CHECK:           arith.addi %{{.*}}, %[[T]] : i8
// PROMOTE-LABEL: func.func @ui8_tensor_ui16_scalar(
// PROMOTE-SAME:    %[[S:[a-z0-9_]+]]: ui16)
// PROMOTE:         %[[C:.*]] = builtin.unrealized_conversion_cast %[[S]] : ui16 to i16
// PROMOTE:         %[[T:.*]] = arith.trunci %[[C]] : i16 to i8
// PROMOTE:         ptensor.elementwise_binary add %{{.*}}, %[[T]] : (!ptensor.ptensor<4xui8>, i8)
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
// CHECK:         %[[C:.*]] = builtin.unrealized_conversion_cast %{{.*}} : ui16 to i16
// CHECK:         linalg.fill ins(%[[C]] : i16) outs(%{{.*}} : tensor<4xi16>)
// PROMOTE-LABEL: func.func @create_fill_unsigned(
func.func @create_fill_unsigned(%s: ui16) -> !ptensor.ptensor<4xui16> {
  %0 = ptensor.create () fill %s : ui16 -> !ptensor.ptensor<4xui16>
  return %0 : !ptensor.ptensor<4xui16>
}

// -----

// CHECK-LABEL: func.func @arange_unsigned(
// CHECK-SAME:      %[[A:[a-z0-9_]+]]: ui8, %[[B:[a-z0-9_]+]]: ui8, %[[S:[a-z0-9_]+]]: ui8)
// CHECK-DAG:     %[[START:.*]] = builtin.unrealized_conversion_cast %[[A]] : ui8 to i8
// CHECK-DAG:     %[[STOP:.*]] = builtin.unrealized_conversion_cast %[[B]] : ui8 to i8
// CHECK-DAG:     %[[STEP:.*]] = builtin.unrealized_conversion_cast %[[S]] : ui8 to i8
// CHECK:         %[[DIFF:.*]] = arith.subi %[[STOP]], %[[START]] : i8
// CHECK:         %[[N:.*]] = arith.ceildivui %[[DIFF]], %[[STEP]] : i8
// CHECK:         %[[EMPTY:.*]] = arith.cmpi ule, %[[STOP]], %[[START]] : i8
// CHECK:         %[[LEN:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[N]] : i8
// CHECK:         arith.extui %[[LEN]] : i8 to i64
// CHECK:         linalg.generic
// CHECK:           linalg.index 0
// CHECK:           arith.muli %{{.*}}, %[[STEP]] : i8
// CHECK:           arith.addi %[[START]], %{{.*}} : i8
// CHECK:           arith.extui %{{.*}} : i8 to i64
// PROMOTE-LABEL: func.func @arange_unsigned(
func.func @arange_unsigned(%a: ui8, %b: ui8, %s: ui8) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.arange %a, %b, %s : ui8 -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}
